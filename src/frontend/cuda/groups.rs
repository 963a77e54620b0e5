//! Cooperative groups (`cooperative_groups::`, NVIDIA's `cooperative_groups.h`): group handles
//! are values without storage, whose methods the front end knows by name (their bodies live
//! in the precompiled headers and are not in the kernel's AST).
//!
//! - `thread_block`: `sync()`, `sync(g)`, `barrier_sync()` and GPUVerify's `synchronize(g)` are
//!   `__syncthreads()`; `thread_rank()` is the linear index of the thread in its block
//!   (`x + blockDim.x * (y + blockDim.y * z)`), `size()`/`num_threads()` is
//!   `blockDim.x * blockDim.y * blockDim.z` (CUDA Programming Guide, "Cooperative Groups").
//! - `grid_group`: `sync()`, `sync(g)`, `barrier_sync()`, `this_grid().sync()` and GPUVerify's
//!   `synchronize(g)` are a grid-wide barrier ([`BarrierScope::Grid`]), which CUDA defines only
//!   for a cooperative launch (`cudaLaunchCooperativeKernel`): gpug then assumes one.
//!   `thread_rank()` is the linear index of the thread in the grid (block-major) and
//!   `size()`/`num_threads()` the number of threads of the grid, in 64 bits.
//! - `multi_grid_group::sync()` (a barrier across devices) is not modelled: an error naming it.
//! - tiles (`thread_block_tile<N>`, `tiled_partition<N>(g)`): `thread_rank()` is the block
//!   rank mod `N`, `meta_group_rank()` the block rank / `N`, `size()` is `N`; the `sync()` of
//!   a tile is a warp barrier of its `N` threads ([`StmtKind::WarpBarrier`] of
//!   [`WarpLanes::Tile`]; for 32 a full-mask `__syncwarp()`); `shfl*` (of a scalar or of a
//!   struct, which the header shuffles word by word), votes and `match_*` give a value that
//!   is not modelled (their arguments are read). Coalesced groups: likewise, with no size.
//!
//! Reads calls and declarations only; it emits barriers and pure expressions.

use crate::frontend::ast::{Node, strip_parens};
use crate::frontend::lower::{Binding, CallSite, LVal, Lower, R, Val, unsupported};
use crate::frontend::types::CType;
use crate::ir::build::cast;
use crate::ir::*;

/// The kind of cooperative group a clang type spelling names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::frontend) enum Group {
    /// `thread_block`.
    Block,
    /// `grid_group`.
    Grid,
    /// `multi_grid_group` (several devices).
    MultiGrid,
    /// `thread_block_tile<N>` (with `N`), `coalesced_group`, `thread_group` (`None`):
    /// warp-sized or unknown.
    Warp(Option<u32>),
}

/// The group a type spelling (`qualType` or `desugaredQualType`) names, if it is one.
///
/// A namespace alias (`namespace cg = cooperative_groups;`) shows in a spelling clang does not
/// desugar (a reference parameter's `const cg::thread_block &`): a name qualified by one of
/// `aliases` (the translation unit's aliases of `cooperative_groups`,
/// [`crate::frontend::lower::globals::group_aliases`]) whose class is one of the groups' is taken as that group.
/// A class of that name in another namespace (`mylib::thread_block`) is not a group: its
/// `sync()` is no barrier.
pub(in crate::frontend) fn group_of(ty: &str, aliases: &[String]) -> Option<Group> {
    let t = ty.trim_start_matches("const ").trim_end_matches('&').trim();
    let rest = match t.strip_prefix("cooperative_groups::") {
        Some(rest) => rest,
        None => {
            let (qualifier, class) = t.split_once("::")?;
            if !aliases.iter().any(|a| a == qualifier) {
                return None;
            }
            const GROUPS: [&str; 6] = [
                "thread_block",
                "grid_group",
                "multi_grid_group",
                "thread_block_tile<",
                "coalesced_group",
                "thread_group",
            ];
            if !GROUPS
                .iter()
                .any(|g| class == *g || (g.ends_with('<') && class.starts_with(g)))
            {
                return None;
            }
            class
        }
    };
    let class = match rest.find('<') {
        // `thread_block_tile<32, cooperative_groups::thread_block>`: the last `::` before the
        // template arguments.
        Some(lt) => rest[..lt].rsplit("::").next().map_or(rest, |c| &rest[lt - c.len()..]),
        None => rest.rsplit("::").next().unwrap_or(rest),
    };
    // A tile's methods come from its bases too (`__single_warp_thread_block_tile<32>`).
    Some(if class.contains("_tile") {
        let size = class
            .split_once('<')
            .and_then(|(_, args)| args.split([',', '>']).next())
            .and_then(|n| n.trim().trim_end_matches('U').parse().ok());
        Group::Warp(size)
    } else if class.starts_with("thread_block") {
        Group::Block
    } else if class.starts_with("multi_grid_group") {
        Group::MultiGrid
    } else if class.starts_with("grid_group") {
        Group::Grid
    } else {
        Group::Warp(None)
    })
}

