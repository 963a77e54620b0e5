//! C types as clang spells them in `qualType` strings, read by a tiny parser, and the sizes and
//! field offsets of the records a translation unit declares.
//!
//! Owns types only: it does not read declarations (`lower/collect.rs` fills a [`TypeEnv`]) or
//! lower values.

use crate::ir::Ty;
use std::collections::HashMap;

/// A C type, as far as lowering needs it.
#[derive(Clone, Debug, PartialEq)]
pub enum CType {
    /// `void`.
    Void,
    /// A scalar (integer, `bool`, float, enum).
    Scalar(Ty),
    /// `T *`.
    Ptr(Box<CType>),
    /// `T [n]` (`None`: `T []`).
    Array(Box<CType>, Option<u64>),
    /// A named struct, class or union.
    Record(String),
    /// A function type (`int (int *)`). A function *pointer* is a [`FN_PTR`] scalar.
    Func,
    /// An lvalue reference `T &`.
    Ref(Box<CType>),
    /// Anything else, with its spelling.
    Other(String),
}

/// The scalar a function pointer is: an integer-coded target (0 is `NULL`), 8 bytes like any
/// pointer. The front end gives each function it can call through a pointer a distinct code.
pub const FN_PTR: Ty = Ty::Int {
    bits: 64,
    signed: false,
};

/// Known record layouts, enum names and typedefs.
#[derive(Default, Debug)]
pub struct TypeEnv {
    /// Record name → fields (name, type), in declaration order.
    pub records: HashMap<String, Vec<(String, CType)>>,
    /// Union names: their members (in `records`) all lie at offset 0.
    pub unions: std::collections::HashSet<String>,
    /// Enum names (plain and scope-qualified, `E` and `S::E`) → the integer type that holds
    /// them: the fixed underlying type (`enum class E : unsigned char`) or the one clang
    /// chooses from the values (see `lower/globals.rs`).
    pub enums: HashMap<String, Ty>,
    /// Typedef and alias names (plain and scope-qualified) → the spelling they stand for
    /// (`real` → `float`); `None` when two declarations of one name disagree, so the name
    /// stays unknown rather than guessed. Clang desugars a typedef at the top of a type
    /// (`desugaredQualType`) but not below a pointer or array (`real *`), which is what this
    /// map is for.
    pub typedefs: HashMap<String, Option<String>>,
    /// Record name → alignment in bytes its declaration asks for (`__align__(16)`,
    /// `__attribute__((aligned(16)))`, as CUDA's `float4` has), when it does.
    pub aligns: HashMap<String, u64>,
}

const QUALIFIERS: &[&str] = &[
    "const",
    "volatile",
    "__restrict",
    "restrict",
    "__restrict__",
    "struct",
    "class",
    "union",
    "enum",
    "typename",
];

impl TypeEnv {
    /// Parse a clang type spelling.
    pub fn parse(&self, s: &str) -> CType {
        self.parse_depth(s, 0)
    }

    /// Record the typedef `name` for `target`; a second, different target makes the name
    /// ambiguous (`None`).
    pub fn add_typedef(&mut self, name: &str, target: &str) {
        if name.is_empty() || name == target.trim() {
            return;
        }
        let target = target.trim().to_string();
        self.typedefs
            .entry(name.to_string())
            .and_modify(|t| {
                if t.as_deref() != Some(target.as_str()) {
                    *t = None;
                }
            })
            .or_insert(Some(target));
    }

