# ARGS: ptx %s:limits --sig "void(int32, int32, int64[::1])" --emit llvm --opt 0
# Which range() locals ir/narrow.c keeps in 32 bits ($t0/$t1: the first
# loop's counter and stop, $t2 its count of iterations (a step other than
# +-1 counts len(range()) on entry), $t3/$t4: the second loop's counter and stop).  range(m, n, 2) with int32
# bounds may step to n + 1 = 2**31 after its last value, so its counter stays
# int64; range(n, m, -1) ends at m >= -2**31, so it is kept in an i32 slot.
# Numba's variables i and j stay int64 either way.
# CHECK-DAG: %i = alloca i64
# CHECK-DAG: %j = alloca i64
# CHECK-DAG: %"$t0" = alloca i64
# CHECK-DAG: %"$t1" = alloca i64
# CHECK-DAG: %"$t2" = alloca i64
# CHECK-DAG: %"$t3" = alloca i32
# CHECK-DAG: %"$t4" = alloca i32
from numba import cuda


@cuda.jit
def limits(m, n, out):
    k = 0
    for i in range(m, n, 2):
        out[k] = i
        k += 1
    for j in range(n, m, -1):
        out[k] = j
        k += 1
