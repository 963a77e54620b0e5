/* gpug: force-included before every OpenCL C file, after clang's own OpenCL declarations
 * (opencl-c-base.h and the built-in functions clang declares on use). It declares GPUVerify's
 * annotation functions in their OpenCL spelling (no `__device__`; the ones that take a pointer
 * once per address space), lowered by name by gpug's front end. */
#ifndef __GPUG_OPENCL_PRELUDE_H
#define __GPUG_OPENCL_PRELUDE_H

#define __GPUG__ 1
#define __OPENCL__ 1
#define __GPUG_OV __attribute__((overloadable))

void __assert(bool b);
void __assume(bool b);
void __requires(bool b);
void __ensures(bool b);
void __global_requires(bool b);
void __global_ensures(bool b);
void __invariant(bool b);
void __global_invariant(bool b);
void __function_wide_invariant(bool b);
void __global_assert(bool b);
bool __implies(bool a, bool b);
int __other_int(int x);
bool __other_bool(bool x);
bool __uniform_int(int x);
bool __uniform_bool(bool x);
bool __distinct_int(int x);
bool __distinct_bool(bool x);
bool __all(bool x);
bool __exclusive(bool x);
bool __enabled(void);
/* GPUVerify's OpenCL spelling has no parentheses: `__implies(__same_group, ...)`. */
bool __gpug_same_group(void);
#define __same_group __gpug_same_group()
#define __same_block __gpug_same_group()
bool __GPUG_OV __add_noovfl(int a, int b);
bool __GPUG_OV __add_noovfl(unsigned int a, unsigned int b);
bool __GPUG_OV __add_noovfl(int a, int b, int c);
bool __GPUG_OV __add_noovfl(unsigned int a, unsigned int b, unsigned int c);
int __add_noovfl_int(int a, int b);
unsigned int __add_noovfl_unsigned_int(unsigned int a, unsigned int b);
int __return_val_int(void);
bool __return_val_bool(void);
int __old_int(int x);
void __candidate_invariant(bool b);
void __candidate_global_invariant(bool b);
void __function_wide_candidate_invariant(bool b);
int __ite(bool c, int a, int b);
int __mod_pow2(int x, int y);

/* Barrier invariants (paper 001, GPUVerify's spelling): `__barrier_invariant_N(e, i1, ..., iN)`
 * instantiated at the N thread expressions, `__barrier_invariant_binary_N(e, i1, j1, ...)` at N
 * pairs; just before the barrier they belong to (src/encode/pair/invariants.rs). */
