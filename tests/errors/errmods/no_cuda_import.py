"""Uses `cuda` without importing it (the kernel file imports it)."""
STEP = ONLY_IN_MAIN + 1


@cuda.jit(device=True)
def g(x):
    return x + 1
