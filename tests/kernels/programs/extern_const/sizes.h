extern "C" const unsigned MIN_WIDTH;
extern "C" const unsigned MAX_WIDTH;
extern "C" void run_rows(unsigned *d, unsigned width);