void __barrier_invariant_1(bool e, long i1);
void __barrier_invariant_2(bool e, long i1, long i2);
void __barrier_invariant_3(bool e, long i1, long i2, long i3);
void __barrier_invariant_4(bool e, long i1, long i2, long i3, long i4);
void __barrier_invariant_5(bool e, long i1, long i2, long i3, long i4, long i5);
void __barrier_invariant_6(bool e, long i1, long i2, long i3, long i4, long i5, long i6);
void __barrier_invariant_7(bool e, long i1, long i2, long i3, long i4, long i5, long i6, long i7);
void __barrier_invariant_8(bool e, long i1, long i2, long i3, long i4, long i5, long i6, long i7, long i8);
void __barrier_invariant_9(bool e, long i1, long i2, long i3, long i4, long i5, long i6, long i7, long i8, long i9);
void __barrier_invariant_10(bool e, long i1, long i2, long i3, long i4, long i5, long i6, long i7, long i8, long i9, long i10);
void __barrier_invariant_11(bool e, long i1, long i2, long i3, long i4, long i5, long i6, long i7, long i8, long i9, long i10, long i11);
void __barrier_invariant_12(bool e, long i1, long i2, long i3, long i4, long i5, long i6, long i7, long i8, long i9, long i10, long i11, long i12);
void __barrier_invariant_13(bool e, long i1, long i2, long i3, long i4, long i5, long i6, long i7, long i8, long i9, long i10, long i11, long i12, long i13);
void __barrier_invariant_14(bool e, long i1, long i2, long i3, long i4, long i5, long i6, long i7, long i8, long i9, long i10, long i11, long i12, long i13, long i14);
void __barrier_invariant_15(bool e, long i1, long i2, long i3, long i4, long i5, long i6, long i7, long i8, long i9, long i10, long i11, long i12, long i13, long i14, long i15);
void __barrier_invariant_16(bool e, long i1, long i2, long i3, long i4, long i5, long i6, long i7, long i8, long i9, long i10, long i11, long i12, long i13, long i14, long i15, long i16);
void __barrier_invariant_17(bool e, long i1, long i2, long i3, long i4, long i5, long i6, long i7, long i8, long i9, long i10, long i11, long i12, long i13, long i14, long i15, long i16, long i17);
void __barrier_invariant_18(bool e, long i1, long i2, long i3, long i4, long i5, long i6, long i7, long i8, long i9, long i10, long i11, long i12, long i13, long i14, long i15, long i16, long i17, long i18);
void __barrier_invariant_19(bool e, long i1, long i2, long i3, long i4, long i5, long i6, long i7, long i8, long i9, long i10, long i11, long i12, long i13, long i14, long i15, long i16, long i17, long i18, long i19);
void __barrier_invariant_20(bool e, long i1, long i2, long i3, long i4, long i5, long i6, long i7, long i8, long i9, long i10, long i11, long i12, long i13, long i14, long i15, long i16, long i17, long i18, long i19, long i20);
void __barrier_invariant_21(bool e, long i1, long i2, long i3, long i4, long i5, long i6, long i7, long i8, long i9, long i10, long i11, long i12, long i13, long i14, long i15, long i16, long i17, long i18, long i19, long i20, long i21);
void __barrier_invariant_22(bool e, long i1, long i2, long i3, long i4, long i5, long i6, long i7, long i8, long i9, long i10, long i11, long i12, long i13, long i14, long i15, long i16, long i17, long i18, long i19, long i20, long i21, long i22);
void __barrier_invariant_23(bool e, long i1, long i2, long i3, long i4, long i5, long i6, long i7, long i8, long i9, long i10, long i11, long i12, long i13, long i14, long i15, long i16, long i17, long i18, long i19, long i20, long i21, long i22, long i23);
void __barrier_invariant_24(bool e, long i1, long i2, long i3, long i4, long i5, long i6, long i7, long i8, long i9, long i10, long i11, long i12, long i13, long i14, long i15, long i16, long i17, long i18, long i19, long i20, long i21, long i22, long i23, long i24);
void __barrier_invariant_25(bool e, long i1, long i2, long i3, long i4, long i5, long i6, long i7, long i8, long i9, long i10, long i11, long i12, long i13, long i14, long i15, long i16, long i17, long i18, long i19, long i20, long i21, long i22, long i23, long i24, long i25);
void __barrier_invariant_26(bool e, long i1, long i2, long i3, long i4, long i5, long i6, long i7, long i8, long i9, long i10, long i11, long i12, long i13, long i14, long i15, long i16, long i17, long i18, long i19, long i20, long i21, long i22, long i23, long i24, long i25, long i26);
void __barrier_invariant_27(bool e, long i1, long i2, long i3, long i4, long i5, long i6, long i7, long i8, long i9, long i10, long i11, long i12, long i13, long i14, long i15, long i16, long i17, long i18, long i19, long i20, long i21, long i22, long i23, long i24, long i25, long i26, long i27);
void __barrier_invariant_28(bool e, long i1, long i2, long i3, long i4, long i5, long i6, long i7, long i8, long i9, long i10, long i11, long i12, long i13, long i14, long i15, long i16, long i17, long i18, long i19, long i20, long i21, long i22, long i23, long i24, long i25, long i26, long i27, long i28);
void __barrier_invariant_29(bool e, long i1, long i2, long i3, long i4, long i5, long i6, long i7, long i8, long i9, long i10, long i11, long i12, long i13, long i14, long i15, long i16, long i17, long i18, long i19, long i20, long i21, long i22, long i23, long i24, long i25, long i26, long i27, long i28, long i29);
void __barrier_invariant_30(bool e, long i1, long i2, long i3, long i4, long i5, long i6, long i7, long i8, long i9, long i10, long i11, long i12, long i13, long i14, long i15, long i16, long i17, long i18, long i19, long i20, long i21, long i22, long i23, long i24, long i25, long i26, long i27, long i28, long i29, long i30);
void __barrier_invariant_31(bool e, long i1, long i2, long i3, long i4, long i5, long i6, long i7, long i8, long i9, long i10, long i11, long i12, long i13, long i14, long i15, long i16, long i17, long i18, long i19, long i20, long i21, long i22, long i23, long i24, long i25, long i26, long i27, long i28, long i29, long i30, long i31);
void __barrier_invariant_32(bool e, long i1, long i2, long i3, long i4, long i5, long i6, long i7, long i8, long i9, long i10, long i11, long i12, long i13, long i14, long i15, long i16, long i17, long i18, long i19, long i20, long i21, long i22, long i23, long i24, long i25, long i26, long i27, long i28, long i29, long i30, long i31, long i32);
void __barrier_invariant_binary_1(bool e, long i1, long j1);
void __barrier_invariant_binary_2(bool e, long i1, long j1, long i2, long j2);
void __barrier_invariant_binary_3(bool e, long i1, long j1, long i2, long j2, long i3, long j3);
void __barrier_invariant_binary_4(bool e, long i1, long j1, long i2, long j2, long i3, long j3, long i4, long j4);
void __barrier_invariant_binary_5(bool e, long i1, long j1, long i2, long j2, long i3, long j3, long i4, long j4, long i5, long j5);
void __barrier_invariant_binary_6(bool e, long i1, long j1, long i2, long j2, long i3, long j3, long i4, long j4, long i5, long j5, long i6, long j6);
void __barrier_invariant_binary_7(bool e, long i1, long j1, long i2, long j2, long i3, long j3, long i4, long j4, long i5, long j5, long i6, long j6, long i7, long j7);
void __barrier_invariant_binary_8(bool e, long i1, long j1, long i2, long j2, long i3, long j3, long i4, long j4, long i5, long j5, long i6, long j6, long i7, long j7, long i8, long j8);
void __barrier_invariant_binary_9(bool e, long i1, long j1, long i2, long j2, long i3, long j3, long i4, long j4, long i5, long j5, long i6, long j6, long i7, long j7, long i8, long j8, long i9, long j9);
void __barrier_invariant_binary_10(bool e, long i1, long j1, long i2, long j2, long i3, long j3, long i4, long j4, long i5, long j5, long i6, long j6, long i7, long j7, long i8, long j8, long i9, long j9, long i10, long j10);
void __barrier_invariant_binary_11(bool e, long i1, long j1, long i2, long j2, long i3, long j3, long i4, long j4, long i5, long j5, long i6, long j6, long i7, long j7, long i8, long j8, long i9, long j9, long i10, long j10, long i11, long j11);
void __barrier_invariant_binary_12(bool e, long i1, long j1, long i2, long j2, long i3, long j3, long i4, long j4, long i5, long j5, long i6, long j6, long i7, long j7, long i8, long j8, long i9, long j9, long i10, long j10, long i11, long j11, long i12, long j12);
void __barrier_invariant_binary_13(bool e, long i1, long j1, long i2, long j2, long i3, long j3, long i4, long j4, long i5, long j5, long i6, long j6, long i7, long j7, long i8, long j8, long i9, long j9, long i10, long j10, long i11, long j11, long i12, long j12, long i13, long j13);
void __barrier_invariant_binary_14(bool e, long i1, long j1, long i2, long j2, long i3, long j3, long i4, long j4, long i5, long j5, long i6, long j6, long i7, long j7, long i8, long j8, long i9, long j9, long i10, long j10, long i11, long j11, long i12, long j12, long i13, long j13, long i14, long j14);
void __barrier_invariant_binary_15(bool e, long i1, long j1, long i2, long j2, long i3, long j3, long i4, long j4, long i5, long j5, long i6, long j6, long i7, long j7, long i8, long j8, long i9, long j9, long i10, long j10, long i11, long j11, long i12, long j12, long i13, long j13, long i14, long j14, long i15, long j15);
void __barrier_invariant_binary_16(bool e, long i1, long j1, long i2, long j2, long i3, long j3, long i4, long j4, long i5, long j5, long i6, long j6, long i7, long j7, long i8, long j8, long i9, long j9, long i10, long j10, long i11, long j11, long i12, long j12, long i13, long j13, long i14, long j14, long i15, long j15, long i16, long j16);
#define __GPUG_NARGS_(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, _13, _14, _15, _16, _17, _18, _19, _20, _21, _22, _23, _24, _25, _26, _27, _28, _29, _30, _31, _32, N, ...) N
#define __GPUG_NARGS(...) __GPUG_NARGS_(__VA_ARGS__, 32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)
#define __GPUG_BI_CAT2(a, b) a##b
#define __GPUG_BI_CAT(a, b) __GPUG_BI_CAT2(a, b)
#define __barrier_invariant(e, ...) __GPUG_BI_CAT(__barrier_invariant_, __GPUG_NARGS(__VA_ARGS__))(e, __VA_ARGS__)
#define __barrier_invariant_binary(e, ...) __GPUG_BI_CAT(__gpug_bib_, __GPUG_NARGS(__VA_ARGS__))(e, __VA_ARGS__)
#define __gpug_bib_2(...) __barrier_invariant_binary_1(__VA_ARGS__)
#define __gpug_bib_4(...) __barrier_invariant_binary_2(__VA_ARGS__)
#define __gpug_bib_6(...) __barrier_invariant_binary_3(__VA_ARGS__)
#define __gpug_bib_8(...) __barrier_invariant_binary_4(__VA_ARGS__)
#define __gpug_bib_10(...) __barrier_invariant_binary_5(__VA_ARGS__)
#define __gpug_bib_12(...) __barrier_invariant_binary_6(__VA_ARGS__)
#define __gpug_bib_14(...) __barrier_invariant_binary_7(__VA_ARGS__)
#define __gpug_bib_16(...) __barrier_invariant_binary_8(__VA_ARGS__)
#define __gpug_bib_18(...) __barrier_invariant_binary_9(__VA_ARGS__)
#define __gpug_bib_20(...) __barrier_invariant_binary_10(__VA_ARGS__)
#define __gpug_bib_22(...) __barrier_invariant_binary_11(__VA_ARGS__)
#define __gpug_bib_24(...) __barrier_invariant_binary_12(__VA_ARGS__)
#define __gpug_bib_26(...) __barrier_invariant_binary_13(__VA_ARGS__)
#define __gpug_bib_28(...) __barrier_invariant_binary_14(__VA_ARGS__)
#define __gpug_bib_30(...) __barrier_invariant_binary_15(__VA_ARGS__)
#define __gpug_bib_32(...) __barrier_invariant_binary_16(__VA_ARGS__)
/* `__read_permission(T, x)`: a read of `x` (GPUVerify's permission to read it in the barrier
 * invariants of this barrier interval): an ordinary read, race-checked. */
