// For header_error.cu: line 3 does not compile.
__device__ float helper(float v) {
  return v * missing_scale;
}
