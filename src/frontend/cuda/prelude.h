/* gpug prelude: force-included before every kernel file (see src/frontend/mod.rs). */
#ifndef __GPUG_PRELUDE_H
#define __GPUG_PRELUDE_H

#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __align__(n) __attribute__((aligned(n)))
#define __restrict__ __restrict
#define __inline__ inline
#define __CUDACC__ 1
#define __GPUG__ 1
#ifndef NULL
#define NULL 0
#endif

#include "__clang_cuda_builtin_vars.h"

typedef unsigned int uint;
typedef unsigned short ushort;
typedef unsigned char uchar;
typedef unsigned long ulong;
typedef unsigned long size_t;

/* Vector types, as NVIDIA's vector_types.h declares them (fields, sizes and alignments for
 * LP64), and their constructors as vector_functions.h declares them. gpug lowers `make_*` by
 * name (src/frontend/builtins/cuda.rs), so no body is needed. */
#define __GPUG_VEC(N, T, A2, A4)                                                  \
  struct N##1 { T x; };                                                          \
  struct __attribute__((aligned(A2))) N##2 { T x, y; };                          \
  struct N##3 { T x, y, z; };                                                    \
  struct __attribute__((aligned(A4))) N##4 { T x, y, z, w; };                    \
  typedef struct N##1 N##1;                                                      \
  typedef struct N##2 N##2;                                                      \
  typedef struct N##3 N##3;                                                      \
  typedef struct N##4 N##4;                                                      \
  __host__ __device__ N##1 make_##N##1(T x);                                      \
  __host__ __device__ N##2 make_##N##2(T x, T y);                                 \
  __host__ __device__ N##3 make_##N##3(T x, T y, T z);                            \
  __host__ __device__ N##4 make_##N##4(T x, T y, T z, T w);
__GPUG_VEC(char, signed char, 2, 4)
__GPUG_VEC(uchar, unsigned char, 2, 4)
__GPUG_VEC(short, short, 4, 8)
__GPUG_VEC(ushort, unsigned short, 4, 8)
__GPUG_VEC(int, int, 8, 16)
__GPUG_VEC(uint, unsigned int, 8, 16)
__GPUG_VEC(long, long int, 16, 16)
__GPUG_VEC(ulong, unsigned long int, 16, 16)
__GPUG_VEC(longlong, long long int, 16, 16)
__GPUG_VEC(ulonglong, unsigned long long int, 16, 16)
__GPUG_VEC(float, float, 8, 16)
__GPUG_VEC(double, double, 16, 16)
#undef __GPUG_VEC
struct dim3 {
  unsigned int x, y, z;
  __host__ __device__ constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1)
      : x(vx), y(vy), z(vz) {}
  __host__ __device__ constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
};
typedef struct dim3 dim3;

/* Textures, as NVIDIA's texture_types.h, cuda_texture_types.h, texture_fetch_functions.h and
 * texture_indirect_functions.h declare them (the fetches gpug lowers by name; see
 * src/frontend/lower/texture.rs). */
enum cudaTextureReadMode { cudaReadModeElementType = 0, cudaReadModeNormalizedFloat = 1 };
#define cudaTextureType1D 0x01
#define cudaTextureType2D 0x02
#define cudaTextureType3D 0x03
#define cudaTextureTypeCubemap 0x0C
#define cudaTextureType1DLayered 0xF1
#define cudaTextureType2DLayered 0xF2
#define cudaTextureTypeCubemapLayered 0xFC
typedef unsigned long long cudaTextureObject_t;
struct textureReference { int normalized; };
template <class T, int texType = cudaTextureType1D,
          enum cudaTextureReadMode mode = cudaReadModeElementType>
struct __attribute__((device_builtin_texture_type)) texture : public textureReference {};
/* The type a fetch in cudaReadModeNormalizedFloat returns: float, or floatN for a vector. */
template <class T> struct __gpug_rmnf { typedef float type; };
#define __GPUG_RMNF(N)                                                               \
  template <> struct __gpug_rmnf<char##N> { typedef float##N type; };               \
  template <> struct __gpug_rmnf<uchar##N> { typedef float##N type; };              \
  template <> struct __gpug_rmnf<short##N> { typedef float##N type; };              \
  template <> struct __gpug_rmnf<ushort##N> { typedef float##N type; };
__GPUG_RMNF(1) __GPUG_RMNF(2) __GPUG_RMNF(4)
#undef __GPUG_RMNF
/* One fetch function NAME over a texture of type DIM with coordinates ARGS: by reference (two
 * read modes), by object, and by object into *ptr. */
