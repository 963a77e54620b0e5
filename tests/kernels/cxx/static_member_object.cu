// expect: verified
// --blockDim=64 --gridDim=4
// A static `constexpr` data member named through an object (`p.size`, as `Pack::size`): the
// constant, so thread i's loop writes elements 4i to 4i + 3 only.
template <class T> struct Pack {
  static constexpr int size = 16 / sizeof(T);
  T v[size];
};

__global__ void spread(float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  Pack<float> p;
  for (int k = 0; k < p.size; ++k) {
    p.v[k] = (float)k;
    out[i * Pack<float>::size + k] = p.v[k];
  }
}
