//! Lowering of clang's AST ([`super::ast`]) to the kernel language ([`crate::ir`]).
//!
//! Expressions become pure [`Expr`]s; loads, stores and side effects become statements emitted in
//! evaluation order. Device functions are inlined, pointers are resolved to (array, byte offset)
//! at their definition, and anything not modelled is a [`FrontendError::Unsupported`].
//!
//! This module holds the lowering state (`Lower`, one `Frame` per inlined function), the values
//! it works with (`Binding`, `Val`, `LVal`), a call being lowered (`CallSite`), with small
//! expression helpers; the entry points are in `kernel.rs`. Each concern of the core language
//! has a file or a room:
//!
//! | file | owns |
//! | --- | --- |
//! | `kernel.rs` | the entry points ([`kernel::lower_program`], [`kernel::kernel_body_offsets`]), a kernel lowered until its pointers settle, whole-kernel checks |
//! | `globals.rs` | what the translation unit declares (`Globals`), kernel selection |
//! | `collect.rs` | the walk that fills `Globals`: records, typedefs, functions, axioms |
//! | `names.rs` | enums, typedefs and static data members, wherever declared |
//! | `decl.rs` | declarations: kernel parameters, locals, `__shared__`/file-scope arrays, initializers |
//! | `stmt.rs` | statements: blocks, `if`, loops, `switch`, `return`, expression statements |
//! | `goto.rs` | forward `goto`s: the blocks their labels end |
//! | `expr.rs` | rvalues: literals, casts, unary, binary and conditional operators |
//! | `place.rs` | lvalues: reads, writes, members, pointers as (array, byte offset), `++`, `+=` |
//! | `target.rs` | pointer variables that may point into several arrays (a tag beside the offset) |
//! | `ctor.rs` | user-written constructors (inlined, member initializers), initializer lists in expressions |
//! | `cxx.rs` | C++ places: references, `this` and methods, conditional lvalues, pointers to pointers, string literals |
//! | `ptr_table.rs` | pointers loaded from the kernel's parameter memory (`float **` parameters, pointer fields of structs passed by pointer) |
//! | `null.rs` | null pointers: OpenCL's `NULL` array, whether a kernel's pointer parameter is null |
//! | `addr.rs` | pointers as integers and back: an array's address (`NAME$addr`), an integer computed from one pointer cast back to it |
//! | `calls/` | calls: dispatch, inlining of device functions, function pointers, lambdas, bodiless functions, `memcpy`/`memset`, `--modular` |
//! | `builtin/` | calls to built-in functions as their table entry says (`mod.rs`); the entries' types and shared IR constructors (`table.rs`), integer intrinsics (`int.rs`) |
//! | `annotations/` | GPUVerify's annotations that need more than a table entry: two-thread predicates, contracts, axioms (`mod.rs`); the access logs' instrumentation (`access_log.rs`) |
//!
//! The languages' own features are rooms beside this one, extending `Lower` from there:
//! CUDA's ([`crate::frontend::cuda`]: vector types, textures, cuRAND, cooperative groups, inline
//! assembly, WMMA, the 16-bit float types, CUDA's built-in table) and OpenCL's
//! ([`crate::frontend::opencl`]: vectors, work-group copies, OpenCL's built-in table). The launches
//! the host code makes are read by [`crate::frontend::host`].
//!
//! Lowering knows C and CUDA's AST shapes; it does not run clang, know about SMT or analyse the
//! IR it builds (that is [`crate::passes`]' job).

use super::FrontendError;
use super::ast::{Node, Pos};
use super::types::CType;
use crate::ir::build::cast;
use crate::ir::query::wrap;
use crate::ir::*;
use calls::memory_calls::U8;
use globals::Globals;
use num_bigint::BigInt;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

