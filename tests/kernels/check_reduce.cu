// The warp reductions of compute capability 8.0 (`--gpu-arch sm_80`): `gpug check` computes
// them over the lanes that take part. -DBUG compares the sum with one term short.
__global__ void reduce(const int *in, int *out) {
  int v = in[threadIdx.x];
  int s = __reduce_add_sync(0xffffffff, v);
  int lo = __reduce_min_sync(0xffffffff, v);
  int total = 0;
#ifdef BUG
  for (int i = 1; i < 4; i++) {
#else
  for (int i = 0; i < 4; i++) {
#endif
    total += in[i];
    __assert(lo <= in[i]);
  }
  __assert(s == total);
  out[threadIdx.x] = s;
}
