// expect: race on total
// --blockDim=32 --gridDim=4
// The lock word is also cleared by a plain store at the start: not a lock gpug takes (a thread
// could clear it while another holds it), so the critical sections are unordered.
__device__ int lock;

__global__ void reset_then_lock(int *total) {
    if (threadIdx.x == 0 && blockIdx.x == 0) {
        atomicExch(&lock, 0);
    }
    while (atomicCAS(&lock, 0, 1) != 0) {
    }
    __threadfence();
    total[0] += 1;
    __threadfence();
    atomicExch(&lock, 0);
}
