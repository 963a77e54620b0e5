#include "sizes.h"

int main() {
  unsigned *d = 0;
  for (unsigned width = MIN_WIDTH; width <= MAX_WIDTH; width <<= 1) {
    run_rows(d, width);
  }
  return 0;
}