    /// [`Self::parse`], following at most 16 typedefs deep (a cycle is `Other`).
    fn parse_depth(&self, s: &str, depth: u32) -> CType {
        let s = s.trim();
        let key = strip_tag(s);
        if self.records.contains_key(key) {
            return CType::Record(key.to_string());
        }
        // libcu++'s `cuda::aligned_size_t<N>` (`cuda/std/__cuda/barrier.h`: one `size_t` with
        // a promise of alignment, the size argument of `cuda::memcpy_async`) is that `size_t`:
        // its record is in the precompiled header, not the AST.
        if let Some(rest) = key
            .trim_start_matches("const ")
            .trim_start_matches("::")
            .strip_prefix("cuda::")
            .map(|r| r.trim_start_matches("__4::").trim_start_matches("std::"))
            && rest.starts_with("aligned_size_t<")
            && rest.ends_with('>')
        {
            return CType::Scalar(Ty::U64);
        }
        // A warp matrix fragment, by whichever spelling (`cuda/wmma.rs`).
        if key.contains("fragment<")
            && let Some(mut f) = crate::frontend::cuda::fragment::Fragment::parse(key)
        {
            if !self.records.contains_key(&f.key()) && depth < 16 {
                // An element type named by a typedef (`uint8_t`): the type it stands for.
                f.elem = match self.parse_depth(&f.elem, depth + 1) {
                    CType::Scalar(t) => scalar_spelling(t).unwrap_or_default().to_string(),
                    CType::Record(r) => r,
                    _ => String::new(),
                };
            }
            if self.records.contains_key(&f.key()) {
                return CType::Record(f.key());
            }
        }
        // OpenCL's vectors (clang's `T __attribute__((ext_vector_type(N)))`): records of
        // components `s0`, `s1`, … (`opencl_vector_records`).
        if let Some(i) = s.find(EXT_VECTOR) {
            let n = s[i + EXT_VECTOR.len()..]
                .split(')')
                .next()
                .and_then(|n| n.trim().parse::<usize>().ok());
            let name = match (self.parse_depth(&s[..i], depth), n) {
                (CType::Scalar(ty), Some(n)) => ext_vector_name(ty, n),
                _ => s.to_string(),
            };
            return match self.records.contains_key(&name) {
                true => CType::Record(name),
                false => CType::Other(s.to_string()),
            };
        }
        // Reference.
        if let Some(rest) = s.strip_suffix('&') {
            let rest = rest.trim_end_matches('&');
            return CType::Ref(Box::new(self.parse_depth(rest, depth)));
        }
        // Function types and function pointers: `int (int *)`, `void (*)(int)`.
        if s.ends_with(')') {
            return fn_spelling(s);
        }
        // Pointer to array: `int (*)[8]`, `unsigned int (*const)[32]`.
        if let Some(i) = s.find("(*")
            && let Some(j) = s[i..].find(')').map(|j| i + j)
            && s[i + 2..j].split_whitespace().all(|w| QUALIFIERS.contains(&w))
            && s[j + 1..].trim_start().starts_with('[')
        {
            let base = &s[..i];
            let dims = &s[j + 1..];
            let inner = self.parse_depth(&format!("{} {}", base.trim(), dims.trim()), depth);
            return CType::Ptr(Box::new(inner));
        }
        // Arrays: `T [4][8]`.
        if s.ends_with(']')
            && let Some(i) = s.find('[')
        {
            let base = self.parse_depth(&s[..i], depth);
            let mut dims = Vec::new();
            for part in s[i..].split('[').skip(1) {
                let d = part.trim_end_matches(']').trim();
                dims.push(if d.is_empty() { None } else { d.parse::<u64>().ok() });
            }
            let mut t = base;
            for d in dims.into_iter().rev() {
                t = CType::Array(Box::new(t), d);
            }
            return t;
        }
        // Pointer (possibly qualified after the star: `int *const`, `int *__restrict`).
        if let Some(i) = s.rfind('*') {
            let after = s[i + 1..].trim();
            if after.split_whitespace().all(|w| QUALIFIERS.contains(&w)) {
                return CType::Ptr(Box::new(self.parse_depth(&s[..i], depth)));
            }
        }
        let words: Vec<&str> = s.split_whitespace().filter(|w| !QUALIFIERS.contains(w)).collect();
        let is_union = s.split_whitespace().any(|w| w == "union");
        let is_enum = s.split_whitespace().any(|w| w == "enum");
        let joined = words.join(" ");
        if let Some(t) = scalar_named(&joined) {
            return t;
        }
        if let Some(t) = self.enums.get(&joined) {
            return CType::Scalar(*t);
        }
        if is_enum {
            return CType::Scalar(Ty::I32);
        }
        if let Some(Some(target)) = self.typedefs.get(&joined)
            && depth < 16
        {
            return self.parse_depth(target, depth + 1);
        }
        // The C library's integer typedefs, which the AST of the kernel's file does not
        // declare (they come from the precompiled headers); the file's own typedefs win.
        if !self.typedefs.contains_key(&joined)
            && let Some(target) = c_library_typedef(&joined)
        {
            return self.parse_depth(target, depth + 1);
        }
        if is_union || self.unions.contains(&joined) {
            return CType::Other(joined);
        }
        if self.records.contains_key(&joined) {
            return CType::Record(joined);
        }
        CType::Other(joined)
    }

