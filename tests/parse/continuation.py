TPB = \
    16
SIZE = (TPB *
        2 +
    # a comment inside brackets
        1)

@cuda.jit(
    "void(float32[:],"
    " float32[:])",
)
def k(a,
      b):
    x = [1,
  2,
         3]
    y = {
        'k': (a[
            0]),
    }
    if a and \
       b:
        z = 1 + \
            2
    return
