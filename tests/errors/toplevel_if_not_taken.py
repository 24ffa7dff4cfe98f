# ARGS: ptx %s:gone --sig "void(float32[:])"
# A kernel defined in the branch of a top-level `if` that is not taken does
# not exist, as in Python; `if __name__ == "__main__":` stays host code.
from numba import cuda

if not cuda.is_available():
    @cuda.jit
    def gone(a):
        a[0] = 1

if __name__ == "__main__":
    @cuda.jit
    def main_only(a):
        a[0] = 2