    /// Whether `s` spells a function pointer (through typedefs too).
    pub fn is_fn_ptr(&self, s: &str) -> bool {
        self.is_fn_ptr_depth(s, 0)
    }

    fn is_fn_ptr_depth(&self, s: &str, depth: u32) -> bool {
        let s = s.trim();
        if s.ends_with(')') {
            return fn_spelling(s) == CType::Scalar(FN_PTR);
        }
        let words: Vec<&str> = s.split_whitespace().filter(|w| !QUALIFIERS.contains(w)).collect();
        match self.typedefs.get(&words.join(" ")) {
            Some(Some(t)) if depth < 16 => self.is_fn_ptr_depth(t, depth + 1),
            _ => false,
        }
    }

    /// Size and alignment in bytes, for types that have a layout.
    pub fn layout(&self, t: &CType) -> Option<(u64, u64)> {
        match t {
            CType::Scalar(ty) => Some((ty.bytes() as u64, ty.bytes() as u64)),
            CType::Ptr(_) => Some((8, 8)),
            CType::Array(e, Some(n)) => {
                let (s, a) = self.layout(e)?;
                Some((s * n, a))
            }
            CType::Record(name) if self.unions.contains(name) => {
                let fields = self.records.get(name)?;
                let mut size = 0u64;
                let mut align = self.aligns.get(name).copied().unwrap_or(1).max(1);
                for (_, ft) in fields {
                    let (s, a) = self.layout(ft)?;
                    size = size.max(s);
                    align = align.max(a);
                }
                Some((size.div_ceil(align).max(1) * align, align))
            }
            CType::Record(name) => {
                let fields = self.records.get(name)?;
                let mut off = 0u64;
                let mut align = self.aligns.get(name).copied().unwrap_or(1).max(1);
                for (_, ft) in fields {
                    let (s, a) = self.layout(ft)?;
                    off = off.div_ceil(a) * a;
                    off += s;
                    align = align.max(a);
                }
                Some((off.div_ceil(align).max(1) * align, align))
            }
            _ => None,
        }
    }

    /// Fields of a record with their byte offsets (all 0 for a union).
    pub fn fields(&self, name: &str) -> Option<Vec<(String, u64, CType)>> {
        let fields = self.records.get(name)?;
        if self.unions.contains(name) {
            return fields
                .iter()
                .map(|(f, t)| self.layout(t).map(|_| (f.clone(), 0, t.clone())))
                .collect();
        }
        let mut off = 0u64;
        let mut out = Vec::new();
        for (fname, ft) in fields {
            let (s, a) = self.layout(ft)?;
            off = off.div_ceil(a) * a;
            out.push((fname.clone(), off, ft.clone()));
            off += s;
        }
        Some(out)
    }
}

/// The C spelling of the scalar `t` as CUDA's headers name fragment element types
/// (`unsigned char`, `float`), for the scalars a fragment can hold.
fn scalar_spelling(t: Ty) -> Option<&'static str> {
    Some(match t {
        Ty::Int { bits: 8, signed: true } => "signed char",
        Ty::Int { bits: 8, signed: false } => "unsigned char",
        Ty::Int { bits: 32, signed: true } => "int",
        Ty::Int {
            bits: 32,
            signed: false,
        } => "unsigned int",
        Ty::Float { bits: 32 } => "float",
        Ty::Float { bits: 64 } => "double",
        _ => return None,
    })
}

