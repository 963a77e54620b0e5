// A header of the kernel's own that uses cooperative groups without including them (GPUVerify's
// cuda.h brings them, and so does gpug's prelude): the kernel file never names them, so gpug's
// first parse (without the libraries) fails and the second one, with them, succeeds.
__device__ void block_barrier() { cooperative_groups::this_thread_block().sync(); }
