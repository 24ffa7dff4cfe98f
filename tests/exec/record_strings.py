"""Records with string fields (NumPy 'U<n>' and 'S<n>'), as Numba has them:
a str constant stored into a unicode field and a bytes constant into a
bytes field copy min(len, n) characters and zero the rest (Numba's casts
unicode -> UnicodeCharSeq and Bytes -> CharSeq); a record copy carries
the strings with it.  `kjit run` prints a string field as its characters'
codes: uint32 per character for 'U', uint8 for 'S'."""
import numpy as np
from numba import cuda

text = np.dtype([('x', np.int32), ('y', np.dtype('U12'))])
raw = np.dtype([('x', np.float32), ('y', np.dtype('S4'))])

# RUN: unicode --grid 1 --block 1 "a=zeros:[('x', 'i4'), ('y', 'U12')]:3"
# EXPECT: a.x: int32[3] [1, 2, 0] sum=3 crc=a2558d7d
#   (computed in Python from: [1, 2, 0])
# EXPECT: a.y: uint32[3x12] [65, 66, 67, ..., 108] sum=138804 crc=72a8a074
#   (computed in Python from: [ord(c) for s in ('ABC', 'XYZ\u00e9\u20ac\U0001F600', 'abcdefghijkl') for c in s.ljust(12, '\0')])


@cuda.jit
def unicode(a):
    a[0]["x"] = 1
    a[0]["y"] = "ABC"
    a[1]["x"] = 2
    a[1].y = "XYZ\u00e9\u20ac\U0001F600"
    a[2]["y"] = "abcdefghijklmnop"  # 16 characters into 12: cut to 12

# RUN: raw_bytes --grid 1 --block 1 "a=zeros:[('x', 'f4'), ('y', 'S4')]:3"
# EXPECT: a.x: float32[3] [1, 2, 0] sum=3 crc=34ab9824
#   (computed in Python from: [1.0, 2.0, 0.0])
# EXPECT: a.y: uint8[3x4] [65, 66, 67, ..., 115] sum=830 crc=ea657b96
#   (computed in Python from: [65, 66, 67, 0, 88, 0, 90, 0, 112, 113, 114, 115])


@cuda.jit
def raw_bytes(a):
    a[0]["x"] = 1
    a[0]["y"] = b"ABC"
    a[1]["x"] = 2
    a[1].y = b"X\x00Z"
    a[2]["y"] = b"pqrstu"  # 6 bytes into 4: cut to 4

# RUN: overwrite --grid 1 --block 2 "a=zeros:[('x', 'i4'), ('y', 'U12')]:2"
# EXPECT: a.x: int32[2] [7, 7] sum=14 crc=f230eec9
#   (computed in Python from: [7, 7])
# EXPECT: a.y: uint32[2x12] [104, 105, 0, ..., 0] sum=418 crc=c146e4cf
#   (computed in Python from: [ord(c) for s in ('hi', 'hi') for c in s.ljust(12, '\0')])


@cuda.jit
def overwrite(a):
    i = cuda.grid(1)
    if i < a.size:
        a[i]["y"] = "a longer text"  # then a shorter one: the tail is zeroed
        a[i]["y"] = "hi"
        a[i].x = 7

# RUN: copy --grid 1 --block 1 "a=zeros:{'names': ['x', 'y'], 'formats': ['i4', 'U4'], 'offsets': [0, 4], 'itemsize': 20, 'aligned': True}:3"
# EXPECT: a.x: int32[3] [5, 0, 5] sum=10 crc=d4a8414d
#   (computed in Python from: [5, 0, 5])
# EXPECT: a.y: uint32[3x4] [119, 120, 121, ..., 122] sum=964 crc=99fa4383
#   (computed in Python from: [ord(c) for s in ('wxyz', '', 'wxyz') for c in s.ljust(4, '\0')])


@cuda.jit
def copy(a):
    a[0].x = 5
    a[0].y = "wxyz"
    a[2] = a[0]

# RUN: legacy --grid 1 --block 1 "a=zeros:{'names': ['name', 'tag', 'u'], 'formats': ['U4', 'S3', 'U2'], 'offsets': [0, 16, 20], 'itemsize': 28, 'aligned': True}:1"
# EXPECT: a.name: uint32[1x4] [97, 98, 99, 100] sum=394 crc=55db62d8
#   (computed in Python from: [ord(c) for c in 'abcd'])
# EXPECT: a.tag: uint8[1x3] [120, 121, 0] sum=241 crc=5b5e2245
#   (computed in Python from: [120, 121, 0])
# EXPECT: a.u: uint32[1x2] [113, 0] sum=113 crc=05d84e67
#   (computed in Python from: [ord('q'), 0])

# the layout of np.dtype([('name', np.str_, 4), ('tag', np.bytes_, 3), ('u', 'U', 2)], align=True)


@cuda.jit
def legacy(a):
    a[0].name = "abcdef"
    a[0].tag = b"xy"
    a[0].u = "q"