pub(in crate::frontend) mod addr;
pub(in crate::frontend) mod annotations;
pub(in crate::frontend) mod builtin;
pub(in crate::frontend) mod calls;
pub(in crate::frontend) mod collect;
pub(in crate::frontend) mod ctor;
pub(in crate::frontend) mod cxx;
pub(in crate::frontend) mod decl;
pub(in crate::frontend) mod expr;
pub(in crate::frontend) mod globals;
pub(in crate::frontend) mod goto;
pub(in crate::frontend) mod kernel;
pub(in crate::frontend) mod names;
pub(in crate::frontend) mod null;
pub(in crate::frontend) mod place;
pub(in crate::frontend) mod ptr_table;
pub(in crate::frontend) mod stmt;
pub(in crate::frontend) mod target;

pub(in crate::frontend) type R<T> = Result<T, FrontendError>;

/// A resolved pointer value: an array, a byte offset (`I64`) and the pointee type.
#[derive(Clone, Debug)]
pub(in crate::frontend) struct PtrVal {
    pub(in crate::frontend) array: ArrayId,
    pub(in crate::frontend) off: Expr,
    pub(in crate::frontend) pointee: CType,
}

/// A lowered rvalue.
#[derive(Clone, Debug)]
pub(in crate::frontend) enum Val {
    Scalar(Expr),
    Ptr(PtrVal),
    /// A struct value: its fields in order.
    Struct(Vec<(String, Val)>),
    /// A fixed-size array value (an array member of a struct being copied): its elements.
    Array(Vec<Val>),
    /// A pointer to one of two places in different arrays, chosen by a `Bool` (`c ? p : q`
    /// with `p` and `q` in two arrays): dereferenced as a case split (`cxx.rs`), never stored.
    PtrCond(Expr, Box<Val>, Box<Val>),
    /// The address of a place that is not in memory (`&q` of a pointer variable `q`): a
    /// pointer to a pointer, resolved statically (`cxx.rs`).
    Addr(Box<LVal>),
    /// No value (`void`).
    Void,
}

/// How a pointer variable's offset is held.
#[derive(Clone, Debug)]
pub(in crate::frontend) enum PtrOff {
    /// Never reassigned: the offset expression fixed at the definition.
    Fixed(Expr),
    /// A variable of type `I64`.
    Var(VarId),
}

/// A pointer variable: the arrays it may point into (`target.rs`) and its offset.
#[derive(Clone, Debug)]
pub(in crate::frontend) struct PtrBind {
    pub(in crate::frontend) name: String,
    /// The arrays it may point to, numbered as its tag numbers them (empty before its first
    /// assignment).
    pub(in crate::frontend) arrays: Vec<ArrayId>,
    /// Which of `arrays` it points to (an `I32`), when there are several: a variable, or an
    /// expression fixed at the definition.
    pub(in crate::frontend) tag: Option<Expr>,
    pub(in crate::frontend) off: PtrOff,
    pub(in crate::frontend) pointee: CType,
}

impl PtrBind {
    /// A pointer variable `name` into `arrays` (empty: not yet assigned), no tag.
    pub(in crate::frontend) fn new(name: &str, arrays: Vec<ArrayId>, off: PtrOff, pointee: CType) -> PtrBind {
        PtrBind {
            name: name.to_string(),
            arrays,
            tag: None,
            off,
            pointee,
        }
    }
}

/// A call being lowered, as the lowerings of built-in and bodiless functions take it: the call
/// expression, the callee's name, the argument expressions (as written, without defaults
/// clang adds unless the lowering asks) and the call's span.
#[derive(Clone, Copy)]
pub(in crate::frontend) struct CallSite<'n> {
    pub(in crate::frontend) node: &'n Node,
    pub(in crate::frontend) name: &'n str,
    pub(in crate::frontend) args: &'n [&'n Node],
    pub(in crate::frontend) span: &'n Span,
}

impl<'n> CallSite<'n> {
    /// The call's node, name, arguments and span.
    pub(in crate::frontend) fn parts(&self) -> (&'n Node, &'n str, &'n [&'n Node], &'n Span) {
        (self.node, self.name, self.args, self.span)
    }
}

