"""Kernels at real sizes with eager signatures: a 90-character name with 41
array parameters and a 16-character name with 17; the PTX entry carries the
whole mangled name (~380 and ~135 characters) and ptxas takes it."""
from numba import cuda


@cuda.jit("void("
          "float32[::1], float32[::1], float32[::1], float32[::1], float32[::1], "
          "float32[::1], float32[::1], float32[::1], float32[::1], float32[::1], "
          "float32[::1], float32[::1], float32[::1], float32[::1], float32[::1], "
          "float32[::1], float32[::1], float32[::1], float32[::1], float32[::1], "
          "float32[::1], float32[::1], float32[::1], float32[::1], float32[::1], "
          "float32[::1], float32[::1], float32[::1], float32[::1], float32[::1], "
          "float32[::1], float32[::1], float32[::1], float32[::1], float32[::1], "
          "float32[::1], float32[::1], float32[::1], float32[::1], float32[::1], "
          "float32[::1])")
def process_every_channel_of_the_multispectral_sensor_stack_and_accumulate_into_one_output_xyy(
        a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15,
        a16, a17, a18, a19, a20, a21, a22, a23, a24, a25, a26, a27, a28, a29,
        a30, a31, a32, a33, a34, a35, a36, a37, a38, a39, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = (a0[i] + a1[i] + a2[i] + a3[i] + a4[i] + a5[i] + a6[i] + a7[i] +
                  a8[i] + a9[i] + a10[i] + a11[i] + a12[i] + a13[i] + a14[i] +
                  a15[i] + a16[i] + a17[i] + a18[i] + a19[i] + a20[i] + a21[i] +
                  a22[i] + a23[i] + a24[i] + a25[i] + a26[i] + a27[i] + a28[i] +
                  a29[i] + a30[i] + a31[i] + a32[i] + a33[i] + a34[i] + a35[i] +
                  a36[i] + a37[i] + a38[i] + a39[i]) + i


@cuda.jit("void(int32[::1], int32[::1], int32[::1], int32[::1], int32[::1], int32[::1], "
          "int32[::1], int32[::1], int32[::1], int32[::1], int32[::1], int32[::1], "
          "int32[::1], int32[::1], int32[::1], int32[::1], int32[::1])")
def gather_seventeen(b0, b1, b2, b3, b4, b5, b6, b7, b8, b9, b10, b11, b12, b13, b14, b15,
                     dst):
    i = cuda.grid(1)
    if i < dst.size:
        s = 0
        s += b0[i]
        s += b1[i]
        s += b2[i]
        s += b3[i]
        s += b4[i]
        s += b5[i]
        s += b6[i]
        s += b7[i]
        s += b8[i]
        s += b9[i]
        s += b10[i]
        s += b11[i]
        s += b12[i]
        s += b13[i]
        s += b14[i]
        s += b15[i]
        dst[i] = s * i
