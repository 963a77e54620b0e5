//! Pointer variables that may point into several arrays: the variable keeps the arrays it may
//! point to, numbered, and a tag (an `I32`) saying which one it points to now, beside its
//! offset. Reading it gives a [`Val::PtrCond`] over its arrays (`tag == 0 ? a : tag == 1 ? b :
//! c`), so each access through it is a case split that goes to the array it really points to
//! (`cxx.rs`); assigning it a pointer, or a [`Val::PtrCond`] (`c ? p : q`), sets the tag.
//!
//! A variable learns its arrays as it is assigned. When one grows after the variable was used
//! (`x = p; x[0] = 0; x = A; …`), the accesses lowered before saw too few arrays and the
//! assignments before set no tag, so the kernel is lowered again with the final set of each
//! such variable known from its creation ([`Seeds`], by creation index; lowering is
//! deterministic, so creation indices and array ids agree between passes). Sets only grow, so
//! this ends; [`MAX_PASSES`] bounds it.

use super::{Lower, PtrBind, PtrOff, PtrVal, R, Val, set, unsupported};
use crate::frontend::types::CType;
use crate::ir::*;
use std::collections::HashMap;

/// Lowering passes before a kernel whose pointer sets keep growing is refused.
pub(in crate::frontend) const MAX_PASSES: usize = 8;

/// The arrays of each pointer variable that may point to several, by creation index.
pub(in crate::frontend) type Seeds = HashMap<usize, Vec<ArrayId>>;

/// A pointer value flattened: the arrays it may point into, the `I32` index of the one it
/// points into (`None`: the only one) and its byte offset.
pub(in crate::frontend) struct Flat {
    pub(in crate::frontend) arrays: Vec<ArrayId>,
    pub(in crate::frontend) tag: Option<Expr>,
    pub(in crate::frontend) off: Expr,
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

fn select(cond: Expr, a: Expr, b: Expr, ty: Ty) -> Expr {
    Expr::Select {
        cond: Box::new(cond),
        then: Box::new(a),
        els: Box::new(b),
        ty,
    }
}

impl Flat {
    /// An `I32` expression: the index in `set` (which holds all of `self.arrays`) of the array
    /// this value points into.
    pub(in crate::frontend) fn index_in(&self, set: &[ArrayId]) -> Expr {
        let idx = |a: &ArrayId| Expr::int(set.iter().position(|x| x == a).unwrap_or(0) as u64, Ty::I32);
        match &self.tag {
            None => idx(&self.arrays[0]),
            Some(tag) if self.arrays.as_slice() == set => tag.clone(),
            Some(tag) => {
                let n = self.arrays.len();
                let mut e = idx(&self.arrays[n - 1]);
                for (k, a) in self.arrays.iter().enumerate().take(n - 1).rev() {
                    e = select(tag_is(tag, k), idx(a), e, Ty::I32);
                }
                e
            }
        }
    }
}

/// The value of a pointer into `arrays[tag]` at `off` (one array: a plain pointer).
pub(in crate::frontend) fn ptr_value(arrays: &[ArrayId], tag: Option<&Expr>, off: &Expr, pointee: &CType) -> Val {
    let leaf = |a: ArrayId| {
        Val::Ptr(PtrVal {
            array: a,
            off: off.clone(),
            pointee: pointee.clone(),
        })
    };
    let (n, Some(tag)) = (arrays.len(), tag) else {
        return leaf(arrays[0]);
    };
    let mut v = leaf(arrays[n - 1]);
    for (k, a) in arrays.iter().enumerate().take(n - 1).rev() {
        v = Val::PtrCond(tag_is(tag, k), Box::new(leaf(*a)), Box::new(v));
    }
    v
}

impl Lower<'_, '_> {
    /// `v` (a pointer, or a [`Val::PtrCond`] of pointers) as one array set, tag and offset;
    /// `None` for anything else.
    pub(in crate::frontend) fn flat_ptr(&self, v: &Val) -> Option<Flat> {
        match v {
            Val::Ptr(p) => Some(Flat {
                arrays: vec![p.array],
                tag: None,
                off: p.off.clone(),
            }),
            Val::PtrCond(c, a, b) => {
                let (fa, fb) = (self.flat_ptr(a)?, self.flat_ptr(b)?);
                let mut arrays = fa.arrays.clone();
                for x in &fb.arrays {
                    if !arrays.contains(x) {
                        arrays.push(*x);
                    }
                }
                let off = select(c.clone(), fa.off.clone(), fb.off.clone(), Ty::I64);
                let tag =
                    (arrays.len() > 1).then(|| select(c.clone(), fa.index_in(&arrays), fb.index_in(&arrays), Ty::I32));
                Some(Flat { arrays, tag, off })
            }
            _ => None,
        }
    }

    /// The pointee of a pointer value (the first leaf's).
    pub(in crate::frontend) fn pointee_of(v: &Val) -> Option<CType> {
        match v {
            Val::Ptr(p) => Some(p.pointee.clone()),
            Val::PtrCond(_, a, _) => Self::pointee_of(a),
            _ => None,
        }
    }