/// What a declaration denotes.
#[derive(Clone, Debug)]
pub(in crate::frontend) enum Binding {
    Scalar(VarId, Ty),
    /// Index into [`Lower::ptrs`].
    Ptr(usize),
    /// Memory: an array (or address-taken scalar) with its C type.
    Mem(ArrayId, CType),
    /// A flattened struct.
    Struct(Vec<(String, Binding)>),
    /// A constant.
    Const(Expr),
    /// A reference (`int &r = a[i]`, a reference parameter) to a place fixed at its binding
    /// (offsets in variables of their own, `cxx.rs`).
    Ref(Box<LVal>),
    /// A pointer to a pointer (`int **pp = &q`, a `char **` parameter given `&q`) that is
    /// never reassigned: the place it points to.
    Addr(Box<LVal>),
}

/// A lowered lvalue.
#[derive(Clone, Debug)]
pub(in crate::frontend) enum LVal {
    Bound(Binding),
    Mem {
        array: ArrayId,
        off: Expr,
        cty: CType,
    },
    /// One of two places, chosen by a `Bool` fixed when the place was formed (`(c ? a : b)`
    /// as an lvalue): reads and writes are case splits.
    Cond {
        cond: Expr,
        then: Box<LVal>,
        els: Box<LVal>,
    },
}

/// Per inlined function: its exit block and result slot.
pub(in crate::frontend) struct Frame {
    pub(in crate::frontend) env: HashMap<String, Binding>,
    pub(in crate::frontend) block: Option<BlockId>,
    pub(in crate::frontend) ret: Option<Binding>,
    pub(in crate::frontend) func_id: String,
    /// Declarations whose address is taken in this function.
    pub(in crate::frontend) addr_taken: HashSet<String>,
    /// Declarations assigned after their definition in this function.
    pub(in crate::frontend) modified: HashSet<String>,
    /// The object of a method (`this` points to it), when the function is one.
    pub(in crate::frontend) this_obj: Option<LVal>,
    /// The function returns a reference (`T &f()`): `ret` is unused, `ret_ref` is the place.
    pub(in crate::frontend) returns_ref: bool,
    /// The place a reference-returning function returns (set by its `return`s).
    pub(in crate::frontend) ret_ref: Option<LVal>,
}

