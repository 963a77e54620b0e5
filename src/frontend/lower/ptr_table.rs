//! Pointers loaded from the kernel's parameter memory: the pointers of a `float **arrays`
//! parameter (`arrays[b][i]`) and the pointer fields of structs passed by pointer
//! (`args->x[i]`, `const Args *args`). The kernel never stores a pointer to memory (that is
//! refused), so such memory holds the pointers the launch gave; each of its pointer slots is
//! taken, like a pointer parameter, to point to an object of its own, apart from every other
//! (the assumption of no aliasing that pointer parameters have).
//!
//! The objects the slots of one array `a` point to are one array, `a[*]`, its family: the object
//! of the slot at byte offset `o` lies at offset `o << SLOT_SHIFT` of the family. A pointer
//! loaded from the slot is a pointer into the family at that offset, and accesses through it
//! are accesses of the family. Two objects meet only where their slots lie a multiple of
//! `2^(64 - SLOT_SHIFT)` bytes apart or an offset into an object reaches `2^(SLOT_SHIFT - 1)`
//! bytes (64 GiB): such a clash can report a race that is not there, never hide one. The slot
//! itself is read (a 64-bit load), as any access is. A kernel that may write the pointers of
//! an array it loads pointers from is refused ([`Lower::tables_unwritten`]): they would no
//! longer be the launch's. A family of
//! pointers (`float ***`) is parameter memory in turn.

use super::{Lower, PtrVal, R, Val, unsupported};
use crate::frontend::types::CType;
use crate::ir::query::{accessed_arrays, written_arrays};
use crate::ir::visit::AccessContext;
use crate::ir::*;
use std::collections::BTreeSet;

/// The type of a pointer slot in memory (what a `float **` parameter's array holds).
pub(in crate::frontend) const SLOT: Ty = Ty::Int {
    bits: 64,
    signed: false,
};

/// log2 of the bytes of a family between the objects of consecutive bytes of slots.
pub(in crate::frontend) const SLOT_SHIFT: u32 = 37;

impl Lower<'_, '_> {
    /// Whether `array` is parameter memory: a pointer parameter's array, or a family.
    pub(in crate::frontend) fn is_param_memory(&self, array: ArrayId) -> bool {
        self.k
            .params
            .iter()
            .any(|p| matches!(p.kind, ParamKind::Array(a) if a == array))
            || self.families.values().any(|f| *f == array)
    }

    /// The table a family holds the objects of, when `array` is a family.
    pub(in crate::frontend) fn family_table(&self, array: ArrayId) -> Option<ArrayId> {
        self.families.iter().find(|(_, f)| **f == array).map(|(t, _)| *t)
    }

    /// The pointer to `pointee` read from `array` at byte offset `off`, when `array` is
    /// parameter memory (`None`: it is not, or the pointer is a function pointer). Emits the
    /// read of the slot.
    pub(in crate::frontend) fn load_pointer(
        &mut self,
        array: ArrayId,
        off: Expr,
        pointee: &CType,
        span: &Span,
        out: &mut Vec<Stmt>,
    ) -> R<Option<Val>> {
        if !self.is_param_memory(array) || matches!(pointee, CType::Func) {
            return Ok(None);
        }
        let t = self.temp(SLOT);
        out.push(Stmt {
            kind: StmtKind::Load {
                dst: t,
                array,
                offset: off.clone(),
                ty: SLOT,
            },
            span: span.clone(),
        });
        let family = match self.families.get(&array) {
            Some(f) => *f,
            None => {
                let name = format!("{}[*]", self.k.arrays[array.0].name);
                let elem = match pointee {
                    CType::Scalar(_) => pointee.clone(),
                    _ => CType::Void,
                };
                let f = self.new_array(&name, Space::Global, &CType::Array(Box::new(elem), None), span.clone())?;
                self.families.insert(array, f);
                f
            }
        };
        let off = crate::ir::build::bin(BinOp::Shl, off, Expr::int(SLOT_SHIFT, Ty::I64), Ty::I64);
        Ok(Some(Val::Ptr(PtrVal {
            array: family,
            off,
            pointee: pointee.clone(),
        })))
    }
}

impl Lower<'_, '_> {
    /// Errors when the kernel `body` writes pointers of an array it loads pointers from: any
    /// write of an array of pointers (`float **`), and `memset`, `memcpy` or a function without
    /// a body writing one of structs (`const Args *`, whose other fields the kernel may write).
    pub(in crate::frontend) fn tables_unwritten(&self, body: &[Stmt]) -> R<()> {
        let mut written = BTreeSet::new();
        written_arrays(body, &mut written);
        let mut clobbered = BTreeSet::new();
        accessed_arrays(body, |c| c == AccessContext::Clobber, &mut clobbered);
        let mut tables: Vec<ArrayId> = self
            .families
            .keys()
            .copied()
            .filter(|t| {
                (self.k.array(*t).elem == SLOT && written.contains(t))
                    || clobbered.contains(t)
                    || self.bulk_written.contains(t)
            })
            .collect();
        tables.sort();
        match tables.first() {
            Some(t) => {
                let a = self.k.array(*t);
                unsupported(
                    a.span.clone(),
                    format!(
                        "`{}` holds pointers the kernel loads and may write them (a store, `memset`, `memcpy` or a function without a body): pointers written to memory are not modelled",
                        a.name
                    ),
                )
            }
            None => Ok(()),
        }
    }
}

/// The byte offset of the slot a pointer at offset `off` of a family was loaded from
/// (rounded to the nearest, so that an offset into the object within `2^(SLOT_SHIFT - 1)`
/// bytes either way names its slot).
pub(in crate::frontend) fn family_slot(off: &Expr) -> Expr {
    let half = Expr::int(1u64 << (SLOT_SHIFT - 1), Ty::I64);
    let near = super::add_off(off.clone(), half);
    crate::ir::build::bin(BinOp::Shr, near, Expr::int(SLOT_SHIFT, Ty::I64), Ty::I64)
}
