"""Kernels at real sizes: a 90-character name with 41 array parameters and
a 16-character name with 17 (their mangled symbols are ~380 and ~135
characters, longer than any fixed buffer would hold), run whole."""
from numba import cuda

# RUN: process_every_channel_of_the_multispectral_sensor_stack_and_accumulate_into_one_output_xyy --grid 1 --block 8 a0=full:float32:8:1 a1=full:float32:8:2 a2=full:float32:8:3 a3=full:float32:8:4 a4=full:float32:8:5 a5=full:float32:8:6 a6=full:float32:8:7 a7=full:float32:8:8 a8=full:float32:8:9 a9=full:float32:8:10 a10=full:float32:8:11 a11=full:float32:8:12 a12=full:float32:8:13 a13=full:float32:8:14 a14=full:float32:8:15 a15=full:float32:8:16 a16=full:float32:8:17 a17=full:float32:8:18 a18=full:float32:8:19 a19=full:float32:8:20 a20=full:float32:8:21 a21=full:float32:8:22 a22=full:float32:8:23 a23=full:float32:8:24 a24=full:float32:8:25 a25=full:float32:8:26 a26=full:float32:8:27 a27=full:float32:8:28 a28=full:float32:8:29 a29=full:float32:8:30 a30=full:float32:8:31 a31=full:float32:8:32 a32=full:float32:8:33 a33=full:float32:8:34 a34=full:float32:8:35 a35=full:float32:8:36 a36=full:float32:8:37 a37=full:float32:8:38 a38=full:float32:8:39 a39=full:float32:8:40 out=zeros:float32:8
# EXPECT: out: float32[8] [820, 821, 822, ..., 827] sum=6588 crc=b231e571
#   (computed in Python from: [sum(range(1, 41)) + i for i in range(8)])
# RUN: gather_seventeen --grid 1 --block 8 b0=full:int32:8:0 b1=full:int32:8:1 b2=full:int32:8:2 b3=full:int32:8:3 b4=full:int32:8:4 b5=full:int32:8:5 b6=full:int32:8:6 b7=full:int32:8:7 b8=full:int32:8:8 b9=full:int32:8:9 b10=full:int32:8:10 b11=full:int32:8:11 b12=full:int32:8:12 b13=full:int32:8:13 b14=full:int32:8:14 b15=full:int32:8:15 dst=zeros:int32:8
# EXPECT: dst: int32[8] [0, 120, 240, ..., 840] sum=3360 crc=a8e7270c
#   (computed in Python from: [sum(range(16)) * i for i in range(8)])


@cuda.jit
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


@cuda.jit
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