pub(in crate::frontend) struct Lower<'a, 'g> {
    pub(in crate::frontend) g: &'g Globals<'a>,
    pub(in crate::frontend) k: Kernel,
    pub(in crate::frontend) frames: Vec<Frame>,
    pub(in crate::frontend) ptrs: Vec<PtrBind>,
    /// Arrays for file-scope and `static`/`__shared__` declarations, by declaration id.
    pub(in crate::frontend) static_arrays: HashMap<String, Binding>,
    pub(in crate::frontend) temps: usize,
    /// Span of the kernel (fallback).
    pub(in crate::frontend) kspan: Span,
    /// The place the last inlined reference-returning call returned.
    pub(in crate::frontend) last_ret_ref: Option<LVal>,
    /// Statements run first in the kernel (the contents of string literals).
    pub(in crate::frontend) prologue: Vec<Stmt>,
    /// Arrays holding string literals, by node id.
    pub(in crate::frontend) literals: HashMap<String, ArrayId>,
    /// Copies lowered so far (OpenCL's `async_work_group_copy`, CUDA's
    /// `__pipeline_memcpy_async`): the next one's site.
    pub(in crate::frontend) copies: u32,
    /// CUDA: the thread's count of committed pipeline groups (`cuda/pipeline.rs`), made at
    /// the first pipeline primitive.
    pub(in crate::frontend) pipeline: Option<VarId>,
    /// CUDA: the thread's `cuda::pipeline<cuda::thread_scope_thread>`'s count of groups its
    /// consumer has waited for (`cuda/thread_pipeline.rs`), made at its `make_pipeline()`.
    pub(in crate::frontend) pipeline_tail: Option<VarId>,
    /// OpenCL: the array a null pointer points into (`null.rs`); `None` for CUDA, where a null
    /// pointer used as a pointer is refused.
    pub(in crate::frontend) null: Option<ArrayId>,
    /// The array that stands for every surface's memory (`texture.rs`), once a kernel reads
    /// or writes a surface.
    pub(in crate::frontend) surfaces: Option<ArrayId>,
    /// Whether each pointer parameter's array is null (`null.rs`): a `Bool` parameter of the
    /// kernel, made at the first comparison of a pointer into it with a null pointer.
    pub(in crate::frontend) null_flags: HashMap<ArrayId, VarId>,
    /// The array the pointers loaded from each array of parameter memory point into
    /// (`ptr_table.rs`), made at the first such load.
    pub(in crate::frontend) families: HashMap<ArrayId, ArrayId>,
    /// The arrays `memset` and `memcpy` write (`memory_calls.rs`), which may be pointers'
    /// (`ptr_table.rs`).
    pub(in crate::frontend) bulk_written: Vec<ArrayId>,
    /// Functions with a function-pointer code, by identity (`fnptr.rs`): code `i` is the
    /// `i`-th.
    pub(in crate::frontend) fn_codes: Vec<String>,
    /// Functions used as values in the translation unit, found at the first call through a
    /// pointer.
    pub(in crate::frontend) fn_taken: Option<Vec<calls::fnptr::FnCand<'a>>>,
    /// The access logs annotations ask about (`access_log`), made on first use.
    pub(in crate::frontend) logs: Vec<annotations::access_log::AccessLog>,
    /// Nesting depth of annotation conditions being lowered (GPUVerify's two-thread
    /// annotations are allowed only there).
    pub(in crate::frontend) annotation_depth: u32,
    /// Lowering the postconditions of the device function just inlined (`annotations/`).
    pub(in crate::frontend) in_postcondition: bool,
    /// Nesting depth of subscripts' indices being lowered (`a[y * w + x]`): their unsigned
    /// `+` and `*` are recorded in [`crate::ir::Kernel::signed_ops`] (issue 53 item 4).
    pub(in crate::frontend) index_depth: u32,
    /// Arrays of the pointer variables with several, by creation index, from the last pass.
    pub(in crate::frontend) seeds: target::Seeds,
    /// A pointer variable learnt a new array in this pass (lower again).
    pub(in crate::frontend) grown: bool,
    /// The labels forward `goto`s may reach now, by label declaration id: the block whose
    /// `Exit` jumps to each (`goto.rs`).
    pub(in crate::frontend) goto_targets: HashMap<String, BlockId>,
    /// The depth of the entry function's frame: 1 for a kernel, 2 for a device function
    /// checked on its own (`modular.rs`), whose `__requires` is assumed rather than checked.
    pub(in crate::frontend) entry_depth: usize,
    /// The text of the files that asm statements are read from (`asm.rs`), by name; `None`
    /// for one that cannot be read.
    pub(in crate::frontend) sources: HashMap<Arc<str>, Option<Arc<str>>>,
    /// The lambdas held in local variables and parameters, by their declaration id
    /// (`lambda.rs`).
    pub(in crate::frontend) closures: HashMap<String, calls::lambda::Closure>,
    /// CUDA: the `cuda::atomic_ref` locals by declaration id: the location each refers to
    /// and its scope (`cuda/atomic_ref.rs`).
    pub(in crate::frontend) atomic_refs: HashMap<String, (PtrVal, AtomicScope)>,
    /// CUDA: CUB's block collectives held in locals (`cub::BlockReduce<int, 128> r(temp);`)
    /// by declaration id: their `TempStorage` (`cuda/cub.rs`).
    pub(in crate::frontend) cub_objects: HashMap<String, PtrVal>,
    /// Integer locals initialised with a pointer's integer value (`uintptr_t v = (uintptr_t)p`)
    /// and never assigned again, by declaration id: the array it points into (`addr.rs`).
    pub(in crate::frontend) int_addrs: HashMap<String, ArrayId>,
    /// Each array's address as a kernel parameter `NAME$addr`, made at the first pointer
    /// converted to an integer (`addr.rs`).
    pub(in crate::frontend) addr_params: HashMap<ArrayId, VarId>,
    /// CUDA: the group each generic `cooperative_groups::thread_group` parameter or local is
    /// bound to, by declaration id, where it was made from a group of known kind
    /// (`sumReduction(thread_group g, …)` called with a `thread_block`): its methods are that
    /// group's (`cuda/groups.rs`, [`Lower::known_group`]).
    pub(in crate::frontend) group_bindings: HashMap<String, crate::frontend::cuda::groups::Group>,
}

