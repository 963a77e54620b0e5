// expect: race on total
// --blockDim=32 --gridDim=4
// The fence comes after the release: the next holder may see the lock free before it sees the
// update (no release pattern), so the updates race.
__device__ int lock;

__global__ void late_fence(int *total) {
    while (atomicCAS(&lock, 0, 1) != 0) {
    }
    __threadfence();
    total[0] += 1;
    atomicExch(&lock, 0);
    __threadfence();
}
