"""The kernels of several eager signatures that test Numba's dispatch rule
(exec/dispatch_scalars.py, exec/dispatch_arrays.py): every signature of
each, float16 to complex64 parameters included, assembled by ptxas."""

# ARGS: ptx exec/dispatch_scalars.py
# ARGS: ptx exec/dispatch_arrays.py
