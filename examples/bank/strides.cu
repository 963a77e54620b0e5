// bank: stride 2 is 2-way, stride 3 conflict-free, stride 32 is 32-way
// --blockDim=64 --gridDim=2
// Word strides between consecutive lanes: an odd stride visits every bank once.
__global__ void strides(int *out) {
    __shared__ int buf[64 * 32];
    unsigned tid = threadIdx.x;
    int a = buf[2 * tid];
    int b = buf[3 * tid];
    int c = buf[32 * tid];
    out[blockIdx.x * blockDim.x + tid] = a + b + c;
}
