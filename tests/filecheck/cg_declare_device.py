# ARGS: ptx %s:k --sig "void(float32[::1], int8)" --arch sm_80 --emit llvm
# A declared CUDA C function is called with Numba's ABI: an i32 status,
# the result through a pointer to a local slot first, small ints extended;
# with abi='c' the value is returned.
# CHECK: call i32 @mul_f32(ptr {{.*}}, float {{.*}}, float {{.*}})
# CHECK: call i32 @add_i8(ptr {{.*}}, i8 signext {{.*}})
# CHECK: call {{.*}}i16 @twice_c(i16 signext {{.*}})
# CHECK: declare i32 @mul_f32(ptr, float, float)
# CHECK: declare i32 @add_i8(ptr, i8 signext)
# CHECK: declare signext i16 @twice_c(i16 signext)
from numba import cuda

mul = cuda.declare_device('mul_f32', 'float32(float32, float32)')
add = cuda.declare_device('add_i8', 'int8(int8)')
twice = cuda.declare_device('twice_c', 'int16(int16)', abi='c')  # a plain C function


@cuda.jit(link=['../gpu/link/functions.cu'])
def k(x, n):
    i = cuda.grid(1)
    if i < x.size:
        x[i] = mul(x[i], 2) + add(n) + twice(n)
