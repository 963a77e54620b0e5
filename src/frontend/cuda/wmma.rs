//! CUDA's warp matrix functions (`nvcuda::wmma`, the tensor cores; CUDA C++ Programming Guide,
//! "Warp Matrix Functions"): fragments, `fill_fragment`, `load_matrix_sync`,
//! `store_matrix_sync`, `mma_sync` and `bmma_sync`.
//!
//! NVIDIA's header implements them with compiler builtins (`__hmma_m16n16k16_ld_a`, …) that
//! gpug cannot inline, so a call is recognised by its name and the fragment type of its
//! fragment argument, before inlining, and modelled as follows.
//!
//! - A fragment (`fragment<Use, M, N, K, T, Layout>`, [`Fragment`]) is a per-thread record of
//!   `num_storage_elements` elements `x[i]` (NVIDIA's `__frag_base`): a local struct, in
//!   arrays of any rank. The guide leaves "the mapping of matrix elements into fragment
//!   internal storage" unspecified, so gpug does not know which element of the tile `x[i]`
//!   holds: after `load_matrix_sync` and `mma_sync`/`bmma_sync` the elements hold arbitrary
//!   values, fresh at each call (the product of arbitrary input matrices can be anything, as
//!   can their elements; like float arithmetic, which gpug keeps opaque, this does not make a
//!   defect "possible"); `fill_fragment(f, v)` sets every element to `v`. A store writes
//!   arbitrary values likewise.
//! - `load_matrix_sync(a, p, ldm[, layout])` reads the rows x cols tile at `p` (M x K for
//!   `matrix_a`, K x N for `matrix_b`, M x N for an accumulator), element `(r, c)` at
//!   `p[r*ldm + c]` in row-major layout and `p[c*ldm + r]` in column-major (the fragment
//!   type's layout, or for an accumulator the `layout` argument); `store_matrix_sync(p, d,
//!   ldm, layout)` writes it. The guide says only that the warp as a whole
//!   reads or writes the tile ("each lane in the warp can read one or multiple matrix
//!   elements"), not which lane touches which element. gpug models this as: each lane `l`
//!   (its linear thread id mod 32) accesses one arbitrary element of its share of the tile,
//!   the elements `(r, c)` whose index `e = r * cols + c` in the matrix has `(e + s) mod 32
//!   = l`, for a shift `s` that is the same for every lane and unknown, one per fragment
//!   type. So the lanes of a warp cover the whole tile and never two the same element (a
//!   store does not race with itself); two warps' accesses conflict exactly when their
//!   tiles overlap; an access of the warp's own lanes outside the call (a plain store by
//!   lane `l` of an element of the tile) conflicts with the call unless the two are
//!   ordered, whichever lane `l` is, since `s` may give the element to any lane; and a warp
//!   that loads a tile into a fragment and stores a fragment of the same type back to it
//!   (`C = A * B + C` in place) has each element read and written by one lane, as the
//!   hardware does (the mapping is a property of the fragment type, whatever the memory
//!   layout), while tiles of two fragment types, or shifted ones, may map an element to two
//!   lanes. Hence no race is missed that one of the considered lane-to-element mappings
//!   would have; an intra-warp race found may need a particular mapping.
//! - The calls are `_sync` in name only as far as memory goes: they wait for the warp's
//!   lanes but the guide gives them no memory ordering, so they order no access (a warp that
//!   writes shared memory and loads it as a matrix needs `__syncwarp()` or a barrier in
//!   between; without one the race is reported).
//! - The guide requires every lane of the warp to make each call with the same arguments
//!   ("undefined" otherwise); gpug assumes so and does not check it: a call made by part
//!   of a warp accesses only the shares of the lanes that make it.
//! - The experimental sub-byte types (`u4`, `s4`, `b1`) are refused in loads and stores.
//!
//! A kernel that calls them gets a note saying all this in one line.

use crate::frontend::ast::{Node, strip_parens};
use crate::frontend::cuda::fragment::{Fragment, storage_len};
use crate::frontend::cuda::groups::block_rank;
use crate::frontend::lower::globals::{Globals, template_args};
use crate::frontend::lower::{CallSite, LVal, Lower, PtrVal, R, Val, unsupported};
use crate::frontend::types::CType;
use crate::ir::build::{bin, cast};
use crate::ir::*;

/// The warp matrix functions gpug models.
const FUNCTIONS: &[&str] = &[
    "load_matrix_sync",
    "store_matrix_sync",
    "mma_sync",
    "bmma_sync",
    "fill_fragment",
];

/// The note of every kernel that calls a warp matrix function.
const NOTE: &str = "warp matrix functions: fragment values are arbitrary; a load or store of a tile is, in each lane, an access to one arbitrary element of the lane's share of the tile (which lane gets which element is unspecified by CUDA, so any assignment is considered); the calls order no memory access; every lane of the warp is assumed to make each call";

