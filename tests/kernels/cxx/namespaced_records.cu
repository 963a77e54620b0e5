// expect: verified
// --blockDim=64 --gridDim=2
// Records declared in namespaces, used by their qualified names: a local, a reference
// parameter and a pointer to one, each thread writing its own element.
namespace geo {
struct Point {
  int x, y;
};
namespace detail {
struct Box {
  Point lo, hi;
};
} // namespace detail
} // namespace geo

__device__ int area(const geo::detail::Box &b) { return (b.hi.x - b.lo.x) * (b.hi.y - b.lo.y); }

__global__ void areas(const geo::detail::Box *boxes, geo::Point *corner, int *out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  geo::detail::Box b = boxes[i];
  geo::Point p;
  p.x = b.lo.x;
  p.y = b.hi.y;
  corner[i] = p;
  out[i] = area(b);
}
