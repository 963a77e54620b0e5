//pass
//--blockDim=64 --frobnicate
// A header flag gpug does not know: this file is an input error of the run.
__global__ void nothing(int *a) {}