/// Registers `c` when it is one of NVIDIA's fragment specializations (`template<> class
/// fragment<…> : public __frag_base<T, size>` in `nvcuda::wmma`): a record of one field, the
/// array `x` of the base's storage elements, under [`Fragment::key`]. Whether it was one.
pub(in crate::frontend) fn add_fragment(c: &Node, g: &mut Globals, ns: &[String]) -> bool {
    if c.kind != "ClassTemplateSpecializationDecl"
        || c.name.as_deref() != Some("fragment")
        || ns.iter().map(String::as_str).ne(["nvcuda", "wmma"])
    {
        return false;
    }
    let Some(f) = Fragment::parse(&format!("fragment<{}>", template_args(c))) else {
        return false;
    };
    let Some(len) = c.bases.first().and_then(|b| storage_len(b.ty.best())) else {
        return false;
    };
    let elem = match f.storage_spelling() {
        // The 16-bit floats are records of CUDA's headers, by name.
        s @ ("__half" | "__nv_bfloat16") => CType::Record(s.to_string()),
        s => g.types.parse(s),
    };
    g.types
        .records
        .entry(f.key())
        .or_insert_with(|| vec![("x".to_string(), CType::Array(Box::new(elem), Some(len)))]);
    true
}

impl Lower<'_, '_> {
    /// A call to the warp matrix function `name` with `args`, when it is one (a function of
    /// [`FUNCTIONS`] whose fragment argument has a fragment type); `None` otherwise.
    pub(in crate::frontend) fn wmma_call(&mut self, call: &CallSite, out: &mut Vec<Stmt>) -> R<Option<Val>> {
        let (_, name, args, span) = call.parts();
        if !FUNCTIONS.contains(&name) {
            return Ok(None);
        }
        // The fragments as they are, not converted to `__frag_base` (`fill_fragment`'s
        // parameter) or to `const`.
        let args: Vec<&Node> = args.iter().map(|a| uncast(a)).collect();
        let args = args.as_slice();
        let at = usize::from(name == "store_matrix_sync");
        let Some(frag) = args.get(at).and_then(|a| self.fragment_type(a)) else {
            return Ok(None);
        };
        self.note_once("nvcuda::wmma", span, NOTE);
        match name {
            "fill_fragment" => {
                let (Some(f), Some(v)) = (args.first(), args.get(1)) else {
                    return unsupported(span.clone(), "`fill_fragment` without a value");
                };
                let lv = self.lvalue(f, out)?;
                let v = self.rvalue(v, out)?;
                let cty = self.ctype_of_fragment(&frag);
                let filled = self.filled(&cty, v, span)?;
                self.assign(&lv, filled, f, span, out)?;
            }
            "mma_sync" | "bmma_sync" => {
                if args.len() < 4 {
                    return unsupported(span.clone(), format!("`{name}` with {} arguments", args.len()));
                }
                // The operands are the thread's own: evaluated for their side effects only.
                for a in &args[1..4] {
                    self.lvalue(a, out)?;
                }
                self.arbitrary_fragment(args[0], &frag, span, out)?;
            }
            "load_matrix_sync" => {
                let [f, p, ldm, rest @ ..] = args else {
                    return unsupported(span.clone(), format!("`{name}` with {} arguments", args.len()));
                };
                let base = self.rvalue(p, out)?;
                let base = self.expect_ptr(base, p)?;
                let ldm = self.ldm(ldm, out)?;
                let row_major = self.row_major(&frag, rest.first().copied(), name, span, out)?;
                let off = self.tile_element(&frag, (&base, ldm, row_major), span, out)?;
                let ty = self.memory_ty(&frag, name, span)?;
                let dst = self.temp(ty);
                out.push(Stmt {
                    kind: StmtKind::Load {
                        dst,
                        array: base.array,
                        offset: off,
                        ty,
                    },
                    span: span.clone(),
                });
                self.arbitrary_fragment(f, &frag, span, out)?;
            }
            _ => {
                // store_matrix_sync(p, d, ldm, layout)
                let [p, f, ldm, rest @ ..] = args else {
                    return unsupported(span.clone(), format!("`{name}` with {} arguments", args.len()));
                };
                let base = self.rvalue(p, out)?;
                let base = self.expect_ptr(base, p)?;
                self.lvalue(f, out)?;
                let ldm = self.ldm(ldm, out)?;
                let row_major = self.row_major(&frag, rest.first().copied(), name, span, out)?;
                let off = self.tile_element(&frag, (&base, ldm, row_major), span, out)?;
                let ty = self.memory_ty(&frag, name, span)?;
                if self.k.array(base.array).space == Space::Constant {
                    return unsupported(span.clone(), format!("`{name}` to __constant__ memory"));
                }
                let value = self.arbitrary_scalar(ty, span, out);
                out.push(Stmt {
                    kind: StmtKind::Store {
                        array: base.array,
                        offset: off,
                        value,
                        ty,
                    },
                    span: span.clone(),
                });
            }
        }
        Ok(Some(Val::Void))
    }