pub(in crate::frontend) fn pos_span(p: &Pos) -> Span {
    Span::point(p.file.clone(), p.line, p.col)
}

/// The span of a node: its range begin, with `end_col` when it ends on the same line.
pub(in crate::frontend) fn span_of(n: &Node, fallback: &Span) -> Span {
    let Some(b) = n.begin.as_ref().or(n.pos.as_ref()) else {
        return fallback.clone();
    };
    let mut s = pos_span(b);
    if let Some(e) = &n.end
        && e.file == b.file
        && e.line == b.line
        && e.col >= b.col
    {
        s.end_col = Some(e.col + e.tok_len.max(1) - 1);
    }
    s
}

pub(in crate::frontend) fn unsupported<T>(span: Span, what: impl Into<String>) -> R<T> {
    let what: String = what.into();
    Err(FrontendError::Unsupported {
        span,
        what: what.replace('\n', " "),
    })
}

/// Find declarations whose address is taken and those modified after definition.
pub(in crate::frontend) fn scan(n: &Node, addr: &mut HashSet<String>, modified: &mut HashSet<String>) {
    let target = |e: &Node| -> Option<String> {
        let mut e = e;
        loop {
            match e.kind.as_str() {
                "ParenExpr" | "ImplicitCastExpr" if e.cast_kind.as_deref() != Some("LValueToRValue") => {
                    e = e.inner.first()?;
                }
                "DeclRefExpr" => return e.referenced_decl.as_ref().map(|d| d.id.clone()),
                _ => return None,
            }
        }
    };
    match n.kind.as_str() {
        "UnaryOperator" => match n.opcode.as_deref() {
            Some("&") => {
                if let Some(id) = n.inner.first().and_then(target) {
                    addr.insert(id);
                }
            }
            Some("++") | Some("--") => {
                if let Some(id) = n.inner.first().and_then(target) {
                    modified.insert(id);
                }
            }
            _ => {}
        },
        "BinaryOperator" if n.opcode.as_deref() == Some("=") => {
            if let Some(id) = n.inner.first().and_then(target) {
                modified.insert(id);
            }
        }
        "CompoundAssignOperator" => {
            if let Some(id) = n.inner.first().and_then(target) {
                modified.insert(id);
            }
        }
        "CXXOperatorCallExpr" => {
            if let Some(id) = n.inner.get(1).and_then(target) {
                modified.insert(id);
            }
        }
        _ => {}
    }
    for c in &n.inner {
        scan(c, addr, modified);
    }
}

/// Sign- or zero-extend (or truncate) an integer to `I64`.
pub(in crate::frontend) fn to_i64(e: Expr) -> Expr {
    if e.ty() == Ty::I64 {
        e
    } else {
        Expr::Cast {
            arg: Box::new(e),
            ty: Ty::I64,
        }
    }
}

pub(in crate::frontend) fn is_zero(e: &Expr) -> bool {
    matches!(e, Expr::Const { value, .. } if *value == BigInt::from(0))
}

