"""An elementwise @vectorize function (docs/cli.md)."""
from numba import vectorize


@vectorize(["float32(float32, float32)", "float64(float64, float64)"], target="cuda")
def add(a, b):
    return a + b