/// The group a node's type names (its desugared type first), `aliases` as for [`group_of`].
pub(in crate::frontend) fn node_group(n: &Node, aliases: &[String]) -> Option<Group> {
    let t = n.ty.as_ref()?;
    t.desugared
        .as_deref()
        .and_then(|d| group_of(d, aliases))
        .or_else(|| group_of(&t.qual_type, aliases))
}

impl Lower<'_, '_> {
    /// The group the expression `n` stands for: [`node_group`] of its type, except that a
    /// generic `thread_group` (or a `coalesced_group` converted to one) made from a group of
    /// known kind is that group: a `thread_group` parameter or local bound to a `thread_block`
    /// or a `thread_block_tile<16>` ([`Lower::group_bindings`]), or the conversion of one
    /// (`thread_group g = this_thread_block();`, an argument's derived-to-base copy). The
    /// conversion copies the handle, so the group's threads, ranks and barrier are the
    /// original's (CUDA C++ Programming Guide, "Cooperative Groups": `thread_group` is the
    /// base of every group type). `None`: not a group.
    pub(in crate::frontend) fn known_group(&self, n: &Node) -> Option<Group> {
        let g = node_group(n, &self.g.group_aliases)?;
        if g != Group::Warp(None) {
            return Some(g);
        }
        let inner = match n.kind.as_str() {
            "DeclRefExpr" => {
                let id = &n.referenced_decl.as_ref()?.id;
                return Some(self.group_bindings.get(id).copied().unwrap_or(g));
            }
            "ImplicitCastExpr"
            | "CXXConstructExpr"
            | "MaterializeTemporaryExpr"
            | "CXXBindTemporaryExpr"
            | "ParenExpr"
            | "ExprWithCleanups"
            | "CXXFunctionalCastExpr"
            | "CStyleCastExpr"
                if n.inner.len() == 1 =>
            {
                &n.inner[0]
            }
            _ => return Some(g),
        };
        // The converted expression's own group when it is one (a `thread_block`), else the
        // generic one.
        Some(self.known_group(inner).unwrap_or(g))
    }

    /// Binds the generic group declaration `decl` (a `thread_group` parameter or local) to the
    /// group of `from`, its argument or initializer, when that is of known kind; else forgets
    /// any earlier binding (a second call of the same function with another group).
    pub(in crate::frontend) fn bind_group(&mut self, decl: &Node, from: Option<&Node>) {
        let known = from
            .and_then(|f| self.known_group(f))
            .filter(|g| *g != Group::Warp(None));
        match known {
            Some(g) if node_group(decl, &self.g.group_aliases) == Some(Group::Warp(None)) => {
                self.group_bindings.insert(decl.id.clone(), g);
            }
            _ => {
                self.group_bindings.remove(&decl.id);
            }
        }
    }

