//! Front-end tests of CUDA's vector types, textures and loads with cache hints.

use super::*;

/// The integer constants a kernel stores, in order.
fn stored_consts(k: &Kernel) -> Vec<String> {
    k.body
        .iter()
        .filter_map(|s| match &s.kind {
            StmtKind::Store { value, .. } => Some(ex(k, value)),
            _ => None,
        })
        .collect()
}

#[test]
fn vector_layouts_are_cuda_s() {
    // Sizes and alignments of vector_types.h (LP64), and a float4 member placed at 16.
    let k = one("struct S { float a; float4 b; char c; };\n\
         __global__ void k(unsigned long *o) {\n\
           o[0] = sizeof(char3); o[1] = alignof(char2); o[2] = alignof(char4);\n\
           o[3] = sizeof(short4); o[4] = alignof(short4); o[5] = alignof(int2);\n\
           o[6] = alignof(int4); o[7] = sizeof(long2); o[8] = alignof(long2);\n\
           o[9] = sizeof(double3); o[10] = alignof(double3); o[11] = alignof(float4);\n\
           o[12] = sizeof(S); o[13] = sizeof(uint3); o[14] = sizeof(dim3);\n\
           o[15] = alignof(ulonglong4); o[16] = sizeof(uchar1);\n}\n");
    assert_eq!(
        stored_consts(&k),
        [
            "3", "2", "4", "8", "8", "8", "16", "16", "16", "24", "8", "16", "48", "12", "12", "16", "1"
        ]
    );
}

#[test]
fn float4_store_through_a_float_view_is_four_float_stores() {
    let k = one("__global__ void k(float *a) {\n\
           reinterpret_cast<float4 *>(a)[threadIdx.x] = make_float4(1.0f, 2.0f, a[0], 4.0f);\n}\n");
    let b = body(&k);
    let at = |o: &str| format!("store a[{o}] = ");
    let base = format!("(Mul {I64C} ThreadIdx(X)) 16)");
    assert!(b.starts_with("$t0 = load a[0]\n"), "{b}");
    for (o, v) in [
        (base.clone(), "1065353216"),
        (format!("(Add {base} 4)"), "1073741824"),
        (format!("(Add {base} 8)"), "$t0"),
        (format!("(Add {base} 12)"), "1082130432"),
    ] {
        assert!(b.contains(&format!("{}{v}\n", at(&o))), "{o} = {v} in\n{b}");
    }
    let stores: Vec<Ty> = k
        .body
        .iter()
        .filter_map(|s| match &s.kind {
            StmtKind::Store { ty, .. } => Some(*ty),
            _ => None,
        })
        .collect();
    assert_eq!(stores, vec![Ty::Float { bits: 32 }; 4]);
}

#[test]
fn vector_values_copy_and_choose_field_by_field() {
    let k = one("__device__ int2 swap(int2 v) { return make_int2(v.y, v.x); }\n\
         __global__ void k(int2 *p, int c) {\n\
           int2 v = p[threadIdx.x];\n\
           int2 w = c ? swap(v) : v;\n\
           p[threadIdx.x] = w;\n}\n");
    let b = body(&k);
    for line in [
        "v.x = $t0\n",
        "v.y = $t1\n",
        "swap$ret.x = v.y\n",
        "swap$ret.y = v.x\n",
        "w.x = $t2.x\n",
    ] {
        assert!(b.contains(line), "{line} in\n{b}");
    }
    assert!(b.contains("$t2.x = v.x\n"), "{b}");
}

#[test]
fn dim3_constructor_and_builtin_conversion() {
    let k = one("__global__ void k(unsigned *o) {\n\
           uint3 t = threadIdx;\n\
           dim3 d(t.x);\n\
           dim3 e(t);\n\
           o[0] = d.x + d.y + d.z + e.y;\n}\n");
    let b = body(&k);
    for line in [
        "t.y = ThreadIdx(Y)\n",
        "d.x = t.x\n",
        "d.y = 1\n",
        "d.z = 1\n",
        "e.y = t.y\n",
    ] {
        assert!(b.contains(line), "{line} in\n{b}");
    }
}

