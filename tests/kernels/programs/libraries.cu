// The library headers real programs include (cuBLAS, cuBLASLt, NVTX 3, the profiler API,
// cuFFT, cuSPARSE, NCCL, CCCL's thrust and CUB, OpenMP, MPI): found with no flag.
#include <cublas_v2.h>
#include <cublasLt.h>
#include <cuda_profiler_api.h>
#include <cufft.h>
#include <cusparse.h>
#include <mpi.h>
#include <nccl.h>
#include <nvtx3/nvToolsExt.h>
#include <omp.h>
#include <cub/cub.cuh>
#include <thrust/device_vector.h>

template <int BLOCK>
__global__ void block_sum(const float *in, float *out) {
  using Reduce = cub::BlockReduce<float, BLOCK>;
  __shared__ float partial[BLOCK];
  partial[threadIdx.x] = in[blockIdx.x * BLOCK + threadIdx.x];
  __syncthreads();
  if (threadIdx.x == 0) {
    float s = 0.0f;
    for (int i = 0; i < BLOCK; i++) s += partial[i];
    out[blockIdx.x] = s;
  }
}
template __global__ void block_sum<64>(const float *, float *);

int main() {
  cublasHandle_t handle;
  cublasCreate(&handle);
  nvtxRangePushA("sum");
  thrust::device_vector<float> v(64);
  return omp_get_max_threads() > 0 ? 0 : 1;
}