    /// A call `n` (callee `c`, named `name`) on a cooperative group, lowered; `None` when it
    /// is not one.
    pub(in crate::frontend) fn group_call(&mut self, call: &CallSite, c: &Node, out: &mut Vec<Stmt>) -> R<Option<Val>> {
        let (n, name, args, span) = call.parts();
        // The group the call is on: the object of a method, else the first argument of a
        // free function of the namespace.
        let group = if c.kind == "MemberExpr" {
            match c.inner.first().and_then(|o| self.known_group(strip_parens(o))) {
                Some(g) => g,
                None => return Ok(None),
            }
        } else {
            // A function of the namespace (its type names a group; a user's function taking
            // a group, `sumReduction(thread_group g, …)`, is inlined as any other).
            let in_namespace = c
                .referenced_decl
                .as_ref()
                .is_some_and(|d| d.ty.qual_type.contains("cooperative_groups::"))
                && FREE_FUNCTIONS.contains(&name);
            if !in_namespace {
                return Ok(None);
            }
            match args.first().and_then(|a| self.known_group(strip_parens(a))) {
                Some(g) => g,
                // `this_thread_block()`, `this_grid()`, `tiled_partition(…)`: a handle, which
                // has no storage (a local of a group type is not stored either).
                None if node_group(n, &self.g.group_aliases).is_some() => return Ok(Some(Val::Void)),
                None => return unsupported(span.clone(), format!("cooperative groups function `{name}`")),
            }
        };
        let v = match (name, group) {
            // Asynchronous copies (`cooperative_groups/memcpy_async.h`, `cuda/pipeline.rs`).
            ("memcpy_async", _) if c.kind != "MemberExpr" => self.cg_memcpy_async(call, group, out)?,
            ("wait" | "wait_prior", _) if c.kind != "MemberExpr" => {
                let prior = match name {
                    "wait" => 0,
                    _ => match self.wait_stage(c) {
                        Some(p) => p,
                        None => {
                            return unsupported(
                                span.clone(),
                                "`cooperative_groups::wait_prior` whose stage (its template argument) is not known",
                            );
                        }
                    },
                };
                self.cg_wait(prior, span, out);
                self.group_sync(group, span, out)?;
                Val::Void
            }
            ("sync" | "synchronize" | "barrier_sync", _) => {
                self.group_sync(group, span, out)?;
                Val::Void
            }
            _ => match self.group_method(call, group, out)? {
                // Through a generic `thread_group` (bound to a `thread_block`, whose `size()`
                // is `unsigned`) the call has the generic method's type (`unsigned long
                // long`): the value is converted to it, as the call's result is.
                Val::Scalar(e) => match self.ctype(n).scalar() {
                    Some(ty) if ty != Ty::Bool && e.ty() != ty => Val::Scalar(crate::ir::build::cast(e, ty)),
                    _ => Val::Scalar(e),
                },
                v => v,
            },
        };
        Ok(Some(v))
    }

    /// `wait_prior<N>`'s `N`: the first template argument of the instantiation the callee `c`
    /// refers to.
    fn wait_stage(&self, c: &Node) -> Option<u32> {
        template_stage(&self.g.funcs_by_id, c)
    }

    /// The `sync()` of `group` (module docs).
    ///
    /// # Errors
    /// A `multi_grid_group`'s.
    fn group_sync(&mut self, group: Group, span: &Span, out: &mut Vec<Stmt>) -> R<()> {
        match group {
            Group::Block | Group::Grid => {
                let scope = if group == Group::Grid {
                    self.note_once(
                        "grid_group::sync",
                        span,
                        "is a grid-wide barrier, defined only for a cooperative launch (cudaLaunchCooperativeKernel): gpug assumes one, every block of the grid resident at once",
                    );
                    BarrierScope::Grid
                } else {
                    BarrierScope::Block
                };
                out.push(Stmt {
                    kind: StmtKind::Barrier(scope, Fences::ALL),
                    span: span.clone(),
                });
            }
            // A tile of `n` consecutive thread ranks, aligned (a whole warp for 32): a warp
            // barrier of its tile.
            Group::Warp(Some(n)) if (2..=32).contains(&n) && n.is_power_of_two() => {
                out.push(Stmt {
                    kind: StmtKind::WarpBarrier(WarpLanes::Tile(n)),
                    span: span.clone(),
                });
            }
            Group::Warp(_) => {}
            Group::MultiGrid => {
                return unsupported(
                    span.clone(),
                    "multi-device barrier (cooperative groups `multi_grid_group::sync`) is not modelled",
                );
            }
        }
        Ok(())
    }