/// A spelling that ends with `)`: a function type (`int (int)`, `float (*(int))(float)`, a
/// function returning a function pointer) or a pointer to one (`void (*)(int)`, a
/// [`FN_PTR`] scalar; `void (**)(int)`, a pointer to such a scalar).
fn fn_spelling(s: &str) -> CType {
    let Some(i) = s.find("(*") else {
        return CType::Func;
    };
    // The declarator group `( * … )` that opens at `i`.
    let mut depth = 0usize;
    let mut end = None;
    for (j, c) in s[i..].char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    end = Some(i + j);
                    break;
                }
            }
            _ => {}
        }
    }
    let Some(end) = end else {
        return CType::Other(s.to_string());
    };
    let inner = &s[i + 1..end];
    let stars = inner.chars().take_while(|c| *c == '*').count();
    let rest = inner[stars..].trim();
    if !rest.split_whitespace().all(|w| QUALIFIERS.contains(&w)) && !rest.contains("(*") {
        // `R (*(params))(…)`: a function returning a function pointer.
        return CType::Func;
    }
    let mut t = CType::Scalar(FN_PTR);
    for _ in 1..stars {
        t = CType::Ptr(Box::new(t));
    }
    t
}

/// `s` without leading qualifiers and tag keywords (`const struct S` → `S`).
pub fn strip_tag(s: &str) -> &str {
    let mut s = s.trim();
    loop {
        let before = s;
        for q in ["const ", "volatile ", "struct ", "class ", "union "] {
            s = s.strip_prefix(q).unwrap_or(s).trim_start();
        }
        if s == before {
            return s;
        }
    }
}

/// What the C library's integer typedefs stand for on the targets gpug reads (Linux LP64 and
/// NVPTX64, which share them: glibc's `<stdint.h>`, `<time.h>`, `<sys/types.h>`), for names the
/// kernel's file does not define itself.
fn c_library_typedef(name: &str) -> Option<&'static str> {
    Some(match name {
        "int8_t" | "int_least8_t" | "int_fast8_t" => "signed char",
        "uint8_t" | "uint_least8_t" | "uint_fast8_t" | "u_char" => "unsigned char",
        "int16_t" | "int_least16_t" => "short",
        "uint16_t" | "uint_least16_t" | "ushort" | "u_short" => "unsigned short",
        "int32_t" | "int_least32_t" => "int",
        "uint32_t" | "uint_least32_t" | "uint" | "u_int" => "unsigned int",
        "int_least64_t" | "int_fast16_t" | "int_fast32_t" | "int_fast64_t" | "intmax_t" | "clock_t" | "time_t"
        | "ssize_t" | "off_t" => "long",
        "uint_least64_t" | "uint_fast16_t" | "uint_fast32_t" | "uint_fast64_t" | "uintmax_t" | "ulong" | "u_long" => {
            "unsigned long"
        }
        _ => return None,
    })
}

/// Whether `name` is one of CUDA's 16-bit float types, which NVIDIA's headers define as
/// structs of an `unsigned short` (`__half`, `__nv_bfloat16`; 2 bytes) or of two
/// (`__half2`, `__nv_bfloat162`; 4 bytes), or their `_raw` forms.
pub fn is_fp16_record(name: &str) -> bool {
    matches!(
        name,
        "__half"
            | "__half2"
            | "__half_raw"
            | "__half2_raw"
            | "__nv_bfloat16"
            | "__nv_bfloat162"
            | "__nv_bfloat16_raw"
            | "__nv_bfloat162_raw"
    )
}

/// Builtin scalar type names.
fn scalar_named(s: &str) -> Option<CType> {
    let i = |bits, signed| Some(CType::Scalar(Ty::Int { bits, signed }));
    match s {
        "void" => Some(CType::Void),
        "bool" | "_Bool" => Some(CType::Scalar(Ty::Bool)),
        "char" | "signed char" => i(8, true),
        "unsigned char" => i(8, false),
        "short" | "short int" | "signed short" | "signed short int" => i(16, true),
        "unsigned short" | "unsigned short int" | "char16_t" => i(16, false),
        "int" | "signed int" | "signed" => i(32, true),
        "unsigned int" | "unsigned" | "char32_t" => i(32, false),
        "wchar_t" => i(32, true),
        "long" | "long int" | "signed long" | "long long" | "long long int" | "signed long long" | "ptrdiff_t"
        | "__ptrdiff_t" | "intptr_t" | "int64_t" => i(64, true),
        "unsigned long"
        | "unsigned long int"
        | "unsigned long long"
        | "unsigned long long int"
        | "size_t"
        | "uintptr_t"
        | "uint64_t" => i(64, false),
        "float" => Some(CType::Scalar(Ty::Float { bits: 32 })),
        "double" | "long double" => Some(CType::Scalar(Ty::Float { bits: 64 })),
        "half" | "_Float16" | "__fp16" => Some(CType::Scalar(Ty::Float { bits: 16 })),
        _ => None,
    }
}

