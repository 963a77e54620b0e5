// expect: verified
// --blockDim=32 --gridDim=2
// method_without_body_race.cu with a `const` method: it only reads the object, so every
// thread may call it on the shared object.
struct Counter {
    int n;
    __device__ int peek() const;
};

__global__ void look(const Counter *c, int *out) {
    out[blockIdx.x * blockDim.x + threadIdx.x] = c->peek();
}
