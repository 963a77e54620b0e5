// expect: verified
// --blockDim=64 --gridDim=2
// The layouts of cuRAND's state records as gpug knows them (`types::curand_records`): clang
// checks each line against NVIDIA's headers, and a unit test of gpug (src/frontend/types.rs)
// reads the same lines and checks them against gpug's layouts. Each line is
// `static_assert(sizeof(T) == N, …)`, `alignof(T) == A` or `offsetof(T, f) == O`.
#include <cstddef>

static_assert(sizeof(curandStateTest_t) == 4, "test");
static_assert(alignof(curandStateTest_t) == 4, "test");
static_assert(sizeof(curandState) == 48, "xorwow");
static_assert(sizeof(curandState_t) == 48, "xorwow");
static_assert(sizeof(curandStateXORWOW_t) == 48, "xorwow");
static_assert(alignof(curandStateXORWOW_t) == 8, "xorwow");
static_assert(offsetof(curandStateXORWOW_t, v) == 4, "xorwow");
static_assert(offsetof(curandStateXORWOW_t, boxmuller_flag) == 24, "xorwow");
static_assert(offsetof(curandStateXORWOW_t, boxmuller_extra) == 32, "xorwow");
static_assert(offsetof(curandStateXORWOW_t, boxmuller_extra_double) == 40, "xorwow");
static_assert(sizeof(curandStateMRG32k3a_t) == 48, "mrg");
static_assert(alignof(curandStateMRG32k3a_t) == 8, "mrg");
static_assert(offsetof(curandStateMRG32k3a_t, s2) == 12, "mrg");
static_assert(offsetof(curandStateMRG32k3a_t, boxmuller_extra_double) == 40, "mrg");
static_assert(sizeof(curandStatePhilox4_32_10_t) == 64, "philox");
static_assert(alignof(curandStatePhilox4_32_10_t) == 16, "philox");
static_assert(offsetof(curandStatePhilox4_32_10_t, output) == 16, "philox");
static_assert(offsetof(curandStatePhilox4_32_10_t, key) == 32, "philox");
static_assert(offsetof(curandStatePhilox4_32_10_t, STATE) == 40, "philox");
static_assert(offsetof(curandStatePhilox4_32_10_t, boxmuller_extra) == 52, "philox");
static_assert(offsetof(curandStatePhilox4_32_10_t, boxmuller_extra_double) == 56, "philox");
static_assert(sizeof(curandStateSobol32_t) == 140, "sobol32");
static_assert(alignof(curandStateSobol32_t) == 4, "sobol32");
static_assert(offsetof(curandStateSobol32_t, direction_vectors) == 12, "sobol32");
static_assert(sizeof(curandStateScrambledSobol32_t) == 140, "scrambled sobol32");
static_assert(offsetof(curandStateScrambledSobol32_t, direction_vectors) == 12, "scrambled sobol32");
static_assert(sizeof(curandStateSobol64_t) == 536, "sobol64");
static_assert(alignof(curandStateSobol64_t) == 8, "sobol64");
static_assert(offsetof(curandStateSobol64_t, direction_vectors) == 24, "sobol64");
static_assert(sizeof(curandStateScrambledSobol64_t) == 536, "scrambled sobol64");
static_assert(offsetof(curandStateScrambledSobol64_t, direction_vectors) == 24, "scrambled sobol64");
static_assert(sizeof(curandStateMtgp32_t) == 4112, "mtgp32");
static_assert(alignof(curandStateMtgp32_t) == 8, "mtgp32");
static_assert(offsetof(curandStateMtgp32_t, offset) == 4096, "mtgp32");
static_assert(offsetof(curandStateMtgp32_t, pIdx) == 4100, "mtgp32");
static_assert(offsetof(curandStateMtgp32_t, k) == 4104, "mtgp32");
static_assert(sizeof(curandDirectionVectors32_t) == 128, "vectors32");
static_assert(sizeof(curandDirectionVectors64_t) == 512, "vectors64");

// Each thread copies the fields of its own Philox state: field accesses at gpug's offsets.
__global__ void copy_fields(curandStatePhilox4_32_10_t *s, double *out) {
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[i].key.y = s[i].ctr.w + s[i].STATE;
  out[i] = s[i].boxmuller_extra_double;
}
