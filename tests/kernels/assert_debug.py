"""debug=True: asserts in a kernel and in a device function it calls; the
PTX branches to a vprintf of the AssertionError and a trap."""
from numba import cuda


@cuda.jit(device=True, debug=True)
def clamp01(v):
    assert v == v, "clamp01: NaN"
    return min(max(v, 0.0), 1.0)


@cuda.jit("void(float32[:, ::1], int32)", debug=True)
def assert_debug(img, n):
    x, y = cuda.grid(2)
    assert n > 0
    if x < img.shape[1] and y < img.shape[0]:
        img[y, x] = clamp01(img[y, x])
        assert img[y, x] <= 1.0, "clamped"
