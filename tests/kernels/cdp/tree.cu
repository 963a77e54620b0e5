// Dynamic parallelism: `scale` launches `child` from device code, once per block (thread 0).
// clang's device compilation refuses the launch; gpug reads the file as its host compilation
// sees it. `child` is verified for every launch; `scale` has no race of its own, but the race
// of a child grid with it is not checked: it is inconclusive, naming the launch. `racy`
// launches `child` too, and its own race (every thread writes flag[0]) is reported. `uid`
// launches itself (cuda-samples' cdpSimplePrint): its one race needs a launch with
// blockDim.y > 1, which the launch contract excludes, and it is still inconclusive, never
// verified.
#include <cuda_runtime.h>

__global__ void child(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = 2.0f * x[i];
}

__global__ void scale(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += 1.0f;
  if (threadIdx.x == 0) child<<<1, 32>>>(x + blockIdx.x * blockDim.x, 32);
}

__global__ void racy(float *x, int *flag) {
  flag[0] = threadIdx.x;
  if (threadIdx.x == 0) child<<<1, 32>>>(x, 32);
}

__device__ int counter;

__global__ void uid(int depth) {
  __shared__ int s;
  if (threadIdx.x == 0) s = atomicAdd(&counter, 1);
  __syncthreads();
  if (depth < 2 && threadIdx.x == 0) uid<<<gridDim.x, blockDim.x>>>(depth + s);
}

__global__ void release(float **bufs) {
  cudaFree(bufs[blockIdx.x * blockDim.x + threadIdx.x]);
}

// A launch into a stream of the device runtime (cuda-samples' cdpSimpleQuicksort): the
// stream's creation and release are read, the launch left unchecked as above.
__global__ void streamed(float *x) {
  if (threadIdx.x == 0) {
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    child<<<1, 32, 0, s>>>(x + 32 * blockIdx.x, 32);
    cudaStreamDestroy(s);
  }
}

int main() {
  float *x;
  int *flag;
  float **bufs;
  cudaMalloc(&x, 1024 * sizeof(float));
  cudaMalloc(&flag, sizeof(int));
  cudaMalloc(&bufs, 1024 * sizeof(float *));
  scale<<<32, 32>>>(x, 1024);
  racy<<<1, 64>>>(x, flag);
  release<<<4, 256>>>(bufs);
  uid<<<2, 64>>>(0);
  streamed<<<4, 32>>>(x);
  cudaDeviceSynchronize();
  return 0;
}
