// verdicts: via_table inconclusive, plain verified (exit 3)
// --blockDim=32 --gridDim=1
// A device function clang cannot compile, reached only through a `__device__` table of
// function pointers: the kernel that calls through the table is not read (its name leads to
// the table, whose initializer names the function); the other kernel is verified.
typedef int (*op_t)(int);
__device__ int good_op(int x) { return x + 1; }
__device__ int bad_op(int x) { return x + nope; }
__device__ op_t table[2] = {good_op, bad_op};

__global__ void via_table(int *a, int k) {
    a[threadIdx.x] = table[k](threadIdx.x);
}

__global__ void plain(int *a) {
    a[threadIdx.x] = 1;
}
