// expect: verified
// --blockDim=64 --gridDim=4
// expect: race
// --blockDim=64 --gridDim=4 -DNO_PUBLISH_FENCE
// expect: race
// --blockDim=64 --gridDim=4 -DBLOCK_FENCE
// expect: race
// --blockDim=64 --gridDim=4 -DNO_CONSUME_FENCE
#include <cuda.h>

// Message passing between blocks through flags (issue 22; PTX ISA, "Memory Consistency
// Model": a release pattern, a fence then a write of the flag, synchronises with an acquire
// pattern, a read that observes the flag then a fence). Thread i of block 0 writes its slot of
// `data`, fences, and raises flag[i]; thread i of every other block spins until it sees
// flag[i] raised, fences, and reads the slot. The flags are `__device__` words, 0 when the
// kernel starts (gpug says it assumes so) and each raised by one thread only (gpug checks it).
//
// Without the producer's fence (-DNO_PUBLISH_FENCE) the flag may become visible before the
// data; with __threadfence_block() (-DBLOCK_FENCE) it orders the writes only for the
// producer's own block; without the consumer's fence (-DNO_CONSUME_FENCE) the read may be
// performed before the flag is seen. All three race on `data`.
#if defined(NO_PUBLISH_FENCE)
#define PUBLISH_FENCE
#elif defined(BLOCK_FENCE)
#define PUBLISH_FENCE __threadfence_block()
#else
#define PUBLISH_FENCE __threadfence()
#endif
#ifdef NO_CONSUME_FENCE
#define CONSUME_FENCE
#else
#define CONSUME_FENCE __threadfence()
#endif

__device__ int flag[64];

__global__ void publish(int *data, int *out) {
    unsigned i = threadIdx.x;
    if (blockIdx.x == 0) {
        data[i] = 2 * i + 1;
        PUBLISH_FENCE;
        atomicExch(&flag[i], 1);
    } else {
        while (atomicAdd(&flag[i], 0) == 0) {
        }
        CONSUME_FENCE;
        out[blockIdx.x * blockDim.x + i] = data[i];
    }
}
