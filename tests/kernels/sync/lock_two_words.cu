// expect: race on total
// --blockDim=32 --gridDim=4
// Even and odd threads take different lock words around one counter: two critical sections of
// different words are not exclusive.
__device__ int locks[2];

__global__ void two_words(int *total) {
    unsigned w = threadIdx.x % 2;
    while (atomicCAS(&locks[w], 0, 1) != 0) {
    }
    __threadfence();
    total[0] += 1;
    __threadfence();
    atomicExch(&locks[w], 0);
}
