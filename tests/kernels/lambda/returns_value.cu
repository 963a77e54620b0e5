// expect: verified
// --blockDim=64 --gridDim=4
// A lambda with a trailing return type and a switch, like cuda-samples' shfl_integral_image
// (`idxToElem`): the index it returns picks each thread's element.
struct quad { int x, y, z, w; };
__global__ void k(int *out) {
    quad q = {0, 1, 2, 3};
    auto pick = [&q](unsigned int idx) -> const int {
        switch (idx) {
        case 0: return q.x;
        case 1: return q.y;
        case 2: return q.z;
        case 3: return q.w;
        }
        return 0;
    };
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    out[4 * tid + pick(threadIdx.x % 4)] = 1;
}