    /// A method `name` of `group` other than `sync()`, or a free function of the namespace
    /// on it (module docs).
    ///
    /// # Errors
    /// One the front end does not know.
    fn group_method(&mut self, call: &CallSite, group: Group, out: &mut Vec<Stmt>) -> R<Val> {
        let (n, name, args, span) = call.parts();
        let v = match (name, group) {
            // A tile of `n` threads (a power of two up to 32, CUDA's `tiled_partition<N>`):
            // ranks within it and of it within the block.
            ("thread_rank", Group::Warp(Some(n))) => Val::Scalar(bin(BinOp::Rem, block_rank(), lit(n))),
            ("size" | "num_threads", Group::Warp(Some(n))) => Val::Scalar(lit(n)),
            ("meta_group_rank", Group::Warp(Some(n))) => Val::Scalar(bin(BinOp::Div, block_rank(), lit(n))),
            ("meta_group_size", Group::Warp(Some(n))) => {
                Val::Scalar(bin(BinOp::Div, bin(BinOp::Add, block_size(), lit(n - 1)), lit(n)))
            }
            // A coalesced group's (or an unknown group's) ranks and size depend on which threads
            // are active: not modelled.
            ("thread_rank" | "size" | "num_threads" | "meta_group_rank" | "meta_group_size", Group::Warp(None)) => {
                self.note_once(
                    name,
                    span,
                    "of a coalesced group depends on which threads are active, which is not modelled: a defect after it is possible",
                );
                Val::Scalar(self.arbitrary_per_thread(n, name, Vec::new(), span, out)?)
            }
            // `cg::reduce(tile, value, op)` and the scans: the value, then a result that is
            // not modelled.
            // Of a struct (llm.c's `cg::reduce(warp, SumMax{…}, op)`).
            ("reduce" | "inclusive_scan" | "exclusive_scan", Group::Warp(_) | Group::Block)
                if matches!(self.ctype(n), CType::Record(_)) =>
            {
                let value: Vec<&Node> = args.get(1).copied().into_iter().collect();
                self.struct_collective(call, &value, "group", out)?
            }
            // `cg::reduce` over a tile of `n` lanes: one value for the whole tile, whose lanes
            // must all make the call (issue 53 item 6).
            ("reduce", Group::Warp(Some(n))) if (1..=32).contains(&n) && n.is_power_of_two() => {
                self.tile_reduce(call, n, out)?
            }
            ("reduce" | "inclusive_scan" | "exclusive_scan", Group::Warp(_) | Group::Block) => {
                let v = match args.get(1) {
                    Some(a) => self.scalar_args(&[a], out)?,
                    None => Vec::new(),
                };
                self.note_once(
                    name,
                    span,
                    "is a group collective whose value is not modelled: a defect after it is possible",
                );
                Val::Scalar(self.arbitrary_per_thread(n, name, v, span, out)?)
            }
            // A tile's shuffle of a struct (shfl_scan's `tile.shfl_xor(result.y, 1)` of a
            // `uint4`): the header shuffles it word by word; what other threads hold is not
            // modelled, as for a scalar.
            ("shfl" | "shfl_up" | "shfl_down" | "shfl_xor", Group::Warp(_))
                if matches!(self.ctype(n), CType::Record(_)) =>
            {
                let given: Vec<&Node> = args.iter().copied().filter(|a| a.kind != "CXXDefaultArgExpr").collect();
                self.struct_collective(call, &given, "tile", out)?
            }
            // Collectives on a tile: what other threads hold is not modelled.
            (
                "shfl" | "shfl_up" | "shfl_down" | "shfl_xor" | "any" | "all" | "ballot" | "match_any" | "match_all",
                Group::Warp(_),
            ) => self.unmodelled_collective(call, "tile", out)?,
            ("thread_rank", Group::Block) => Val::Scalar(block_rank()),
            ("size" | "num_threads", Group::Block) => Val::Scalar(block_size()),
            ("thread_rank", Group::Grid) => Val::Scalar(grid_rank()),
            ("size" | "num_threads", Group::Grid) => Val::Scalar(grid_size()),
            ("is_valid", _) => Val::Scalar(Expr::bool(true)),
            _ => return unsupported(span.clone(), format!("cooperative groups method `{name}`")),
        };
        Ok(v)
    }
}