impl CType {
    /// The scalar type, if this is a scalar.
    pub fn scalar(&self) -> Option<Ty> {
        match self {
            CType::Scalar(t) => Some(*t),
            _ => None,
        }
    }

    /// A short spelling for messages.
    pub fn describe(&self) -> String {
        match self {
            CType::Void => "void".into(),
            CType::Scalar(t) => match t {
                Ty::Bool => "bool".into(),
                Ty::Int { bits, signed } => {
                    let name = match bits {
                        8 => "char",
                        16 => "short",
                        32 => "int",
                        _ => "long long",
                    };
                    if *signed {
                        name.into()
                    } else {
                        format!("unsigned {name}")
                    }
                }
                Ty::Float { bits: 16 } => "half".into(),
                Ty::Float { bits: 32 } => "float".into(),
                Ty::Float { .. } => "double".into(),
            },
            CType::Ptr(t) => format!("{} *", t.describe()),
            CType::Array(t, n) => format!("{}[{}]", t.describe(), n.map(|n| n.to_string()).unwrap_or_default()),
            CType::Record(n) => n.clone(),
            CType::Func => "function".into(),
            CType::Ref(t) => format!("{} &", t.describe()),
            CType::Other(s) => s.clone(),
        }
    }
}

/// A record's fields: (name, type) in declaration order.
pub type Fields = Vec<(String, CType)>;

/// CUDA's vector types (`char1` … `double4`, `longlong1` …, `uint3`, `dim3`) as records of
/// scalar fields `x`, `y`, `z`, `w` with the alignment `vector_types.h` declares (CUDA
/// Programming Guide, "Built-in Vector Types": 3-component types are aligned as their
/// scalar, the others as their size up to 16 bytes), for when they come from NVIDIA's
/// precompiled headers, whose record declarations are not in the kernel's AST.
/// Returns (name, fields, alignment in bytes).
pub fn cuda_vector_records() -> Vec<(String, Fields, u64)> {
    let int = |bits, signed| CType::Scalar(Ty::Int { bits, signed });
    let float = |bits| CType::Scalar(Ty::Float { bits });
    let bases = [
        ("char", int(8, true), 1),
        ("uchar", int(8, false), 1),
        ("short", int(16, true), 2),
        ("ushort", int(16, false), 2),
        ("int", int(32, true), 4),
        ("uint", int(32, false), 4),
        ("long", int(64, true), 8),
        ("ulong", int(64, false), 8),
        ("longlong", int(64, true), 8),
        ("ulonglong", int(64, false), 8),
        ("float", float(32), 4),
        ("double", float(64), 8),
    ];
    let mut out = Vec::new();
    for (base, t, size) in bases {
        for n in 1..=4u64 {
            let fields = ["x", "y", "z", "w"][..n as usize]
                .iter()
                .map(|f| (f.to_string(), t.clone()))
                .collect();
            let align = if n == 3 { size } else { (n * size).min(16) };
            out.push((format!("{base}{n}"), fields, align));
        }
    }
    let dim3 = ["x", "y", "z"]
        .iter()
        .map(|f| (f.to_string(), int(32, false)))
        .collect();
    out.push(("dim3".into(), dim3, 4));
    out
}

