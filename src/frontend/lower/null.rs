//! OpenCL's null pointers (GPUVerify's `testsuite/OpenCL/null_pointers`): a null pointer
//! (`0`, `NULL`) points into an array of its own, [`NULL`], of private memory (so it never
//! races), and every load, store or atomic on it is preceded by an assertion of `false`: a
//! thread that can reach it makes a defect ("assertion may fail" at the access, with a witness),
//! whatever path led the pointer there (a pointer that is null on one path is a pointer into
//! one of two arrays, `target.rs`, and only that path's access asserts).
//!
//! CUDA kernels get the null array too when the file's device code names a null pointer
//! ([`names_null`]: llm.c's `p ? p + k : NULL`); the others have none (`None` in
//! `Lower::null`), so their queries are as before.
//!
//! Whether a pointer is null (`p != nullptr`, `p == NULL`, `!p`, `if (p)`), in either language,
//! is [`Lower::null_test`]: a kernel's pointer parameter may be null or not, as the launch
//! chose, the same for every thread: a `Bool` parameter of the kernel (`p$null`) that no
//! launch's choice is assumed away from, so both branches of such a test stay possible. A
//! pointer loaded from parameter memory (`ptr_table.rs`) likewise, by an uninterpreted function
//! of its slot. A pointer into any other array (a local, `__shared__` or file-scope array, a
//! string literal) is not null.

use super::Lower;
use super::ptr_table::family_slot;
use crate::ir::visit::insert_before_accesses;
use crate::ir::{ArrayId, Expr, Kernel, Param, ParamKind, Stmt, StmtKind, Ty};

/// Whether a device function (`__device__` or `__global__`) of `root` names a null pointer: a
/// `nullptr`, a GNU `__null`, or an integer converted to a data pointer (`NullToPointer`).
pub(in crate::frontend) fn names_null(root: &crate::frontend::ast::Node) -> bool {
    use crate::frontend::ast::Node;
    fn in_body(n: &Node) -> bool {
        matches!(n.kind.as_str(), "CXXNullPtrLiteralExpr" | "GNUNullExpr")
            || (n.cast_kind.as_deref() == Some("NullToPointer") && !n.type_str().contains("(*)"))
            || n.inner.iter().any(in_body)
    }
    fn walk(n: &Node) -> bool {
        if n.has_attr("CUDADeviceAttr") || n.has_attr("CUDAGlobalAttr") {
            return in_body(n);
        }
        n.inner.iter().any(walk)
    }
    walk(root)
}

/// The name of the array null pointers point into.
pub(in crate::frontend) const NULL: &str = "NULL";

/// Inserts `assert(false)` before every access of `k` to `null`, with a note naming the
/// accesses; does nothing when there is none.
pub(in crate::frontend) fn check_accesses(k: &mut Kernel, null: ArrayId) {
    let mut lines = Vec::new();
    insert_before_accesses(&mut k.body, &mut |s| match &s.kind {
        StmtKind::Load { array, .. } | StmtKind::Store { array, .. } | StmtKind::Atomic { array, .. }
            if *array == null =>
        {
            lines.push(s.span.line);
            Some(Stmt {
                kind: StmtKind::Assert {
                    cond: Expr::bool(false),
                },
                span: s.span.clone(),
            })
        }
        _ => None,
    });
    lines.dedup();
    if !lines.is_empty() {
        let at: Vec<String> = lines.iter().map(|l| format!("line {l}")).collect();
        k.notes.push(format!(
            "a null pointer may be accessed ({}): such an access is reported as an assertion that fails there",
            at.join(", ")
        ));
    }
}

impl Lower<'_, '_> {
    /// Whether a pointer into `array` at byte offset `off` is null, as a `Bool` (see the
    /// module's documentation).
    pub(in crate::frontend) fn null_test(&mut self, array: ArrayId, off: &Expr) -> Expr {
        if Some(array) == self.null {
            return Expr::bool(true);
        }
        if let Some(table) = self.family_table(array) {
            return Expr::Opaque {
                name: format!("{}$null", self.k.arrays[table.0].name),
                args: vec![family_slot(off)],
                ty: Ty::Bool,
            };
        }
        if let Some(v) = self.null_flags.get(&array) {
            return Expr::Var { id: *v, ty: Ty::Bool };
        }
        let Some(name) = self
            .k
            .params
            .iter()
            .find(|p| matches!(p.kind, ParamKind::Array(a) if a == array))
            .map(|p| format!("{}$null", p.name))
        else {
            return Expr::bool(false);
        };
        let v = self.k.new_var(&name, Ty::Bool);
        self.k.params.push(Param {
            name,
            kind: ParamKind::Scalar(v),
        });
        self.null_flags.insert(array, v);
        Expr::Var { id: v, ty: Ty::Bool }
    }
}
