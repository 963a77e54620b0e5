// expect: race on out
// --blockDim=64 --gridDim=4
// A value computed by the kernel's own inline assembly is arbitrary: used as an index, two
// threads may write the same element (`%%laneid` read as any value, not the lane).
__global__ void k(unsigned *out) {
  unsigned lane;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
  out[blockIdx.x * blockDim.x + lane] = threadIdx.x;
}
