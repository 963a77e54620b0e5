// expect: race (possible)
// --blockDim=32 --gridDim=2
// A method of the program's own class without a body here (defined in another translation
// unit, linked with -rdc), not `const`: it may change the object it is called on. Thread 0 of
// each block calls it on one shared object, so the two calls may race (before, the call was
// taken to write nothing and the kernel was verified).
struct Counter {
    int n;
    __device__ void bump();
};

__global__ void count(Counter *c) {
    if (threadIdx.x == 0) {
        c->bump();
    }
}
