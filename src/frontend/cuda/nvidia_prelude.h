/* gpug: the prelude precompiled once over NVIDIA's real CUDA headers (see src/frontend/cuda.rs).
 * clang's CUDA wrapper (__clang_cuda_runtime_wrapper.h, force-included by the driver) has
 * already brought in cuda_runtime.h, the vector types, texture references and the math and
 * atomic functions; what nvcc users include by hand on top of that comes here, so that a
 * kernel's own #include of them is a no-op. */
#ifndef __GPUG_NVIDIA_PRELUDE_H
#define __GPUG_NVIDIA_PRELUDE_H

#define __GPUG__ 1

#include <cuda_runtime.h>
/* nvcc's crt/common_functions.h includes <assert.h>, so a kernel uses `assert` without an
 * #include under nvcc (and NVRTC); clang's CUDA wrapper does not include it. */
#include <assert.h>
/* The warp reductions of compute capability 8.0 (`__reduce_add_sync`, ...): nvcc's
 * crt/sm_80_rt.h, which clang 14's wrapper does not include. Only its declarations: gpug
 * models the calls by name (src/frontend/builtins). clang 19's wrapper
 * (__clang_cuda_intrinsics.h) defines them itself, and the header's would clash. */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800 && __has_include(<crt/sm_80_rt.h>) \
    && defined(__clang_major__) && __clang_major__ < 16
#include <crt/sm_80_rt.h>
#endif
/* Cooperative groups and cuRAND cost ~0.1 s of CPU per kernel even unused, so they are in a
 * second PCH (`__GPUG_LIBRARIES`, defined by gpug_nvidia_libraries.h), used for kernels that
 * name them (src/frontend/cuda.rs). */
#ifdef __GPUG_LIBRARIES
#if __has_include(<cooperative_groups.h>)
#include <cooperative_groups.h>
/* GPUVerify's cuda.h spells a group's barrier `synchronize(g)`. */
namespace cooperative_groups {
template <class Group> __device__ void synchronize(Group &g);
}
#endif
#if __has_include(<curand_kernel.h>)
#include <curand_kernel.h>
#endif
#endif

/* Surface reads and writes by surface object (NVIDIA's surface_indirect_functions.h, whose
 * bodies clang 14's texture intrinsics cannot instantiate): declarations only, in NVIDIA's
 * signatures; gpug lowers the calls by name (src/frontend/lower/texture.rs). Defining the
 * header's guard makes a kernel's own #include of it a no-op. */
#ifndef __SURFACE_INDIRECT_FUNCTIONS_H__
#define __SURFACE_INDIRECT_FUNCTIONS_H__
#define __GPUG_SURF(NAME, ...)                                                                  \
  template <class T> __device__ void NAME##read(T *ptr, cudaSurfaceObject_t obj, __VA_ARGS__, \
      cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap);                                    \
  template <class T> __device__ T NAME##read(cudaSurfaceObject_t obj, __VA_ARGS__,            \
      cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap);                                    \
  template <class T> __device__ void NAME##write(T val, cudaSurfaceObject_t obj, __VA_ARGS__, \
      cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap);
__GPUG_SURF(surf1D, int x)
__GPUG_SURF(surf2D, int x, int y)
__GPUG_SURF(surf3D, int x, int y, int z)
__GPUG_SURF(surf1DLayered, int x, int layer)
__GPUG_SURF(surf2DLayered, int x, int y, int layer)
__GPUG_SURF(surfCubemap, int x, int y, int face)
__GPUG_SURF(surfCubemapLayered, int x, int y, int layerFace)
#undef __GPUG_SURF
#endif

/* Host-side min/max overloads of nvcc's crt/math_functions.hpp, which clang's CUDA wrapper
 * (14 and 19 alike) declares for device code only: host code calling them (common in NVIDIA's
 * samples; llm.c's `max_el = max(max_el, out[i])` in main) must still parse, or clang rejects
 * the host function and gpug loses the launches it makes. Host functions are never lowered, so
 * their bodies do not matter to the analysis. */
