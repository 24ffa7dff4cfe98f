"""@vectorize with a list of signatures: the first signature the inputs
match exactly, else the first they convert to safely (NumPy's rule); a
scalar argument broadcasts; odd sizes leave a tail after the vector groups;
an out array of another dtype receives the results converted."""
from numba import vectorize

# RUN: add a=arange:float32:1000 b=full:float32:1000:2
# EXPECT: out: float32[1000] [2, 3, 4, ..., 1001] sum=501500 crc=419fae67
#   (computed in Python from: [i + 2.0 for i in range(1000)])
# RUN: add arange:float64:1003 float64:0.5
# EXPECT: out: float64[1003] [0.5, 1.5, 2.5, ..., 1002.5] sum=503004.5 crc=267e8c4f
#   (computed in Python from: [i + 0.5 for i in range(1003)])
#   int32 does not convert safely to float32: the float64 signature is picked
# RUN: add arange:int32:10 arange:int16:10
# EXPECT: out: float64[10] [0, 2, 4, ..., 18] sum=90 crc=251c1c49
#   (computed in Python from: [2.0 * i for i in range(10)])
#   a Python float goes with a float32 array to the float32 signature
# RUN: add arange:float32:7 2.5
# EXPECT: out: float32[7] [2.5, 3.5, 4.5, ..., 8.5] sum=38.5 crc=4ffe73d4
#   (computed in Python from: [i + 2.5 for i in range(7)])
# RUN: add arange:float32:6 0.25 out=zeros:float64:6 -o out=%t/o.npy
# EXPECT: out: float64[6] [0.25, 1.25, 2.25, 3.25, 4.25, 5.25] sum=16.5 crc=74a79574
#   (computed in Python from: [i + 0.25 for i in range(6)])
# RUN: add %t/o.npy 1.0
# EXPECT: out: float64[6] [1.25, 2.25, 3.25, 4.25, 5.25, 6.25] sum=22.5 crc=c1a9a136
#   (computed in Python from: [i + 1.25 for i in range(6)])
# RUN: scale arange:uint8:37 uint8:3
# EXPECT: out: uint8[37] [0, 3, 6, ..., 108] sum=1998 crc=710b3c80
#   (computed in Python from: [(3 * i) % 256 for i in range(37)])


@vectorize(['float32(float32, float32)', 'float64(float64, float64)'], target='cuda')
def add(a, b):
    return a + b


@vectorize(["uint8(uint8, uint8)"], target="cpu")
def scale(x, k):
    return x * k
