// llm.c's crossentropy_softmax_backward_kernel1 at the launch its main makes: a thread per
// element of a B x T x V tensor, whose coordinates are rebuilt from its linear index by three
// divisions by literals, b = i / (T*V), t = (i / V) % T, v = i % V. Two threads write the same
// element only if b*T*V + t*V + v is the same index again, which the division chain's lemma
// (i / V) / T = i / (T*V) proves (bit-blasting the three 32-bit divisions does not, in a minute).
__global__ void coordinates(float* dlogits, const float* probs, int B, int T, int V) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < B * T * V) {
        int b = i / (T * V);
        int t = (i / V) % T;
        int v = i % V;
        float* dlogits_bt = dlogits + b * T * V + t * V;
        const float* probs_bt = probs + b * T * V + t * V;
        dlogits_bt[v] += probs_bt[v];
    }
}
