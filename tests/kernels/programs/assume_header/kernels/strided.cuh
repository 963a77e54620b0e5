#pragma once
#include "stride.cuh"
// Threads write a[threadIdx.x * stride]: a race when stride is 0 (or when the product wraps,
// stride = 2^31); race-free for 0 < stride < 1024.
__global__ void strided(int *a, int stride) {
  a[element(threadIdx.x, stride)] = threadIdx.x;
}