void __gpug_read_permission(long x);
#define __read_permission(T, x) __gpug_read_permission((long)(x))
/* The annotations over a pointer, once per address space. */
#define __GPUG_PTR_ANNOTATIONS(AS) \
  bool __GPUG_OV __read(const volatile AS void *p); \
  bool __GPUG_OV __write(const volatile AS void *p); \
  bool __GPUG_OV __atomic(const volatile AS void *p); \
  bool __GPUG_OV __no_read(const volatile AS void *p); \
  bool __GPUG_OV __no_write(const volatile AS void *p); \
  bool __GPUG_OV __read_implies(const volatile AS void *p, bool b); \
  bool __GPUG_OV __write_implies(const volatile AS void *p, bool b); \
  unsigned long __GPUG_OV __read_offset_bytes(const volatile AS void *p); \
  unsigned long __GPUG_OV __write_offset_bytes(const volatile AS void *p); \
  unsigned long __GPUG_OV __ptr_offset_bytes(const volatile AS void *p); \
  bool __GPUG_OV __requires_fresh_array(const volatile AS void *p); \
  void __GPUG_OV __array_snapshot(const volatile AS void *dst, const volatile AS void *src);
__GPUG_PTR_ANNOTATIONS(__global)
__GPUG_PTR_ANNOTATIONS(__local)
__GPUG_PTR_ANNOTATIONS(__constant)
__GPUG_PTR_ANNOTATIONS(__private)


/* `__axiom(e);` at file scope: a function returning `e`, assumed on entry to every kernel
   (src/frontend/lower/annotation.rs). */
#define __GPUG_CAT2(a, b) a##b
#define __GPUG_CAT(a, b) __GPUG_CAT2(a, b)
#define __axiom(e) \
  static bool __GPUG_CAT(__gpug_axiom_, __COUNTER__)(void) { return (e); }
#define __array_size(p) 0

#endif
