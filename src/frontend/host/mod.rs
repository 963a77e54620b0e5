//! Launches read from the file's host code (issue 43): each `k<<<grid, block[, shm[, stream]]>>>(…)`
//! (clang's `CUDAKernelCallExpr`) and each `cudaLaunchKernel` / `cudaLaunchCooperativeKernel`
//! call, with the geometry and the scalar argument values the host code makes known.
//!
//! **What is evaluated.** A small abstract interpretation of the host functions' integer code,
//! from each host function of the program that no other calls (`main`): literals, macros (clang
//! has expanded them), enum constants, `const`/`constexpr` variables at any scope, `sizeof`,
//! `dim3` constructors and their `.x/.y/.z`, locals assigned before the launch (declarations,
//! `=`, compound assignments, `++`/`--`), arithmetic, comparisons, `?:`, `min`/`max`, and calls
//! of the file's host functions (inlined with their argument values: a launch in a helper
//! called from `main` is read at each call, and a helper returning a value, `iDivUp(n, 256)`,
//! gives it). Integer arithmetic is C's (`ir::Expr` folded by [`crate::ir::eval::eval`]).
//!
//! **What stays symbolic.** Anything else: function parameters with no caller in the file,
//! values read from input (`argc`, `scanf`, `atoi`), floating point, variables whose address is
//! taken or that are passed by reference (from then on), variables assigned in a loop or in one
//! branch of an `if` (after it; inside the loop they are unknown from the start), globals that
//! are not `const`. A symbolic value is a *host unknown*: when one is passed to a kernel
//! parameter unchanged (`k<<<(n + 255) / 256, 256>>>(…, n)`), the unknown is that parameter,
//! and every other launch value over such unknowns becomes a relation assumed at the kernel's
//! entry (`gridDim.x == (n + 255) / 256`); a value over unknowns not passed is dropped (the
//! launch stays symbolic there).
//!
//! Soundness: each assumption holds in the execution the host code makes (up to undefined
//! behaviour of the host code itself), so verifying the kernel under it covers that launch;
//! a value we cannot follow is never assumed.
//!
//! The files: this one holds the entry [`read`], the interpreter's state (`Host`, `Env`, `Val`)
//! and the small readings of the AST it shares; `walk.rs` the statement walk, `eval.rs` the
//! expressions' values, `record.rs` the launch record (a launch's geometry and arguments as a
//! [`HostLaunch`]), `terms.rs` the integer terms over host unknowns, `reach.rs` what of the
//! program runs and what its calls reach (definitions across files, uncalled functions, dead
//! branches, globals no code writes), `device.rs` the device's properties (each read a host
//! unknown in the range every CUDA device has). `rejected.rs` is the other
//! reading of host code: which errors clang reports lie in host-only code.
//!
//! Must not: lower device code or know about SMT.

mod device;
mod eval;
mod facts;
mod floats;
mod lambda;
mod reach;
mod record;
pub(in crate::frontend) mod rejected;
mod switch;
mod terms;
mod unroll;
mod walk;

use crate::frontend::ast::{DeclRef, Node, strip_parens};
use crate::frontend::lower::globals::{Globals, body_of, const_value};
use crate::ir::{BinOp, Builtin, Dim, Expr, HostLaunch, Kernel, ParamKind, Ty, UnOp, VarId};
pub(in crate::frontend) use facts::pure;
use num_bigint::BigInt;
use reach::{
    callees, definitions, names_used, never_called, only_in_dead_branches, passed_only_to_program, read_only, uncalled,
    whole_program,
};
use std::collections::{HashMap, HashSet};
use terms::{c_text, cast, eq, fold, passed_unknown, substitute, wrap_ty};

