# ARGS: check errors/type_float_index.py %s errors/cli_no_such_file.py
# `kjit check` of several files reports every file's errors (this file's,
# the other kernel file's, the missing file's) and exits 1; a clean file
# would print "FILE: ok" on stdout.
from numba import cuda


@cuda.jit
def k(a):
    a[0] = undefined_name
