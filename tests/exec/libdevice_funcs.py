"""cuda.libdevice: exact wrappers of libdevice's __nv_* functions, typed by
their declared signatures (operands converted to them, pointer parameters
returned in a tuple); unsigned functions take and return the bits as
signed ints.  The checks use values every implementation gives exactly."""
import math

from numba import cuda
from numba.cuda import libdevice

# RUN: ld_float --grid 1 --block 1 ok=zeros:int32:16
# EXPECT: ok: int32[16] [1, 1, 1, ..., 1] sum=16 crc=3c69a149
#   (computed in Python from: [1] * 16)


@cuda.jit
def ld_float(ok):
    ok[0] = libdevice.sin(0.0) == 0.0 and libdevice.cosf(0.0) == 1.0
    ok[1] = libdevice.sqrt(16.0) == 4.0 and libdevice.fma(2.0, 3.0, 4.0) == 10.0
    ok[2] = libdevice.hypot(3.0, 4.0) == 5.0 and libdevice.exp2(3.0) == 8.0
    s, c = libdevice.sincos(0.0)
    ok[3] = s == 0.0 and c == 1.0
    m, e = libdevice.frexp(8.0)
    ok[4] = m == 0.5 and e == 4
    f, i = libdevice.modf(3.25)
    ok[5] = f == 0.25 and i == 3.0
    r, q = libdevice.remquo(7.0, 2.0)
    ok[6] = r == -1.0 and (q & 7) == 4
    ok[7] = libdevice.ilogb(8.0) == 3 and libdevice.logb(8.0) == 3.0
    ok[8] = libdevice.nextafter(1.0, 2.0) == 1.0 + 2.0 ** -52
    ok[9] = libdevice.scalbn(1.0, 4) == 16.0 and libdevice.ldexpf(1.5, 2) == 6.0
    ok[10] = libdevice.isnand(math.nan) != 0 and libdevice.isinff(math.inf) != 0
    ok[11] = libdevice.signbitd(-0.0) != 0 and libdevice.signbitf(1.0) == 0
    ok[12] = libdevice.saturatef(1.5) == 1.0 and libdevice.saturatef(-0.5) == 0.0
    ok[13] = libdevice.fmax(1.0, math.nan) == 1.0 and libdevice.fminf(2.0, 3.0) == 2.0
    ok[14] = libdevice.powi(2.0, 10) == 1024.0 and libdevice.rint(2.5) == 2.0
    ok[15] = libdevice.fdim(5.0, 3.0) == 2.0 and libdevice.fdim(3.0, 5.0) == 0.0


# RUN: ld_rounding --grid 1 --block 1 ok=zeros:int32:12
# EXPECT: ok: int32[12] [1, 1, 1, ..., 1] sum=12 crc=8ad33d2a
#   (computed in Python from: [1] * 12)
@cuda.jit
def ld_rounding(ok):
    tiny = 1e-30
    ok[0] = libdevice.dadd_ru(1.0, tiny) == 1.0 + 2.0 ** -52
    ok[1] = libdevice.dadd_rd(1.0, tiny) == 1.0 and libdevice.dadd_rn(1.0, tiny) == 1.0
    ok[2] = libdevice.dadd_rz(1.0, -tiny) == 1.0 - 2.0 ** -53
    ok[3] = libdevice.fdiv_ru(1.0, 3.0) > libdevice.fdiv_rz(1.0, 3.0)
    ok[4] = libdevice.fdiv_rd(1.0, 3.0) == libdevice.fdiv_rz(1.0, 3.0)
    ok[5] = libdevice.double2int_rd(-1.5) == -2 and libdevice.double2int_ru(-1.5) == -1
    ok[6] = libdevice.double2int_rn(2.5) == 2 and libdevice.double2int_rz(-1.7) == -1
    ok[7] = libdevice.float2int_rn(1e10) == 2147483647 and libdevice.float2uint_rz(-1.0) == 0
    ok[8] = libdevice.int2float_rz(16777217) == 16777216.0
    ok[9] = libdevice.int2float_ru(16777217) == 16777218.0
    ok[10] = libdevice.double2ll_rd(-0.5) == -1 and libdevice.dsqrt_rn(4.0) == 2.0
    ok[11] = libdevice.dmul_ru(1.0 + 2.0 ** -52, 1.0 + 2.0 ** -52) == 1.0 + 3 * 2.0 ** -52


# RUN: ld_int --grid 1 --block 1 out=zeros:int64:24
# EXPECT: out: int64[24] [1072693248, 0, 1065353216, ..., 14] sum=4.60718242e+18 crc=b4ac541f
#   (computed in Python from: [1072693248, 0, 1065353216, 4607182418800017408, 15360, 5, 5, 3, -1, 1, -2147483648, 1430524160, 31, 63, 4, 0, 8, 64, -2, -1, 15, 2, -2, 14])
@cuda.jit
def ld_int(out):
    out[0] = libdevice.double2hiint(1.0)
    out[1] = libdevice.double2loint(1.0)
    out[2] = libdevice.float_as_int(1.0)
    out[3] = libdevice.double_as_longlong(1.0)
    out[4] = libdevice.float2half_rn(1.0)
    out[5] = libdevice.abs(-5)
    out[6] = libdevice.llabs(-5)
    out[7] = libdevice.max(3, -4)
    out[8] = libdevice.umax(-1, 1)          # 0xffffffff is the larger
    out[9] = libdevice.umin(-1, 1)
    out[10] = libdevice.brev(1)
    out[11] = libdevice.byte_perm(0x33221100, 0x77665544, 0x5410)
    out[12] = libdevice.clz(1)
    out[13] = libdevice.clzll(1)
    out[14] = libdevice.ffs(8)
    out[15] = libdevice.ffsll(0)
    out[16] = libdevice.popc(255)
    out[17] = libdevice.popcll(-1)
    out[18] = libdevice.hadd(-3, 0)
    out[19] = libdevice.rhadd(-3, 0)
    out[20] = libdevice.mul24(0x1000003, 5)  # the low 24 bits only
    out[21] = libdevice.mulhi(0x40000000, 8)
    out[22] = libdevice.umulhi(-1, -1)
    out[23] = libdevice.sad(1, 5, 10)
