//! The fragment types of CUDA's warp matrix functions (`nvcuda::wmma::fragment<Use, M, N, K,
//! T, Layout>`, CUDA C++ Programming Guide, "Warp Matrix Functions"), read from their
//! spelling: which matrix a fragment holds, its shape, element type and layout.
//!
//! Clang spells one fragment type several ways (`wmma::fragment<wmma::accumulator, 16, 16, 16,
//! float>` as written, `nvcuda::wmma::fragment<…, __half, nvcuda::wmma::row_major>`
//! desugared, `fragment<…>` inside NVIDIA's own signatures, with or without the default
//! `void` layout); [`Fragment::key`] is the one name gpug's type environment knows each by.
//! How the functions on fragments are modelled is `cuda/wmma.rs`' business.

use crate::ir::Ty;

/// Which operand of `D = A * B + C` a fragment holds (the `Use` template argument).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Use {
    /// `matrix_a`: the M x K left operand.
    MatrixA,
    /// `matrix_b`: the K x N right operand.
    MatrixB,
    /// `accumulator`: the M x N `C` or `D`.
    Accumulator,
}

/// A fragment type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fragment {
    pub usage: Use,
    pub m: u64,
    pub n: u64,
    pub k: u64,
    /// The element type as NVIDIA's header names it, without namespaces (`__half`, `float`,
    /// `tf32`, `signed char`, `u4`, …).
    pub elem: String,
    /// `Some(true)` for `row_major`, `Some(false)` for `col_major`; `None` for an
    /// accumulator (its layout is an argument of the load and store instead).
    pub row_major: Option<bool>,
}

impl Fragment {
    /// The fragment type `s` spells (qualifiers and a `const` aside), if it is one.
    pub fn parse(s: &str) -> Option<Fragment> {
        let s = s.trim();
        let s = s.strip_prefix("const ").unwrap_or(s).trim();
        let s = s.strip_prefix("class ").unwrap_or(s).trim();
        let s = s.strip_prefix("::").unwrap_or(s);
        let s = s.strip_prefix("nvcuda::").unwrap_or(s);
        let s = s.strip_prefix("wmma::").unwrap_or(s);
        let inner = s.strip_prefix("fragment<")?.strip_suffix('>')?;
        let args: Vec<&str> = inner.split(',').map(str::trim).collect();
        if !(5..=6).contains(&args.len()) {
            return None;
        }
        let usage = match last_segment(args[0]) {
            "matrix_a" => Use::MatrixA,
            "matrix_b" => Use::MatrixB,
            "accumulator" => Use::Accumulator,
            _ => return None,
        };
        let int = |a: &str| a.trim_end_matches(['u', 'U', 'l', 'L']).parse::<u64>().ok();
        let (m, n, k) = (int(args[1])?, int(args[2])?, int(args[3])?);
        let elem = match last_segment(args[4]) {
            "half" => "__half".to_string(),
            "nv_bfloat16" => "__nv_bfloat16".to_string(),
            e => e.to_string(),
        };
        let row_major = match args.get(5).map(|a| last_segment(a)) {
            None | Some("void") => None,
            Some("row_major") => Some(true),
            Some("col_major") => Some(false),
            Some(_) => return None,
        };
        Some(Fragment {
            usage,
            m,
            n,
            k,
            elem,
            row_major,
        })
    }

    /// The name gpug's type environment registers this fragment type under.
    pub fn key(&self) -> String {
        let usage = match self.usage {
            Use::MatrixA => "matrix_a",
            Use::MatrixB => "matrix_b",
            Use::Accumulator => "accumulator",
        };
        let layout = match self.row_major {
            None => String::new(),
            Some(true) => ", row_major".into(),
            Some(false) => ", col_major".into(),
        };
        format!(
            "nvcuda::wmma::fragment<{usage}, {}, {}, {}, {}{layout}>",
            self.m, self.n, self.k, self.elem
        )
    }

