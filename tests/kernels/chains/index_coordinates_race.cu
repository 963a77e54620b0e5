// As index_coordinates.cu, but each thread writes element v / 2 of its row: two threads race.
__global__ void coordinates(float* dlogits, const float* probs, int B, int T, int V) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < B * T * V) {
        int b = i / (T * V);
        int t = (i / V) % T;
        int v = i % V;
        float* dlogits_bt = dlogits + b * T * V + t * V;
        const float* probs_bt = probs + b * T * V + t * V;
        dlogits_bt[v / 2] += probs_bt[v];
    }
}