/// The free functions of `cooperative_groups::` the front end knows (a call to another one is
/// an error naming it; a user's function is inlined).
const FREE_FUNCTIONS: &[&str] = &[
    "sync",
    "synchronize",
    "this_thread_block",
    "this_grid",
    "this_multi_grid",
    "tiled_partition",
    "coalesced_threads",
    "binary_partition",
    "labeled_partition",
    "reduce",
    "inclusive_scan",
    "exclusive_scan",
    "thread_rank",
    "group_size",
    "memcpy_async",
    "wait",
    "wait_prior",
];

/// An `unsigned` literal.
fn lit(n: u32) -> Expr {
    Expr::Const {
        value: n.into(),
        ty: Ty::U32,
    }
}

fn mul(a: Expr, b: Expr) -> Expr {
    bin(BinOp::Mul, a, b)
}

/// The expression `a op b` of type `u32`.
fn bin(op: BinOp, a: Expr, b: Expr) -> Expr {
    crate::ir::build::bin(op, a, b, Ty::U32)
}

/// `threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)`.
pub(in crate::frontend) fn block_rank() -> Expr {
    let b = |x| Expr::Builtin(x);
    let yz = bin(
        BinOp::Add,
        b(Builtin::ThreadIdx(Dim::Y)),
        mul(b(Builtin::BlockDim(Dim::Y)), b(Builtin::ThreadIdx(Dim::Z))),
    );
    bin(
        BinOp::Add,
        b(Builtin::ThreadIdx(Dim::X)),
        mul(b(Builtin::BlockDim(Dim::X)), yz),
    )
}

/// `blockDim.x * blockDim.y * blockDim.z`.
pub(in crate::frontend) fn block_size() -> Expr {
    let b = |x| Expr::Builtin(x);
    mul(
        mul(b(Builtin::BlockDim(Dim::X)), b(Builtin::BlockDim(Dim::Y))),
        b(Builtin::BlockDim(Dim::Z)),
    )
}

/// `unsigned long long`, the type of a grid group's rank and size.
const U64: Ty = Ty::Int {
    bits: 64,
    signed: false,
};

fn wide(e: Expr) -> Expr {
    Expr::Cast {
        arg: Box::new(e),
        ty: U64,
    }
}

fn mul64(a: Expr, b: Expr) -> Expr {
    Expr::Binary {
        op: BinOp::Mul,
        lhs: Box::new(a),
        rhs: Box::new(b),
        ty: U64,
    }
}

/// The linear index of the block in the grid, in 64 bits:
/// `blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z)`.
fn block_linear() -> Expr {
    let b = |x| wide(Expr::Builtin(x));
    let yz = Expr::Binary {
        op: BinOp::Add,
        lhs: Box::new(b(Builtin::BlockIdx(Dim::Y))),
        rhs: Box::new(mul64(b(Builtin::GridDim(Dim::Y)), b(Builtin::BlockIdx(Dim::Z)))),
        ty: U64,
    };
    Expr::Binary {
        op: BinOp::Add,
        lhs: Box::new(b(Builtin::BlockIdx(Dim::X))),
        rhs: Box::new(mul64(b(Builtin::GridDim(Dim::X)), yz)),
        ty: U64,
    }
}

/// `grid_group::thread_rank()`: `block_linear * block_size + block_rank`, in 64 bits (CUDA's
/// `unsigned long long`).
fn grid_rank() -> Expr {
    Expr::Binary {
        op: BinOp::Add,
        lhs: Box::new(mul64(block_linear(), wide(block_size()))),
        rhs: Box::new(wide(block_rank())),
        ty: U64,
    }
}

