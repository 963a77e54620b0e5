// expect: verified
// --blockDim=32 --gridDim=4
// A test-and-set lock (atomicExch acquire) per bucket: the critical sections of one bucket's
// word are ordered, different buckets touch different counters.
__device__ int locks[8];

__global__ void buckets(int *count, const int *key) {
    unsigned b = key[blockIdx.x * blockDim.x + threadIdx.x] & 7;
    while (atomicExch(&locks[b], 1) != 0) {
    }
    __threadfence();
    count[b] = count[b] + 1;
    __threadfence();
    atomicExch(&locks[b], 0);
}