/// The launches of `kernels` (each with its declaration) in the host code of the translation
/// units `roots`, distinct ones only, in source order: the file's first, then the program's
/// other files (`frontend/program.rs`, their ids prefixed), whose calls of a function they only
/// declare run the definition of that name in another of `roots`. `user` tells the files whose
/// host functions are the program's (not a library's or the prelude's).
///
/// Also the kernels launched only from host functions that the program never calls
/// ([`uncalled`]), each with the reason as a note's text: those launches are not made; and
/// where the program's `main` is defined (`file:line`), when the files read define it: a
/// whole program ([`crate::ir::Program::main`]).
pub(in crate::frontend) fn read<'a>(
    roots: &[&'a Node],
    g: &Globals<'a>,
    kernels: &[(&'a Node, &Kernel)],
    user: &dyn Fn(&str) -> bool,
) -> (Vec<HostLaunch>, Vec<(usize, String)>, Option<String>) {
    let Some(&root) = roots.first() else {
        return Default::default();
    };
    let mut funcs: Vec<&'a Node> = Vec::new();
    for r in roots {
        host_functions(r, user, &mut funcs);
    }
    let main = funcs
        .iter()
        .find(|f| f.name.as_deref() == Some("main") && f.kind == "FunctionDecl" && body_of(f).is_some())
        .map(|f| {
            f.pos
                .as_ref()
                .map_or_else(|| "main".to_string(), |p| format!("{}:{}", p.file, p.line))
        });
    let defs = definitions(roots);
    let (dead, unlaunched) = uncalled(roots, &funcs, kernels);
    let funcs: Vec<&'a Node> = funcs.into_iter().filter(|f| !dead.contains(&f.id)).collect();
    let mut called: HashSet<String> = HashSet::new();
    for f in &funcs {
        if let Some(b) = body_of(f) {
            let mut ids = HashSet::new();
            callees(b, &mut ids);
            called.extend(ids.into_iter().map(|id| defs.get(&id).map_or(id, |d| d.id.clone())));
        }
    }
    let mut h = Host {
        g,
        kernels,
        unknowns: Vec::new(),
        found: Vec::new(),
        stack: Vec::new(),
        call_lines: Vec::new(),
        entered: HashSet::new(),
        generation: 0,
        newest: 0,
        globals: HashMap::new(),
        steps: 0,
        sources: HashMap::new(),
        early: Vec::new(),
        bodies: Vec::new(),
        visited: HashSet::new(),
        skipped: HashSet::new(),
        defs,
        read_only: if whole_program(&funcs) {
            read_only(roots)
        } else {
            HashSet::new()
        },
        last_params: Vec::new(),
        ref_out: Vec::new(),
        reaching: HashMap::new(),
        cut: Vec::new(),
        sets: HashMap::new(),
        ranges: HashMap::new(),
        property_globals: HashMap::new(),
        fields_written: device::written_fields(roots),
    };
    if whole_program(&funcs) {
        h.property_globals = device::property_globals(roots, &h.fields_written);
    }
    // The roots first (`main`), then each function holding a launch that no root's
    // interpretation entered (called only from another file, or through a pointer). A launch
    // in a branch the interpretation found dead (`if (block_size == 16)` with 32) is not made
    // by the program.
    // A `static` function that nothing names is never called: its launches are not made.
    let mut names = HashSet::new();
    for r in roots {
        names_used(r, &mut names);
    }
    let funcs: Vec<&'a Node> = funcs.into_iter().filter(|f| !never_called(f, &names)).collect();
    // A function whose address only the program's own calls get is run where they call it
    // (and below, with unknown parameters, only if none did).
    let passed = passed_only_to_program(roots, &h.defs, &funcs);
    for f in funcs
        .iter()
        .filter(|f| !called.contains(&f.id) && !passed.contains(&f.id))
    {
        h.function(f, Vec::new());
    }
    for f in &funcs {
        let Some(b) = body_of(f) else { continue };
        let mut sites = Vec::new();
        launch_nodes(b, &mut sites);
        if !sites.is_empty() && !h.entered.contains(&f.id) {
            h.function(f, Vec::new());
        }
    }
    // A call cut short (too deep, recursive, past the step budget) hides the launches under
    // it: each such callee runs as a root too, with its parameters unknown.
    let mut rooted: HashSet<String> = HashSet::new();
    while let Some(f) = h.cut.pop() {
        if rooted.insert(f.id.clone()) {
            h.function(f, Vec::new());
        }
    }
    let mut unlaunched = unlaunched;
    if whole_program(&funcs) {
        unlaunched.extend(only_in_dead_branches(root, kernels, &h));
    }
    let launches = dedup(h.found);
    unlaunched.retain(|(i, _)| !launches.iter().any(|l| l.kernel == *i));
    (launches, unlaunched, main)
}

/// A host value: an integer term (host unknowns are `Var`s indexing [`Host::unknowns`]) or a
/// `dim3`.
#[derive(Clone, Debug, PartialEq)]
enum Val {
    Int(Expr),
    Dim3([Expr; 3]),
    /// A local integer array the function only reads (`int sizes[] = {32, 64}`): its elements.
    Array(Vec<Expr>),
    /// A known `float` or `double` ([`floats`]): its `f64` bits (compared as bits: `0.0` and
    /// `-0.0` differ, a NaN is itself), and whether it is a `float`.
    Float(u64, bool),
    /// A driver API handle to the kernel of this name (`cuModuleGetFunction(&f, module,
    /// "matrixMulCUDA_block32")`), launched by `cuLaunchKernel(f, …)`.
    Function(String),
    /// A pointer to one of the program's host functions (its declaration's id), passed as an
    /// argument (`attention_backward1(…, launch_softmax_4, block_size)`, llm.c): a call
    /// through it runs that function with the call's values ([`Host::call`]).
    Host(String),
    /// A lambda, with the values it captures ([`lambda`]).
    Lambda(lambda::Closure),
}

/// The state of one host function's interpretation.
#[derive(Clone, Default)]
struct Env {
    /// Local variables' values by declaration id.
    vals: HashMap<String, Val>,
    /// Variables whose address was taken, that were passed by reference or that a reference or
    /// a lambda names: other names may change them, so each call and each write through a
    /// pointer or reference makes them unknown ([`Host::clobber`]).
    escaped: HashSet<String>,
    /// `void *args[] = {&a, &n}`: the variables each slot points to, by the array's id.
    arg_arrays: HashMap<String, Vec<Option<String>>>,
    /// Inside a loop.
    in_loop: bool,
    /// What holds of the host values here (boolean host terms): the conditions of the `if`s
    /// and loops around this point (issue 53), kept at each launch over the values the launch
    /// passes.
    facts: Vec<Expr>,
}

/// How a statement ends.
enum Flow {
    Next,
    Return(Option<Val>),
}

/// A launch as found, before the duplicates merge.
struct Found {
    launch: HostLaunch,
}

/// The interpreter.
struct Host<'a, 'g> {
    g: &'g Globals<'a>,
    kernels: &'g [(&'a Node, &'g Kernel)],
    /// The host unknowns' names (`n`, `argc`); `Var { id: VarId(i) }` is the i-th.
    unknowns: Vec<String>,
    found: Vec<Found>,
    /// The functions being interpreted (ids), outermost first, and their names.
    stack: Vec<(String, String)>,
    /// The lines of the calls between the functions of [`Host::stack`].
    /// Each with the call's file name when the call is in another of the program's files.
    call_lines: Vec<(u32, Option<String>)>,
    /// The functions interpreted at least once.
    entered: HashSet<String>,
    /// The writes that other names may have made so far ([`Host::clobber`]): a global read
    /// twice with no write between has one value.
    generation: u64,
    /// The highest [`Host::generation`] so far: a branch leaving an earlier state takes a new
    /// one ([`Host::branch_from`]).
    newest: u64,
    /// Each non-`const` global read so far: its unknown, and the generation it holds in.
    globals: HashMap<String, (u64, Expr)>,
    /// Statements interpreted: past [`MAX_STEPS`], calls are no longer inlined.
    steps: usize,
    /// Source files' lines, for the launches' configurations as written.
    sources: HashMap<String, Option<Vec<String>>>,
    /// For each function being interpreted, the values of the `return`s it may have taken
    /// before its end (under a condition not known, or in a loop): its value is the final
    /// `return`'s only when they all agree.
    early: Vec<Vec<Option<Val>>>,
    /// The bodies of the functions of [`Host::stack`].
    bodies: Vec<&'a Node>,
    /// The launch nodes (`CUDAKernelCallExpr`, `cudaLaunchKernel` calls) the walk reached, in
    /// any function and call.
    visited: HashSet<String>,
    /// The branches of `if`s the walk left out because their condition was known otherwise
    /// (`if (block_size == 16)` with 32), by statement id, in some call: a launch under one
    /// that the walk never [`Host::visited`] is in code the program does not run.
    skipped: HashSet<String>,
    /// Each function declaration's definition, by the declaration's id ([`definitions`]).
    defs: HashMap<String, &'a Node>,
    /// In a whole program, the names of the variables that no code writes ([`read_only`]);
    /// empty otherwise (another translation unit may write a global).
    read_only: HashSet<String>,
    /// The values of the parameters of the function [`Host::function`] last interpreted, at
    /// its end (empty when it was not interpreted, or may have returned early).
    last_params: Vec<Option<Val>>,
    /// After [`Host::call`]: the caller's locals passed to a non-`const` reference parameter
    /// (`computeGridSize(n, 256, numBlocks, numThreads)`), each with the value the callee
    /// left in it (`None`: unknown), for the statement walk to write back.
    ref_out: Vec<(String, Option<Val>)>,
    /// Whether each host function (by definition id) may reach a launch ([`Host::reaches_launch`]).
    reaching: HashMap<String, bool>,
    /// The functions whose calls were not interpreted ([`Host::cut`]) and may reach a launch.
    cut: Vec<&'a Node>,
    /// Host unknowns known to be one of a few constants: an element of a constant array read
    /// at an index not known ([`Host::one_of`]).
    sets: HashMap<VarId, (Ty, Vec<BigInt>)>,
    /// Host unknowns that read a device property ([`device`]): the field, and the least and
    /// greatest value it has on any CUDA device. A launch passing one assumes the range.
    ranges: HashMap<VarId, (&'static str, BigInt, BigInt)>,
    /// In a whole program, the globals the program only sets to a device property
    /// ([`device::property_globals`]), by name: the field and the global's range.
    property_globals: HashMap<String, (&'static str, BigInt, BigInt)>,
    /// The device properties the program writes itself ([`device::written_fields`]): read as
    /// any value.
    fields_written: HashSet<&'static str>,
}

/// A `for` loop whose condition is known at each iteration is unrolled up to this many
/// iterations ([`Host::unroll`]).
const MAX_UNROLL: usize = 64;
/// The statements one unrolled loop may take (its nested loops and calls included).
const UNROLL_STEPS: usize = 20_000;
/// The statements one unrolled loop may take when it reaches no launch
/// ([`Host::reaches_launch`]): a host reference computation (llm.c's
/// `attention_backward_cpu`, loops over `B*NH*T*T`) must not spend the budget of the launches
/// after it.
const QUIET_UNROLL_STEPS: usize = 1_000;
/// Calls of host functions are inlined at most this deep.
const MAX_DEPTH: usize = 8;
/// The interpretation's budget in statements (a host program of many helpers called many times).
const MAX_STEPS: usize = 200_000;

/// The user's host functions with a body, anywhere in `n` (namespaces, classes, template
/// instantiations).
fn host_functions<'a>(n: &'a Node, user: &dyn Fn(&str) -> bool, out: &mut Vec<&'a Node>) {
    for c in &n.inner {
        match c.kind.as_str() {
            "FunctionDecl" | "CXXMethodDecl" => {
                let device =
                    c.has_attr("CUDAGlobalAttr") || (c.has_attr("CUDADeviceAttr") && !c.has_attr("CUDAHostAttr"));
                let mine = c.pos.as_ref().or(c.begin.as_ref()).is_some_and(|p| user(&p.file));
                if !device && mine && body_of(c).is_some() && !c.is_implicit {
                    out.push(c);
                }
            }
            "NamespaceDecl"
            | "LinkageSpecDecl"
            | "CXXRecordDecl"
            | "ClassTemplateSpecializationDecl"
            | "FunctionTemplateDecl"
            | "ClassTemplateDecl" => host_functions(c, user, out),
            _ => {}
        }
    }
}

/// The ids of the launch nodes under `n`.
fn launch_nodes<'n>(n: &'n Node, out: &mut Vec<&'n str>) {
    if n.kind == "CUDAKernelCallExpr" || (n.kind == "CallExpr" && launch_api(n).is_some()) {
        out.push(&n.id);
    }
    for c in &n.inner {
        launch_nodes(c, out);
    }
}

/// `cudaLaunchKernel` or `cudaLaunchCooperativeKernel` when `call` calls one of them.
fn launch_api(call: &Node) -> Option<&str> {
    let callee = call.inner.first()?;
    let name = callee_name(callee)?;
    matches!(
        name,
        "cudaLaunchKernel"
            | "cudaLaunchCooperativeKernel"
            | "cudaLaunchKernelExC"
            | "cuLaunchKernel"
            | "cuLaunchCooperativeKernel"
    )
    .then_some(name)
}

/// The name of the function a callee expression names.
fn callee_name(n: &Node) -> Option<&str> {
    let n = strip(n);
    match n.kind.as_str() {
        "DeclRefExpr" => n.referenced_decl.as_ref().map(|d| d.name.as_str()),
        "UnresolvedLookupExpr" => n.name.as_deref(),
        _ => None,
    }
}

/// `n` without parentheses, implicit casts and temporaries' wrappers.
fn strip(n: &Node) -> &Node {
    let mut n = strip_parens(n);
    while matches!(
        n.kind.as_str(),
        "ImplicitCastExpr"
            | "ExprWithCleanups"
            | "MaterializeTemporaryExpr"
            | "CXXBindTemporaryExpr"
            | "ParenExpr"
            | "ConstantExpr"
    ) && !n.inner.is_empty()
    {
        n = strip_parens(&n.inner[0]);
    }
    n
}

/// The type of `n` without qualifiers (`const int` → `int`).
fn bare(ty: &str) -> &str {
    let mut t = ty.trim();
    for q in ["const ", "volatile "] {
        t = t.strip_prefix(q).unwrap_or(t);
    }
    t.trim()
}

fn is_dim3(ty: &str) -> bool {
    matches!(
        bare(ty).trim_end_matches('&').trim(),
        "dim3" | "struct dim3" | "const dim3" | "uint3"
    )
}

fn one() -> Expr {
    Expr::int(1, Ty::U32)
}

impl<'a, 'g> Host<'a, 'g> {
    /// A fresh host unknown of type `ty` named `name`.
    fn unknown(&mut self, name: &str, ty: Ty) -> Expr {
        self.unknowns.push(name.to_string());
        Expr::Var {
            id: VarId(self.unknowns.len() - 1),
            ty,
        }
    }

    /// The scalar type of a type spelling, integers and `bool` only.
    fn int_ty(&self, ty: &str) -> Option<Ty> {
        match self.g.types.parse(bare(ty)).scalar()? {
            t @ (Ty::Int { .. } | Ty::Bool) => Some(t),
            _ => None,
        }
    }
}

/// The shift operators' right operand type, as the node gives it.
fn rhs_ty_of(n: &Node, h: &Host) -> Ty {
    h.int_ty(n.type_str()).unwrap_or(Ty::I32)
}

fn is_shift(op: BinOp) -> bool {
    matches!(op, BinOp::Shl | BinOp::Shr)
}

/// The variable `&x` takes the address of.
fn address_of(e: &Node) -> Option<&str> {
    let e = strip(e);
    if e.kind != "UnaryOperator" || e.opcode.as_deref() != Some("&") {
        return None;
    }
    let t = strip(e.inner.first()?);
    (t.kind == "DeclRefExpr").then(|| t.referenced_decl.as_ref().map(|d| d.id.as_str()))?
}

/// Whether a parameter of type `ty` is a non-`const` lvalue reference to a value that is not a
/// pointer (`uint &numBlocks`): a caller's local passed to it is an out-parameter whose value
/// at the callee's end is written back.
/// Whether a parameter of type `ty` cannot change its caller's variable: taken by value or by
/// `const` reference.
fn unchangeable(ty: &str) -> bool {
    !ty.contains('&') || (ty.starts_with("const ") && !ty.contains('*'))
}

fn out_reference(ty: &str) -> bool {
    ty.ends_with('&') && !ty.ends_with("&&") && !ty.starts_with("const ") && !ty.contains('*')
}

/// `e` with its casts, explicit (`(void *)`, `static_cast`, `reinterpret_cast`) or implicit,
/// and parentheses stripped.
fn strip_casts(e: &Node) -> Option<&Node> {
    let mut n = strip(e);
    while matches!(
        n.kind.as_str(),
        "CStyleCastExpr" | "CXXStaticCastExpr" | "CXXReinterpretCastExpr"
    ) {
        n = strip(n.inner.first()?);
    }
    Some(n)
}

/// The variable `&x` takes the address of, through explicit casts (`(void *)&x`).
fn address_through_casts(e: &Node) -> Option<&str> {
    address_of(strip_casts(e)?)
}

/// The variable an argument array expression names: `args`, or `&args[0]`.
fn arg_array_of(e: &Node) -> Option<&str> {
    let mut n = strip_casts(e)?;
    if n.kind == "UnaryOperator" && n.opcode.as_deref() == Some("&") {
        let sub = strip(n.inner.first()?);
        if sub.kind != "ArraySubscriptExpr" || const_value(sub.inner.get(1)?) != Some(BigInt::from(0)) {
            return None;
        }
        n = strip(sub.inner.first()?);
    }
    (n.kind == "DeclRefExpr").then(|| n.referenced_decl.as_ref().map(|d| d.id.as_str()))?
}

/// The function a `(void *)k` expression names.
fn function_ref(e: &Node) -> Option<&Node> {
    let mut n = strip(e);
    loop {
        match n.kind.as_str() {
            "DeclRefExpr" => return Some(n),
            "CStyleCastExpr"
            | "CXXReinterpretCastExpr"
            | "CXXStaticCastExpr"
            | "UnaryOperator"
            | "ImplicitCastExpr"
            | "ParenExpr" => n = strip(n.inner.first()?),
            _ => return None,
        }
    }
}

/// `.x`, `.y`, `.z` as an index.
fn component(name: &str) -> Option<usize> {
    match name {
        "x" => Some(0),
        "y" => Some(1),
        "z" => Some(2),
        _ => None,
    }
}

/// How many calls deep [`Host::assigned`] follows a variable passed by reference.
const WRITES_DEPTH: u32 = 4;

impl<'a> Host<'a, '_> {
    /// The variables an assignment, increment or escape under `n` may change. A variable
    /// passed to a call by reference counts, except where the callee is one of the program's
    /// functions and takes it by value or `const` reference, or never writes its parameter
    /// ([`Host::writes_param`], followed [`WRITES_DEPTH`] calls deep): llm.c's
    /// `benchmark_kernel(repeats, kernel, args...)` takes `B, T, C, NH` by forwarding
    /// reference and only passes them on, so a loop around it leaves them known.
    pub(super) fn assigned(&self, n: &Node, out: &mut HashSet<String>) {
        self.assigned_to(n, out, WRITES_DEPTH);
    }

    fn assigned_to(&self, n: &Node, out: &mut HashSet<String>, depth: u32) {
        match (n.kind.as_str(), n.opcode.as_deref()) {
            ("BinaryOperator", Some("="))
            | ("CompoundAssignOperator", _)
            | ("UnaryOperator", Some("++" | "--" | "&")) => {
                if let Some(t) = n.inner.first() {
                    target_of(t, out);
                }
            }
            // `std::forward(x)`, `std::move(x)`: `x` itself, not written.
            ("CallExpr", _) if eval::forwarded(n).is_some() => {}
            ("CallExpr" | "CXXMemberCallExpr" | "CXXOperatorCallExpr", _) => {
                let callee = (n.kind == "CallExpr").then(|| self.program_function(n)).flatten();
                for (i, a) in n.inner.iter().skip(1).enumerate() {
                    let a = strip_parens(a);
                    if a.kind == "DeclRefExpr"
                        && a.is_glvalue()
                        && callee.is_none_or(|f| self.writes_param(f, i, depth))
                    {
                        out.extend(a.referenced_decl.as_ref().map(|d| d.id.clone()));
                    }
                }
            }
            _ => {}
        }
        for c in &n.inner {
            self.assigned_to(c, out, depth);
        }
    }

    /// The definition, with a body, of the program's function a plain call `e` names
    /// (`None`: a call through a pointer, a library's function, a member).
    fn program_function(&self, e: &Node) -> Option<&Node> {
        let callee = strip(e.inner.first()?);
        if callee.kind != "DeclRefExpr" {
            return None;
        }
        let f = self.definition(&callee.referenced_decl.as_ref()?.id)?;
        body_of(f).is_some().then_some(f)
    }

    /// The definition of the function declared as `id` ([`definitions`], across the program's
    /// files), else the declaration itself.
    pub(super) fn definition(&self, id: &str) -> Option<&'a Node> {
        self.defs
            .get(id)
            .copied()
            .or_else(|| self.g.funcs_by_id.get(id).copied())
    }

    /// Whether function `f` may write the variable its caller passes as argument `i`: not when
    /// the parameter is taken by value or by `const` reference; else when `f`'s body may change
    /// the parameter ([`Host::assigned`], `depth` calls deeper), and always at depth 0 or for an
    /// argument past the parameters (C's `...`).
    fn writes_param(&self, f: &Node, i: usize, depth: u32) -> bool {
        let Some(p) = f.inner.iter().filter(|c| c.kind == "ParmVarDecl").nth(i) else {
            return true;
        };
        if unchangeable(p.type_str().trim()) {
            return false;
        }
        let (Some(body), true) = (body_of(f), depth > 0) else {
            return true;
        };
        let mut ids = HashSet::new();
        self.assigned_to(body, &mut ids, depth - 1);
        ids.contains(&p.id)
    }
}