#define __GPUG_TEX(NAME, DIM, ...)                                                   \
  template <class T>                                                                \
  __device__ T NAME(texture<T, DIM, cudaReadModeElementType> t, __VA_ARGS__);       \
  template <class T>                                                                \
  __device__ typename __gpug_rmnf<T>::type NAME(                                    \
      texture<T, DIM, cudaReadModeNormalizedFloat> t, __VA_ARGS__);                 \
  template <class T> __device__ T NAME(cudaTextureObject_t texObject, __VA_ARGS__); \
  template <class T> __device__ void NAME(T *ptr, cudaTextureObject_t obj, __VA_ARGS__);
__GPUG_TEX(tex1Dfetch, cudaTextureType1D, int x)
__GPUG_TEX(tex1D, cudaTextureType1D, float x)
__GPUG_TEX(tex2D, cudaTextureType2D, float x, float y)
__GPUG_TEX(tex3D, cudaTextureType3D, float x, float y, float z)
__GPUG_TEX(tex1DLayered, cudaTextureType1DLayered, float x, int layer)
__GPUG_TEX(tex2DLayered, cudaTextureType2DLayered, float x, float y, int layer)
__GPUG_TEX(texCubemap, cudaTextureTypeCubemap, float x, float y, float z)
__GPUG_TEX(texCubemapLayered, cudaTextureTypeCubemapLayered, float x, float y, float z, int layer)
__GPUG_TEX(tex1DLod, cudaTextureType1D, float x, float level)
__GPUG_TEX(tex2DLod, cudaTextureType2D, float x, float y, float level)
__GPUG_TEX(tex3DLod, cudaTextureType3D, float x, float y, float z, float level)
__GPUG_TEX(tex1DLayeredLod, cudaTextureType1DLayered, float x, int layer, float level)
__GPUG_TEX(tex2DLayeredLod, cudaTextureType2DLayered, float x, float y, int layer, float level)
__GPUG_TEX(texCubemapLod, cudaTextureTypeCubemap, float x, float y, float z, float level)
__GPUG_TEX(tex1DGrad, cudaTextureType1D, float x, float dPdx, float dPdy)
__GPUG_TEX(tex2DGrad, cudaTextureType2D, float x, float y, float2 dPdx, float2 dPdy)
__GPUG_TEX(tex3DGrad, cudaTextureType3D, float x, float y, float z, float4 dPdx, float4 dPdy)
#undef __GPUG_TEX

/* Loads and stores with cache hints (sm_32_intrinsics.h): reads and writes of *ptr. */
#define __GPUG_LDST(T)                                                               \
  __device__ T __ldg(const T *ptr);                                                 \
  __device__ T __ldcg(const T *ptr);                                                \
  __device__ T __ldca(const T *ptr);                                                \
  __device__ T __ldcs(const T *ptr);                                                \
  __device__ T __ldlu(const T *ptr);                                                \
  __device__ T __ldcv(const T *ptr);                                                \
  __device__ void __stwb(T *ptr, T value);                                          \
  __device__ void __stcg(T *ptr, T value);                                          \
  __device__ void __stcs(T *ptr, T value);                                          \
  __device__ void __stwt(T *ptr, T value);
__GPUG_LDST(long) __GPUG_LDST(unsigned long) __GPUG_LDST(char) __GPUG_LDST(signed char)
__GPUG_LDST(short) __GPUG_LDST(int) __GPUG_LDST(long long) __GPUG_LDST(char2)
__GPUG_LDST(char4) __GPUG_LDST(short2) __GPUG_LDST(short4) __GPUG_LDST(int2) __GPUG_LDST(int4)
__GPUG_LDST(longlong2) __GPUG_LDST(unsigned char) __GPUG_LDST(unsigned short)
__GPUG_LDST(unsigned int) __GPUG_LDST(unsigned long long) __GPUG_LDST(uchar2) __GPUG_LDST(uchar4)
__GPUG_LDST(ushort2) __GPUG_LDST(ushort4) __GPUG_LDST(uint2) __GPUG_LDST(uint4)
__GPUG_LDST(ulonglong2) __GPUG_LDST(float) __GPUG_LDST(double) __GPUG_LDST(float2)
__GPUG_LDST(float4) __GPUG_LDST(double2)
#undef __GPUG_LDST

/* Synchronisation. */
__device__ void __syncthreads(void);
__device__ void __syncwarp(unsigned int mask = 0xffffffffu);
__device__ void __threadfence(void);
__device__ void __threadfence_block(void);
__device__ void __threadfence_system(void);

