"""match_any_sync groups lanes by value (lane // 4: groups of four lanes;
a float32 value, compared by its bits); match_all_sync on a uniform value
gives the mask and True, on differing values 0 and False (stored
as mask - ok and mask + 7 * ok)."""
from numba import cuda, int32, float32

# RUN: matches --grid 1 --block 32 grp=zeros:uint32:32 fgrp=zeros:uint32:32 all1=zeros:uint32:32 all2=zeros:uint32:32
# EXPECT: grp: uint32[32] [15, 15, 15, ..., 4026531840] sum=1.717986918e+10 crc=39fff19b
#   (computed in Python from: [0xf << (4 * (i // 4)) for i in range(32)])
# EXPECT: fgrp: uint32[32] [1431655765, 2863311530, 1431655765, ..., 2863311530] sum=6.871947672e+10 crc=c80e3ea9
#   (computed in Python from: [0x55555555 if i % 2 == 0 else 0xaaaaaaaa for i in range(32)])
# EXPECT: all1: uint32[32] [4294967294, 4294967294, 4294967294, ..., 4294967294] sum=1.374389534e+11 crc=eebc43f3
#   (computed in Python from: [0xffffffff - 1 for i in range(32)])
# EXPECT: all2: uint32[32] [0, 0, 0, ..., 0] sum=0 crc=c2a8fa9d
#   (computed in Python from: [0 for i in range(32)])


@cuda.jit
def matches(grp, fgrp, all1, all2):
    l = cuda.laneid
    grp[l] = cuda.match_any_sync(0xffffffff, int32(l // 4))
    fgrp[l] = cuda.match_any_sync(0xffffffff, float32(l % 2) * float32(0.5))
    m, ok = cuda.match_all_sync(0xffffffff, 42)
    all1[l] = m - ok
    m2, ok2 = cuda.match_all_sync(0xffffffff, l)
    all2[l] = m2 + 7 * ok2