/// The variable an assignment's target is part of (`x`; `d.x`, one component of the `dim3`
/// `d`, as `id.x`; the whole of another record).
fn target_of(t: &Node, out: &mut HashSet<String>) {
    let t = strip_parens(t);
    match t.kind.as_str() {
        "DeclRefExpr" => out.extend(t.referenced_decl.as_ref().map(|d| d.id.clone())),
        "MemberExpr"
            if !t.is_arrow
                && let Some(c) = t.name.as_deref().filter(|c| component(c).is_some())
                && let Some(b) = t.inner.first().map(strip_parens)
                && b.kind == "DeclRefExpr"
                && is_dim3(b.type_str()) =>
        {
            out.extend(b.referenced_decl.as_ref().map(|d| format!("{}.{c}", d.id)));
        }
        "MemberExpr" if !t.is_arrow => {
            if let Some(b) = t.inner.first() {
                target_of(b, out);
            }
        }
        _ => {}
    }
}

/// The variables named under `n`.
fn named(n: &Node, out: &mut HashSet<String>) {
    if n.kind == "DeclRefExpr"
        && let Some(d) = &n.referenced_decl
        && matches!(d.kind.as_str(), "VarDecl" | "ParmVarDecl")
    {
        out.insert(d.id.clone());
    }
    for c in &n.inner {
        named(c, out);
    }
}

