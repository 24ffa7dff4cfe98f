// A CUDA C file with a compile error on line 5 (for link_cu_error.py).
extern "C" __device__ int scale_f32(float *ret, float a)
{
  float twice = a * 2.0f;
  *ret = twice * undefined_factor;
  return 0;
}