/// CUDA's 16-bit float records as `cuda_fp16.h` and `cuda_bf16.h` define them (CUDA 11.8 and
/// 12.x alike): `__half` and `__nv_bfloat16` hold their bits in `unsigned short __x` (2 bytes,
/// aligned to 2), `__half2` and `__nv_bfloat162` two of them as `x` and `y` (4 bytes, aligned
/// to 4), and the `_raw` forms the same bits as `x` (and `y`). With a precompiled header that
/// includes those headers (CUDA 12's cooperative groups do) their definitions are not in the
/// AST, so the front end knows their layouts from here, as [`cuda_vector_records`]'.
pub fn cuda_fp16_records() -> Vec<(String, Fields, u64)> {
    let u16 = CType::Scalar(Ty::Int {
        bits: 16,
        signed: false,
    });
    let one = |f: &str| vec![(f.to_string(), u16.clone())];
    let two = |t: CType| vec![("x".to_string(), t.clone()), ("y".to_string(), t)];
    let mut out = Vec::new();
    for (scalar, pair) in [("__half", "__half2"), ("__nv_bfloat16", "__nv_bfloat162")] {
        out.push((scalar.to_string(), one("__x"), 2));
        out.push((pair.to_string(), two(CType::Record(scalar.to_string())), 4));
        out.push((format!("{scalar}_raw"), one("x"), 2));
        out.push((format!("{pair}_raw"), two(u16.clone()), 4));
    }
    out
}

/// How clang spells an OpenCL vector type after its component type.
const EXT_VECTOR: &str = "__attribute__((ext_vector_type(";

/// The component counts of OpenCL's vector types (OpenCL 1.2 section 6.1.2).
pub const EXT_VECTOR_LENGTHS: [usize; 5] = [2, 3, 4, 8, 16];

/// The record name gpug gives OpenCL's vector of `n` components of `ty` (`int4`:
/// `vector4 of i32`).
pub fn ext_vector_name(ty: Ty, n: usize) -> String {
    let t = match ty {
        Ty::Bool => "bool".to_string(),
        Ty::Int { bits, signed } => format!("{}{bits}", if signed { "i" } else { "u" }),
        Ty::Float { bits } => format!("f{bits}"),
    };
    format!("vector{n} of {t}")
}

/// The component type and count of a record named by [`ext_vector_name`].
pub fn ext_vector_of(name: &str) -> Option<(Ty, usize)> {
    let rest = name.strip_prefix("vector")?;
    let (n, t) = rest.split_once(" of ")?;
    let n = n.parse().ok()?;
    let ty = match (t.as_bytes().first()?, t[1..].parse::<u32>().ok()) {
        (b'i', Some(bits)) => Ty::Int { bits, signed: true },
        (b'u', Some(bits)) => Ty::Int { bits, signed: false },
        (b'f', Some(bits)) => Ty::Float { bits },
        _ => return None,
    };
    Some((ty, n))
}

/// OpenCL's vector types (`char2` … `double16`, OpenCL 1.2 section 6.1.2) as records of scalar
/// components `s0`, `s1`, … named by [`ext_vector_name`], each aligned to its size, a
/// 3-component vector sized and aligned as a 4-component one (section 6.1.5). Returns (name,
/// fields, alignment in bytes).
pub fn opencl_vector_records() -> Vec<(String, Fields, u64)> {
    let mut out = Vec::new();
    let tys = [8, 16, 32, 64]
        .into_iter()
        .flat_map(|bits| [Ty::Int { bits, signed: true }, Ty::Int { bits, signed: false }])
        .chain([16, 32, 64].map(|bits| Ty::Float { bits }));
    for ty in tys {
        for n in EXT_VECTOR_LENGTHS {
            let fields = (0..n).map(|i| (format!("s{i}"), CType::Scalar(ty))).collect();
            let size = ty.bytes() as u64 * if n == 3 { 4 } else { n as u64 };
            out.push((ext_vector_name(ty, n), fields, size));
        }
    }
    out
}

