//! Kernel launches in device code (CUDA's dynamic parallelism: `child<<<g, b>>>(…)` inside a
//! `__global__` or `__device__` function; CUDA C++ Programming Guide, "CUDA Dynamic
//! Parallelism"). clang's device compilation refuses them, so such a file is read as its host
//! compilation sees it (`cuda/mod.rs`, `host_side`).
//!
//! What is modelled: the launching thread evaluates the launch's arguments (their side
//! effects); the child grid starts at some time after the launch and runs concurrently with
//! the rest of the parent grid and with the other child grids, until the parent grid ends.
//! - The parent kernel: its own races and barrier divergence are checked as for any kernel,
//!   in the executions where its child grids have not started yet (a real schedule: nothing
//!   makes a child start before its parent ends), so a defect found is real. What is not
//!   checked is a race between the child grids and the parent grid, or between two child
//!   grids: each launch is an unchecked part of the kernel ([`crate::ir::Kernel::unchecked`]),
//!   so the parent is never "verified", only a defect or inconclusive, naming the launch.
//! - The child kernel: launched from device code with values gpug does not follow, it is
//!   verified for every launch ([`device_launched`]), not only at its host launches.
//!
//! Must not: model the child grid's accesses (not done: its races with the parent are left
//! unchecked, as said above).

use crate::frontend::ast::{Node, strip_parens};
use crate::frontend::lower::{Lower, R, Val};
use crate::ir::Stmt;
use std::collections::HashSet;

impl Lower<'_, '_> {
    /// A kernel launch `n` (a `CUDAKernelCallExpr`) in device code: its arguments' side
    /// effects, and the launch left unchecked with the reason.
    pub(in crate::frontend) fn device_launch(&mut self, n: &Node, out: &mut Vec<Stmt>) -> R<Val> {
        let span = self.span(n);
        let child = n.inner.first().and_then(launched_kernel).unwrap_or("a kernel");
        // The configuration's arguments (`__cudaPushCallConfiguration(grid, block, shared,
        // stream)`), then the kernel's.
        let config = n.inner.get(1).map(|c| c.inner.iter().skip(1)).into_iter().flatten();
        for a in config.chain(n.inner.iter().skip(2)) {
            if !crate::frontend::host::pure(a) {
                self.effect(a, out)?;
            }
        }
        self.k.unchecked.push((
            span,
            format!(
                "`{child}` launched from device code (dynamic parallelism): its grid runs concurrently with this one and with the other grids launched so, and races between them are not checked (`{child}` is verified on its own, for every launch)"
            ),
        ));
        Ok(Val::Void)
    }
}

/// The name of the kernel a launch's callee (`ImplicitCastExpr` over the `DeclRefExpr`) names.
fn launched_kernel(callee: &Node) -> Option<&str> {
    let mut e = strip_parens(callee);
    while e.kind == "ImplicitCastExpr" && e.inner.len() == 1 {
        e = strip_parens(&e.inner[0]);
    }
    e.referenced_decl.as_ref().map(|d| d.name.as_str())
}

/// The names of the kernels that device code of the translation unit `root` launches (a
/// `CUDAKernelCallExpr` inside a `__global__` or `__device__` function): their launches are
/// not all in host code, so they are verified for every launch.
pub(in crate::frontend) fn device_launched(root: &Node) -> HashSet<String> {
    fn walk(n: &Node, device: bool, out: &mut HashSet<String>) {
        let device = device
            || (matches!(n.kind.as_str(), "FunctionDecl" | "CXXMethodDecl")
                && (n.has_attr("CUDAGlobalAttr") || (n.has_attr("CUDADeviceAttr") && !n.has_attr("CUDAHostAttr"))));
        if device
            && n.kind == "CUDAKernelCallExpr"
            && let Some(name) = n.inner.first().and_then(launched_kernel)
        {
            out.insert(name.to_string());
        }
        for c in &n.inner {
            walk(c, device, out);
        }
    }
    let mut out = HashSet::new();
    walk(root, false, &mut out);
    out
}