#[test]
fn texture_fetches_are_functions_of_texture_and_coordinates() {
    let k = one("texture<float, 1, cudaReadModeElementType> t;\n\
         texture<uchar4, 2, cudaReadModeNormalizedFloat> img;\n\
         __global__ void k(float *o, cudaTextureObject_t obj) {\n\
           int i = threadIdx.x;\n\
           float4 p = tex2D(img, 0.5f, 1.0f);\n\
           float q;\n\
           tex1Dfetch(&q, obj, i);\n\
           o[i] = tex1Dfetch(t, i) + tex1Dfetch<float>(obj, i + 1) + p.w + q;\n}\n");
    let b = body(&k);
    // No access to texture memory: one local store and load for `q`, one store to `o`.
    let accesses: Vec<&str> = k
        .body
        .iter()
        .filter_map(|s| match &s.kind {
            StmtKind::Load { array, .. } | StmtKind::Store { array, .. } => Some(k.array(*array).name.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(accesses, ["q", "q", "o"], "{b}");
    assert!(b.contains("p.w = (tex2D.5img.2.w 1056964608 1065353216)\n"), "{b}");
    assert!(b.contains("store q[0] = (tex1Dfetch.3obj obj i)\n"), "{b}");
    assert!(b.contains("(tex1Dfetch.3t.1 i)"), "{b}");
    assert!(b.contains("(tex1Dfetch.3obj obj (Add i 1))"), "{b}");
}

#[test]
fn cache_hinted_loads_and_stores_are_accesses() {
    let k = one("__global__ void k(const float4 *in, int *out) {\n\
           float4 v = __ldg(&in[threadIdx.x]);\n\
           __stcg(&out[threadIdx.x], __ldg(out + 1));\n}\n");
    let b = body(&k);
    assert!(b.contains("$t3 = load in[(Add (Mul "), "{b}");
    assert!(b.contains("v.w = $t3\n"), "{b}");
    assert!(b.contains("$t4 = load out[4]\nstore out["), "{b}");
    assert!(b.ends_with("] = $t4\n"), "{b}");
}

#[test]
fn surface_access_reads_the_surface_memory() {
    let k = one("__global__ void k(float *o, cudaSurfaceObject_t s) {\n  o[0] = surf2Dread<float>(s, 4, 2);\n}\n");
    let b = body(&k);
    // One array for every surface, at x + y * 2^24.
    assert!(b.contains("load surface memory[(Add 4 (Mul 2 16777216))]"), "{b}");
    assert!(
        k.notes.iter().any(|n| n.starts_with("surface memory:")),
        "{:?}",
        k.notes
    );
}

#[test]
fn other_make_overloads_are_inlined() {
    // The CUDA samples' helper_math.h adds overloads such as `make_float4(float3, float)`.
    let k = one(
        "__device__ float4 make_float4(float3 a, float w) { return make_float4(a.x, a.y, a.z, w); }\n\
         __device__ float2 make_float2(float s) { return make_float2(s, s); }\n\
         __global__ void k(float4 *o, float3 v) {\n\
           float2 h = make_float2(v.z);\n\
           o[threadIdx.x] = make_float4(v, h.y);\n}\n",
    );
    let b = body(&k);
    for line in [
        "make_float2$ret.y = s\n",
        "make_float4$ret.x = a.x\n",
        "make_float4$ret.w = w\n",
    ] {
        assert!(b.contains(line), "{line} in\n{b}");
    }
}

#[test]
fn texture_passed_to_a_function_is_unsupported() {
    let r = lower_src(
        "t.cu",
        "texture<float, 1, cudaReadModeElementType> t;\n\
         __device__ float get(texture<float, 1, cudaReadModeElementType> r, int i) { return tex1Dfetch(r, i); }\n\
         __global__ void k(float *o) {\n  o[0] = get(t, 0);\n}\n",
    );
    match r {
        Err(FrontendError::Unsupported { what, .. }) => {
            assert!(
                what.contains("texture reference `t` used other than as the texture of a fetch"),
                "{what}"
            )
        }
        other => panic!("{other:?}"),
    }
}
