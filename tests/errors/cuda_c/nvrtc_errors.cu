/* NVRTC's errors, each at its line and column of the .cu file.
# ARGS: check %s
 */
extern "C" __global__ void add(float *out, const float *a, int n)
{
    int i = threadIdx.x;
	if (i < n)
        out[i] = a[i] + undefined_bias;
    float q = "text";
}
