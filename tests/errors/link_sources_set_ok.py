# ARGS: ptx %s:kernel --sig "void(int32[::1], int32[::1])" --arch sm_80 --emit cubin -o /dev/null
# Not an error: two cuda.CUSource objects linked as a set (numba-cuda's _test_link_multiple_sources).
"""Two cuda.CUSource objects, one calling the other, linked as numba-cuda's
_test_link_multiple_sources links them: link= given a set built through an
alias (link_type = set; link_type([a, b])).  Run on the GPU by
tests/gpu/run_gpu_suite.sh (--target cuda); tests/errors/link_sources_set_ok.py
links it to a cubin without a GPU."""
from numba import cuda

times2_cu = cuda.CUSource("""
extern "C" __device__
int times2(int *out, int a)
{
  *out = a * 2;
  return 0;
}
""")

times4_cu = cuda.CUSource("""
extern "C" __device__
int times2(int *out, int a);

extern "C" __device__
int times4(int *out, int a)
{
  int tmp;
  times2(&tmp, a);
  *out = tmp * 2;
  return 0;
}
""")

link_type = set
link = link_type([times2_cu, times4_cu])
times4 = cuda.declare_device("times4", "int32(int32)", link=link)
times2 = cuda.declare_device("times2", "int32(int32)", link=tuple([times2_cu]))



@cuda.jit
def kernel(r, x):
    i = cuda.grid(1)
    if i < len(r):
        r[i] = times4(x[i]) + times2(x[i])
