// A launch made only through function pointers (llm.c's attention_backward.cu): `run` gets
// `launch_fill` as an argument and calls it with the values of `main`. The variadic template
// `repeat` (llm.c's `benchmark_kernel`, its arguments forwarded by lvalue and by rvalue
// reference) calls it too, in a loop of unknown trip count: `m`, passed by forwarding reference
// and only passed on, stays 2048 there.
// Before `main` reaches them, host reference computations run loops far longer than any launch
// needs to be read.
#include <utility>

__global__ void fill(float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i % n] = (float)i;  // distinct elements only when n >= 8 * 128
}

void launch_fill(float* out, int n) {
    fill<<<8, 128>>>(out, n);
}

typedef void (*Launcher)(float*, int);

void run(float* out, int n, Launcher launcher) {
    launcher(out, n);
}

template <class Kernel, class... Args>
void repeat(int times, Kernel kernel, Args&&... args) {
    for (int r = 0; r < times; r++) {
        kernel(std::forward<Args>(args)...);
    }
}

void reference(float* h, int n) {
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            for (int k = 0; k < n; k++)
                h[i] += h[j] * h[k];
}

int main(int argc, char** argv) {
    int n = 1024;
    float* out;
    cudaMalloc(&out, n * sizeof(float));
    float h[1024] = {0};
    reference(h, n);
    reference(h, n);
    reference(h, n);
    reference(h, n);
    reference(h, n);
    reference(h, n);
    reference(h, n);
    reference(h, n);
    reference(h, n);
    reference(h, n);
    reference(h, n);
    reference(h, n);
    run(out, n, launch_fill);
    repeat(100, launch_fill, out, n);
    repeat(100, launch_fill, out, n * 1);  // an rvalue: `Args&&` is `int &&`
    int m = 2048;
    for (int r = 0; r < argc; r++)
        repeat(100, launch_fill, out, m);
    return 0;
}
