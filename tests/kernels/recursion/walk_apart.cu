// expect: inconclusive
// --blockDim=64 --gridDim=1
// walk_race.cu with each thread's walk 1024 elements apart: no race in the calls gpug follows,
// but a walk deeper than that (depth is the host's) is not followed, so the kernel is not
// verified: inconclusive, naming the recursion.
__device__ void walk(int *a, int i, int d) {
    a[i] = d;
    if (d > 0) {
        walk(a, i + 1, d - 1);
    }
}

__global__ void k(int *a, int depth) {
    walk(a, 1024 * threadIdx.x, depth);
}