    /// `f` applied to each pointer of a pointer value (pointer arithmetic on a
    /// [`Val::PtrCond`] moves both).
    pub(in crate::frontend) fn map_ptrs(&self, v: Val, f: &mut impl FnMut(&Self, PtrVal) -> R<Val>) -> R<Val> {
        match v {
            Val::Ptr(p) => f(self, p),
            Val::PtrCond(c, a, b) => {
                let a = self.map_ptrs(*a, f)?;
                let b = self.map_ptrs(*b, f)?;
                Ok(Val::PtrCond(c, Box::new(a), Box::new(b)))
            }
            v => Ok(v),
        }
    }

    /// Whether an earlier pass found that the next pointer variable registered may point into
    /// several arrays (it must then get a tag variable, not a tag fixed at its definition).
    pub(in crate::frontend) fn next_ptr_seeded(&self) -> bool {
        self.seeds.contains_key(&self.ptrs.len())
    }

    /// Register a pointer variable, with the arrays an earlier pass found for it (and a tag
    /// variable when there are several, unless `b` comes with a tag); its index.
    pub(in crate::frontend) fn push_ptr(&mut self, mut b: PtrBind) -> usize {
        let i = self.ptrs.len();
        if let Some(seed) = self.seeds.get(&i)
            && b.tag.is_none()
        {
            for a in seed {
                if !b.arrays.contains(a) {
                    b.arrays.push(*a);
                }
            }
            if b.arrays.len() > 1 {
                let v = self.k.new_var(format!("{}$tag", b.name), Ty::I32);
                b.tag = Some(Expr::Var { id: v, ty: Ty::I32 });
            }
        }
        self.ptrs.push(b);
        i
    }

    /// A pointer variable `ptrs[i]`'s tag as a variable (created, and set to its current value,
    /// where it was an expression fixed at the definition).
    pub(in crate::frontend) fn tag_var(&mut self, i: usize, span: &Span, out: &mut Vec<Stmt>) -> VarId {
        match self.ptrs[i].tag.clone() {
            Some(Expr::Var { id, .. }) => id,
            old => {
                let v = self.k.new_var(format!("{}$tag", self.ptrs[i].name), Ty::I32);
                if let Some(e) = old {
                    out.push(set(v, e, span.clone()));
                }
                self.ptrs[i].tag = Some(Expr::Var { id: v, ty: Ty::I32 });
                v
            }
        }
    }

    /// Point the pointer variable `ptrs[i]` at `v`: learn its arrays, set its tag and offset.
    pub(in crate::frontend) fn point_to(&mut self, i: usize, v: &Val, span: &Span, out: &mut Vec<Stmt>) -> R<()> {
        let Some(flat) = self.flat_ptr(v) else {
            return unsupported(span.clone(), "pointer assigned a value that is not a pointer");
        };
        for a in &flat.arrays {
            if !self.ptrs[i].arrays.contains(a) {
                self.ptrs[i].arrays.push(*a);
                if self.ptrs[i].arrays.len() > 1 {
                    self.grown = true;
                }
            }
        }
        // The new tag is computed before the offset changes (both may read the old ones).
        let new_tag = match flat.index_in(&self.ptrs[i].arrays) {
            _ if self.ptrs[i].arrays.len() < 2 => None,
            e @ Expr::Const { .. } => Some(e),
            e => {
                let t = self.temp(Ty::I32);
                out.push(set(t, e, span.clone()));
                Some(Expr::Var { id: t, ty: Ty::I32 })
            }
        };
        // A pointer fixed at its definition gets an offset variable when reassigned.
        let off = match self.ptrs[i].off {
            PtrOff::Var(v) => v,
            PtrOff::Fixed(_) => {
                let v = self.k.new_var(format!("{}$off", self.ptrs[i].name), Ty::I64);
                self.ptrs[i].off = PtrOff::Var(v);
                v
            }
        };
        out.push(set(off, flat.off, span.clone()));
        if let Some(e) = new_tag {
            let tag = self.tag_var(i, span, out);
            out.push(set(tag, e, span.clone()));
        }
        Ok(())
    }

    /// The arrays of every pointer variable with several and a tag variable, for the next
    /// pass (a tag fixed at the definition needs none).
    pub(in crate::frontend) fn seeds_found(&self) -> Seeds {
        self.ptrs
            .iter()
            .enumerate()
            .filter(|(_, p)| p.arrays.len() > 1 && matches!(p.tag, Some(Expr::Var { .. })))
            .map(|(i, p)| (i, p.arrays.clone()))
            .collect()
    }
}

impl Lower<'_, '_> {
    /// A pointer value whose tag and offset are copied into temporaries here (the old value of
    /// `p++` for a pointer into several arrays).
    pub(in crate::frontend) fn snapshot_ptr(&mut self, v: Val, span: &Span, out: &mut Vec<Stmt>) -> Val {
        let (Some(flat), Some(pointee)) = (self.flat_ptr(&v), Self::pointee_of(&v)) else {
            return v;
        };
        let off = self.temp(Ty::I64);
        out.push(set(off, flat.off, span.clone()));
        let tag = flat.tag.map(|e| {
            let t = self.temp(Ty::I32);
            out.push(set(t, e, span.clone()));
            Expr::Var { id: t, ty: Ty::I32 }
        });
        ptr_value(
            &flat.arrays,
            tag.as_ref(),
            &Expr::Var { id: off, ty: Ty::I64 },
            &pointee,
        )
    }
}
