// expect: race
// --blockDim=64 --gridDim=4
// The flag is raised by a plain store: not a flag gpug takes (nor a release in PTX's model),
// so the spin-wait orders nothing: the data races, and so does the flag (a plain store against
// the consumers' atomic reads).
__device__ int flag[64];

__global__ void plain_flag(int *data, int *out) {
    unsigned i = threadIdx.x;
    if (blockIdx.x == 0) {
        data[i] = 1;
        __threadfence();
        flag[i] = 1;
    } else {
        while (atomicAdd(&flag[i], 0) == 0) {
        }
        __threadfence();
        out[blockIdx.x * blockDim.x + i] = data[i];
    }
}
