// bank: conflict-free until the last loop iteration, then 2-way
// --blockDim=32 --gridDim=1
// A loop whose last pass reads every other word: only iteration 3 conflicts.
__global__ void late_conflict(int *out) {
    __shared__ int buf[64];
    unsigned tid = threadIdx.x;
    int acc = 0;
    for (unsigned i = 0; i < 4; i++) {
        unsigned stride = i < 3 ? 1 : 2;
        acc += buf[tid * stride];
    }
    out[tid] = acc;
}
