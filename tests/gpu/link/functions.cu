// Device functions for link_mul.py, written for Numba's foreign-function
// ABI: extern "C", an int status (0), the result through the first pointer.
#include "functions_helpers.h"

extern "C" __device__ int mul_f32(float *ret, float a, float b) {
  *ret = a * b;
  return 0;
}

extern "C" __device__ int clamp_add_i32(int *ret, int a, int b) {
  *ret = clamp_i32(a + b, -100, 100);
  return 0;
}

// abi='c' in cuda.declare_device: a plain C function returning its value.
extern "C" __device__ double fma_f64(double a, double b, double c) {
  return a * b + c;
}