pub(in crate::frontend) fn add_off(a: Expr, b: Expr) -> Expr {
    match (&a, &b) {
        (Expr::Const { value: x, .. }, Expr::Const { value: y, .. }) => Expr::int(x + y, Ty::I64),
        _ if is_zero(&a) => b,
        _ if is_zero(&b) => a,
        _ => Expr::Binary {
            op: BinOp::Add,
            lhs: Box::new(a),
            rhs: Box::new(b),
            ty: Ty::I64,
        },
    }
}

pub(in crate::frontend) fn scale(idx: Expr, size: u64) -> Expr {
    let idx = if matches!(idx.ty(), Ty::Int { .. }) {
        cast(idx, Ty::I64)
    } else {
        to_i64(idx)
    };
    match &idx {
        Expr::Const { value, .. } => Expr::int(value * BigInt::from(size), Ty::I64),
        _ if size == 1 => idx,
        _ => Expr::Binary {
            op: BinOp::Mul,
            lhs: Box::new(idx),
            rhs: Box::new(Expr::int(size, Ty::I64)),
            ty: Ty::I64,
        },
    }
}

/// The statement `var = value`.
pub(in crate::frontend) fn set(var: VarId, value: Expr, span: Span) -> Stmt {
    Stmt {
        kind: StmtKind::Assign { var, value },
        span,
    }
}

/// The statement `if (cond) { then } else { els }`.
pub(in crate::frontend) fn branch(cond: Expr, then: Vec<Stmt>, els: Vec<Stmt>, span: Span) -> Stmt {
    Stmt {
        kind: StmtKind::If { cond, then, els },
        span,
    }
}

pub(in crate::frontend) fn float_name(op: &str, bits: u32) -> String {
    format!("{op}{bits}")
}

pub(in crate::frontend) fn wrap_ty(v: BigInt, ty: Ty) -> BigInt {
    match ty {
        Ty::Int { bits, signed } => wrap(v, bits, signed),
        Ty::Bool => BigInt::from((v != BigInt::from(0)) as u8),
        Ty::Float { .. } => v,
    }
}

pub(in crate::frontend) fn describe(n: &Node, t: &CType) -> String {
    let s = n.ty.as_ref().map(|t| t.qual_type.clone()).unwrap_or_default();
    if s.is_empty() { t.describe() } else { s }
}

impl<'a, 'g> Lower<'a, 'g> {
    pub(in crate::frontend) fn frame(&self) -> &Frame {
        // A frame is pushed before any lowering starts.
        &self.frames[self.frames.len() - 1]
    }

    pub(in crate::frontend) fn frame_mut(&mut self) -> &mut Frame {
        let n = self.frames.len() - 1;
        &mut self.frames[n]
    }

    pub(in crate::frontend) fn span(&self, n: &Node) -> Span {
        span_of(n, &self.kspan)
    }

    pub(in crate::frontend) fn ctype(&self, n: &Node) -> CType {
        let t = self.g.types.parse(n.type_str());
        // clang 14 prints a pointer to an array substituted into a template (`T *const` with
        // `T = unsigned int[32]`) without its parentheses: `unsigned int *const[32]`. Where
        // the node cannot be an array (a parameter, C++ [dcl.fct]/5; an lvalue-to-rvalue
        // conversion, never applied to an array) it is the pointer to the array.
        let cannot_be_array = n.kind == "ParmVarDecl"
            || n.cast_kind.as_deref() == Some("LValueToRValue")
            || (n.kind == "DeclRefExpr" && n.referenced_decl.as_ref().is_some_and(|d| d.kind == "ParmVarDecl"));
        match t {
            CType::Array(elem, Some(len)) if cannot_be_array && matches!(*elem, CType::Ptr(_)) => {
                let CType::Ptr(inner) = *elem else { unreachable!() };
                CType::Ptr(Box::new(CType::Array(inner, Some(len))))
            }
            t => t,
        }
    }

