# ARGS: check %s
# The package is found, its submodule is not: an error at the import.
from numba import cuda
import errmods.nosuch
from .errmods.missing import f
