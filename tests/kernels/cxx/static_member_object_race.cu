// expect: race on out
// --blockDim=64 --gridDim=4
// As static_member_object.cu, but the loop runs to `p.size` for a `double` pack (2) over a
// stride of 1: thread i's second element is thread i + 1's first.
template <class T> struct Pack {
  static constexpr int size = 16 / sizeof(T);
  T v[size];
};

__global__ void spread(float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  Pack<double> p;
  for (int k = 0; k < p.size; ++k) {
    out[i + k] = (float)i;
  }
}
