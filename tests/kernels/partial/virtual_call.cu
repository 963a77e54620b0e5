// verdicts: via_base inconclusive, direct verified (exit 3)
// --blockDim=32 --gridDim=2
// A virtual call through a pointer runs the override of the object's dynamic type, which gpug
// does not follow (cuda-samples' newdelete: `(*g_container)->push(blockIdx.x)` races between
// blocks in Vector::push): the kernel that makes one is not read, never verified; a call on an
// object of known type is read.
struct Shape {
    __device__ virtual int area() const { return 0; }
    __device__ virtual void grow(int *a) { a[0] = 1; }
};

struct Square : Shape {
    __device__ int area() const override { return 4; }
    __device__ void grow(int *a) override { a[threadIdx.x] = 2; }
};

__global__ void via_base(Shape *s, int *a) {
    s->grow(a);
}

__global__ void direct(int *a) {
    Square sq;
    a[blockIdx.x * blockDim.x + threadIdx.x] = sq.area();
}
