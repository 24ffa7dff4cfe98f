"""A package: its __init__ re-exports a function of a submodule."""
from .util import scale as pkg_scale

VERSION = 3
