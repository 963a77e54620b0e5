// expect: verified
// --blockDim=64 --gridDim=4
// A class template whose specialization declares an enum member used as a field's type
// (clang spells it `Option<float>::Kind`): each thread writes its own element.
template <typename Real> struct Option {
  enum Kind { Call, Put };
  Real spot;
  Kind kind;
};
template <typename Real>
__global__ void price(Real *out, const Option<Real> *const option) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = option->kind == Option<Real>::Call ? option->spot : -option->spot;
}
template __global__ void price<float>(float *, const Option<float> *const);
