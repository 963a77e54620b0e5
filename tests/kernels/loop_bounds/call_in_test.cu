// expect: verified
// --blockDim=32 --gridDim=8
// llm.c's fused_classifier_kernel4: the loop's test calls a helper, `i < ceil_div(V, 8)`, whose
// inlined statements give the same value in every iteration. Abstracted, they run once before
// the loop, so the test is a plain comparison with its trip bound: `i` stays in
// [0, ceil_div(V, 8)) and the rows of two blocks stay apart.
#define V 100
#define P 104
__device__ int ceil_div(int dividend, int divisor) {
    return (dividend + divisor - 1) / divisor;
}
__global__ void rows(int* out) {
    int row = blockIdx.x;
    for (int i = threadIdx.x; i < ceil_div(V, 8); i += blockDim.x) {
        out[row * P + i * 8] = i;
    }
}