    /// The rows and columns of the tile this fragment holds: M x K for `matrix_a`, K x N for
    /// `matrix_b`, M x N for an accumulator.
    pub fn shape(&self) -> (u64, u64) {
        match self.usage {
            Use::MatrixA => (self.m, self.k),
            Use::MatrixB => (self.k, self.n),
            Use::Accumulator => (self.m, self.n),
        }
    }

    /// The type of one element of the tile in memory, as `load_matrix_sync` reads it and
    /// `store_matrix_sync` writes it (`tf32` is stored as `float`; the 16-bit floats as their
    /// bits); `None` for the experimental sub-byte types (`u4`, `s4`, `b1`).
    pub fn memory_ty(&self) -> Option<Ty> {
        Some(match self.elem.as_str() {
            "__half" | "__nv_bfloat16" => Ty::Int {
                bits: 16,
                signed: false,
            },
            "float" | "tf32" => Ty::Float { bits: 32 },
            "double" => Ty::Float { bits: 64 },
            "int" => Ty::I32,
            "signed char" => Ty::Int { bits: 8, signed: true },
            "unsigned char" => Ty::Int { bits: 8, signed: false },
            _ => return None,
        })
    }

    /// The spelling of the type of the fragment's storage elements (`x[i]`): the element type,
    /// `float` for `tf32`, `unsigned` or `int` for the packed sub-byte types.
    pub fn storage_spelling(&self) -> &str {
        match self.elem.as_str() {
            "tf32" => "float",
            "u4" | "b1" => "unsigned int",
            "s4" => "int",
            e => e,
        }
    }
}

/// `c` of `a::b::c` (the whole of a name without `::`).
fn last_segment(s: &str) -> &str {
    let s = s.trim();
    s.rsplit("::").next().unwrap_or(s).trim()
}

/// The number of storage elements (`x`'s length) of a fragment whose base class is spelled
/// `base` (`__frag_base<float, 8>`, `__frag_base<experimental::precision::u4, 8, 1>`: the
/// packed size when given, else the size).
pub fn storage_len(base: &str) -> Option<u64> {
    let inner = base.trim().split_once('<')?.1.strip_suffix('>')?;
    let args: Vec<&str> = inner.split(',').map(str::trim).collect();
    let n = match args.as_slice() {
        [_, size] => size,
        [_, _, packed] => packed,
        _ => return None,
    };
    n.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spellings_of_one_fragment_share_a_key() {
        let a = Fragment::parse("wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major>").unwrap();
        let b = Fragment::parse(
            "nvcuda::wmma::fragment<nvcuda::wmma::matrix_a, 16, 16, 16, __half, nvcuda::wmma::row_major>",
        )
        .unwrap();
        assert_eq!(a.key(), b.key());
        assert_eq!(a.shape(), (16, 16));
        let c = Fragment::parse("fragment<nvcuda::wmma::accumulator, 8, 8, 4, double, void>").unwrap();
        let d = Fragment::parse("const nvcuda::wmma::fragment<nvcuda::wmma::accumulator, 8, 8, 4, double>").unwrap();
        assert_eq!(c.key(), d.key());
        assert_eq!(c.row_major, None);
        assert_eq!(c.memory_ty(), Some(Ty::Float { bits: 64 }));
        let t = Fragment::parse("wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::col_major>")
            .unwrap();
        assert_eq!(
            (t.shape(), t.row_major, t.storage_spelling()),
            ((8, 16), Some(false), "float")
        );
        assert!(Fragment::parse("std::vector<int>").is_none());
        assert!(Fragment::parse("fragment<other, 1, 2, 3, float>").is_none());
    }

    #[test]
    fn storage_lengths() {
        assert_eq!(storage_len("__frag_base<float, 8>"), Some(8));
        assert_eq!(storage_len("__frag_base<experimental::precision::u4, 8, 1>"), Some(1));
        assert_eq!(storage_len("__frag_base<float>"), None);
    }
}