/// `grid_group::size()`: `gridDim.x * gridDim.y * gridDim.z * block_size`, in 64 bits.
fn grid_size() -> Expr {
    let b = |x| wide(Expr::Builtin(x));
    mul64(
        mul64(
            mul64(b(Builtin::GridDim(Dim::X)), b(Builtin::GridDim(Dim::Y))),
            b(Builtin::GridDim(Dim::Z)),
        ),
        wide(block_size()),
    )
}

impl Lower<'_, '_> {
    /// `cg::reduce(tile, value, op)`, the call `call`, over a tile of `n` consecutive lanes
    /// (`n` a power of two up to 32): a [`VoteOp::Uniform`] vote of `value` whose mask names the
    /// caller's tile, `((1 << n) - 1) << (lane / n * n)` with `lane` the linear thread id mod 32.
    /// Its value is not modelled (the operator is not evaluated) but is the same in every lane
    /// of the tile at one call, so that lanes storing it to one place race benignly.
    fn tile_reduce(&mut self, call: &CallSite, n: u32, out: &mut Vec<Stmt>) -> R<Val> {
        let (node, name, args, span) = call.parts();
        let ty = self.scalar_ty(node)?;
        let Some(a) = args.get(1) else {
            return unsupported(span.clone(), format!("`{name}` without a value"));
        };
        let arg = cast(self.scalar_args(&[a], out)?.remove(0), ty);
        self.note_once(
            name,
            span,
            "is a tile reduction whose value is not modelled, except that every lane of the tile receives the same value: a defect after it is possible",
        );
        let ones = u32::try_from((1u64 << n) - 1).unwrap_or(u32::MAX);
        let lane = bin(BinOp::Rem, block_rank(), lit(32));
        let mask = bin(BinOp::Shl, lit(ones), mul(bin(BinOp::Div, lane, lit(n)), lit(n)));
        let dst = self.temp(ty);
        out.push(Stmt {
            kind: StmtKind::Vote {
                dst,
                op: VoteOp::Uniform,
                mask: Some(mask),
                arg,
            },
            span: span.clone(),
        });
        Ok(Val::Scalar(Expr::Var { id: dst, ty }))
    }

    /// A collective `name` of a `what` (`"group"`: `reduce`, a scan; `"tile"`: a shuffle)
    /// whose value is a struct, the call `n`: `values` (its arguments but the group and the
    /// operation) evaluated for their reads, the result a fresh object whose every field is any
    /// value, with a note, and `name` listed as uninterpreted (a defect after it is possible).
    fn struct_collective(&mut self, call: &CallSite, values: &[&Node], what: &str, out: &mut Vec<Stmt>) -> R<Val> {
        let (n, name, _, span) = call.parts();
        for a in values {
            self.rvalue(a, out)?;
        }
        self.note_once(
            name,
            span,
            &format!("is a {what} collective whose value is not modelled: a defect after it is possible"),
        );
        if !self.k.uninterpreted.iter().any(|u| u == name) {
            self.k.uninterpreted.push(name.to_string());
        }
        let cty = self.ctype(n);
        self.temps += 1;
        let tmp = format!("${name}{}", self.temps - 1);
        let b = self.local_binding(&tmp, &cty, "", span)?;
        self.havoc(&b, span, out)?;
        let lv = match b {
            Binding::Mem(array, cty) => LVal::Mem {
                array,
                off: Expr::int(0, Ty::I64),
                cty,
            },
            b => LVal::Bound(b),
        };
        self.read(lv, n, out)
    }
}

/// The first template argument, an integer, of the function template instantiation the
/// callee `c` refers to (`wait_prior<N>`'s, `pipeline_consumer_wait_prior<N>`'s `N`), found
/// in `funcs` (the file's functions with a body, by id).
pub(in crate::frontend) fn template_stage(funcs: &std::collections::HashMap<String, &Node>, c: &Node) -> Option<u32> {
    let d = c.referenced_decl.as_ref()?;
    let def = funcs.get(&d.id)?;
    let a = def.inner.iter().find(|a| a.kind == "TemplateArgument")?;
    match a.value.as_ref()? {
        serde_json::Value::Number(n) => n.as_u64().and_then(|v| u32::try_from(v).ok()),
        serde_json::Value::String(s) => s.parse().ok(),
        _ => None,
    }
}
