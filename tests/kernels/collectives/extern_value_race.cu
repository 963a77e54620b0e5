// expect: race on slot
// --blockDim=64 --gridDim=1
// Every thread stores the value of a function the program declares without defining (another
// translation unit's, linked with -rdc): nothing says it returns the same value to each
// thread (a clock or a random generator does not), so the stores race, benign or not.
extern __device__ int next_ticket(int seed);

__global__ void k(int *slot, int seed) {
  slot[0] = next_ticket(seed);
}
