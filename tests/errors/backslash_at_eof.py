"""A backslash continuing the last line of the file: a SyntaxError, as in
CPython."""
# ARGS: check %s
from numba import cuda

x = 1 + \