    /// The fragment type of the expression `a` (a fragment or a reference to one), if any.
    fn fragment_type(&self, a: &Node) -> Option<Fragment> {
        match self.ctype(a) {
            CType::Record(r) => Fragment::parse(&r),
            CType::Ref(t) => match *t {
                CType::Record(r) => Fragment::parse(&r),
                _ => None,
            },
            _ => None,
        }
    }

    /// The record type of fragments of type `f`.
    fn ctype_of_fragment(&self, f: &Fragment) -> CType {
        CType::Record(f.key())
    }

    /// The type of a tile element in memory for a load or store `name` of `f`; sub-byte
    /// types are refused.
    fn memory_ty(&self, f: &Fragment, name: &str, span: &Span) -> R<Ty> {
        match f.memory_ty() {
            Some(t) => Ok(t),
            None => unsupported(
                span.clone(),
                format!("`{name}` of a fragment of the experimental sub-byte type `{}`", f.elem),
            ),
        }
    }

    /// The leading dimension `ldm` (in elements) as an `I64`.
    fn ldm(&mut self, ldm: &Node, out: &mut Vec<Stmt>) -> R<Expr> {
        let v = self.rvalue(ldm, out)?;
        let e = self.expect_scalar(v, ldm)?;
        Ok(cast(e, Ty::I64))
    }

    /// Whether the tile is row-major (a `Bool`): the fragment type's layout, else the
    /// `layout` argument (`mem_row_major` is 0, `mem_col_major` 1).
    fn row_major(
        &mut self,
        f: &Fragment,
        layout: Option<&Node>,
        name: &str,
        span: &Span,
        out: &mut Vec<Stmt>,
    ) -> R<Expr> {
        if let Some(r) = f.row_major {
            return Ok(Expr::bool(r));
        }
        let Some(l) = layout.filter(|l| l.kind != "CXXDefaultArgExpr") else {
            return unsupported(span.clone(), format!("`{name}` of an accumulator without a layout"));
        };
        let v = self.rvalue(l, out)?;
        let e = self.expect_scalar(v, l)?;
        let ty = e.ty();
        Ok(bin(BinOp::Eq, e, Expr::int(0, ty), Ty::Bool))
    }

    /// The byte offset of the tile element this lane accesses (see the module docs): fresh
    /// row `r` and column `c` in the tile, of the lane's share, at `base` with leading
    /// dimension `ldm` in the layout `row_major`.
    fn tile_element(
        &mut self,
        f: &Fragment,
        (base, ldm, row_major): (&PtrVal, Expr, Expr),
        span: &Span,
        out: &mut Vec<Stmt>,
    ) -> R<Expr> {
        let (rows, cols) = f.shape();
        if rows * cols < 32 {
            return unsupported(
                span.clone(),
                format!("warp matrix tile of {rows} x {cols} elements (fewer than a warp's lanes)"),
            );
        }
        let u = |v: u64| Expr::int(v, Ty::U32);
        let mut fresh = |this: &mut Self| {
            let v = this.temp(Ty::U32);
            out.push(Stmt {
                kind: StmtKind::Havoc { var: v },
                span: span.clone(),
            });
            Expr::Var { id: v, ty: Ty::U32 }
        };
        let r = fresh(self);
        let c = fresh(self);
        // One unknown shift per fragment type: the same mapping wherever the type is loaded
        // or stored (see the module docs).
        let ident: String = f
            .key()
            .chars()
            .map(|ch| if ch.is_ascii_alphanumeric() { ch } else { '_' })
            .collect();
        let shift = Expr::Opaque {
            name: format!("wmma.lanes.{ident}"),
            args: Vec::new(),
            ty: Ty::U32,
        };
        let index = bin(
            BinOp::Add,
            bin(BinOp::Mul, r.clone(), u(cols), Ty::U32),
            c.clone(),
            Ty::U32,
        );
        let lane_of_element = bin(BinOp::BitAnd, bin(BinOp::Add, index, shift, Ty::U32), u(31), Ty::U32);
        let lane = bin(BinOp::BitAnd, block_rank(), u(31), Ty::U32);
        let and = |a, b| bin(BinOp::LAnd, a, b, Ty::Bool);
        let cond = and(
            and(
                bin(BinOp::Lt, r.clone(), u(rows), Ty::Bool),
                bin(BinOp::Lt, c.clone(), u(cols), Ty::Bool),
            ),
            bin(BinOp::Eq, lane_of_element, lane, Ty::Bool),
        );
        out.push(Stmt {
            kind: StmtKind::Assume { cond },
            span: span.clone(),
        });
        let (r, c) = (cast(r, Ty::I64), cast(c, Ty::I64));
        let at = |a: Expr, b: Expr| bin(BinOp::Add, bin(BinOp::Mul, a, ldm.clone(), Ty::I64), b, Ty::I64);
        let element = match row_major {
            Expr::Const { .. } if row_major == Expr::bool(true) => at(r, c),
            Expr::Const { .. } => at(c, r),
            cond => Expr::Select {
                cond: Box::new(cond),
                then: Box::new(at(r.clone(), c.clone())),
                els: Box::new(at(c, r)),
                ty: Ty::I64,
            },
        };
        let size = i64::from(self.memory_ty(f, "load_matrix_sync", span)?.bytes());
        Ok(bin(
            BinOp::Add,
            base.off.clone(),
            bin(BinOp::Mul, element, Expr::int(size, Ty::I64), Ty::I64),
            Ty::I64,
        ))
    }

