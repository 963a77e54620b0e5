// expect: race on out
// --blockDim=64 --gridDim=4
// As template_record_enum.cu, with the index forgetting the block: threads of different blocks
// write one element.
template <typename Real> struct Option {
  enum Kind { Call, Put };
  Real spot;
  Kind kind;
};
template <typename Real>
__global__ void price(Real *out, const Option<Real> *const option) {
  int i = threadIdx.x;
  out[i] = option->kind == Option<Real>::Call ? option->spot : -option->spot;
}
template __global__ void price<float>(float *, const Option<float> *const);
