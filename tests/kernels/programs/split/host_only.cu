// Host code only (a program's main, its kernels elsewhere): nothing to verify, no error in a
// directory run.
int main() { return 0; }
