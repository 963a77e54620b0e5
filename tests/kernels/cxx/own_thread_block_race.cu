// expect: race on a
// --blockDim=32 --gridDim=1
// A class of the kernel's own namespace named like cooperative groups' `thread_block`: its
// `sync()` does nothing, so it is no barrier, and the read of the neighbour's element races
// with the neighbour's write (gpug once took any `NS::thread_block` for the real one).
namespace mylib {
struct thread_block {
  int id;
  __device__ void sync() const {}
};
} // namespace mylib

__device__ int exchange(const mylib::thread_block &b, int *a) {
  a[threadIdx.x] = b.id;
  b.sync();
  return a[(threadIdx.x + 1) % blockDim.x];
}

__global__ void shift(int *a, int *out) {
  mylib::thread_block b;
  b.id = 1;
  out[threadIdx.x] = exchange(b, a);
}
