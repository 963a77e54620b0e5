// expect: verified
// --blockDim=32 --gridDim=[8,12]
// llm.c's attention_forward_kernel2: a row loop whose leading `if (...) break;` is folded into
// its test (`i < TR && !(i * BR + tx >= N)`). Abstracted, the arbitrary iteration keeps the
// trip bound of `i < TR` (the previous iteration passed it in exact arithmetic), so `i` stays
// in [0, TR) and two blocks' rows stay apart.
#define N 100
#define TR 4
#define BR 32
__global__ void rows(float* l) {
    int tx = threadIdx.x;
    int lm_offset = (blockIdx.x * gridDim.y * N) + (blockIdx.y * N);
    for (int i = 0; i < TR; i++) {
        if (i * BR + tx >= N) {
            break;
        }
        float prev = l[lm_offset + (BR * i) + tx];
        l[lm_offset + (BR * i) + tx] = prev + 1.0f;
    }
}