/// The records of cuRAND's device API (`curand_kernel.h`, `curand_philox4x32_x.h`,
/// `curand_mtgp32.h` of CUDA 11.8), whose declarations come from NVIDIA's precompiled headers
/// and so are not in the kernel's AST, as [`cuda_vector_records`] are not. Fields as the
/// headers declare them, except the pointer member `k` of `curandStateMtgp32` (to the
/// generator's parameter tables), an opaque 64-bit integer here. Sizes and alignments follow
/// from the fields (`tests/kernels/curand/layouts.cu` checks them against clang's).
/// Returns (name, fields); alignments are those of the fields.
pub fn curand_records() -> Vec<(String, Fields)> {
    let u32_ = CType::Scalar(Ty::U32);
    let u64_ = CType::Scalar(Ty::Int {
        bits: 64,
        signed: false,
    });
    let i32_ = CType::Scalar(Ty::I32);
    let arr = |t: &CType, n| CType::Array(Box::new(t.clone()), Some(n));
    let f = |n: &str, t: CType| (n.to_string(), t);
    // The Box-Muller cache that the normal distributions keep between calls.
    let boxmuller = || {
        vec![
            f("boxmuller_flag", i32_.clone()),
            f("boxmuller_flag_double", i32_.clone()),
            f("boxmuller_extra", CType::Scalar(Ty::Float { bits: 32 })),
            f("boxmuller_extra_double", CType::Scalar(Ty::Float { bits: 64 })),
        ]
    };
    let xorwow = [vec![f("d", u32_.clone()), f("v", arr(&u32_, 5))], boxmuller()].concat();
    let mrg = [vec![f("s1", arr(&u32_, 3)), f("s2", arr(&u32_, 3))], boxmuller()].concat();
    let philox = [
        vec![
            f("ctr", CType::Record("uint4".into())),
            f("output", CType::Record("uint4".into())),
            f("key", CType::Record("uint2".into())),
            f("STATE", u32_.clone()),
        ],
        boxmuller(),
    ]
    .concat();
    let sobol = |t: &CType, n| {
        vec![
            f("i", t.clone()),
            f("x", t.clone()),
            f("c", t.clone()),
            f("direction_vectors", arr(t, n)),
        ]
    };
    let mtgp = vec![
        f("s", arr(&u32_, 1024)),
        f("offset", i32_.clone()),
        f("pIdx", i32_.clone()),
        f("k", u64_.clone()),
    ];
    vec![
        ("curandStateTest".into(), vec![f("v", u32_.clone())]),
        ("curandStateXORWOW".into(), xorwow),
        ("curandStateMRG32k3a".into(), mrg),
        ("curandStatePhilox4_32_10".into(), philox),
        ("curandStateSobol32".into(), sobol(&u32_, 32)),
        ("curandStateScrambledSobol32".into(), sobol(&u32_, 32)),
        ("curandStateSobol64".into(), sobol(&u64_, 64)),
        ("curandStateScrambledSobol64".into(), sobol(&u64_, 64)),
        ("curandStateMtgp32".into(), mtgp),
    ]
}

/// The CUDA runtime's records that kernels take by value (`driver_types.h`: `cudaExtent`,
/// `cudaPos`, `cudaPitchedPtr`), for when they come from NVIDIA's precompiled headers, whose
/// declarations are not in the kernel's AST. `size_t` fields are 64-bit.
pub fn cuda_runtime_records() -> Vec<(String, Fields)> {
    let size = || {
        CType::Scalar(Ty::Int {
            bits: 64,
            signed: false,
        })
    };
    let named = |names: &[&str]| -> Fields { names.iter().map(|n| (n.to_string(), size())).collect() };
    let mut pitched = vec![("ptr".to_string(), CType::Ptr(Box::new(CType::Void)))];
    pitched.extend(named(&["pitch", "xsize", "ysize"]));
    vec![
        ("cudaExtent".into(), named(&["width", "height", "depth"])),
        ("cudaPos".into(), named(&["x", "y", "z"])),
        ("cudaPitchedPtr".into(), pitched),
    ]
}

/// The CUDA runtime's typedefs that kernels use (name, what it stands for): the texture and
/// surface object handles (`texture_types.h`, `surface_types.h`).
pub fn cuda_runtime_typedefs() -> Vec<(&'static str, &'static str)> {
    vec![
        ("cudaTextureObject_t", "unsigned long long"),
        ("cudaSurfaceObject_t", "unsigned long long"),
    ]
}