/* Atomics. */
#define __GPUG_ATOMIC2(NAME, T) __device__ T NAME(T *address, T val);
__GPUG_ATOMIC2(atomicAdd, int)
__GPUG_ATOMIC2(atomicAdd, unsigned int)
__GPUG_ATOMIC2(atomicAdd, unsigned long long)
__GPUG_ATOMIC2(atomicAdd, float)
__GPUG_ATOMIC2(atomicAdd, double)
__GPUG_ATOMIC2(atomicSub, int)
__GPUG_ATOMIC2(atomicSub, unsigned int)
__GPUG_ATOMIC2(atomicExch, int)
__GPUG_ATOMIC2(atomicExch, unsigned int)
__GPUG_ATOMIC2(atomicExch, unsigned long long)
__GPUG_ATOMIC2(atomicExch, float)
__GPUG_ATOMIC2(atomicMin, int)
__GPUG_ATOMIC2(atomicMin, unsigned int)
__GPUG_ATOMIC2(atomicMin, unsigned long long)
__GPUG_ATOMIC2(atomicMax, int)
__GPUG_ATOMIC2(atomicMax, unsigned int)
__GPUG_ATOMIC2(atomicMax, unsigned long long)
__GPUG_ATOMIC2(atomicInc, unsigned int)
__GPUG_ATOMIC2(atomicDec, unsigned int)
__GPUG_ATOMIC2(atomicAnd, int)
__GPUG_ATOMIC2(atomicAnd, unsigned int)
__GPUG_ATOMIC2(atomicAnd, unsigned long long)
__GPUG_ATOMIC2(atomicOr, int)
__GPUG_ATOMIC2(atomicOr, unsigned int)
__GPUG_ATOMIC2(atomicOr, unsigned long long)
__GPUG_ATOMIC2(atomicXor, int)
__GPUG_ATOMIC2(atomicXor, unsigned int)
__GPUG_ATOMIC2(atomicXor, unsigned long long)
#undef __GPUG_ATOMIC2
__device__ int atomicCAS(int *address, int compare, int val);
__device__ unsigned int atomicCAS(unsigned int *address, unsigned int compare, unsigned int val);
__device__ unsigned long long atomicCAS(unsigned long long *address, unsigned long long compare,
                                        unsigned long long val);

/* Integer helpers (lowered to integer expressions). */
__device__ int min(int a, int b);
__device__ unsigned int min(unsigned int a, unsigned int b);
__device__ long long min(long long a, long long b);
__device__ unsigned long long min(unsigned long long a, unsigned long long b);
__device__ int max(int a, int b);
__device__ unsigned int max(unsigned int a, unsigned int b);
__device__ long long max(long long a, long long b);
__device__ unsigned long long max(unsigned long long a, unsigned long long b);
__device__ int abs(int a);
__device__ long long llabs(long long a);
__device__ int __mul24(int a, int b);
__device__ unsigned int __umul24(unsigned int a, unsigned int b);
__device__ float min(float a, float b);
__device__ float max(float a, float b);
__device__ unsigned int umin(unsigned int a, unsigned int b);
__device__ unsigned int umax(unsigned int a, unsigned int b);
__device__ long long llmin(long long a, long long b);
__device__ long long llmax(long long a, long long b);
__device__ unsigned long long ullmin(unsigned long long a, unsigned long long b);
__device__ unsigned long long ullmax(unsigned long long a, unsigned long long b);
__device__ long labs(long a);

/* Integer intrinsics (lowered exactly). */
__device__ int __clz(int x);
__device__ int __clzll(long long x);
__device__ int __ffs(int x);
__device__ int __ffsll(long long x);
__device__ int __popc(unsigned int x);
__device__ int __popcll(unsigned long long x);
__device__ unsigned int __brev(unsigned int x);
__device__ unsigned long long __brevll(unsigned long long x);
__device__ int __mulhi(int x, int y);
__device__ unsigned int __umulhi(unsigned int x, unsigned int y);
__device__ int __hadd(int x, int y);
__device__ int __rhadd(int x, int y);
__device__ unsigned int __uhadd(unsigned int x, unsigned int y);
__device__ unsigned int __urhadd(unsigned int x, unsigned int y);
__device__ unsigned int __sad(int x, int y, unsigned int z);
__device__ unsigned int __usad(unsigned int x, unsigned int y, unsigned int z);

