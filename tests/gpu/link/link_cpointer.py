"""A foreign device function declared with a raw pointer parameter
(types.CPointer in the signature string, as numba-cuda's test_ffi
sum_reduce declares it), called with a kernel's CPointer parameter: the
pointer is passed as it is (a float * in CUDA C).  Run on the GPU by
tests/gpu/run_gpu_suite.sh (--target cuda)."""
from numba import cuda, types, float32

sum_cu = cuda.CUSource("""
extern "C" __device__
int sum_reduce(float *ret, float *array, int n)
{
  float s = 0.0f;
  for (int i = 0; i < n; i++)
    s += array[i];
  *ret = s;
  return 0;
}
""")

sum_reduce = cuda.declare_device("sum_reduce", "float32(CPointer(float32), int32)", link=sum_cu)

# RUN: kernel --grid 1 --block 1 p=ptr:arange:float32:10 out=zeros:float32:1 n=10
# EXPECT: out: float32[1] [45] sum=45 crc=02bc0c57
#   (computed in Python from: [45.0])


@cuda.jit(types.void(types.CPointer(float32), float32[:], types.int32))
def kernel(p, out, n):
    out[0] = sum_reduce(p, n)
