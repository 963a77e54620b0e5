// An error inside a __device__ function is the kernel's: the file stays refused.
__device__ float twice(float x) { return 2.0f * x + undeclared_offset; }
__global__ void scale(float *out, const float *in) { out[threadIdx.x] = twice(in[threadIdx.x]); }
int main() { return 0; }