/* Float math (opaque functions). */
#define __GPUG_F1(NAME) __device__ float NAME(float x);
#define __GPUG_D1(NAME) __device__ double NAME(double x);
__GPUG_F1(sqrtf) __GPUG_F1(expf) __GPUG_F1(exp2f) __GPUG_F1(logf) __GPUG_F1(log2f)
__GPUG_F1(log10f) __GPUG_F1(fabsf) __GPUG_F1(sinf) __GPUG_F1(cosf) __GPUG_F1(tanf)
__GPUG_F1(floorf) __GPUG_F1(ceilf) __GPUG_F1(rsqrtf) __GPUG_F1(truncf) __GPUG_F1(roundf)
__GPUG_F1(__expf) __GPUG_F1(__logf) __GPUG_F1(__sinf) __GPUG_F1(__cosf) __GPUG_F1(tanhf)
__GPUG_F1(atanf) __GPUG_F1(asinf) __GPUG_F1(acosf) __GPUG_F1(__saturatef)
__GPUG_D1(sqrt) __GPUG_D1(exp) __GPUG_D1(log) __GPUG_D1(fabs) __GPUG_D1(sin) __GPUG_D1(cos)
__GPUG_D1(floor) __GPUG_D1(ceil) __GPUG_D1(rsqrt) __GPUG_D1(tanh) __GPUG_D1(log2)
__GPUG_D1(exp2) __GPUG_D1(trunc) __GPUG_D1(round)
#undef __GPUG_F1
#undef __GPUG_D1
__device__ float fminf(float a, float b);
__device__ float fmaxf(float a, float b);
__device__ float powf(float a, float b);
__device__ float atan2f(float a, float b);
__device__ float fmodf(float a, float b);
__device__ float __fdividef(float a, float b);
__device__ float __fmul_rn(float a, float b);
__device__ float __fadd_rn(float a, float b);
__device__ float fmaf(float a, float b, float c);
__device__ double fmin(double a, double b);
__device__ double fmax(double a, double b);
__device__ double pow(double a, double b);
__device__ double fma(double a, double b, double c);
__device__ double fmod(double a, double b);
__device__ double atan2(double a, double b);
__device__ int __float2int_rn(float x);
__device__ float __int2float_rn(int x);
__device__ int __float_as_int(float x);
__device__ float __int_as_float(int x);

/* Kernel launches in host code (`k<256><<<g, b>>>(...)`, which also instantiates a template
   kernel): clang checks a launch as a call to the configuration function of the CUDA version
   it assumes; variadic, so that any grid and block arguments type-check. */
extern "C" int cudaConfigureCall(...);
extern "C" unsigned __cudaPushCallConfiguration(...);

/* The host runtime API that programs' host code calls around its launches (declarations only:
   gpug reads the launches, src/frontend/lower/launch/, not what the host code does), as
   NVIDIA's driver_types.h and cuda_runtime_api.h declare them. */
typedef enum cudaError { cudaSuccess = 0, cudaErrorInvalidValue = 1, cudaErrorMemoryAllocation = 2 } cudaError_t;
typedef struct CUstream_st *cudaStream_t;
typedef struct CUevent_st *cudaEvent_t;
enum cudaMemcpyKind {
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4
};
extern "C" __host__ cudaError_t cudaMalloc(void **ptr, __SIZE_TYPE__ size);
template <class T> __host__ cudaError_t cudaMalloc(T **ptr, __SIZE_TYPE__ size);
extern "C" __host__ cudaError_t cudaMallocManaged(void **ptr, __SIZE_TYPE__ size, unsigned int flags = 1);
extern "C" __host__ cudaError_t cudaFree(void *ptr);
extern "C" __host__ cudaError_t cudaMemcpy(void *dst, const void *src, __SIZE_TYPE__ count, enum cudaMemcpyKind kind);
extern "C" __host__ cudaError_t cudaMemset(void *ptr, int value, __SIZE_TYPE__ count);
extern "C" __host__ cudaError_t cudaDeviceSynchronize(void);
extern "C" __host__ cudaError_t cudaGetLastError(void);
extern "C" __host__ const char *cudaGetErrorString(cudaError_t error);
extern "C" __host__ cudaError_t cudaLaunchKernel(const void *func, dim3 grid, dim3 block, void **args,
                                                 __SIZE_TYPE__ shared = 0, cudaStream_t stream = 0);
template <class T>
__host__ cudaError_t cudaLaunchKernel(T *func, dim3 grid, dim3 block, void **args, __SIZE_TYPE__ shared = 0,
                                      cudaStream_t stream = 0);
extern "C" __host__ cudaError_t cudaLaunchCooperativeKernel(const void *func, dim3 grid, dim3 block, void **args,
                                                            __SIZE_TYPE__ shared = 0, cudaStream_t stream = 0);
template <class T>
__host__ cudaError_t cudaLaunchCooperativeKernel(T *func, dim3 grid, dim3 block, void **args,
                                                 __SIZE_TYPE__ shared = 0, cudaStream_t stream = 0);

/* printf (ignored). */
extern "C" __device__ int printf(const char *format, ...);

/* memcpy and memset (byte loads and stores, lower/memory_calls.rs): the C library's
   declarations, made `__host__ __device__` as crt/common_functions.h makes them (a later
   `#include <string.h>` then adds nothing). */
#pragma clang force_cuda_host_device begin
#include <string.h>
#pragma clang force_cuda_host_device end

#include "gpug_annotations.h"

#endif
