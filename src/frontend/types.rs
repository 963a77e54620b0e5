//! C types as clang spells them in `qualType` strings, read by a tiny parser, and the sizes and
//! field offsets of the records a translation unit declares.
//!
//! Owns types only: it does not read declarations (`lower/globals.rs` fills a [`TypeEnv`]) or
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

/// Known record layouts and enum names.
#[derive(Default, Debug)]
pub struct TypeEnv {
    /// Record name → fields (name, type), in declaration order.
    pub records: HashMap<String, Vec<(String, CType)>>,
    /// Union names (unsupported in memory layouts).
    pub unions: std::collections::HashSet<String>,
    /// Enum names (lowered as `int`).
    pub enums: std::collections::HashSet<String>,
    /// Typedef and alias names → the spelling of the type they name (clang prints sugar such as
    /// `funcType[2]` or `uint (int)` inside composite spellings).
    pub typedefs: HashMap<String, String>,
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
        let s = s.trim();
        let key = strip_tag(s);
        if self.records.contains_key(key) {
            return CType::Record(key.to_string());
        }
        // Reference.
        if let Some(rest) = s.strip_suffix('&') {
            let rest = rest.trim_end_matches('&');
            return CType::Ref(Box::new(self.parse(rest)));
        }
        // Function types and function pointers: `int (int *)`, `void (*)(int)`.
        if s.ends_with(')') {
            return fn_spelling(s);
        }
        // Pointer to array: `int (*)[8]`.
        if let Some(i) = s.find("(*)") {
            let base = &s[..i];
            let dims = &s[i + 3..];
            let inner = self.parse(&format!("{} {}", base.trim(), dims.trim()));
            return CType::Ptr(Box::new(inner));
        }
        // Arrays: `T [4][8]`.
        if s.ends_with(']')
            && let Some(i) = s.find('[')
        {
            let base = self.parse(&s[..i]);
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
                return CType::Ptr(Box::new(self.parse(&s[..i])));
            }
        }
        let words: Vec<&str> = s.split_whitespace().filter(|w| !QUALIFIERS.contains(w)).collect();
        let is_union = s.split_whitespace().any(|w| w == "union");
        let is_enum = s.split_whitespace().any(|w| w == "enum");
        let joined = words.join(" ");
        if is_enum {
            return CType::Scalar(Ty::I32);
        }
        if let Some(t) = scalar_named(&joined) {
            return t;
        }
        if self.enums.contains(&joined) {
            return CType::Scalar(Ty::I32);
        }
        if is_union || self.unions.contains(&joined) {
            return CType::Other(joined);
        }
        if self.records.contains_key(&joined) {
            return CType::Record(joined);
        }
        if let Some(t) = self.typedefs.get(&joined).filter(|t| strip_tag(t) != joined) {
            return self.parse(t);
        }
        CType::Other(joined)
    }

    /// Whether `s` spells a function pointer (through typedefs too).
    pub fn is_fn_ptr(&self, s: &str) -> bool {
        let s = s.trim();
        if s.ends_with(')') {
            return fn_spelling(s) == CType::Scalar(FN_PTR);
        }
        let joined: Vec<&str> = s.split_whitespace().filter(|w| !QUALIFIERS.contains(w)).collect();
        match self.typedefs.get(&joined.join(" ")) {
            Some(t) if strip_tag(t) != joined.join(" ") => self.is_fn_ptr(t),
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
            CType::Record(name) => {
                let fields = self.records.get(name)?;
                let mut off = 0u64;
                let mut align = 1u64;
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

    /// Fields of a record with their byte offsets.
    pub fn fields(&self, name: &str) -> Option<Vec<(String, u64, CType)>> {
        let fields = self.records.get(name)?;
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
    let rest_words_only = rest.split_whitespace().all(|w| QUALIFIERS.contains(&w));
    if !rest_words_only && !rest.contains("(*") {
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
        "half" | "__half" | "_Float16" | "__fp16" => Some(CType::Scalar(Ty::Float { bits: 16 })),
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
            CType::Scalar(t) => format!("{t:?}"),
            CType::Ptr(t) => format!("{} *", t.describe()),
            CType::Array(t, n) => format!("{}[{}]", t.describe(), n.map(|n| n.to_string()).unwrap_or_default()),
            CType::Record(n) => n.clone(),
            CType::Func => "function".into(),
            CType::Ref(t) => format!("{} &", t.describe()),
            CType::Other(s) => s.clone(),
        }
    }
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
}
