// expect: race on flags
// --blockDim=64 --gridDim=4
// As struct_field_view.cu, but field 0 of `slots` is i, not 4i: thread 4i's field 0 is thread
// i's field 0 or one of thread i's other fields (i = 4j + k), written with different values.
__device__ int lane(const int4 &v, int k) { return reinterpret_cast<const int *>(&v)[k]; }

__global__ void gather(int *flags) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int4 slots = make_int4(i, 4 * i + 1, 4 * i + 2, 4 * i + 3);
  for (int k = 0; k < 4; ++k) {
    flags[lane(slots, k)] = i;
  }
}