#if defined(__cplusplus)
static inline __host__ int min(const int a, const int b) { return (int)a < (int)b ? (int)a : (int)b; }
static inline __host__ unsigned int min(const unsigned int a, const unsigned int b) { return (unsigned int)a < (unsigned int)b ? (unsigned int)a : (unsigned int)b; }
static inline __host__ unsigned int min(const int a, const unsigned int b) { return (unsigned int)a < (unsigned int)b ? (unsigned int)a : (unsigned int)b; }
static inline __host__ unsigned int min(const unsigned int a, const int b) { return (unsigned int)a < (unsigned int)b ? (unsigned int)a : (unsigned int)b; }
static inline __host__ long int min(const long int a, const long int b) { return (long int)a < (long int)b ? (long int)a : (long int)b; }
static inline __host__ unsigned long int min(const unsigned long int a, const unsigned long int b) { return (unsigned long int)a < (unsigned long int)b ? (unsigned long int)a : (unsigned long int)b; }
static inline __host__ unsigned long int min(const long int a, const unsigned long int b) { return (unsigned long int)a < (unsigned long int)b ? (unsigned long int)a : (unsigned long int)b; }
static inline __host__ unsigned long int min(const unsigned long int a, const long int b) { return (unsigned long int)a < (unsigned long int)b ? (unsigned long int)a : (unsigned long int)b; }
static inline __host__ long long int min(const long long int a, const long long int b) { return (long long int)a < (long long int)b ? (long long int)a : (long long int)b; }
static inline __host__ unsigned long long int min(const unsigned long long int a, const unsigned long long int b) { return (unsigned long long int)a < (unsigned long long int)b ? (unsigned long long int)a : (unsigned long long int)b; }
static inline __host__ unsigned long long int min(const long long int a, const unsigned long long int b) { return (unsigned long long int)a < (unsigned long long int)b ? (unsigned long long int)a : (unsigned long long int)b; }
static inline __host__ unsigned long long int min(const unsigned long long int a, const long long int b) { return (unsigned long long int)a < (unsigned long long int)b ? (unsigned long long int)a : (unsigned long long int)b; }
static inline __host__ float min(const float a, const float b) { return (float)a < (float)b ? (float)a : (float)b; }
static inline __host__ double min(const double a, const double b) { return (double)a < (double)b ? (double)a : (double)b; }
static inline __host__ double min(const float a, const double b) { return (double)a < (double)b ? (double)a : (double)b; }
static inline __host__ double min(const double a, const float b) { return (double)a < (double)b ? (double)a : (double)b; }
static inline __host__ int max(const int a, const int b) { return (int)a > (int)b ? (int)a : (int)b; }
static inline __host__ unsigned int max(const unsigned int a, const unsigned int b) { return (unsigned int)a > (unsigned int)b ? (unsigned int)a : (unsigned int)b; }
static inline __host__ unsigned int max(const int a, const unsigned int b) { return (unsigned int)a > (unsigned int)b ? (unsigned int)a : (unsigned int)b; }
static inline __host__ unsigned int max(const unsigned int a, const int b) { return (unsigned int)a > (unsigned int)b ? (unsigned int)a : (unsigned int)b; }
static inline __host__ long int max(const long int a, const long int b) { return (long int)a > (long int)b ? (long int)a : (long int)b; }
static inline __host__ unsigned long int max(const unsigned long int a, const unsigned long int b) { return (unsigned long int)a > (unsigned long int)b ? (unsigned long int)a : (unsigned long int)b; }
static inline __host__ unsigned long int max(const long int a, const unsigned long int b) { return (unsigned long int)a > (unsigned long int)b ? (unsigned long int)a : (unsigned long int)b; }
static inline __host__ unsigned long int max(const unsigned long int a, const long int b) { return (unsigned long int)a > (unsigned long int)b ? (unsigned long int)a : (unsigned long int)b; }
static inline __host__ long long int max(const long long int a, const long long int b) { return (long long int)a > (long long int)b ? (long long int)a : (long long int)b; }
static inline __host__ unsigned long long int max(const unsigned long long int a, const unsigned long long int b) { return (unsigned long long int)a > (unsigned long long int)b ? (unsigned long long int)a : (unsigned long long int)b; }
static inline __host__ unsigned long long int max(const long long int a, const unsigned long long int b) { return (unsigned long long int)a > (unsigned long long int)b ? (unsigned long long int)a : (unsigned long long int)b; }
static inline __host__ unsigned long long int max(const unsigned long long int a, const long long int b) { return (unsigned long long int)a > (unsigned long long int)b ? (unsigned long long int)a : (unsigned long long int)b; }
static inline __host__ float max(const float a, const float b) { return (float)a > (float)b ? (float)a : (float)b; }
static inline __host__ double max(const double a, const double b) { return (double)a > (double)b ? (double)a : (double)b; }
static inline __host__ double max(const float a, const double b) { return (double)a > (double)b ? (double)a : (double)b; }
static inline __host__ double max(const double a, const float b) { return (double)a > (double)b ? (double)a : (double)b; }
#endif

