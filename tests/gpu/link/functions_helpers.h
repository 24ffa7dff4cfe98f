// Included from functions.cu: checks that the .cu file's folder is on the
// include path.
static __device__ int clamp_i32(int v, int lo, int hi) {
  return v < lo ? lo : v > hi ? hi : v;
}
