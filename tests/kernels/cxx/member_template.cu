// expect: verified
// --blockDim=64 --gridDim=4
// Member templates called with explicit template arguments, of a class and of a class
// template: each call is the instantiation's body, inlined (thread i writes elements 2i and
// 2i + 1 only), not a function without a body that may write anywhere.
struct Op {
  template <bool FIRST, bool SECOND> __device__ void transform(float *o, int i) {
    if (FIRST) o[2 * i] = 1.0f;
    if (SECOND) o[2 * i + 1] = 2.0f;
  }
};

template <typename T> struct Scaler {
  T factor;
  template <int OFFSET> __device__ void put(T *o, int i) { o[2 * i + OFFSET] = factor * (T)OFFSET; }
};

__global__ void apply(float *out, float *aux) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  Op op;
  op.transform<true, false>(out, i);
  op.transform<false, true>(out, i);
  Scaler<float> s{3.0f};
  s.put<0>(aux, i);
  s.put<1>(aux, i);
}