    /// Arbitrary values for every element of the fragment `f` (of type `frag`), fresh at
    /// this call.
    fn arbitrary_fragment(&mut self, f: &Node, frag: &Fragment, span: &Span, out: &mut Vec<Stmt>) -> R<()> {
        let lv: LVal = self.lvalue(f, out)?;
        let cty = self.ctype_of_fragment(frag);
        let v = self.arbitrary(&cty, span, out)?;
        self.assign(&lv, v, f, span, out)
    }

    /// A fresh arbitrary value of type `cty`, scalar by scalar.
    fn arbitrary(&mut self, cty: &CType, span: &Span, out: &mut Vec<Stmt>) -> R<Val> {
        match cty {
            CType::Scalar(ty) => Ok(Val::Scalar(self.arbitrary_scalar(*ty, span, out))),
            CType::Array(e, Some(n)) => {
                let mut vs = Vec::new();
                for _ in 0..*n {
                    vs.push(self.arbitrary(e, span, out)?);
                }
                Ok(Val::Array(vs))
            }
            CType::Record(r) => {
                let Some(fields) = self.g.types.records.get(r).cloned() else {
                    return unsupported(span.clone(), format!("fragment element of incomplete type `{r}`"));
                };
                let mut vs = Vec::new();
                for (name, ft) in fields {
                    vs.push((name, self.arbitrary(&ft, span, out)?));
                }
                Ok(Val::Struct(vs))
            }
            other => unsupported(span.clone(), format!("fragment element of type `{}`", other.describe())),
        }
    }

    /// A fresh arbitrary scalar of type `ty`.
    fn arbitrary_scalar(&mut self, ty: Ty, span: &Span, out: &mut Vec<Stmt>) -> Expr {
        let v = self.temp(ty);
        out.push(Stmt {
            kind: StmtKind::Havoc { var: v },
            span: span.clone(),
        });
        Expr::Var { id: v, ty }
    }

    /// The fragment of type `cty` with every element `v` (`fill_fragment`): `v` converted
    /// to a scalar element's type, or as it is for a record element (`__half`).
    fn filled(&self, cty: &CType, v: Val, span: &Span) -> R<Val> {
        match cty {
            CType::Scalar(ty) => match v {
                Val::Scalar(e) => Ok(Val::Scalar(cast(e, *ty))),
                _ => unsupported(span.clone(), "`fill_fragment` with a value that is not a number"),
            },
            CType::Array(e, Some(n)) => {
                let one = self.filled(e, v, span)?;
                Ok(Val::Array(vec![one; *n as usize]))
            }
            CType::Record(r) if Fragment::parse(r).is_some() => {
                let Some(fields) = self.g.types.records.get(r).cloned() else {
                    return unsupported(span.clone(), format!("fragment of incomplete type `{r}`"));
                };
                let mut vs = Vec::new();
                for (name, ft) in fields {
                    vs.push((name, self.filled(&ft, v.clone(), span)?));
                }
                Ok(Val::Struct(vs))
            }
            // An element of a record type (`__half`): the value as it is.
            CType::Record(_) => Ok(v),
            other => unsupported(span.clone(), format!("fragment element of type `{}`", other.describe())),
        }
    }
}

/// `a` without the implicit conversions of a class to its base or to `const`.
fn uncast(a: &Node) -> &Node {
    let a = strip_parens(a);
    match (a.kind.as_str(), a.cast_kind.as_deref(), a.inner.first()) {
        ("ImplicitCastExpr", Some("DerivedToBase" | "NoOp" | "UncheckedDerivedToBase"), Some(c)) => uncast(c),
        _ => a,
    }
}