fn has_kind(n: &Node, kind: &str) -> bool {
    n.kind == kind || n.inner.iter().any(|c| has_kind(c, kind))
}

/// The distinct launches: those with the same kernel, geometry and assumptions are one, the
/// others' sites listed in [`HostLaunch::same`].
fn dedup(found: Vec<Found>) -> Vec<HostLaunch> {
    let mut out: Vec<HostLaunch> = Vec::new();
    for Found { launch } in found {
        match out.iter_mut().find(|l| {
            l.kernel == launch.kernel
                && l.block_dim == launch.block_dim
                && l.grid_dim == launch.grid_dim
                && l.assumptions == launch.assumptions
        }) {
            Some(l) => {
                if l.site != launch.site && !l.same.contains(&launch.site) {
                    l.same.push(launch.site);
                }
                l.in_loop |= launch.in_loop;
            }
            None => out.push(launch),
        }
    }
    out
}

/// The function declaration `e` names as a value (`f`, `&f`, decayed to a pointer).
fn named_function(e: &Node) -> Option<&DeclRef> {
    let mut e = strip(e);
    if e.kind == "UnaryOperator" && e.opcode.as_deref() == Some("&") {
        e = strip(e.inner.first()?);
    }
    e.referenced_decl
        .as_ref()
        .filter(|d| e.kind == "DeclRefExpr" && d.kind == "FunctionDecl")
}
