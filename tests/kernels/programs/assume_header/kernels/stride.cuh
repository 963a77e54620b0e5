#pragma once
__device__ unsigned element(unsigned t, int stride) { return t * stride; }
