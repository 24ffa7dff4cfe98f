"""numba.cuda.random on the target: states from xoroshiro:N:SEED[:SUBSEQ]
(checked as created), then 6 values per generator of xoroshiro128p_next,
uniform_float32 and uniform_float64, drawn in that order.  Every expected
value is Numba's, read from tests/numba/xoroshiro_reference.txt (recorded on
a GPU): bit for bit on every target.  The index is an int32 in `draw` (any
integer type is accepted) and `import ... as rnd` is used for one call."""
from numba import cuda, int32
import numba.cuda.random as rnd
from numba.cuda.random import (xoroshiro128p_next, xoroshiro128p_uniform_float32,
                               xoroshiro128p_uniform_float64)

K = 6

# RUN: draw --grid 1 --block 32 states=xoroshiro:5:42:3 first=zeros:uint64:5x2 nxt=zeros:uint64:5x6 u32=zeros:float32:5x6 u64=zeros:float64:5x6
# EXPECT: first: uint64[5x2] [17249457156002458569, 895864088961879842, 10833148214898112945, ..., 4501384021356308625] sum=8.416576583e+19 crc=f389520e
#   (computed in Python from: [int(v[3:]) for l in open('tests/numba/xoroshiro_reference.txt') if l.startswith('state seed=42 sub=3 ') for v in l.split()[4:]])
# EXPECT: nxt: uint64[5x6] [18145321244964338411, 15318343902674382017, 11075858241960311134, ..., 10277373190886167660] sum=2.91635771e+20 crc=46876f90
#   (computed in Python from: [int(x) for l in open('tests/numba/xoroshiro_reference.txt') if l.startswith('next seed=42 sub=3 ') for x in l.split()[4:]])
# EXPECT: u32: float32[5x6] [0.628329, 0.566678, 0.795926, ..., 0.629743] sum=15.59471519 crc=3aef1cc9
#   (computed in Python from: [struct.unpack('>f', bytes.fromhex(x))[0] for l in open('tests/numba/xoroshiro_reference.txt') if l.startswith('uniform_float32 seed=42 sub=3 ') for x in l.split()[4:]])
# EXPECT: u64: float64[5x6] [0.108894, 0.776342, 0.686734, ..., 0.474109] sum=14.0396993 crc=6dd2b4e2
#   (computed in Python from: [struct.unpack('>d', bytes.fromhex(x))[0] for l in open('tests/numba/xoroshiro_reference.txt') if l.startswith('uniform_float64 seed=42 sub=3 ') for x in l.split()[4:]])
# RUN: draw --grid 1 --block 32 states=xoroshiro:5:4611686018427387909 first=zeros:uint64:5x2 nxt=zeros:uint64:5x6 u32=zeros:float32:5x6 u64=zeros:float64:5x6
# EXPECT: first: uint64[5x2] [3420215921455844838, 3420215921455844838, 17757823362066455654, ..., 14957979257414935741] sum=1.128240271e+20 crc=6600c0bd
#   (computed in Python from: [int(v[3:]) for l in open('tests/numba/xoroshiro_reference.txt') if l.startswith('state seed=4611686018427387909 sub=0 ') for v in l.split()[4:]])
# EXPECT: nxt: uint64[5x6] [6840431842911689676, 17516675460438081894, 13977992941314740840, ..., 9731428369434107064] sum=2.904189287e+20 crc=302dfbb7
#   (computed in Python from: [int(x) for l in open('tests/numba/xoroshiro_reference.txt') if l.startswith('next seed=4611686018427387909 sub=0 ') for x in l.split()[4:]])
# EXPECT: u32: float32[5x6] [0.226532, 0.632987, 0.125668, ..., 0.587831] sum=14.01348697 crc=f42c67a6
#   (computed in Python from: [struct.unpack('>f', bytes.fromhex(x))[0] for l in open('tests/numba/xoroshiro_reference.txt') if l.startswith('uniform_float32 seed=4611686018427387909 sub=0 ') for x in l.split()[4:]])
# EXPECT: u64: float64[5x6] [0.546404, 0.432349, 0.419773, ..., 0.697271] sum=15.70944186 crc=5838c848
#   (computed in Python from: [struct.unpack('>d', bytes.fromhex(x))[0] for l in open('tests/numba/xoroshiro_reference.txt') if l.startswith('uniform_float64 seed=4611686018427387909 sub=0 ') for x in l.split()[4:]])


@cuda.jit
def draw(states, first, nxt, u32, u64):
    i = cuda.grid(1)
    if i >= states.shape[0]:
        return
    first[i, 0] = states[i, 0]
    first[i, 1] = states[i, 1]
    j = int32(i)
    nxt[i, 0] = rnd.xoroshiro128p_next(states, j)
    for k in range(1, K):
        nxt[i, k] = xoroshiro128p_next(states, j)
    for k in range(K):
        u32[i, k] = xoroshiro128p_uniform_float32(states, i)
    for k in range(K):
        u64[i, k] = xoroshiro128p_uniform_float64(states, i)
