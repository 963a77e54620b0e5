// expect: race on aux
// --blockDim=64 --gridDim=4
// As member_template.cu, but `put<2>` writes element 2i + 2, which thread i + 1 writes with
// `put<0>`.
template <typename T> struct Scaler {
  T factor;
  template <int OFFSET> __device__ void put(T *o, int i) { o[2 * i + OFFSET] = factor * (T)OFFSET; }
};

__global__ void apply(float *aux) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  Scaler<float> s{3.0f};
  s.put<0>(aux, i);
  s.put<2>(aux, i);
}
