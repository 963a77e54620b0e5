// A program split over files: its kernel lives in program_kernel.cu, which only compiles
// when included here (it uses TILE and real).
#define TILE 64
typedef float real;
#include "program_kernel.cu"
int main() { return 0; }
