# ARGS: ptx %s:k --sig "void(float32[::1], int64)" --emit kir
# assert is lowered whatever the options: `cbr assert.on` guards the check,
# which codegen takes only with debug on.  The message: a string literal as
# written, else the statement's source text (first line and " ..." when it
# goes on); a non-literal message is not lowered.
from numba import cuda


@cuda.jit
def k(a, n):
    i = cuda.grid(1)
    assert i < n, "i out of range"
    assert a[i] == a[i]
    assert n > 0, f"n = {n}"
    assert (i >= 0 and
            n < 1000)
