// The kernel comes from a header in a folder of its own, which includes another.
#include "kernels/strided.cuh"
int main() { return 0; }
