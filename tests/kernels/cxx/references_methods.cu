// expect: verified
// --blockDim=64 --gridDim=4
// References to array elements and to locals, a struct with an array member and a member
// function using `this`, and a conditional operator as an lvalue.
struct Window {
  int base;
  int width[2];
  __device__ int at(int k) const { return this->base + k * width[0]; }
};

__device__ void bump(int &slot, const int &by) { slot += by; }

__global__ void scale(int *data, int *spare, int n) {
  Window w;
  w.base = blockIdx.x * blockDim.x;
  w.width[0] = 1;
  w.width[1] = 0;
  int &mine = data[w.at(threadIdx.x)];
  int step = n;
  bump(mine, step);
  (n > 0 ? data : spare)[w.at(threadIdx.x)] = mine;
}
