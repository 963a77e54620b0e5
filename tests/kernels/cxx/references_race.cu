// expect: race on data
// --blockDim=64 --gridDim=4
// As references_methods.cu with the member function forgetting the block's base: threads of
// different blocks update one element through their references.
struct Window {
  int base;
  __device__ int at(int k) const { return k; }
};

__device__ void bump(int &slot, const int &by) { slot += by; }

__global__ void scale(int *data, int n) {
  Window w;
  w.base = blockIdx.x * blockDim.x;
  int &mine = data[w.at(threadIdx.x)];
  bump(mine, n);
}
