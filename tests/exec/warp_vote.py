"""Votes with divergent lanes and partial masks: even lanes ballot over
0x55555555 and odd lanes over 0xaaaaaaaa; all/any/eq_sync; activemask
after lanes 40..47 of the block of 48 (second warp: 16 lanes) exited;
lanemask_lt."""
from numba import cuda, uint32

# RUN: votes --grid 1 --block 48 bal=zeros:uint32:48 vote=zeros:uint32:48 act=zeros:uint32:48 lt=zeros:uint32:48
# EXPECT: bal: uint32[48] [286331153, 2863267840, 286331153, ..., 0] sum=5.039361884e+10 crc=3b7fb0bb
#   (computed in Python from: [(0x11111111 if i % 2 == 0 else 0xaaaa0000) if i < 32 else (0x00001111 if i % 2 == 0 else 0) for i in range(48)])
# EXPECT: vote: uint32[48] [30, 30, 30, ..., 0] sum=1200 crc=03bf3365
#   (computed in Python from: [2 + 4 + 8 + 16 if i < 40 else 0 for i in range(48)])
# EXPECT: act: uint32[48] [4294967295, 4294967295, 4294967295, ..., 0] sum=1.374389555e+11 crc=517c656a
#   (computed in Python from: [(0xffffffff if i < 32 else 0xff) if i < 40 else 0 for i in range(48)])
# EXPECT: lt: uint32[48] [0, 1, 3, ..., 32767] sum=4295032782 crc=97ed5f36
#   (computed in Python from: [(1 << (i % 32)) - 1 for i in range(48)])


@cuda.jit
def votes(bal, vote, act, lt):
    i = cuda.threadIdx.x
    l = cuda.laneid
    lt[i] = cuda.lanemask_lt()
    if l % 2 == 0:
        bal[i] = cuda.ballot_sync(0x55555555, l % 4 == 0)
    else:
        bal[i] = cuda.ballot_sync(0xaaaaaaaa, l > 16)
    if i >= 40:
        return
    cuda.syncwarp()  # the lanes left reconverge (on the cpu: 40..47 have exited)
    m = cuda.activemask()
    act[i] = m
    r = uint32(0)
    if cuda.all_sync(m, 0):
        r |= 1
    if cuda.any_sync(m, l == 3):
        r |= 2
    if cuda.all_sync(m, i < 40):
        r |= 4
    if cuda.eq_sync(m, l > 100):
        r |= 8
    if cuda.eq_sync(m, i < 32):
        r |= 16
    vote[i] = r
