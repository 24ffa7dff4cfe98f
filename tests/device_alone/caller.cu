// CUDA C calling kjit's device functions compiled alone (funcs.py): the
// C ABI of Numba's abi='c' -- scalars in and out, extern "C" names.
extern "C" __device__ double wave(double x, bool neg);
extern "C" __device__ float axpy(float a, float x, float y);
extern "C" __global__ void call_them(double *d, float *f) {
  d[0] = wave(0.5, true);
  d[1] = wave(2.0, false);
  f[0] = axpy(2.0f, 3.0f, 0.5f);
}
