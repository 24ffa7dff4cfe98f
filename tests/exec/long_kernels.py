"""Kernels at real sizes: a 90-character name with 41 array parameters and
a 16-character name with 17 (their mangled symbols are ~380 and ~135
characters, longer than any fixed buffer would hold), run whole; and a
kernel of 70 parameters (past the 64 that code generation once took)."""
from numba import cuda

# RUN: process_every_channel_of_the_multispectral_sensor_stack_and_accumulate_into_one_output_xyy --grid 1 --block 8 a0=full:float32:8:1 a1=full:float32:8:2 a2=full:float32:8:3 a3=full:float32:8:4 a4=full:float32:8:5 a5=full:float32:8:6 a6=full:float32:8:7 a7=full:float32:8:8 a8=full:float32:8:9 a9=full:float32:8:10 a10=full:float32:8:11 a11=full:float32:8:12 a12=full:float32:8:13 a13=full:float32:8:14 a14=full:float32:8:15 a15=full:float32:8:16 a16=full:float32:8:17 a17=full:float32:8:18 a18=full:float32:8:19 a19=full:float32:8:20 a20=full:float32:8:21 a21=full:float32:8:22 a22=full:float32:8:23 a23=full:float32:8:24 a24=full:float32:8:25 a25=full:float32:8:26 a26=full:float32:8:27 a27=full:float32:8:28 a28=full:float32:8:29 a29=full:float32:8:30 a30=full:float32:8:31 a31=full:float32:8:32 a32=full:float32:8:33 a33=full:float32:8:34 a34=full:float32:8:35 a35=full:float32:8:36 a36=full:float32:8:37 a37=full:float32:8:38 a38=full:float32:8:39 a39=full:float32:8:40 out=zeros:float32:8
# EXPECT: out: float32[8] [820, 821, 822, ..., 827] sum=6588 crc=b231e571
#   (computed in Python from: [sum(range(1, 41)) + i for i in range(8)])
# RUN: gather_seventeen --grid 1 --block 8 b0=full:int32:8:0 b1=full:int32:8:1 b2=full:int32:8:2 b3=full:int32:8:3 b4=full:int32:8:4 b5=full:int32:8:5 b6=full:int32:8:6 b7=full:int32:8:7 b8=full:int32:8:8 b9=full:int32:8:9 b10=full:int32:8:10 b11=full:int32:8:11 b12=full:int32:8:12 b13=full:int32:8:13 b14=full:int32:8:14 b15=full:int32:8:15 dst=zeros:int32:8
# EXPECT: dst: int32[8] [0, 120, 240, ..., 840] sum=3360 crc=a8e7270c
#   (computed in Python from: [sum(range(16)) * i for i in range(8)])
# RUN: wide --grid 1 --block 1 out=zeros:int64:2 s0=0 s1=1 s2=2 s3=3 s4=4 s5=5 s6=6 s7=7 s8=8 s9=9 s10=10 s11=11 s12=12 s13=13 s14=14 s15=15 s16=16 s17=17 s18=18 s19=19 s20=20 s21=21 s22=22 s23=23 s24=24 s25=25 s26=26 s27=27 s28=28 s29=29 s30=30 s31=31 s32=32 s33=33 s34=34 s35=35 s36=36 s37=37 s38=38 s39=39 s40=40 s41=41 s42=42 s43=43 s44=44 s45=45 s46=46 s47=47 s48=48 s49=49 s50=50 s51=51 s52=52 s53=53 s54=54 s55=55 s56=56 s57=57 s58=58 s59=59 s60=60 s61=61 s62=62 s63=63 s64=64 s65=65 s66=66 s67=67 s68=68
# EXPECT: out: int64[2] [2346, 69] sum=2415 crc=183851e2
#   (computed in Python from: [sum(range(69)), 69])


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


@cuda.jit
def wide(out, s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11, s12, s13, s14, s15,
         s16, s17, s18, s19, s20, s21, s22, s23, s24, s25, s26, s27, s28, s29, s30,
         s31, s32, s33, s34, s35, s36, s37, s38, s39, s40, s41, s42, s43, s44, s45,
         s46, s47, s48, s49, s50, s51, s52, s53, s54, s55, s56, s57, s58, s59, s60,
         s61, s62, s63, s64, s65, s66, s67, s68):
    t = 0
    t += s0
    t += s1
    t += s2
    t += s3
    t += s4
    t += s5
    t += s6
    t += s7
    t += s8
    t += s9
    t += s10
    t += s11
    t += s12
    t += s13
    t += s14
    t += s15
    t += s16
    t += s17
    t += s18
    t += s19
    t += s20
    t += s21
    t += s22
    t += s23
    t += s24
    t += s25
    t += s26
    t += s27
    t += s28
    t += s29
    t += s30
    t += s31
    t += s32
    t += s33
    t += s34
    t += s35
    t += s36
    t += s37
    t += s38
    t += s39
    t += s40
    t += s41
    t += s42
    t += s43
    t += s44
    t += s45
    t += s46
    t += s47
    t += s48
    t += s49
    t += s50
    t += s51
    t += s52
    t += s53
    t += s54
    t += s55
    t += s56
    t += s57
    t += s58
    t += s59
    t += s60
    t += s61
    t += s62
    t += s63
    t += s64
    t += s65
    t += s66
    t += s67
    t += s68
    out[0] = t
    out[1] = 69