/// cuRAND's typedefs of its state records and direction vectors (name, what it stands for).
pub fn curand_typedefs() -> Vec<(&'static str, &'static str)> {
    vec![
        ("curandState", "struct curandStateXORWOW"),
        ("curandState_t", "struct curandStateXORWOW"),
        ("curandStateXORWOW_t", "struct curandStateXORWOW"),
        ("curandStateTest_t", "struct curandStateTest"),
        ("curandStateMRG32k3a_t", "struct curandStateMRG32k3a"),
        ("curandStatePhilox4_32_10_t", "struct curandStatePhilox4_32_10"),
        ("curandStateSobol32_t", "struct curandStateSobol32"),
        ("curandStateScrambledSobol32_t", "struct curandStateScrambledSobol32"),
        ("curandStateSobol64_t", "struct curandStateSobol64"),
        ("curandStateScrambledSobol64_t", "struct curandStateScrambledSobol64"),
        ("curandStateMtgp32_t", "struct curandStateMtgp32"),
        ("curandDirectionVectors32_t", "unsigned int [32]"),
        ("curandDirectionVectors64_t", "unsigned long long [64]"),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_common_spellings() {
        let env = TypeEnv::default();
        assert_eq!(
            env.parse("const int *__restrict"),
            CType::Ptr(Box::new(CType::Scalar(Ty::I32)))
        );
        assert_eq!(
            env.parse("int[4][8]"),
            CType::Array(
                Box::new(CType::Array(Box::new(CType::Scalar(Ty::I32)), Some(8))),
                Some(4)
            )
        );
        assert_eq!(
            env.parse("int (*)[8]"),
            CType::Ptr(Box::new(CType::Array(Box::new(CType::Scalar(Ty::I32)), Some(8))))
        );
        assert_eq!(
            env.parse("unsigned int (*const)[32]"),
            CType::Ptr(Box::new(CType::Array(
                Box::new(CType::Scalar(Ty::Int {
                    bits: 32,
                    signed: false
                })),
                Some(32)
            )))
        );
        assert_eq!(
            env.parse("unsigned long long"),
            CType::Scalar(Ty::Int {
                bits: 64,
                signed: false
            })
        );
        assert_eq!(env.parse("void (*)(int)"), CType::Scalar(FN_PTR));
        assert_eq!(env.parse("void (**)(int)"), CType::Ptr(Box::new(CType::Scalar(FN_PTR))));
        assert_eq!(env.parse("float (*const)(float *, int)"), CType::Scalar(FN_PTR));
        assert_eq!(env.parse("void (int)"), CType::Func);
        assert_eq!(env.parse("float (*(int))(float *, unsigned int)"), CType::Func);
        assert!(env.is_fn_ptr("void (*)(int)"));
        assert!(!env.is_fn_ptr("void (int)"));
        assert!(!env.is_fn_ptr("unsigned long"));
        assert_eq!(
            env.parse("float []"),
            CType::Array(Box::new(CType::Scalar(Ty::Float { bits: 32 })), None)
        );
    }

    /// gpug's layouts of cuRAND's records against the sizes, alignments and offsets that
    /// `tests/kernels/curand/layouts.cu` states and clang checks there (`tests/curand.rs`).
    #[test]
    fn curand_layouts_match_clangs() {
        let mut env = TypeEnv::default();
        for (name, fields, align) in cuda_vector_records() {
            env.records.insert(name.clone(), fields);
            env.aligns.insert(name, align);
        }
        for (name, fields) in curand_records() {
            env.records.insert(name, fields);
        }
        for (name, target) in curand_typedefs() {
            env.add_typedef(name, target);
        }
        let text = include_str!("../../tests/kernels/curand/layouts.cu");
        let mut checked = 0;
        for line in text.lines().filter(|l| l.starts_with("static_assert(")) {
            let body = &line["static_assert(".len()..];
            let (lhs, rest) = body.split_once(" == ").expect("`==`");
            let want: u64 = rest
                .split(',')
                .next()
                .and_then(|n| n.trim().parse().ok())
                .expect("a number");
            let (op, arg) = lhs.trim_end_matches(')').split_once('(').expect("op(arg)");
            let got = match op {
                "sizeof" => env.layout(&env.parse(arg)).map(|l| l.0),
                "alignof" => env.layout(&env.parse(arg)).map(|l| l.1),
                "offsetof" => {
                    let (t, f) = arg.split_once(", ").expect("offsetof(T, f)");
                    let CType::Record(r) = env.parse(t) else {
                        panic!("{t} is not a record");
                    };
                    env.fields(&r)
                        .and_then(|fs| fs.into_iter().find(|x| x.0 == f).map(|x| x.1))
                }
                other => panic!("unknown {other}"),
            };
            assert_eq!(got, Some(want), "{line}");
            checked += 1;
        }
        assert!(checked >= 30, "{checked} lines");
    }
}
