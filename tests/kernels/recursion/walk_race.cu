// expect: race
// --blockDim=64 --gridDim=1
// A recursive walk: each call writes one element and recurses on the next, so thread t
// writes a[2t], a[2t+1], a[2t+2], … and meets thread t+1 at a[2t+2] in its third call, within
// the depth gpug follows: a race in a real execution, reported though deeper calls are cut.
__device__ void walk(int *a, int i, int d) {
    a[i] = d;
    if (d > 0) {
        walk(a, i + 1, d - 1);
    }
}

__global__ void k(int *a, int depth) {
    walk(a, 2 * threadIdx.x, depth);
}
