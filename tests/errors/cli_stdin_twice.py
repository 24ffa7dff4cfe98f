# ARGS: check - %s -
# Standard input can be read once.
from numba import cuda