    pub(in crate::frontend) fn scalar_ty(&self, n: &Node) -> R<Ty> {
        match self.ctype(n) {
            CType::Scalar(t) => Ok(t),
            other => unsupported(
                self.span(n),
                format!("expression of type `{}` used as a scalar", describe(n, &other)),
            ),
        }
    }

    pub(in crate::frontend) fn temp(&mut self, ty: Ty) -> VarId {
        self.temps += 1;
        self.k.new_var(format!("$t{}", self.temps - 1), ty)
    }

    pub(in crate::frontend) fn new_array(&mut self, name: &str, space: Space, cty: &CType, span: Span) -> R<ArrayId> {
        let mut dims = Vec::new();
        let mut t = cty.clone();
        while let CType::Array(e, n) = t {
            if let Some(n) = n {
                dims.push(n);
            } else if !dims.is_empty() {
                return unsupported(span, format!("array `{name}` with an unknown inner dimension"));
            }
            t = *e;
        }
        let elem = match &t {
            CType::Scalar(ty) => *ty,
            CType::Record(_) if self.g.types.layout(&t).is_some() => Ty::Int { bits: 8, signed: false },
            CType::Void => Ty::Int { bits: 8, signed: false },
            // An array of pointers (llm.c's `extern __shared__ char *params[]`, used as bytes
            // through a cast): 64-bit slots. Storing a pointer to memory stays refused, and a
            // pointer loaded from memory is resolved only from parameter memory
            // (`ptr_table.rs`), so such an array is only ever read and written as data.
            CType::Ptr(_) => ptr_table::SLOT,
            other => {
                return unsupported(span, format!("array `{name}` of element type `{}`", other.describe()));
            }
        };
        if let CType::Array(_, None) = cty {
            dims.clear();
        }
        self.k.arrays.push(ArrayDecl {
            name: name.to_string(),
            space,
            elem,
            dims,
            span,
        });
        Ok(ArrayId(self.k.arrays.len() - 1))
    }

    pub(in crate::frontend) fn size_of(&self, t: &CType, span: &Span) -> R<u64> {
        match self.g.types.layout(t) {
            Some((s, _)) => Ok(s),
            None => match t {
                CType::Void => Ok(1),
                _ => unsupported(span.clone(), format!("size of type `{}`", t.describe())),
            },
        }
    }

    pub(in crate::frontend) fn expect_scalar(&self, v: Val, n: &Node) -> R<Expr> {
        match v {
            Val::Scalar(e) => Ok(e),
            Val::Ptr(_) => unsupported(
                self.span(n),
                "pointer used as a value (pointer comparison or conversion)",
            ),
            Val::Struct(_) => unsupported(self.span(n), "struct used as a scalar"),
            Val::Array(_) => unsupported(self.span(n), "array used as a scalar"),
            Val::PtrCond(..) | Val::Addr(_) => unsupported(
                self.span(n),
                "pointer used as a value (pointer comparison or conversion)",
            ),
            Val::Void => unsupported(self.span(n), "void value used"),
        }
    }

    pub(in crate::frontend) fn expect_ptr(&self, v: Val, n: &Node) -> R<PtrVal> {
        match v {
            Val::Ptr(p) => Ok(p),
            Val::Scalar(Expr::Const { value, .. }) if value == BigInt::from(0) => match self.null {
                Some(array) => Ok(PtrVal {
                    array,
                    off: Expr::int(0, Ty::I64),
                    pointee: CType::Scalar(U8),
                }),
                None => unsupported(self.span(n), "null pointer"),
            },
            Val::PtrCond(..) => unsupported(
                self.span(n),
                "pointer that may point to two arrays (chosen by a conditional) used as a value",
            ),
            Val::Addr(_) => unsupported(self.span(n), "pointer to pointer used as a value"),
            _ => unsupported(self.span(n), "integer used as a pointer"),
        }
    }
}
