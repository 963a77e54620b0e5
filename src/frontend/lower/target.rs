//! Pointers that may point into several arrays: a pointer value is (target, byte offset),
//! where the target is one array or one of several chosen by a tag (an `I32` index), and an
//! access through a tagged target is a case split on the tag, so each access goes to the array
//! the pointer really points into: `if (tag == 0) a[off] = v else b[off] = v`.
//!
//! A pointer variable learns its arrays as it is assigned. When one grows after it was used
//! (`x = p; x[0] = 0; x = A; …`), the accesses lowered before saw too few arrays, so the kernel
//! is lowered again with the final set of each such variable known from its creation (the
//! `seeds`, by creation index; lowering is deterministic, so creation indices and array ids
//! agree between passes). Sets only grow, so this ends; [`MAX_PASSES`] bounds it.

use super::{Lower, PtrBind, R, branch, set, unsupported};
use crate::ir::*;
use std::collections::HashMap;

/// The arrays of each pointer variable that may point to several, by creation index.
pub(super) type Seeds = HashMap<usize, Vec<ArrayId>>;

/// Lowering passes before a kernel whose pointer sets keep growing is refused.
pub(super) const MAX_PASSES: usize = 8;

/// What a pointer points into.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Target {
    /// One array.
    One(ArrayId),
    /// `arrays[tag]`: `tag` is an `I32` in `0..arrays.len()` (at least two arrays, distinct).
    Tagged { tag: Expr, arrays: Vec<ArrayId> },
}

impl From<ArrayId> for Target {
    fn from(a: ArrayId) -> Target {
        Target::One(a)
    }
}

impl Target {
    /// The arrays it may denote.
    pub(super) fn arrays(&self) -> Vec<ArrayId> {
        match self {
            Target::One(a) => vec![*a],
            Target::Tagged { arrays, .. } => arrays.clone(),
        }
    }

    /// An `I32` expression: the index in `set` (which holds all of [`Self::arrays`]) of the
    /// array this target denotes.
    pub(super) fn index_in(&self, set: &[ArrayId]) -> Expr {
        let idx = |a: &ArrayId| set.iter().position(|x| x == a).unwrap_or(0) as u64;
        match self {
            Target::One(a) => Expr::int(idx(a), Ty::I32),
            Target::Tagged { tag, arrays } if arrays.as_slice() == set => tag.clone(),
            Target::Tagged { tag, arrays } => {
                let mut e = Expr::int(idx(&arrays[arrays.len() - 1]), Ty::I32);
                for (k, a) in arrays.iter().enumerate().rev().skip(1) {
                    e = Expr::Select {
                        cond: Box::new(tag_is(tag, k)),
                        then: Box::new(Expr::int(idx(a), Ty::I32)),
                        els: Box::new(e),
                        ty: Ty::I32,
                    };
                }
                e
            }
        }
    }

    /// The arrays of `a` then those of `b` not in `a`.
    pub(super) fn union(a: &Target, b: &Target) -> Vec<ArrayId> {
        let mut arrays = a.arrays();
        for x in b.arrays() {
            if !arrays.contains(&x) {
                arrays.push(x);
            }
        }
        arrays
    }
}

/// `tag == k`.
fn tag_is(tag: &Expr, k: usize) -> Expr {
    Expr::Binary {
        op: BinOp::Eq,
        lhs: Box::new(tag.clone()),
        rhs: Box::new(Expr::int(k as u64, Ty::I32)),
        ty: Ty::Bool,
    }
}

impl Lower<'_, '_> {
    /// Emit `each(array)` for the array `t` denotes: directly for one array, else as a case
    /// split on the tag (the last arm is the `else`: the tag is in range by construction).
    pub(super) fn split_access(
        &mut self,
        t: &Target,
        span: &Span,
        out: &mut Vec<Stmt>,
        mut each: impl FnMut(&mut Self, ArrayId, &mut Vec<Stmt>) -> R<()>,
    ) -> R<()> {
        match t {
            Target::One(a) => each(self, *a, out),
            Target::Tagged { tag, arrays } => {
                let mut els = Vec::new();
                each(self, arrays[arrays.len() - 1], &mut els)?;
                for (k, a) in arrays.iter().enumerate().rev().skip(1) {
                    let mut then = Vec::new();
                    each(self, *a, &mut then)?;
                    els = vec![branch(tag_is(tag, k), then, els, span.clone())];
                }
                out.extend(els);
                Ok(())
            }
        }
    }

    /// Error unless every array `t` may denote is writable (not `__constant__`).
    pub(super) fn check_writable(&self, t: &Target, what: &str, span: &Span) -> R<()> {
        for a in t.arrays() {
            if self.k.array(a).space == Space::Constant {
                return unsupported(
                    span.clone(),
                    format!(
                        "{what} __constant__ memory `{}` (constant memory is read-only in kernels)",
                        self.k.array(a).name
                    ),
                );
            }
        }
        Ok(())
    }

    /// Register a pointer variable, with the arrays an earlier pass found for it (and a tag
    /// variable when there are several); its index.
    pub(super) fn push_ptr(&mut self, mut b: PtrBind) -> usize {
        let i = self.ptrs.len();
        if let Some(seed) = self.seeds.get(&i)
            && b.fixed.is_none()
        {
            for a in seed {
                if !b.arrays.contains(a) {
                    b.arrays.push(*a);
                }
            }
            if b.arrays.len() > 1 && b.tag.is_none() {
                b.tag = Some(self.k.new_var(format!("{}$tag", b.name), Ty::I32));
            }
        }
        self.ptrs.push(b);
        i
    }

    /// Point the pointer variable `i` at `t`: learn its arrays and set its tag.
    pub(super) fn retarget(&mut self, i: usize, t: &Target, span: &Span, out: &mut Vec<Stmt>) -> R<()> {
        if let Some(fixed) = self.ptrs[i].fixed.take() {
            if let Target::Tagged { .. } = fixed {
                return unsupported(
                    span.clone(),
                    format!(
                        "pointer `{}` that may point to several arrays, reassigned",
                        self.ptrs[i].name
                    ),
                );
            }
            self.ptrs[i].arrays = fixed.arrays();
        }
        for a in t.arrays() {
            if !self.ptrs[i].arrays.contains(&a) {
                self.ptrs[i].arrays.push(a);
                if self.ptrs[i].arrays.len() > 1 {
                    self.grown = true;
                }
            }
        }
        if self.ptrs[i].arrays.len() > 1 {
            let tag = match self.ptrs[i].tag {
                Some(v) => v,
                None => {
                    let v = self.k.new_var(format!("{}$tag", self.ptrs[i].name), Ty::I32);
                    self.ptrs[i].tag = Some(v);
                    v
                }
            };
            let e = t.index_in(&self.ptrs[i].arrays);
            out.push(set(tag, e, span.clone()));
        }
        Ok(())
    }

    /// The arrays of every pointer variable with several, for the next pass.
    pub(super) fn seeds_found(&self) -> Seeds {
        self.ptrs
            .iter()
            .enumerate()
            .filter(|(_, p)| p.arrays.len() > 1)
            .map(|(i, p)| (i, p.arrays.clone()))
            .collect()
    }
}
