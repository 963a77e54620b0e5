// Included before an example kernel on a real GPU: gpug's __assert as CUDA's device assert.
#include <assert.h>
#define __assert(e) assert(e)
