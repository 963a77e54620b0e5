// Each thread copies a[t] to a[t + n]: a race when n < blockDim.x (thread t + n reads what
// thread t writes), none once `--assume 'n >= blockDim.x'` rules those launches out.
#include <cuda.h>

__global__ void shift_copy(int *a, unsigned n) {
    a[threadIdx.x + n] = a[threadIdx.x];
}