/* Cache-hinted loads and stores of nvcc's sm_32_intrinsics.h that clang 14's CUDA wrapper lacks
 * (it has __ldg only); gpug lowers them by name as loads and stores. Templates, so that a
 * clang that declares them itself keeps its own (a non-template overload wins). */
template <class T> __device__ T __ldcg(const T *p);
template <class T> __device__ T __ldca(const T *p);
template <class T> __device__ T __ldcs(const T *p);
template <class T> __device__ T __ldlu(const T *p);
template <class T> __device__ T __ldcv(const T *p);
template <class T> __device__ void __stcg(T *p, T v);
template <class T> __device__ void __stcs(T *p, T v);
template <class T> __device__ void __stwb(T *p, T v);
template <class T> __device__ void __stwt(T *p, T v);

/* CUDA 12.8's atomics with a memory order and a thread scope (CUDA C++ Programming Guide,
 * "Built-in Atomic Functions"): nvcc's built-ins, which no header declares. Declared here for
 * CUDA 12.8 and later, as nvcc knows them; gpug lowers the calls by name (cuda/nv_atomic.rs).
 * The orders and scopes are macros, not nvcc's enumerators, so that the calls' arguments
 * reach gpug as integer constants. */
#if defined(CUDA_VERSION) && CUDA_VERSION >= 12080 && !defined(__NV_ATOMIC_RELAXED)
#define __NV_ATOMIC_RELAXED 0
#define __NV_ATOMIC_CONSUME 1
#define __NV_ATOMIC_ACQUIRE 2
#define __NV_ATOMIC_RELEASE 3
#define __NV_ATOMIC_ACQ_REL 4
#define __NV_ATOMIC_SEQ_CST 5
#define __NV_THREAD_SCOPE_THREAD 0
#define __NV_THREAD_SCOPE_BLOCK 1
#define __NV_THREAD_SCOPE_CLUSTER 2
#define __NV_THREAD_SCOPE_DEVICE 3
#define __NV_THREAD_SCOPE_SYSTEM 4
#define __GPUG_NV_FETCH(NAME)                                                                   \
  template <class T, class U> __device__ T __nv_atomic_fetch_##NAME(T *ptr, U val, int order,   \
      int scope = __NV_THREAD_SCOPE_SYSTEM);                                                    \
  template <class T, class U> __device__ void __nv_atomic_##NAME(T *ptr, U val, int order,      \
      int scope = __NV_THREAD_SCOPE_SYSTEM);
__GPUG_NV_FETCH(add)
__GPUG_NV_FETCH(sub)
__GPUG_NV_FETCH(min)
__GPUG_NV_FETCH(max)
__GPUG_NV_FETCH(and)
__GPUG_NV_FETCH(or)
__GPUG_NV_FETCH(xor)
#undef __GPUG_NV_FETCH
template <class T> __device__ T __nv_atomic_load_n(T *ptr, int order, int scope = __NV_THREAD_SCOPE_SYSTEM);
template <class T> __device__ void __nv_atomic_load(T *ptr, T *ret, int order, int scope = __NV_THREAD_SCOPE_SYSTEM);
template <class T, class U> __device__ void __nv_atomic_store_n(T *ptr, U val, int order,
    int scope = __NV_THREAD_SCOPE_SYSTEM);
template <class T> __device__ void __nv_atomic_store(T *ptr, T *val, int order, int scope = __NV_THREAD_SCOPE_SYSTEM);
template <class T, class U> __device__ T __nv_atomic_exchange_n(T *ptr, U val, int order,
    int scope = __NV_THREAD_SCOPE_SYSTEM);
template <class T> __device__ void __nv_atomic_exchange(T *ptr, T *val, T *ret, int order,
    int scope = __NV_THREAD_SCOPE_SYSTEM);
template <class T, class U> __device__ bool __nv_atomic_compare_exchange_n(T *ptr, T *expected, U desired, bool weak,
    int success_order, int failure_order, int scope = __NV_THREAD_SCOPE_SYSTEM);
template <class T> __device__ bool __nv_atomic_compare_exchange(T *ptr, T *expected, T *desired, bool weak,
    int success_order, int failure_order, int scope = __NV_THREAD_SCOPE_SYSTEM);
__device__ void __nv_atomic_thread_fence(int order, int scope = __NV_THREAD_SCOPE_SYSTEM);
#endif

/* Names that GPUVerify's own cuda.h defines and kernels written for it use. */
typedef unsigned char uchar;

#include "gpug_annotations.h"

#endif
