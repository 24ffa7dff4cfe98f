"""A package re-exporting four modules that each star-import the package."""
from errmods.starcyc.a import *
from errmods.starcyc.b import *
from errmods.starcyc.c import *
from errmods.starcyc.d import *
