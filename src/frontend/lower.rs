//! Lowering of clang's AST ([`super::ast`]) to the kernel language ([`crate::ir`]).
//!
//! Expressions become pure [`Expr`]s; loads, stores and side effects become statements emitted in
//! evaluation order. Device functions are inlined, pointers are resolved to (array, byte offset)
//! at their definition, and anything not modelled is a [`FrontendError::Unsupported`].

use super::FrontendError;
use super::ast::{Node, Pos, strip_parens};
use super::cuda::{find_builtin, find_builtin_lv, is_builtin_struct};
use super::types::{CType, TypeEnv};
use crate::ir::*;
use num_bigint::BigInt;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

type R<T> = Result<T, FrontendError>;

/// Lower every kernel of the translation unit `root` defined outside the prelude.
/// The kernels of `root` that `only` selects (all when `None`), each with the name reports
/// use (plain, or with template arguments where a template has several instantiations).
fn select_kernels<'a>(g: &Globals<'a>, file: &str, only: Option<&str>) -> R<Vec<(String, &'a Node)>> {
    let mut found: Vec<(String, String, &Node)> = Vec::new(); // (plain name, full name, decl)
    for (k, is_template) in &g.kernels {
        let name = k.name.clone().unwrap_or_default();
        let full = if *is_template {
            format!("{name}<{}>", template_args(k))
        } else {
            name.clone()
        };
        found.push((name, full, k));
    }
    if found.is_empty() {
        return Err(FrontendError::NoKernel { file: file.to_string() });
    }
    // Plain names for template instantiations unless a template has several.
    let mut counts: HashMap<&str, usize> = HashMap::new();
    for (n, _, _) in &found {
        *counts.entry(n.as_str()).or_default() += 1;
    }
    let named: Vec<(String, String, &Node)> = found
        .iter()
        .map(|(n, f, k)| {
            let display = if counts.get(n.as_str()).copied().unwrap_or(0) > 1 {
                f.clone()
            } else {
                n.clone()
            };
            (n.clone(), display, *k)
        })
        .collect();
    let selected: Vec<&(String, String, &Node)> = match only {
        Some(want) => {
            let full_match: Vec<_> = named
                .iter()
                .filter(|(_, d, k)| d == want || full_name(k) == want)
                .collect();
            let sel = if full_match.is_empty() {
                named.iter().filter(|(n, _, _)| n == want).collect()
            } else {
                full_match
            };
            if sel.is_empty() {
                return Err(FrontendError::KernelNotFound {
                    file: file.to_string(),
                    name: want.to_string(),
                    available: named.iter().map(|(_, d, _)| d.as_str()).collect::<Vec<_>>().join(", "),
                });
            }
            sel
        }
        None => named.iter().collect(),
    };
    Ok(selected.into_iter().map(|(_, d, k)| (d.clone(), *k)).collect())
}

/// Byte offsets of the `{` opening the body of each kernel `only` selects, in the file clang
/// was given (once per body: template instantiations share their pattern's), for
/// `--assume` (see [`super::load`]).
///
/// Errors: no kernel, `--kernel` names none, a body that starts inside a macro.
pub fn kernel_body_offsets(root: &Node, file: &str, prelude: &str, only: Option<&str>) -> R<Vec<u64>> {
    let mut g = Globals::default();
    collect(root, &mut g, prelude);
    let mut out = Vec::new();
    for (_, k) in select_kernels(&g, file, only)? {
        let body = k.inner.iter().find(|c| c.kind == "CompoundStmt");
        let begin = body.and_then(|b| b.range.as_ref()).map(|r| &r.begin);
        match begin.and_then(|b| if b.expansion.is_some() { None } else { b.bare.offset }) {
            Some(o) if !out.contains(&o) => out.push(o),
            Some(_) => {}
            None => {
                let fallback = Span::point(Arc::from(file), 0, 0);
                return unsupported(
                    span_of(k, &fallback),
                    "--assume into a kernel whose body is written by a macro",
                );
            }
        }
    }
    Ok(out)
}

pub fn lower_program(root: &Node, file: &str, prelude: &str, only: Option<&str>) -> R<Program> {
    let mut g = Globals::default();
    collect(root, &mut g, prelude);
    let selected = select_kernels(&g, file, only)?;
    let mut kernels = Vec::new();
    for (display, k) in &selected {
        kernels.push(lower_kernel(&g, k, display)?);
    }
    Ok(Program {
        file: file.to_string(),
        kernels,
    })
}

fn full_name(k: &Node) -> String {
    let name = k.name.clone().unwrap_or_default();
    if k.inner.iter().any(|c| c.kind == "TemplateArgument") {
        format!("{name}<{}>", template_args(k))
    } else {
        name
    }
}

fn template_args(k: &Node) -> String {
    let mut out = Vec::new();
    for a in k.inner.iter().filter(|c| c.kind == "TemplateArgument") {
        if let Some(t) = &a.ty {
            out.push(t.qual_type.clone());
        } else if let Some(v) = &a.value {
            out.push(match v {
                serde_json::Value::String(s) => s.clone(),
                other => other.to_string(),
            });
        } else {
            out.push("?".into());
        }
    }
    out.join(", ")
}

/// What the whole translation unit declares.
#[derive(Default)]
struct Globals<'a> {
    types: TypeEnv,
    /// Kernels (and whether each is a template instantiation).
    kernels: Vec<(&'a Node, bool)>,
    /// Function definitions by declaration id.
    funcs_by_id: HashMap<String, &'a Node>,
    /// Function definitions by (name, type).
    funcs_by_sig: HashMap<(String, String), &'a Node>,
    /// File-scope variables by id.
    vars: HashMap<String, &'a Node>,
    /// Enum constants by id.
    enum_consts: HashMap<String, BigInt>,
    /// Record fields by record declaration id.
    record_by_id: HashMap<String, Vec<(String, CType)>>,
}

fn is_function(n: &Node) -> bool {
    matches!(
        n.kind.as_str(),
        "FunctionDecl" | "CXXMethodDecl" | "CXXConversionDecl" | "CXXConstructorDecl"
    )
}

fn body_of(f: &Node) -> Option<&Node> {
    f.inner.iter().find(|c| c.kind == "CompoundStmt")
}

fn collect<'a>(n: &'a Node, g: &mut Globals<'a>, prelude: &str) {
    for c in &n.inner {
        match c.kind.as_str() {
            "NamespaceDecl" | "LinkageSpecDecl" | "ExternCContextDecl" => collect(c, g, prelude),
            "FunctionTemplateDecl" => {
                for (i, f) in c.inner.iter().enumerate().filter(|(_, f)| is_function(f)) {
                    let spec = f.inner.iter().any(|a| a.kind == "TemplateArgument");
                    if i > 0 && spec {
                        add_function(f, g, prelude, true);
                    }
                }
            }
            "CXXRecordDecl" | "RecordDecl" | "ClassTemplateSpecializationDecl" => {
                add_record(c, g);
                for m in &c.inner {
                    if is_function(m) {
                        add_function(m, g, prelude, false);
                    } else if m.kind == "FunctionTemplateDecl" {
                        for f in m.inner.iter().skip(1).filter(|f| is_function(f)) {
                            add_function(f, g, prelude, false);
                        }
                    }
                }
            }
            "ClassTemplateDecl" => {
                for s in c.inner.iter().filter(|s| s.kind == "ClassTemplateSpecializationDecl") {
                    add_record(s, g);
                    for m in s.inner.iter().filter(|m| is_function(m)) {
                        add_function(m, g, prelude, false);
                    }
                }
            }
            "EnumDecl" => {
                if let Some(name) = &c.name {
                    g.types.enums.insert(name.clone());
                }
                let mut next = BigInt::from(0);
                for e in c.inner.iter().filter(|e| e.kind == "EnumConstantDecl") {
                    if let Some(v) = e.inner.first().and_then(const_value) {
                        next = v;
                    }
                    g.enum_consts.insert(e.id.clone(), next.clone());
                    next += 1;
                }
            }
            "VarDecl" => {
                g.vars.insert(c.id.clone(), c);
            }
            "TypedefDecl" | "TypeAliasDecl" => add_typedef(c, g),
            _ if is_function(c) => add_function(c, g, prelude, false),
            _ => {}
        }
    }
}

fn add_record<'a>(c: &'a Node, g: &mut Globals<'a>) {
    if c.tag_used.as_deref() == Some("union") {
        if let Some(name) = &c.name {
            g.types.unions.insert(name.clone());
        }
        return;
    }
    if !c.complete_definition {
        return;
    }
    let mut fields: Vec<(String, CType)> = Vec::new();
    for b in &c.bases {
        let bt = g.types.parse(b.ty.best());
        if let CType::Record(bn) = bt
            && let Some(bf) = g.types.records.get(&bn)
        {
            fields.extend(bf.iter().cloned());
        }
    }
    let mut anon: Option<Vec<(String, CType)>> = None;
    for f in &c.inner {
        match f.kind.as_str() {
            "CXXRecordDecl" | "RecordDecl" if f.complete_definition => {
                // Nested records: register them (named ones by name, anonymous ones by the
                // spelling of the field that uses them, below).
                add_record(f, g);
                if f.name.as_deref().unwrap_or("").is_empty() {
                    anon = Some(record_fields(f, g));
                }
            }
            "FieldDecl" => {
                let t = f.type_str();
                if let Some(af) = anon.take()
                    && (t.contains("(unnamed") || t.contains("(anonymous"))
                {
                    g.types.records.insert(super::types::strip_tag(t).to_string(), af);
                }
                fields.push((f.name.clone().unwrap_or_default(), g.types.parse(t)));
            }
            _ => {}
        }
    }
    g.record_by_id.insert(c.id.clone(), fields.clone());
    let Some(name) = c.name.as_ref().filter(|n| !n.is_empty()) else {
        return;
    };
    let key = if c.kind == "ClassTemplateSpecializationDecl" {
        format!("{name}<{}>", template_args(c))
    } else {
        name.clone()
    };
    g.types.records.entry(key).or_insert(fields);
}

fn record_fields(c: &Node, g: &Globals) -> Vec<(String, CType)> {
    c.inner
        .iter()
        .filter(|f| f.kind == "FieldDecl")
        .map(|f| (f.name.clone().unwrap_or_default(), g.types.parse(f.type_str())))
        .collect()
}

/// `typedef struct { … } name;`: the record named by the typedef.
fn add_typedef(c: &Node, g: &mut Globals) {
    fn record_id(n: &Node) -> Option<&str> {
        if n.kind == "RecordType" {
            return n.decl.as_ref().map(|d| d.id.as_str());
        }
        n.inner.iter().find_map(record_id)
    }
    let (Some(name), Some(id)) = (&c.name, record_id(c)) else {
        return;
    };
    if let Some(fields) = g.record_by_id.get(id) {
        let fields = fields.clone();
        g.types.records.entry(name.clone()).or_insert(fields);
    }
}

fn add_function<'a>(f: &'a Node, g: &mut Globals<'a>, prelude: &str, template: bool) {
    if body_of(f).is_none() {
        return;
    }
    g.funcs_by_id.insert(f.id.clone(), f);
    let key = (
        f.name.clone().unwrap_or_default(),
        f.ty.as_ref().map(|t| t.qual_type.clone()).unwrap_or_default(),
    );
    g.funcs_by_sig.insert(key, f);
    let in_prelude = f.pos.as_ref().is_some_and(|p| &*p.file == prelude);
    if f.has_attr("CUDAGlobalAttr") && !in_prelude && !g.kernels.iter().any(|(k, _)| k.id == f.id) {
        g.kernels.push((f, template));
    }
}

/// An integer constant folded from literals (enum values, array sizes, `const` globals).
fn const_value(n: &Node) -> Option<BigInt> {
    match n.kind.as_str() {
        "ConstantExpr" => match &n.value {
            Some(serde_json::Value::String(s)) => s.parse().ok(),
            _ => n.inner.first().and_then(const_value),
        },
        "IntegerLiteral" => match &n.value {
            Some(serde_json::Value::String(s)) => s.parse().ok(),
            Some(serde_json::Value::Number(x)) => x.as_i64().map(BigInt::from),
            _ => None,
        },
        "CharacterLiteral" => n.value.as_ref().and_then(|v| v.as_i64()).map(BigInt::from),
        "CXXBoolLiteralExpr" => n
            .value
            .as_ref()
            .and_then(|v| v.as_bool())
            .map(|b| BigInt::from(b as u8)),
        "ImplicitCastExpr" | "ParenExpr" | "CStyleCastExpr" | "SubstNonTypeTemplateParmExpr" => {
            if matches!(
                n.cast_kind.as_deref(),
                Some("IntegralToFloating") | Some("FloatingToIntegral")
            ) {
                return None;
            }
            n.code_children().last().and_then(const_value)
        }
        "UnaryOperator" if n.opcode.as_deref() == Some("-") => n.inner.first().and_then(const_value).map(|v| -v),
        _ => None,
    }
}

/// A resolved pointer value: an array, a byte offset (`I64`) and the pointee type.
#[derive(Clone, Debug)]
struct PtrVal {
    array: ArrayId,
    off: Expr,
    pointee: CType,
}

/// A lowered rvalue.
#[derive(Clone, Debug)]
enum Val {
    Scalar(Expr),
    Ptr(PtrVal),
    /// A struct value: its fields in order.
    Struct(Vec<(String, Val)>),
    /// No value (`void`).
    Void,
}

/// How a pointer variable's offset is held.
#[derive(Clone, Debug)]
enum PtrOff {
    /// Never reassigned: the offset expression fixed at the definition.
    Fixed(Expr),
    /// A variable of type `I64`.
    Var(VarId),
}

/// A pointer variable: statically bound to one array.
#[derive(Clone, Debug)]
struct PtrBind {
    name: String,
    array: Option<ArrayId>,
    off: PtrOff,
    pointee: CType,
}

/// What a declaration denotes.
#[derive(Clone, Debug)]
enum Binding {
    Scalar(VarId, Ty),
    /// Index into [`Lower::ptrs`].
    Ptr(usize),
    /// Memory: an array (or address-taken scalar) with its C type.
    Mem(ArrayId, CType),
    /// A flattened struct.
    Struct(Vec<(String, Binding)>),
    /// A constant.
    Const(Expr),
}

/// A lowered lvalue.
#[derive(Clone, Debug)]
enum LVal {
    Bound(Binding),
    Mem { array: ArrayId, off: Expr, cty: CType },
}

/// Per inlined function: its exit block and result slot.
struct Frame {
    env: HashMap<String, Binding>,
    block: Option<BlockId>,
    ret: Option<Binding>,
    func_id: String,
    /// Declarations whose address is taken in this function.
    addr_taken: HashSet<String>,
    /// Declarations assigned after their definition in this function.
    modified: HashSet<String>,
}

struct Lower<'a, 'g> {
    g: &'g Globals<'a>,
    k: Kernel,
    frames: Vec<Frame>,
    ptrs: Vec<PtrBind>,
    /// Arrays for file-scope and `static`/`__shared__` declarations, by declaration id.
    static_arrays: HashMap<String, Binding>,
    temps: usize,
    /// Span of the kernel (fallback).
    kspan: Span,
}

fn pos_span(p: &Pos) -> Span {
    Span::point(p.file.clone(), p.line, p.col)
}

/// The span of a node: its range begin, with `end_col` when it ends on the same line.
fn span_of(n: &Node, fallback: &Span) -> Span {
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

fn unsupported<T>(span: Span, what: impl Into<String>) -> R<T> {
    let what: String = what.into();
    Err(FrontendError::Unsupported {
        span,
        what: what.replace('\n', " "),
    })
}

fn lower_kernel(g: &Globals, f: &Node, display: &str) -> R<Kernel> {
    let fallback = Span::point(Arc::from(""), 0, 0);
    let kspan = f.pos.as_ref().map(pos_span).unwrap_or(fallback);
    let mut l = Lower {
        g,
        k: Kernel {
            name: display.to_string(),
            span: kspan.clone(),
            params: Vec::new(),
            vars: Vec::new(),
            arrays: Vec::new(),
            body: Vec::new(),
            next_block: 0,
            unchecked: Vec::new(),
        },
        frames: Vec::new(),
        ptrs: Vec::new(),
        static_arrays: HashMap::new(),
        temps: 0,
        kspan,
    };
    let body = body_of(f).ok_or_else(|| FrontendError::Unsupported {
        span: l.kspan.clone(),
        what: "kernel without a body".into(),
    })?;
    let mut frame = Frame {
        env: HashMap::new(),
        block: None,
        ret: None,
        func_id: f.id.clone(),
        addr_taken: HashSet::new(),
        modified: HashSet::new(),
    };
    scan(body, &mut frame.addr_taken, &mut frame.modified);
    l.frames.push(frame);
    let mut out = Vec::new();
    for p in f.inner.iter().filter(|c| c.kind == "ParmVarDecl") {
        l.kernel_param(p, &mut out)?;
    }
    l.block(body, &mut out)?;
    l.k.body = out;
    Ok(l.k)
}

/// Find declarations whose address is taken and those modified after definition.
fn scan(n: &Node, addr: &mut HashSet<String>, modified: &mut HashSet<String>) {
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
fn to_i64(e: Expr) -> Expr {
    if e.ty() == Ty::I64 {
        e
    } else {
        Expr::Cast {
            arg: Box::new(e),
            ty: Ty::I64,
        }
    }
}

fn is_zero(e: &Expr) -> bool {
    matches!(e, Expr::Const { value, .. } if *value == BigInt::from(0))
}

fn add_off(a: Expr, b: Expr) -> Expr {
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

fn scale(idx: Expr, size: u64) -> Expr {
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

fn cast(e: Expr, ty: Ty) -> Expr {
    if e.ty() == ty {
        return e;
    }
    if let (Expr::Const { value, .. }, Ty::Int { bits, signed }) = (&e, ty)
        && matches!(e.ty(), Ty::Int { .. })
    {
        return Expr::int(wrap(value.clone(), bits, signed), ty);
    }
    Expr::Cast { arg: Box::new(e), ty }
}

/// Reduce `v` into the range of an integer of `bits` bits.
fn wrap(v: BigInt, bits: u32, signed: bool) -> BigInt {
    let m = BigInt::from(1) << bits;
    let mut r = ((v % &m) + &m) % &m;
    if signed && r >= (&m >> 1) {
        r -= &m;
    }
    r
}

fn to_bool(e: Expr) -> Expr {
    if e.ty() == Ty::Bool {
        e
    } else {
        Expr::Cast {
            arg: Box::new(e),
            ty: Ty::Bool,
        }
    }
}

fn float_name(op: &str, bits: u32) -> String {
    format!("{op}{bits}")
}

impl<'a, 'g> Lower<'a, 'g> {
    fn frame(&self) -> &Frame {
        // A frame is pushed before any lowering starts.
        &self.frames[self.frames.len() - 1]
    }

    fn frame_mut(&mut self) -> &mut Frame {
        let n = self.frames.len() - 1;
        &mut self.frames[n]
    }

    fn span(&self, n: &Node) -> Span {
        span_of(n, &self.kspan)
    }

    fn ctype(&self, n: &Node) -> CType {
        self.g.types.parse(n.type_str())
    }

    fn scalar_ty(&self, n: &Node) -> R<Ty> {
        match self.ctype(n) {
            CType::Scalar(t) => Ok(t),
            other => unsupported(
                self.span(n),
                format!("expression of type `{}` used as a scalar", describe(n, &other)),
            ),
        }
    }

    fn temp(&mut self, ty: Ty) -> VarId {
        self.temps += 1;
        self.k.new_var(format!("$t{}", self.temps - 1), ty)
    }

    fn new_array(&mut self, name: &str, space: Space, cty: &CType, span: Span) -> R<ArrayId> {
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
            CType::Ptr(_) => return unsupported(span, format!("array of pointers `{name}`")),
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

    fn size_of(&self, t: &CType, span: &Span) -> R<u64> {
        match self.g.types.layout(t) {
            Some((s, _)) => Ok(s),
            None => match t {
                CType::Void => Ok(1),
                _ => unsupported(span.clone(), format!("size of type `{}`", t.describe())),
            },
        }
    }

    // ---------------------------------------------------------------- declarations

    fn kernel_param(&mut self, p: &Node, out: &mut Vec<Stmt>) -> R<()> {
        let name = p.name.clone().unwrap_or_else(|| format!("$arg{}", self.k.params.len()));
        let cty = self.ctype(p);
        let span = p.pos.as_ref().map(pos_span).unwrap_or_else(|| self.kspan.clone());
        let b = self.param_binding(&name, &cty, &p.id, &span, out)?;
        self.frame_mut().env.insert(p.id.clone(), b);
        Ok(())
    }

    fn param_binding(&mut self, name: &str, cty: &CType, id: &str, span: &Span, out: &mut Vec<Stmt>) -> R<Binding> {
        match cty {
            CType::Scalar(ty) => {
                let v = self.k.new_var(name, *ty);
                self.k.params.push(Param {
                    name: name.to_string(),
                    kind: ParamKind::Scalar(v),
                });
                Ok(Binding::Scalar(v, *ty))
            }
            CType::Ptr(pointee) => {
                if matches!(**pointee, CType::Ptr(_)) {
                    return unsupported(span.clone(), format!("pointer to pointer parameter `{name}`"));
                }
                if matches!(**pointee, CType::Func) {
                    return unsupported(span.clone(), format!("function pointer parameter `{name}`"));
                }
                let arr_ty = CType::Array(pointee.clone(), None);
                let a = self.new_array(name, Space::Global, &arr_ty, span.clone())?;
                self.k.params.push(Param {
                    name: name.to_string(),
                    kind: ParamKind::Array(a),
                });
                let off = if self.frame().modified.contains(id) {
                    let v = self.k.new_var(format!("{name}$off"), Ty::I64);
                    out.push(Stmt {
                        kind: StmtKind::Assign {
                            var: v,
                            value: Expr::int(0, Ty::I64),
                        },
                        span: span.clone(),
                    });
                    PtrOff::Var(v)
                } else {
                    PtrOff::Fixed(Expr::int(0, Ty::I64))
                };
                self.ptrs.push(PtrBind {
                    name: name.to_string(),
                    array: Some(a),
                    off,
                    pointee: (**pointee).clone(),
                });
                Ok(Binding::Ptr(self.ptrs.len() - 1))
            }
            CType::Record(r) => {
                let fields = self.g.types.records.get(r).cloned().unwrap_or_default();
                let mut bs = Vec::new();
                for (f, ft) in fields {
                    let b = self.param_binding(&format!("{name}.{f}"), &ft, "", span, out)?;
                    bs.push((f, b));
                }
                Ok(Binding::Struct(bs))
            }
            other => unsupported(
                span.clone(),
                format!("kernel parameter `{name}` of type `{}`", other.describe()),
            ),
        }
    }

    /// A fresh local binding for a declaration of type `cty` (no initialisation).
    fn local_binding(&mut self, name: &str, cty: &CType, id: &str, span: &Span) -> R<Binding> {
        let addr = self.frame().addr_taken.contains(id);
        match cty {
            CType::Scalar(ty) if addr => {
                let a = self.new_array(
                    name,
                    Space::Local,
                    &CType::Array(Box::new(cty.clone()), Some(1)),
                    span.clone(),
                )?;
                let _ = ty;
                Ok(Binding::Mem(a, cty.clone()))
            }
            CType::Scalar(ty) => Ok(Binding::Scalar(self.k.new_var(name, *ty), *ty)),
            CType::Array(..) => {
                let a = self.new_array(name, Space::Local, cty, span.clone())?;
                Ok(Binding::Mem(a, cty.clone()))
            }
            CType::Ptr(pointee) => {
                if addr {
                    return unsupported(
                        span.clone(),
                        format!("address of pointer variable `{name}` (pointer to pointer)"),
                    );
                }
                let v = self.k.new_var(format!("{name}$off"), Ty::I64);
                self.ptrs.push(PtrBind {
                    name: name.to_string(),
                    array: None,
                    off: PtrOff::Var(v),
                    pointee: (**pointee).clone(),
                });
                Ok(Binding::Ptr(self.ptrs.len() - 1))
            }
            CType::Record(r) if addr => {
                let a = self.new_array(
                    name,
                    Space::Local,
                    &CType::Array(Box::new(CType::Record(r.clone())), Some(1)),
                    span.clone(),
                )?;
                Ok(Binding::Mem(a, cty.clone()))
            }
            CType::Record(r) => {
                let Some(fields) = self.g.types.records.get(r).cloned() else {
                    return unsupported(span.clone(), format!("local `{name}` of incomplete type `{r}`"));
                };
                let mut bs = Vec::new();
                for (f, ft) in fields {
                    let b = self.local_binding(&format!("{name}.{f}"), &ft, "", span)?;
                    bs.push((f, b));
                }
                Ok(Binding::Struct(bs))
            }
            CType::Ref(_) => unsupported(span.clone(), format!("reference variable `{name}`")),
            other => unsupported(span.clone(), format!("local `{name}` of type `{}`", other.describe())),
        }
    }

    fn var_decl(&mut self, d: &Node, out: &mut Vec<Stmt>) -> R<()> {
        let name = d.name.clone().unwrap_or_default();
        let span = self.span(d);
        let cty = self.ctype(d);
        if d.has_attr("CUDASharedAttr") || d.storage_class.as_deref() == Some("static") {
            if !d.has_attr("CUDASharedAttr") {
                return unsupported(span, format!("static local variable `{name}`"));
            }
            self.static_binding(d)?;
            return Ok(());
        }
        if d.storage_class.as_deref() == Some("extern") {
            return unsupported(span, format!("extern local variable `{name}`"));
        }
        let b = self.local_binding(&name, &cty, &d.id, &span)?;
        // A never-reassigned pointer with a constant offset keeps it fixed (clearer IR).
        let init = d.code_children().last().filter(|_| d.init.is_some());
        if let (Binding::Ptr(i), Some(e)) = (&b, init)
            && !self.frame().modified.contains(&d.id)
        {
            let v = self.rvalue(e, out)?;
            let pv = self.expect_ptr(v, e)?;
            if matches!(pv.off, Expr::Const { .. }) {
                self.ptrs[*i].array = Some(pv.array);
                self.ptrs[*i].off = PtrOff::Fixed(pv.off);
                self.frame_mut().env.insert(d.id.clone(), b);
                return Ok(());
            }
            self.frame_mut().env.insert(d.id.clone(), b.clone());
            self.assign(&LVal::Bound(b), Val::Ptr(pv), e, &span, out)?;
            return Ok(());
        }
        self.frame_mut().env.insert(d.id.clone(), b.clone());
        match init {
            None => self.havoc(&b, &span, out),
            Some(e) => self.init(LVal::Bound(b), &cty, e, &span, out),
        }
    }

    fn havoc(&mut self, b: &Binding, span: &Span, out: &mut Vec<Stmt>) -> R<()> {
        match b {
            Binding::Scalar(v, _) => out.push(Stmt {
                kind: StmtKind::Havoc { var: *v },
                span: span.clone(),
            }),
            Binding::Struct(fs) => {
                for (_, f) in fs {
                    self.havoc(f, span, out)?;
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// Initialise `lv` (of type `cty`) from the initializer `e`.
    fn init(&mut self, lv: LVal, cty: &CType, e: &Node, span: &Span, out: &mut Vec<Stmt>) -> R<()> {
        let e = strip_parens(e);
        match e.kind.as_str() {
            "InitListExpr" => {
                let items: Vec<&Node> = e.code_children().collect();
                match cty {
                    CType::Array(elem, _) => {
                        let LVal::Mem { array, off, .. } = lv else {
                            return unsupported(self.span(e), "initializer list for this variable");
                        };
                        let size = self.size_of(elem, span)?;
                        for (i, it) in items.iter().enumerate() {
                            if it.kind == "ImplicitValueInitExpr" || it.kind == "ArrayInitLoopExpr" {
                                continue;
                            }
                            let sub = LVal::Mem {
                                array,
                                off: add_off(off.clone(), Expr::int(i as u64 * size, Ty::I64)),
                                cty: (**elem).clone(),
                            };
                            self.init(sub, elem, it, span, out)?;
                        }
                        Ok(())
                    }
                    CType::Record(r) => {
                        let fields = self.g.types.records.get(r).cloned().unwrap_or_default();
                        for ((fname, ft), it) in fields.iter().zip(items.iter()) {
                            if it.kind == "ImplicitValueInitExpr" {
                                continue;
                            }
                            let sub = self.member_of(lv.clone(), fname, span)?;
                            self.init(sub, ft, it, span, out)?;
                        }
                        Ok(())
                    }
                    _ => match items.first() {
                        Some(it) => self.init(lv, cty, it, span, out),
                        None => {
                            let v = self.zero(cty, span)?;
                            self.assign(&lv, v, e, span, out)
                        }
                    },
                }
            }
            "CXXConstructExpr" => {
                let args: Vec<&Node> = e.code_children().collect();
                match args.as_slice() {
                    [] => Ok(()),
                    [a] => {
                        let v = self.rvalue(a, out)?;
                        self.assign(&lv, v, e, span, out)
                    }
                    _ => unsupported(self.span(e), "constructor call with arguments"),
                }
            }
            "ImplicitValueInitExpr" => {
                let v = self.zero(cty, span)?;
                self.assign(&lv, v, e, span, out)
            }
            _ => {
                let v = self.rvalue(e, out)?;
                self.assign(&lv, v, e, span, out)
            }
        }
    }

    fn zero(&self, cty: &CType, span: &Span) -> R<Val> {
        match cty {
            CType::Scalar(t) => Ok(Val::Scalar(Expr::int(0, *t))),
            other => unsupported(span.clone(), format!("zero initialisation of `{}`", other.describe())),
        }
    }

    /// Binding of a `__shared__`/file-scope declaration (one array per declaration per kernel).
    fn static_binding(&mut self, d: &Node) -> R<Binding> {
        if let Some(b) = self.static_arrays.get(&d.id) {
            return Ok(b.clone());
        }
        let name = d.name.clone().unwrap_or_default();
        let span = d.pos.as_ref().map(pos_span).unwrap_or_else(|| self.kspan.clone());
        let cty = self.ctype(d);
        let space = if d.has_attr("CUDASharedAttr") {
            Space::Shared
        } else if d.has_attr("CUDAConstantAttr") {
            Space::Constant
        } else if d.has_attr("CUDADeviceAttr") {
            Space::Global
        } else {
            return unsupported(span, format!("host variable `{name}` used in device code"));
        };
        let b = match &cty {
            CType::Array(..) => Binding::Mem(self.new_array(&name, space, &cty, span)?, cty.clone()),
            CType::Scalar(_) | CType::Record(_) => {
                let a = self.new_array(&name, space, &CType::Array(Box::new(cty.clone()), Some(1)), span)?;
                Binding::Mem(a, cty.clone())
            }
            other => {
                return unsupported(
                    span,
                    format!("`{name}` of type `{}` in {space:?} memory", other.describe()),
                );
            }
        };
        self.static_arrays.insert(d.id.clone(), b.clone());
        Ok(b)
    }

    fn lookup(&mut self, n: &Node) -> R<Binding> {
        let Some(d) = &n.referenced_decl else {
            return unsupported(self.span(n), "reference without a declaration");
        };
        if let Some(b) = self.frame().env.get(&d.id) {
            return Ok(b.clone());
        }
        if d.name == "warpSize" && d.kind == "VarDecl" {
            return Ok(Binding::Const(Expr::Builtin(Builtin::WarpSize)));
        }
        if let Some(b) = self.static_arrays.get(&d.id) {
            return Ok(b.clone());
        }
        if let Some(v) = self.g.enum_consts.get(&d.id) {
            let ty = self.scalar_ty(n).unwrap_or(Ty::I32);
            return Ok(Binding::Const(Expr::int(v.clone(), ty)));
        }
        if let Some(decl) = self.g.vars.get(&d.id).copied() {
            // `const` integers with a constant initializer are constants.
            let cty = self.ctype(decl);
            if decl.type_str().starts_with("const ")
                && let (CType::Scalar(ty @ Ty::Int { .. }), Some(v)) =
                    (&cty, decl.code_children().last().and_then(const_value))
            {
                return Ok(Binding::Const(Expr::int(v, *ty)));
            }
            return self.static_binding(decl);
        }
        match d.kind.as_str() {
            "FunctionDecl" | "CXXMethodDecl" => {
                unsupported(self.span(n), format!("function pointer (`{}` used as a value)", d.name))
            }
            "NonTypeTemplateParmDecl" => {
                unsupported(self.span(n), format!("dependent template parameter `{}`", d.name))
            }
            "VarDecl" if d.name == "warpSize" => Ok(Binding::Const(Expr::Builtin(Builtin::WarpSize))),
            _ => unsupported(self.span(n), format!("reference to `{}` ({})", d.name, d.kind)),
        }
    }

    // ---------------------------------------------------------------- statements

    fn block(&mut self, n: &Node, out: &mut Vec<Stmt>) -> R<()> {
        for c in &n.inner {
            self.stmt(c, out)?;
        }
        Ok(())
    }

    fn stmt(&mut self, n: &Node, out: &mut Vec<Stmt>) -> R<()> {
        let span = self.span(n);
        match n.kind.as_str() {
            "" | "NullStmt" => Ok(()),
            "CompoundStmt" => self.block(n, out),
            "DeclStmt" => {
                for d in &n.inner {
                    match d.kind.as_str() {
                        "VarDecl" => self.var_decl(d, out)?,
                        "TypedefDecl" | "TypeAliasDecl" | "CXXRecordDecl" | "RecordDecl" | "EnumDecl"
                        | "StaticAssertDecl" | "UsingDecl" | "UsingDirectiveDecl" => {}
                        other => {
                            return unsupported(self.span(d), format!("declaration `{other}`"));
                        }
                    }
                }
                Ok(())
            }
            "IfStmt" => {
                let mut kids: Vec<&Node> = n.inner.iter().collect();
                if n.has_init {
                    let init = kids.remove(0);
                    self.stmt(init, out)?;
                }
                if n.has_var {
                    let var = kids.remove(0);
                    self.stmt(var, out)?;
                }
                let (Some(c), Some(t)) = (kids.first(), kids.get(1)) else {
                    return unsupported(span, "malformed if statement");
                };
                let cond = self.cond(c, out)?;
                let mut then = Vec::new();
                self.stmt(t, &mut then)?;
                let mut els = Vec::new();
                if let Some(e) = kids.get(2) {
                    self.stmt(e, &mut els)?;
                }
                out.push(Stmt {
                    kind: StmtKind::If { cond, then, els },
                    span,
                });
                Ok(())
            }
            "ForStmt" => {
                let k = &n.inner;
                if k.len() < 5 {
                    return unsupported(span, "malformed for statement");
                }
                self.stmt(&k[0], out)?;
                if !k[1].is_empty() {
                    return unsupported(span, "condition variable in a for statement");
                }
                let mut cond_stmts = Vec::new();
                let cond = if k[2].is_empty() {
                    Expr::bool(true)
                } else {
                    self.cond(&k[2], &mut cond_stmts)?
                };
                let mut step = Vec::new();
                if !k[3].is_empty() {
                    self.effect(&k[3], &mut step)?;
                }
                let mut body = Vec::new();
                self.stmt(&k[4], &mut body)?;
                out.push(Stmt {
                    kind: StmtKind::Loop {
                        cond_stmts,
                        cond,
                        body,
                        step,
                        do_while: false,
                    },
                    span,
                });
                Ok(())
            }
            "WhileStmt" => {
                let k: Vec<&Node> = n.inner.iter().collect();
                let (c, b, var) = match k.as_slice() {
                    [c, b] => (*c, *b, None),
                    [v, c, b] => (*c, *b, Some(*v)),
                    _ => return unsupported(span, "malformed while statement"),
                };
                let mut cond_stmts = Vec::new();
                if let Some(v) = var {
                    self.stmt(v, &mut cond_stmts)?;
                }
                let cond = self.cond(c, &mut cond_stmts)?;
                let mut body = Vec::new();
                self.stmt(b, &mut body)?;
                out.push(Stmt {
                    kind: StmtKind::Loop {
                        cond_stmts,
                        cond,
                        body,
                        step: Vec::new(),
                        do_while: false,
                    },
                    span,
                });
                Ok(())
            }
            "DoStmt" => {
                let (Some(b), Some(c)) = (n.inner.first(), n.inner.get(1)) else {
                    return unsupported(span, "malformed do statement");
                };
                let mut body = Vec::new();
                self.stmt(b, &mut body)?;
                let mut cond_stmts = Vec::new();
                let cond = self.cond(c, &mut cond_stmts)?;
                out.push(Stmt {
                    kind: StmtKind::Loop {
                        cond_stmts,
                        cond,
                        body,
                        step: Vec::new(),
                        do_while: true,
                    },
                    span,
                });
                Ok(())
            }
            "BreakStmt" => {
                out.push(Stmt {
                    kind: StmtKind::Break,
                    span,
                });
                Ok(())
            }
            "ContinueStmt" => {
                out.push(Stmt {
                    kind: StmtKind::Continue,
                    span,
                });
                Ok(())
            }
            "ReturnStmt" => self.ret(n, span, out),
            "AttributedStmt" => {
                for c in n.code_children() {
                    self.stmt(c, out)?;
                }
                Ok(())
            }
            "SwitchStmt" => self.switch(n, out),
            "GotoStmt" | "IndirectGotoStmt" => unsupported(span, "goto"),
            "LabelStmt" => unsupported(span, "label (goto target)"),
            "CaseStmt" | "DefaultStmt" => unsupported(span, "case label outside a simple switch"),
            "GCCAsmStmt" | "MSAsmStmt" => unsupported(span, "inline assembly"),
            "CXXTryStmt" => unsupported(span, "try statement"),
            "CXXForRangeStmt" => unsupported(span, "range-based for"),
            _ => self.effect(n, out),
        }
    }

    /// `switch` whose body is a list of `case`/`default` groups each ending in `break` (or the
    /// last), lowered to an if-chain.
    fn switch(&mut self, n: &Node, out: &mut Vec<Stmt>) -> R<()> {
        let span = self.span(n);
        let kids: Vec<&Node> = n.code_children().collect();
        let (c, body) = match kids.as_slice() {
            [c, b] => (*c, *b),
            _ => return unsupported(span, "switch with an init statement or condition variable"),
        };
        let scrut = self.rvalue(c, out)?;
        let scrut = self.expect_scalar(scrut, c)?;
        let t = self.temp(scrut.ty());
        out.push(Stmt {
            kind: StmtKind::Assign { var: t, value: scrut },
            span: self.span(c),
        });
        let sv = Expr::Var {
            id: t,
            ty: self.k.var(t).ty,
        };
        // Groups: (labels (None = default), statements).
        let mut groups: Vec<(Vec<Option<BigInt>>, Vec<&Node>)> = Vec::new();
        let mut open = false;
        let items: Vec<&Node> = if body.kind == "CompoundStmt" {
            body.inner.iter().collect()
        } else {
            vec![body]
        };
        for it in items {
            let mut it = it;
            let mut labels = Vec::new();
            loop {
                match it.kind.as_str() {
                    "CaseStmt" => {
                        let Some(v) = it.inner.first().and_then(const_value) else {
                            return unsupported(self.span(it), "non-constant case label");
                        };
                        if it.inner.len() > 2 {
                            return unsupported(self.span(it), "case range");
                        }
                        labels.push(Some(v));
                        match it.inner.last() {
                            Some(x) if it.inner.len() == 2 => it = x,
                            _ => return unsupported(self.span(it), "malformed case"),
                        }
                    }
                    "DefaultStmt" => {
                        labels.push(None);
                        match it.inner.first() {
                            Some(x) => it = x,
                            None => return unsupported(self.span(it), "malformed default"),
                        }
                    }
                    _ => break,
                }
            }
            if !labels.is_empty() {
                if open {
                    return unsupported(self.span(it), "switch case falling through to the next case");
                }
                groups.push((labels, Vec::new()));
                open = true;
            }
            let Some(g) = groups.last_mut() else {
                return unsupported(self.span(it), "statement before the first case label");
            };
            if !open {
                return unsupported(self.span(it), "unreachable statement in switch");
            }
            if it.kind == "BreakStmt" {
                open = false;
            } else {
                g.1.push(it);
                if matches!(it.kind.as_str(), "ReturnStmt" | "ContinueStmt") {
                    open = false;
                }
            }
        }
        // Build the chain from the last group backwards; `default` goes last.
        let mut default: Vec<Stmt> = Vec::new();
        let mut cases: Vec<(Expr, Vec<Stmt>)> = Vec::new();
        for (labels, stmts) in &groups {
            let mut body = Vec::new();
            for s in stmts {
                if contains_break(s) {
                    return unsupported(self.span(s), "break nested inside a switch case");
                }
                self.stmt(s, &mut body)?;
            }
            let conds: Vec<Expr> = labels
                .iter()
                .flatten()
                .map(|v| Expr::Binary {
                    op: BinOp::Eq,
                    lhs: Box::new(sv.clone()),
                    rhs: Box::new(cast(Expr::int(v.clone(), Ty::I64), sv.ty())),
                    ty: Ty::Bool,
                })
                .collect();
            if labels.iter().any(|l| l.is_none()) {
                default = body;
            } else if let Some(c) = conds.into_iter().reduce(|a, b| Expr::Binary {
                op: BinOp::LOr,
                lhs: Box::new(a),
                rhs: Box::new(b),
                ty: Ty::Bool,
            }) {
                cases.push((c, body));
            }
        }
        let mut acc = default;
        for (c, body) in cases.into_iter().rev() {
            acc = vec![Stmt {
                kind: StmtKind::If {
                    cond: c,
                    then: body,
                    els: acc,
                },
                span: span.clone(),
            }];
        }
        out.extend(acc);
        Ok(())
    }

    fn ret(&mut self, n: &Node, span: Span, out: &mut Vec<Stmt>) -> R<()> {
        let value = n.code_children().next();
        let (block, ret) = {
            let f = self.frame();
            (f.block, f.ret.clone())
        };
        match block {
            None => {
                if let Some(e) = value {
                    self.effect(e, out)?;
                }
                out.push(Stmt {
                    kind: StmtKind::Return,
                    span,
                });
            }
            Some(b) => {
                if let Some(e) = value {
                    match ret {
                        Some(r) => {
                            let v = self.rvalue(e, out)?;
                            self.assign(&LVal::Bound(r), v, e, &span, out)?;
                        }
                        None => self.effect(e, out)?,
                    }
                }
                out.push(Stmt {
                    kind: StmtKind::Exit(b),
                    span,
                });
            }
        }
        Ok(())
    }

    fn cond(&mut self, n: &Node, out: &mut Vec<Stmt>) -> R<Expr> {
        let v = self.rvalue(n, out)?;
        let e = self.expect_scalar(v, n)?;
        Ok(to_bool(e))
    }

    /// Evaluate for side effects only.
    fn effect(&mut self, n: &Node, out: &mut Vec<Stmt>) -> R<()> {
        let n = strip_parens(n);
        match n.kind.as_str() {
            "BinaryOperator" if n.opcode.as_deref() == Some(",") => {
                if let (Some(a), Some(b)) = (n.inner.first(), n.inner.get(1)) {
                    self.effect(a, out)?;
                    self.effect(b, out)?;
                }
                Ok(())
            }
            "ImplicitCastExpr" | "CStyleCastExpr" if n.cast_kind.as_deref() == Some("ToVoid") => {
                match n.inner.first() {
                    Some(c) => self.effect(c, out),
                    None => Ok(()),
                }
            }
            "UnaryOperator" if matches!(n.opcode.as_deref(), Some("++") | Some("--")) => {
                // Prefix form needs no temporary for the old value.
                self.incdec(n, false, out).map(|_| ())
            }
            _ if n.is_glvalue() => self.lvalue(n, out).map(|_| ()),
            _ => self.rvalue(n, out).map(|_| ()),
        }
    }

    // ---------------------------------------------------------------- values

    fn expect_scalar(&self, v: Val, n: &Node) -> R<Expr> {
        match v {
            Val::Scalar(e) => Ok(e),
            Val::Ptr(_) => unsupported(
                self.span(n),
                "pointer used as a value (pointer comparison or conversion)",
            ),
            Val::Struct(_) => unsupported(self.span(n), "struct used as a scalar"),
            Val::Void => unsupported(self.span(n), "void value used"),
        }
    }

    fn expect_ptr(&self, v: Val, n: &Node) -> R<PtrVal> {
        match v {
            Val::Ptr(p) => Ok(p),
            Val::Scalar(Expr::Const { value, .. }) if value == BigInt::from(0) => {
                unsupported(self.span(n), "null pointer")
            }
            _ => unsupported(self.span(n), "integer used as a pointer"),
        }
    }

    /// Read an lvalue.
    fn read(&mut self, lv: LVal, at: &Node, out: &mut Vec<Stmt>) -> R<Val> {
        match lv {
            LVal::Bound(b) => self.read_binding(&b, at),
            LVal::Mem { array, off, cty } => match &cty {
                CType::Scalar(ty) => {
                    let t = self.temp(*ty);
                    out.push(Stmt {
                        kind: StmtKind::Load {
                            dst: t,
                            array,
                            offset: off,
                            ty: *ty,
                        },
                        span: self.span(at),
                    });
                    Ok(Val::Scalar(Expr::Var { id: t, ty: *ty }))
                }
                CType::Record(r) => {
                    let Some(fields) = self.g.types.fields(r) else {
                        return unsupported(self.span(at), format!("struct `{r}` without a known layout"));
                    };
                    let mut vs = Vec::new();
                    for (f, o, ft) in fields {
                        let sub = LVal::Mem {
                            array,
                            off: add_off(off.clone(), Expr::int(o, Ty::I64)),
                            cty: ft,
                        };
                        vs.push((f, self.read(sub, at, out)?));
                    }
                    Ok(Val::Struct(vs))
                }
                CType::Ptr(_) => unsupported(self.span(at), "pointer loaded from memory"),
                other => unsupported(self.span(at), format!("read of `{}` from memory", other.describe())),
            },
        }
    }

    fn read_binding(&mut self, b: &Binding, at: &Node) -> R<Val> {
        match b {
            Binding::Scalar(v, ty) => Ok(Val::Scalar(Expr::Var { id: *v, ty: *ty })),
            Binding::Const(e) => Ok(Val::Scalar(e.clone())),
            Binding::Ptr(i) => {
                let p = &self.ptrs[*i];
                let Some(array) = p.array else {
                    return unsupported(
                        self.span(at),
                        format!("pointer `{}` used before it points to an array", p.name),
                    );
                };
                let off = match &p.off {
                    PtrOff::Fixed(e) => e.clone(),
                    PtrOff::Var(v) => Expr::Var { id: *v, ty: Ty::I64 },
                };
                Ok(Val::Ptr(PtrVal {
                    array,
                    off,
                    pointee: p.pointee.clone(),
                }))
            }
            Binding::Struct(fs) => {
                let mut vs = Vec::new();
                for (f, fb) in fs {
                    vs.push((f.clone(), self.read_binding(fb, at)?));
                }
                Ok(Val::Struct(vs))
            }
            Binding::Mem(..) => unsupported(self.span(at), "array used as a value"),
        }
    }

    /// Write `v` to `lv`. `at` is the node whose span a store gets.
    fn assign(&mut self, lv: &LVal, v: Val, at: &Node, span: &Span, out: &mut Vec<Stmt>) -> R<()> {
        match (lv, v) {
            (LVal::Bound(Binding::Scalar(var, ty)), Val::Scalar(e)) => {
                out.push(Stmt {
                    kind: StmtKind::Assign {
                        var: *var,
                        value: cast(e, *ty),
                    },
                    span: span.clone(),
                });
                Ok(())
            }
            (LVal::Bound(Binding::Ptr(i)), Val::Ptr(p)) => {
                let pb = self.ptrs[*i].clone();
                match pb.array {
                    None => self.ptrs[*i].array = Some(p.array),
                    Some(a) if a != p.array => {
                        return unsupported(
                            span.clone(),
                            format!(
                                "pointer `{}` may point to two arrays (`{}` and `{}`)",
                                pb.name,
                                self.k.array(a).name,
                                self.k.array(p.array).name
                            ),
                        );
                    }
                    _ => {}
                }
                match pb.off {
                    PtrOff::Var(v) => {
                        out.push(Stmt {
                            kind: StmtKind::Assign { var: v, value: p.off },
                            span: span.clone(),
                        });
                        Ok(())
                    }
                    PtrOff::Fixed(_) => {
                        let v = self.k.new_var(format!("{}$off", pb.name), Ty::I64);
                        self.ptrs[*i].off = PtrOff::Var(v);
                        out.push(Stmt {
                            kind: StmtKind::Assign { var: v, value: p.off },
                            span: span.clone(),
                        });
                        Ok(())
                    }
                }
            }
            (LVal::Bound(Binding::Struct(fs)), Val::Struct(vs)) => {
                for ((_, fb), (_, fv)) in fs.iter().zip(vs) {
                    self.assign(&LVal::Bound(fb.clone()), fv, at, span, out)?;
                }
                Ok(())
            }
            (LVal::Mem { array, off, cty }, v) => match (cty, v) {
                (CType::Scalar(_), _) if self.k.array(*array).space == Space::Constant => unsupported(
                    self.span(at),
                    format!(
                        "write to __constant__ memory `{}` (constant memory is read-only in kernels)",
                        self.k.array(*array).name
                    ),
                ),
                (CType::Scalar(ty), Val::Scalar(e)) => {
                    out.push(Stmt {
                        kind: StmtKind::Store {
                            array: *array,
                            offset: off.clone(),
                            value: cast(e, *ty),
                            ty: *ty,
                        },
                        span: self.span(at),
                    });
                    Ok(())
                }
                (CType::Record(r), Val::Struct(vs)) => {
                    let Some(fields) = self.g.types.fields(r) else {
                        return unsupported(span.clone(), format!("struct `{r}` without a known layout"));
                    };
                    for ((_, o, ft), (_, fv)) in fields.into_iter().zip(vs) {
                        let sub = LVal::Mem {
                            array: *array,
                            off: add_off(off.clone(), Expr::int(o, Ty::I64)),
                            cty: ft,
                        };
                        self.assign(&sub, fv, at, span, out)?;
                    }
                    Ok(())
                }
                (CType::Ptr(_), _) => unsupported(span.clone(), "pointer stored to memory"),
                (c, _) => unsupported(span.clone(), format!("assignment to `{}` in memory", c.describe())),
            },
            (LVal::Bound(Binding::Const(_)), _) => unsupported(span.clone(), "assignment to a constant"),
            (LVal::Bound(Binding::Mem(a, cty)), v) => {
                let lv = LVal::Mem {
                    array: *a,
                    off: Expr::int(0, Ty::I64),
                    cty: cty.clone(),
                };
                self.assign(&lv, v, at, span, out)
            }
            (_, Val::Ptr(_)) => unsupported(span.clone(), "pointer assigned to a non-pointer"),
            _ => unsupported(span.clone(), "assignment between incompatible values"),
        }
    }

    fn member_of(&mut self, base: LVal, field: &str, span: &Span) -> R<LVal> {
        match base {
            LVal::Bound(Binding::Struct(fs)) => match fs.iter().find(|(f, _)| f == field) {
                Some((_, b)) => Ok(LVal::Bound(b.clone())),
                None => unsupported(span.clone(), format!("unknown field `{field}`")),
            },
            LVal::Bound(Binding::Mem(a, cty)) => self.member_of(
                LVal::Mem {
                    array: a,
                    off: Expr::int(0, Ty::I64),
                    cty,
                },
                field,
                span,
            ),
            LVal::Mem {
                array,
                off,
                cty: CType::Record(r),
            } => {
                let Some(fields) = self.g.types.fields(&r) else {
                    return unsupported(span.clone(), format!("struct `{r}` without a known layout"));
                };
                match fields.into_iter().find(|(f, _, _)| f == field) {
                    Some((_, o, ft)) => Ok(LVal::Mem {
                        array,
                        off: add_off(off, Expr::int(o, Ty::I64)),
                        cty: ft,
                    }),
                    None => unsupported(span.clone(), format!("unknown field `{field}` of `{r}`")),
                }
            }
            _ => unsupported(span.clone(), format!("member `{field}` of a non-struct value")),
        }
    }

    fn lvalue(&mut self, n: &Node, out: &mut Vec<Stmt>) -> R<LVal> {
        let span = self.span(n);
        match n.kind.as_str() {
            "ParenExpr" | "MaterializeTemporaryExpr" | "ExprWithCleanups" | "CXXBindTemporaryExpr" => {
                match n.inner.first() {
                    Some(c) => self.lvalue(c, out),
                    None => unsupported(span, "empty expression"),
                }
            }
            "ImplicitCastExpr"
            | "CStyleCastExpr"
            | "CXXStaticCastExpr"
            | "CXXFunctionalCastExpr"
            | "CXXConstCastExpr"
            | "CXXReinterpretCastExpr"
                if matches!(
                    n.cast_kind.as_deref(),
                    Some("NoOp") | Some("LValueBitCast") | Some("UncheckedDerivedToBase")
                ) =>
            {
                let Some(c) = n.inner.first() else {
                    return unsupported(span, "empty cast");
                };
                let lv = self.lvalue(c, out)?;
                if n.cast_kind.as_deref() == Some("LValueBitCast")
                    && let LVal::Mem { array, off, .. } = lv
                {
                    return Ok(LVal::Mem {
                        array,
                        off,
                        cty: self.ctype(n),
                    });
                }
                Ok(lv)
            }
            "DeclRefExpr" => {
                let b = self.lookup(n)?;
                Ok(match b {
                    Binding::Mem(a, cty) => LVal::Mem {
                        array: a,
                        off: Expr::int(0, Ty::I64),
                        cty,
                    },
                    b => LVal::Bound(b),
                })
            }
            "ArraySubscriptExpr" => {
                let (Some(a), Some(b)) = (n.inner.first(), n.inner.get(1)) else {
                    return unsupported(span, "malformed subscript");
                };
                let (base, idx) = if matches!(self.ctype(a), CType::Ptr(_)) {
                    (a, b)
                } else {
                    (b, a)
                };
                let pv = self.rvalue(base, out)?;
                let p = self.expect_ptr(pv, base)?;
                let iv = self.rvalue(idx, out)?;
                let i = self.expect_scalar(iv, idx)?;
                let size = self.size_of(&p.pointee, &span)?;
                Ok(LVal::Mem {
                    array: p.array,
                    off: add_off(p.off, scale(i, size)),
                    cty: p.pointee,
                })
            }
            "UnaryOperator" => match n.opcode.as_deref() {
                Some("*") => {
                    let Some(c) = n.inner.first() else {
                        return unsupported(span, "malformed dereference");
                    };
                    let pv = self.rvalue(c, out)?;
                    if matches!(self.ctype(c), CType::Func) || matches!(self.ctype(n), CType::Func) {
                        return unsupported(span, "function pointer dereference");
                    }
                    let p = self.expect_ptr(pv, c)?;
                    Ok(LVal::Mem {
                        array: p.array,
                        off: p.off,
                        cty: p.pointee,
                    })
                }
                Some("++") | Some("--") => {
                    let lv = self.incdec(n, false, out)?;
                    lv.ok_or_else(|| FrontendError::Unsupported {
                        span,
                        what: "increment result".into(),
                    })
                }
                Some("__extension__") => match n.inner.first() {
                    Some(c) => self.lvalue(c, out),
                    None => unsupported(span, "empty expression"),
                },
                other => unsupported(span, format!("operator `{}` as an lvalue", other.unwrap_or("?"))),
            },
            "MemberExpr" => {
                let Some(b) = n.inner.first() else {
                    return unsupported(span, "malformed member access");
                };
                let field = n.name.clone().unwrap_or_default();
                let base = if n.is_arrow {
                    let pv = self.rvalue(b, out)?;
                    let p = self.expect_ptr(pv, b)?;
                    LVal::Mem {
                        array: p.array,
                        off: p.off,
                        cty: p.pointee,
                    }
                } else {
                    self.lvalue(b, out)?
                };
                self.member_of(base, &field, &span)
            }
            "BinaryOperator" => match n.opcode.as_deref() {
                Some("=") => {
                    let (Some(a), Some(b)) = (n.inner.first(), n.inner.get(1)) else {
                        return unsupported(span, "malformed assignment");
                    };
                    let v = self.rvalue(b, out)?;
                    let lv = self.lvalue(a, out)?;
                    self.assign(&lv, v, a, &span, out)?;
                    Ok(lv)
                }
                Some(",") => {
                    let (Some(a), Some(b)) = (n.inner.first(), n.inner.get(1)) else {
                        return unsupported(span, "malformed comma");
                    };
                    self.effect(a, out)?;
                    self.lvalue(b, out)
                }
                _ => unsupported(span, "binary operator as an lvalue"),
            },
            "CompoundAssignOperator" => self.compound_assign(n, out),
            "CXXOperatorCallExpr" if n.inner.first().and_then(callee_name).as_deref() == Some("operator=") => {
                let (Some(a), Some(b)) = (n.inner.get(1), n.inner.get(2)) else {
                    return unsupported(span, "malformed assignment");
                };
                let v = self.rvalue(b, out)?;
                let lv = self.lvalue(a, out)?;
                self.assign(&lv, v, a, &span, out)?;
                Ok(lv)
            }
            "CallExpr" | "CXXMemberCallExpr" | "CXXOperatorCallExpr" => unsupported(span, "call returning a reference"),
            "ConditionalOperator" => unsupported(span, "conditional operator as an lvalue"),
            "CXXThisExpr" => unsupported(span, "`this`"),
            "StringLiteral" => unsupported(span, "string literal"),
            "PseudoObjectExpr" => unsupported(span, "builtin variable as an lvalue"),
            other => unsupported(span, format!("expression `{other}` as an lvalue")),
        }
    }

    /// `++`/`--`: returns the lvalue (prefix) after emitting the update; with `want_old`, the
    /// old value is kept in a temporary and returned through [`Self::rvalue`].
    fn incdec(&mut self, n: &Node, _want_old: bool, out: &mut Vec<Stmt>) -> R<Option<LVal>> {
        let span = self.span(n);
        let Some(c) = n.inner.first() else {
            return unsupported(span, "malformed increment");
        };
        let lv = self.lvalue(c, out)?;
        let old = self.read(lv.clone(), c, out)?;
        let inc = n.opcode.as_deref() == Some("++");
        let new = self.step(old, inc, &span)?;
        self.assign(&lv, new, c, &span, out)?;
        Ok(Some(lv))
    }

    fn step(&mut self, old: Val, inc: bool, span: &Span) -> R<Val> {
        match old {
            Val::Scalar(e) => {
                let ty = e.ty();
                Ok(Val::Scalar(match ty {
                    Ty::Float { bits } => Expr::Opaque {
                        name: float_name(if inc { "fadd" } else { "fsub" }, bits),
                        args: vec![
                            e,
                            Expr::Cast {
                                arg: Box::new(Expr::int(1, Ty::I32)),
                                ty,
                            },
                        ],
                        ty,
                    },
                    Ty::Bool => return unsupported(span.clone(), "increment of a bool"),
                    _ => Expr::Binary {
                        op: if inc { BinOp::Add } else { BinOp::Sub },
                        lhs: Box::new(e),
                        rhs: Box::new(Expr::int(1, ty)),
                        ty,
                    },
                }))
            }
            Val::Ptr(p) => {
                let size = self.size_of(&p.pointee, span)? as i64;
                let d = if inc { size } else { -size };
                Ok(Val::Ptr(PtrVal {
                    off: add_off(p.off, Expr::int(d, Ty::I64)),
                    ..p
                }))
            }
            _ => unsupported(span.clone(), "increment of a non-scalar"),
        }
    }

    fn compound_assign(&mut self, n: &Node, out: &mut Vec<Stmt>) -> R<LVal> {
        let span = self.span(n);
        let (Some(a), Some(b)) = (n.inner.first(), n.inner.get(1)) else {
            return unsupported(span, "malformed compound assignment");
        };
        let op = n.opcode.clone().unwrap_or_default();
        let bop = op.trim_end_matches('=');
        let rv = self.rvalue(b, out)?;
        let lv = self.lvalue(a, out)?;
        let old = self.read(lv.clone(), a, out)?;
        let new = match old {
            Val::Ptr(p) => {
                let r = self.expect_scalar(rv, b)?;
                self.ptr_arith(p, r, bop == "-", &span)?
            }
            Val::Scalar(old) => {
                let r = self.expect_scalar(rv, b)?;
                let lhs_ty = n
                    .compute_lhs_type
                    .as_ref()
                    .map(|t| self.g.types.parse(t.best()))
                    .and_then(|t| t.scalar());
                let res_ty = n
                    .compute_result_type
                    .as_ref()
                    .map(|t| self.g.types.parse(t.best()))
                    .and_then(|t| t.scalar());
                let target = old.ty();
                let lhs_ty = lhs_ty.unwrap_or(target);
                let res_ty = res_ty.unwrap_or(lhs_ty);
                let l = cast(old, lhs_ty);
                let e = self.binop(bop, l, r, res_ty, &span)?;
                Val::Scalar(cast(e, target))
            }
            _ => return unsupported(span, "compound assignment to a non-scalar"),
        };
        self.assign(&lv, new, a, &span, out)?;
        Ok(lv)
    }

    fn ptr_arith(&self, p: PtrVal, i: Expr, sub: bool, span: &Span) -> R<Val> {
        let size = self.size_of(&p.pointee, span)?;
        let d = scale(i, size);
        let off = if sub {
            match d {
                Expr::Const { value, .. } => add_off(p.off, Expr::int(-value, Ty::I64)),
                d => Expr::Binary {
                    op: BinOp::Sub,
                    lhs: Box::new(p.off),
                    rhs: Box::new(d),
                    ty: Ty::I64,
                },
            }
        } else {
            add_off(p.off, d)
        };
        Ok(Val::Ptr(PtrVal { off, ..p }))
    }

    /// A binary operation on scalars of result type `ty` (comparisons: `Bool`).
    fn binop(&self, op: &str, l: Expr, r: Expr, ty: Ty, span: &Span) -> R<Expr> {
        let lt = l.ty();
        if let Ty::Float { bits } = lt {
            let name = match op {
                "+" => "fadd",
                "-" => "fsub",
                "*" => "fmul",
                "/" => "fdiv",
                "<" => "flt",
                "<=" => "fle",
                ">" => "fgt",
                ">=" => "fge",
                "==" => "feq",
                "!=" => "fne",
                _ => return unsupported(span.clone(), format!("float operator `{op}`")),
            };
            return Ok(Expr::Opaque {
                name: float_name(name, bits),
                args: vec![l, r],
                ty,
            });
        }
        let bop = match op {
            "+" => BinOp::Add,
            "-" => BinOp::Sub,
            "*" => BinOp::Mul,
            "/" => BinOp::Div,
            "%" => BinOp::Rem,
            "<<" => BinOp::Shl,
            ">>" => BinOp::Shr,
            "&" => BinOp::BitAnd,
            "|" => BinOp::BitOr,
            "^" => BinOp::BitXor,
            "==" => BinOp::Eq,
            "!=" => BinOp::Ne,
            "<" => BinOp::Lt,
            "<=" => BinOp::Le,
            ">" => BinOp::Gt,
            ">=" => BinOp::Ge,
            "&&" => BinOp::LAnd,
            "||" => BinOp::LOr,
            _ => return unsupported(span.clone(), format!("operator `{op}`")),
        };
        // Bool operands of arithmetic (clang promotes them, but be safe).
        let (l, r) = if lt == Ty::Bool && !matches!(bop, BinOp::LAnd | BinOp::LOr | BinOp::Eq | BinOp::Ne) {
            (cast(l, Ty::I32), cast(r, Ty::I32))
        } else if matches!(bop, BinOp::LAnd | BinOp::LOr) {
            (to_bool(l), to_bool(r))
        } else {
            (l, r)
        };
        Ok(Expr::Binary {
            op: bop,
            lhs: Box::new(l),
            rhs: Box::new(r),
            ty,
        })
    }

    fn rvalue(&mut self, n: &Node, out: &mut Vec<Stmt>) -> R<Val> {
        let span = self.span(n);
        match n.kind.as_str() {
            "ParenExpr"
            | "ExprWithCleanups"
            | "MaterializeTemporaryExpr"
            | "CXXBindTemporaryExpr"
            | "CXXDefaultArgExpr"
                if !n.inner.is_empty() =>
            {
                self.rvalue(&n.inner[0], out)
            }
            "SubstNonTypeTemplateParmExpr" => match n.code_children().last() {
                Some(c) => self.rvalue(c, out),
                None => unsupported(span, "empty template argument"),
            },
            "ConstantExpr" => {
                if let (Some(v), CType::Scalar(ty @ Ty::Int { .. })) = (const_value(n), self.ctype(n)) {
                    return Ok(Val::Scalar(Expr::int(v, ty)));
                }
                match n.inner.first() {
                    Some(c) => self.rvalue(c, out),
                    None => unsupported(span, "empty constant expression"),
                }
            }
            "IntegerLiteral" | "CharacterLiteral" | "CXXBoolLiteralExpr" => {
                let ty = self.scalar_ty(n)?;
                match const_value(n) {
                    Some(v) => Ok(Val::Scalar(Expr::int(wrap_ty(v, ty), ty))),
                    None => unsupported(span, "literal out of range"),
                }
            }
            "FloatingLiteral" => {
                let ty = self.scalar_ty(n)?;
                let s = match &n.value {
                    Some(serde_json::Value::String(s)) => s.clone(),
                    Some(v) => v.to_string(),
                    None => "0".into(),
                };
                let x: f64 = s.parse().unwrap_or(0.0);
                let bits = match ty {
                    Ty::Float { bits: 32 } => BigInt::from((x as f32).to_bits()),
                    Ty::Float { bits: 64 } => BigInt::from(x.to_bits()),
                    _ => {
                        return Ok(Val::Scalar(Expr::Opaque {
                            name: format!("fconst:{s}"),
                            args: vec![],
                            ty,
                        }));
                    }
                };
                Ok(Val::Scalar(Expr::Const { value: bits, ty }))
            }
            "CXXNullPtrLiteralExpr" | "GNUNullExpr" => unsupported(span, "null pointer"),
            "UnaryExprOrTypeTraitExpr" => {
                let ty = self.scalar_ty(n)?;
                let t = match (&n.arg_type, n.inner.first()) {
                    (Some(t), _) => self.g.types.parse(t.best()),
                    (None, Some(e)) => self.ctype(e),
                    _ => return unsupported(span, "sizeof without an operand"),
                };
                let v = match n.name.as_deref() {
                    Some("sizeof") => self.size_of(&t, &span)?,
                    Some("alignof") | Some("__alignof") => match self.g.types.layout(&t) {
                        Some((_, a)) => a,
                        None => return unsupported(span, "alignof of this type"),
                    },
                    other => {
                        return unsupported(span, format!("`{}`", other.unwrap_or("type trait")));
                    }
                };
                Ok(Val::Scalar(Expr::int(v, ty)))
            }
            "PseudoObjectExpr" => match find_builtin(n) {
                Some(b) => Ok(Val::Scalar(cast(
                    Expr::Builtin(b),
                    self.scalar_ty(n).unwrap_or(Ty::U32),
                ))),
                None => unsupported(span, "property access (not a CUDA builtin)"),
            },
            "MemberExpr"
                if n.inner
                    .first()
                    .is_some_and(|b| is_builtin_struct(b.type_str()).is_some()) =>
            {
                match find_builtin(n) {
                    Some(b) => Ok(Val::Scalar(Expr::Builtin(b))),
                    None => unsupported(span, "builtin variable member"),
                }
            }
            "ImplicitCastExpr"
            | "CStyleCastExpr"
            | "CXXStaticCastExpr"
            | "CXXFunctionalCastExpr"
            | "CXXConstCastExpr"
            | "CXXReinterpretCastExpr" => self.cast_expr(n, out),
            "UnaryOperator" => self.unary(n, out),
            "BinaryOperator" => self.binary(n, out),
            "CompoundAssignOperator" => {
                let lv = self.compound_assign(n, out)?;
                self.read(lv, n, out)
            }
            "ConditionalOperator" => self.conditional(n, out),
            "CallExpr" | "CXXMemberCallExpr" | "CXXOperatorCallExpr" => self.call(n, out),
            "CXXConstructExpr" | "CXXTemporaryObjectExpr" => {
                let args: Vec<&Node> = n.code_children().collect();
                match args.as_slice() {
                    [a] => self.rvalue(a, out),
                    [] => Ok(Val::Void),
                    _ => unsupported(span, "constructor call with arguments"),
                }
            }
            "InitListExpr" => unsupported(span, "initializer list in an expression"),
            "StringLiteral" => unsupported(span, "string literal"),
            "LambdaExpr" => unsupported(span, "lambda"),
            "CXXThisExpr" => unsupported(span, "`this`"),
            "CXXNewExpr" | "CXXDeleteExpr" => unsupported(span, "new/delete"),
            "StmtExpr" => unsupported(span, "statement expression"),
            "BinaryConditionalOperator" => unsupported(span, "`?:` with omitted middle operand"),
            "ImplicitValueInitExpr" => {
                let t = self.ctype(n);
                self.zero(&t, &span)
            }
            _ if n.is_glvalue() => {
                let lv = self.lvalue(n, out)?;
                self.read(lv, n, out)
            }
            other => unsupported(span, format!("expression `{other}`")),
        }
    }

    fn cast_expr(&mut self, n: &Node, out: &mut Vec<Stmt>) -> R<Val> {
        let span = self.span(n);
        let Some(c) = n.inner.iter().find(|c| !c.kind.ends_with("Attr")) else {
            return unsupported(span, "empty cast");
        };
        let kind = n.cast_kind.clone().unwrap_or_default();
        let target = self.ctype(n);
        match kind.as_str() {
            "LValueToRValue" => {
                if let Some(b) = find_builtin_lv(c) {
                    return Ok(Val::Scalar(Expr::Builtin(b)));
                }
                let lv = self.lvalue(c, out)?;
                self.read(lv, c, out)
            }
            "NoOp" | "UserDefinedConversion" | "ConstructorConversion" | "AtomicToNonAtomic" | "NonAtomicToAtomic" => {
                let v = self.rvalue(c, out)?;
                Ok(match (v, &target) {
                    (Val::Ptr(p), CType::Ptr(t)) => Val::Ptr(PtrVal {
                        pointee: (**t).clone(),
                        ..p
                    }),
                    (v, _) => v,
                })
            }
            "ToVoid" => {
                self.effect(c, out)?;
                Ok(Val::Void)
            }
            "ArrayToPointerDecay" => {
                let lv = self.lvalue(c, out)?;
                match lv {
                    LVal::Mem {
                        array,
                        off,
                        cty: CType::Array(elem, _),
                    } => Ok(Val::Ptr(PtrVal {
                        array,
                        off,
                        pointee: *elem,
                    })),
                    _ => unsupported(span, "array decay of a non-array"),
                }
            }
            "BitCast"
            | "LValueBitCast"
            | "BaseToDerived"
            | "DerivedToBase"
            | "UncheckedDerivedToBase"
            | "AddressSpaceConversion" => {
                let v = self.rvalue(c, out)?;
                match (v, &target) {
                    (Val::Ptr(p), CType::Ptr(t)) => {
                        if matches!(**t, CType::Func) {
                            return unsupported(span, "cast to a function pointer");
                        }
                        Ok(Val::Ptr(PtrVal {
                            pointee: (**t).clone(),
                            ..p
                        }))
                    }
                    (Val::Scalar(e), CType::Scalar(t)) if e.ty().bits() == t.bits() => Ok(Val::Scalar(Expr::Opaque {
                        name: format!("bitcast{}", t.bits()),
                        args: vec![e],
                        ty: *t,
                    })),
                    _ => unsupported(span, format!("cast `{kind}` to `{}`", describe(n, &target))),
                }
            }
            "IntegralCast"
            | "IntegralToBoolean"
            | "IntegralToFloating"
            | "FloatingToIntegral"
            | "FloatingCast"
            | "FloatingToBoolean"
            | "BooleanToSignedIntegral" => {
                let v = self.rvalue(c, out)?;
                let e = self.expect_scalar(v, c)?;
                let ty = match target {
                    CType::Scalar(t) => t,
                    _ => return unsupported(span, format!("cast to `{}`", describe(n, &target))),
                };
                if kind == "BooleanToSignedIntegral" {
                    return Ok(Val::Scalar(Expr::Unary {
                        op: UnOp::Neg,
                        arg: Box::new(cast(e, ty)),
                        ty,
                    }));
                }
                Ok(Val::Scalar(cast(e, ty)))
            }
            "FunctionToPointerDecay" | "BuiltinFnToFnPtr" => unsupported(span, "function pointer"),
            "NullToPointer" => unsupported(span, "null pointer"),
            "IntegralToPointer" => unsupported(span, "integer to pointer cast"),
            "PointerToIntegral" | "PointerToBoolean" => unsupported(span, "pointer to integer conversion"),
            "Dependent" => unsupported(span, "dependent (uninstantiated template) cast"),
            other => unsupported(span, format!("cast `{other}`")),
        }
    }

    fn unary(&mut self, n: &Node, out: &mut Vec<Stmt>) -> R<Val> {
        let span = self.span(n);
        let Some(c) = n.inner.first() else {
            return unsupported(span, "malformed unary operator");
        };
        let op = n.opcode.clone().unwrap_or_default();
        match op.as_str() {
            "++" | "--" => {
                if n.is_postfix {
                    let lv = self.lvalue(c, out)?;
                    let old = self.read(lv.clone(), c, out)?;
                    // Keep the old value: copy a variable's value to a temporary first.
                    let old = match old {
                        Val::Scalar(e @ Expr::Var { .. }) if matches!(lv, LVal::Bound(_)) => {
                            let t = self.temp(e.ty());
                            out.push(Stmt {
                                kind: StmtKind::Assign {
                                    var: t,
                                    value: e.clone(),
                                },
                                span: span.clone(),
                            });
                            Val::Scalar(Expr::Var { id: t, ty: e.ty() })
                        }
                        Val::Ptr(PtrVal {
                            array,
                            off: off @ Expr::Var { .. },
                            pointee,
                        }) => {
                            let t = self.temp(Ty::I64);
                            out.push(Stmt {
                                kind: StmtKind::Assign { var: t, value: off },
                                span: span.clone(),
                            });
                            Val::Ptr(PtrVal {
                                array,
                                off: Expr::Var { id: t, ty: Ty::I64 },
                                pointee,
                            })
                        }
                        v => v,
                    };
                    let new = self.step(old.clone(), op == "++", &span)?;
                    self.assign(&lv, new, c, &span, out)?;
                    Ok(old)
                } else {
                    let lv = self.lvalue(n, out)?;
                    self.read(lv, n, out)
                }
            }
            "&" => {
                let lv = self.lvalue(c, out)?;
                match lv {
                    LVal::Mem { array, off, cty } => Ok(Val::Ptr(PtrVal {
                        array,
                        off,
                        pointee: cty,
                    })),
                    LVal::Bound(Binding::Ptr(_)) => unsupported(span, "pointer to pointer"),
                    _ => unsupported(span, "address of a variable that is not in memory"),
                }
            }
            "*" => {
                let lv = self.lvalue(n, out)?;
                self.read(lv, n, out)
            }
            "+" | "__extension__" => self.rvalue(c, out),
            "-" | "~" | "!" => {
                let v = self.rvalue(c, out)?;
                let e = self.expect_scalar(v, c)?;
                let ty = self.scalar_ty(n)?;
                if let Ty::Float { bits } = e.ty() {
                    if op == "-" {
                        return Ok(Val::Scalar(Expr::Opaque {
                            name: float_name("fneg", bits),
                            args: vec![e],
                            ty,
                        }));
                    }
                    return unsupported(span, format!("float operator `{op}`"));
                }
                let (uop, e) = match op.as_str() {
                    "-" => (UnOp::Neg, e),
                    "~" => (UnOp::BitNot, e),
                    _ => (UnOp::Not, to_bool(e)),
                };
                Ok(Val::Scalar(Expr::Unary {
                    op: uop,
                    arg: Box::new(e),
                    ty,
                }))
            }
            "__real" | "__imag" => unsupported(span, "complex numbers"),
            other => unsupported(span, format!("unary operator `{other}`")),
        }
    }

    fn binary(&mut self, n: &Node, out: &mut Vec<Stmt>) -> R<Val> {
        let span = self.span(n);
        let (Some(a), Some(b)) = (n.inner.first(), n.inner.get(1)) else {
            return unsupported(span, "malformed binary operator");
        };
        let op = n.opcode.clone().unwrap_or_default();
        match op.as_str() {
            "=" => {
                let lv = self.lvalue(n, out)?;
                self.read(lv, n, out)
            }
            "," => {
                self.effect(a, out)?;
                self.rvalue(b, out)
            }
            "&&" | "||" => {
                let l = self.cond(a, out)?;
                let mut rs = Vec::new();
                let r = self.cond(b, &mut rs)?;
                if rs.is_empty() {
                    let bop = if op == "&&" { BinOp::LAnd } else { BinOp::LOr };
                    return Ok(Val::Scalar(Expr::Binary {
                        op: bop,
                        lhs: Box::new(l),
                        rhs: Box::new(r),
                        ty: Ty::Bool,
                    }));
                }
                let t = self.temp(Ty::Bool);
                let tv = Expr::Var { id: t, ty: Ty::Bool };
                out.push(Stmt {
                    kind: StmtKind::Assign { var: t, value: l },
                    span: span.clone(),
                });
                rs.push(Stmt {
                    kind: StmtKind::Assign { var: t, value: r },
                    span: span.clone(),
                });
                let cond = if op == "&&" {
                    tv.clone()
                } else {
                    Expr::Unary {
                        op: UnOp::Not,
                        arg: Box::new(tv.clone()),
                        ty: Ty::Bool,
                    }
                };
                out.push(Stmt {
                    kind: StmtKind::If {
                        cond,
                        then: rs,
                        els: Vec::new(),
                    },
                    span,
                });
                Ok(Val::Scalar(tv))
            }
            _ => {
                let lv = self.rvalue(a, out)?;
                let rv = self.rvalue(b, out)?;
                match (lv, rv) {
                    (Val::Ptr(p), Val::Scalar(i)) if op == "+" || op == "-" => self.ptr_arith(p, i, op == "-", &span),
                    (Val::Scalar(i), Val::Ptr(p)) if op == "+" => self.ptr_arith(p, i, false, &span),
                    (Val::Ptr(p), Val::Ptr(q)) if op == "-" && p.array == q.array => {
                        let size = self.size_of(&p.pointee, &span)?;
                        let ty = self.scalar_ty(n)?;
                        let d = Expr::Binary {
                            op: BinOp::Sub,
                            lhs: Box::new(p.off),
                            rhs: Box::new(q.off),
                            ty: Ty::I64,
                        };
                        let d = Expr::Binary {
                            op: BinOp::Div,
                            lhs: Box::new(d),
                            rhs: Box::new(Expr::int(size, Ty::I64)),
                            ty: Ty::I64,
                        };
                        Ok(Val::Scalar(cast(d, ty)))
                    }
                    (Val::Ptr(_), _) | (_, Val::Ptr(_)) => unsupported(
                        span,
                        format!("pointer operator `{op}` (pointer comparison or arithmetic)"),
                    ),
                    (Val::Scalar(l), Val::Scalar(r)) => {
                        let ty = self.scalar_ty(n)?;
                        Ok(Val::Scalar(self.binop(&op, l, r, ty, &span)?))
                    }
                    _ => unsupported(span, format!("operator `{op}` on non-scalars")),
                }
            }
        }
    }

    fn conditional(&mut self, n: &Node, out: &mut Vec<Stmt>) -> R<Val> {
        let span = self.span(n);
        let (Some(c), Some(a), Some(b)) = (n.inner.first(), n.inner.get(1), n.inner.get(2)) else {
            return unsupported(span, "malformed conditional");
        };
        let cond = self.cond(c, out)?;
        let mut sa = Vec::new();
        let va = self.rvalue(a, &mut sa)?;
        let mut sb = Vec::new();
        let vb = self.rvalue(b, &mut sb)?;
        match (va, vb) {
            (Val::Void, Val::Void) => {
                out.push(Stmt {
                    kind: StmtKind::If {
                        cond,
                        then: sa,
                        els: sb,
                    },
                    span,
                });
                Ok(Val::Void)
            }
            (Val::Scalar(x), Val::Scalar(y)) => {
                let ty = self.scalar_ty(n).unwrap_or(x.ty());
                let (x, y) = (cast(x, ty), cast(y, ty));
                if sa.is_empty() && sb.is_empty() {
                    return Ok(Val::Scalar(Expr::Select {
                        cond: Box::new(cond),
                        then: Box::new(x),
                        els: Box::new(y),
                        ty,
                    }));
                }
                let t = self.temp(ty);
                sa.push(Stmt {
                    kind: StmtKind::Assign { var: t, value: x },
                    span: span.clone(),
                });
                sb.push(Stmt {
                    kind: StmtKind::Assign { var: t, value: y },
                    span: span.clone(),
                });
                out.push(Stmt {
                    kind: StmtKind::If {
                        cond,
                        then: sa,
                        els: sb,
                    },
                    span,
                });
                Ok(Val::Scalar(Expr::Var { id: t, ty }))
            }
            (Val::Ptr(p), Val::Ptr(q)) if p.array == q.array => {
                if sa.is_empty() && sb.is_empty() {
                    let off = Expr::Select {
                        cond: Box::new(cond),
                        then: Box::new(p.off),
                        els: Box::new(q.off),
                        ty: Ty::I64,
                    };
                    return Ok(Val::Ptr(PtrVal { off, ..p }));
                }
                let t = self.temp(Ty::I64);
                sa.push(Stmt {
                    kind: StmtKind::Assign { var: t, value: p.off },
                    span: span.clone(),
                });
                sb.push(Stmt {
                    kind: StmtKind::Assign { var: t, value: q.off },
                    span: span.clone(),
                });
                out.push(Stmt {
                    kind: StmtKind::If {
                        cond,
                        then: sa,
                        els: sb,
                    },
                    span,
                });
                Ok(Val::Ptr(PtrVal {
                    off: Expr::Var { id: t, ty: Ty::I64 },
                    ..p
                }))
            }
            (Val::Ptr(_), Val::Ptr(_)) => unsupported(span, "conditional choosing between pointers to two arrays"),
            _ => unsupported(span, "conditional operator on these operands"),
        }
    }

    // ---------------------------------------------------------------- calls

    fn call(&mut self, n: &Node, out: &mut Vec<Stmt>) -> R<Val> {
        let span = self.span(n);
        let Some(callee) = n.inner.first() else {
            return unsupported(span, "malformed call");
        };
        let mut args: Vec<&Node> = n.inner[1..].iter().filter(|c| !c.kind.ends_with("Attr")).collect();
        let c = strip_parens(callee);
        let (name, decl_id, decl_ty) = match c.kind.as_str() {
            "DeclRefExpr" => {
                let Some(d) = &c.referenced_decl else {
                    return unsupported(span, "call without a callee");
                };
                if !matches!(d.kind.as_str(), "FunctionDecl" | "CXXMethodDecl" | "CXXConversionDecl") {
                    return unsupported(span, "function pointer call");
                }
                (d.name.clone(), d.id.clone(), d.ty.qual_type.clone())
            }
            "MemberExpr" if n.kind == "CXXMemberCallExpr" => {
                // Method call: supported when the body does not use `this`.
                let name = c.name.clone().unwrap_or_default();
                let id = c.referenced_member_decl.clone().unwrap_or_default();
                if let Some(b) = c.inner.first() {
                    // Evaluate the object expression only for its side effects when it has any.
                    if b.kind != "MaterializeTemporaryExpr" && b.kind != "CXXTemporaryObjectExpr" && !b.is_glvalue() {
                        self.effect(b, out)?;
                    }
                }
                (name, id, String::new())
            }
            "UnresolvedLookupExpr" | "UnresolvedMemberExpr" | "CXXDependentScopeMemberExpr" => {
                return unsupported(span, "dependent call in an uninstantiated template");
            }
            _ => return unsupported(span, "function pointer call"),
        };
        if n.kind == "CXXOperatorCallExpr" && name == "operator=" {
            let lv = self.lvalue(n, out)?;
            return self.read(lv, n, out);
        }
        if let Some(v) = self.builtin_call(n, &name, &args, &span, out)? {
            return Ok(v);
        }
        let def = self
            .g
            .funcs_by_id
            .get(&decl_id)
            .copied()
            .or_else(|| self.g.funcs_by_sig.get(&(name.clone(), decl_ty.clone())).copied());
        let Some(def) = def else {
            return unsupported(span, format!("call to function without a body `{name}`"));
        };
        if n.kind == "CXXOperatorCallExpr" && def.kind == "CXXMethodDecl" && !args.is_empty() {
            // Member operator: the first argument is the object.
            return unsupported(span, format!("member operator `{name}`"));
        }
        if matches!(def.kind.as_str(), "CXXMethodDecl" | "CXXConversionDecl") && uses_this(def) {
            return unsupported(span, format!("method `{name}` using `this`"));
        }
        if self.frames.iter().any(|f| f.func_id == def.id) {
            return unsupported(span, format!("recursive call to `{name}`"));
        }
        let params: Vec<&Node> = def.inner.iter().filter(|p| p.kind == "ParmVarDecl").collect();
        if params.len() != args.len() {
            if args.len() < params.len() {
                return unsupported(span, format!("call to `{name}` using default arguments"));
            }
            return unsupported(span, format!("variadic call to `{name}`"));
        }
        // Evaluate the arguments in the caller.
        let mut vals = Vec::new();
        for a in args.drain(..) {
            vals.push(self.rvalue(a, out)?);
        }
        self.inline(def, &name, params, vals, &span, out)
    }

    fn inline(
        &mut self,
        def: &Node,
        name: &str,
        params: Vec<&Node>,
        vals: Vec<Val>,
        span: &Span,
        out: &mut Vec<Stmt>,
    ) -> R<Val> {
        let Some(body) = body_of(def) else {
            return unsupported(span.clone(), format!("call to `{name}` without a body"));
        };
        let block = self.k.new_block();
        let mut frame = Frame {
            env: HashMap::new(),
            block: Some(block),
            ret: None,
            func_id: def.id.clone(),
            addr_taken: HashSet::new(),
            modified: HashSet::new(),
        };
        scan(body, &mut frame.addr_taken, &mut frame.modified);
        let ret_cty = return_type(def, &self.g.types);
        self.frames.push(frame);
        let mut stmts = Vec::new();
        let result = (|| -> R<Val> {
            // Result slot.
            let ret = match &ret_cty {
                CType::Void => None,
                t => Some(self.local_binding(&format!("{name}$ret"), t, "", span)?),
            };
            self.frame_mut().ret = ret.clone();
            for (p, v) in params.iter().zip(vals) {
                let pname = p.name.clone().unwrap_or_default();
                let pspan = self.span(p);
                let cty = self.ctype(p);
                match (&cty, v) {
                    (CType::Ptr(pointee), Val::Ptr(pv)) if !self.frame().modified.contains(&p.id) => {
                        let pointee = (**pointee).clone();
                        self.ptrs.push(PtrBind {
                            name: pname,
                            array: Some(pv.array),
                            off: PtrOff::Fixed(pv.off),
                            pointee,
                        });
                        let b = Binding::Ptr(self.ptrs.len() - 1);
                        self.frame_mut().env.insert(p.id.clone(), b);
                    }
                    (CType::Ref(_), _) => {
                        return unsupported(pspan, format!("reference parameter `{pname}`"));
                    }
                    (_, v) => {
                        let b = self.local_binding(&pname, &cty, &p.id, &pspan)?;
                        self.frame_mut().env.insert(p.id.clone(), b.clone());
                        let lv = match b {
                            Binding::Mem(a, c) => LVal::Mem {
                                array: a,
                                off: Expr::int(0, Ty::I64),
                                cty: c,
                            },
                            b => LVal::Bound(b),
                        };
                        self.assign(&lv, v, p, &pspan, &mut stmts)?;
                    }
                }
            }
            self.block(body, &mut stmts)?;
            match ret {
                None => Ok(Val::Void),
                Some(b) => self.read_binding(&b, def),
            }
        })();
        self.frames.pop();
        let v = result?;
        out.push(Stmt {
            kind: StmtKind::Block { id: block, body: stmts },
            span: span.clone(),
        });
        Ok(v)
    }

    /// Calls handled specially; `None` when `name` is not a builtin.
    fn builtin_call(
        &mut self,
        n: &Node,
        name: &str,
        args: &[&Node],
        span: &Span,
        out: &mut Vec<Stmt>,
    ) -> R<Option<Val>> {
        let atomic = match name {
            "atomicAdd" => Some(AtomicOp::Add),
            "atomicSub" => Some(AtomicOp::Sub),
            "atomicExch" => Some(AtomicOp::Exch),
            "atomicMin" => Some(AtomicOp::Min),
            "atomicMax" => Some(AtomicOp::Max),
            "atomicInc" => Some(AtomicOp::Inc),
            "atomicDec" => Some(AtomicOp::Dec),
            "atomicCAS" => Some(AtomicOp::Cas),
            "atomicAnd" => Some(AtomicOp::And),
            "atomicOr" => Some(AtomicOp::Or),
            "atomicXor" => Some(AtomicOp::Xor),
            _ => None,
        };
        if let Some(op) = atomic {
            let Some((p, rest)) = args.split_first() else {
                return unsupported(span.clone(), format!("`{name}` without arguments"));
            };
            let pv = self.rvalue(p, out)?;
            let pv = self.expect_ptr(pv, p)?;
            let Some(ty) = pv.pointee.scalar() else {
                return unsupported(span.clone(), format!("`{name}` on a non-scalar location"));
            };
            let mut operands = Vec::new();
            for a in rest {
                let v = self.rvalue(a, out)?;
                operands.push(cast(self.expect_scalar(v, a)?, ty));
            }
            if self.k.array(pv.array).space == Space::Constant {
                return unsupported(
                    span.clone(),
                    format!(
                        "`{name}` on __constant__ memory `{}` (read-only in kernels)",
                        self.k.array(pv.array).name
                    ),
                );
            }
            let t = self.temp(ty);
            out.push(Stmt {
                kind: StmtKind::Atomic {
                    op,
                    dst: Some(t),
                    array: pv.array,
                    offset: pv.off,
                    operands,
                    ty,
                },
                span: span.clone(),
            });
            return Ok(Some(Val::Scalar(Expr::Var { id: t, ty })));
        }
        let scalars = |this: &mut Self, out: &mut Vec<Stmt>| -> R<Vec<Expr>> {
            let mut v = Vec::new();
            for a in args {
                let x = this.rvalue(a, out)?;
                v.push(this.expect_scalar(x, a)?);
            }
            Ok(v)
        };
        let push = |out: &mut Vec<Stmt>, kind: StmtKind| {
            out.push(Stmt {
                kind,
                span: span.clone(),
            })
        };
        match name {
            "__syncthreads" => {
                push(out, StmtKind::Barrier);
                Ok(Some(Val::Void))
            }
            "__threadfence" | "__threadfence_block" | "__threadfence_system" | "__syncwarp" | "printf" => {
                Ok(Some(Val::Void))
            }
            "__invariant" | "__global_invariant" => {
                let Some(a) = args.first() else {
                    return unsupported(span.clone(), format!("`{name}` without an argument"));
                };
                // An invariant we cannot lower (GPUVerify's two-thread annotations such as
                // `__write_implies`) is dropped: not assuming it is sound, only less precise.
                let mut stmts = Vec::new();
                match self.cond(a, &mut stmts) {
                    Ok(cond) => {
                        out.extend(stmts);
                        push(out, StmtKind::Invariant { cond });
                    }
                    Err(e) => {
                        let why = match e {
                            FrontendError::Unsupported { what, .. } => what,
                            other => other.to_string(),
                        };
                        self.k
                            .unchecked
                            .push((span.clone(), format!("`{name}` not checked: {why}")));
                    }
                }
                Ok(Some(Val::Void))
            }
            "__function_wide_invariant" | "__axiom" => Ok(Some(Val::Void)),
            "__assert" | "__global_assert" | "__assume" | "__requires" | "__global_requires" => {
                let Some(a) = args.first() else {
                    return unsupported(span.clone(), format!("`{name}` without an argument"));
                };
                let cond = self.cond(a, out)?;
                let kind = if name.ends_with("assert") {
                    StmtKind::Assert { cond }
                } else {
                    StmtKind::Assume { cond }
                };
                push(out, kind);
                Ok(Some(Val::Void))
            }
            "__ensures" | "__global_ensures" => {
                let Some(a) = args.first() else {
                    return unsupported(span.clone(), format!("`{name}` without an argument"));
                };
                // The loads of the condition are kept with it: they read the final memory. A
                // condition we cannot lower (GPUVerify's `__return_val_ptr()`, say) is not
                // checked, and the verdict says so, as for invariants.
                let mut body = Vec::new();
                match self.cond(a, &mut body) {
                    Ok(cond) => push(out, StmtKind::Ensures { body, cond }),
                    Err(FrontendError::Unsupported { what, .. }) => {
                        self.k
                            .unchecked
                            .push((span.clone(), format!("`{name}` not checked: {what}")));
                    }
                    Err(e) => return Err(e),
                }
                Ok(Some(Val::Void))
            }
            "__implies" => {
                let v = scalars(self, out)?;
                let [a, b] = <[Expr; 2]>::try_from(v).map_err(|_| FrontendError::Unsupported {
                    span: span.clone(),
                    what: "`__implies` needs two arguments".into(),
                })?;
                let na = Expr::Unary {
                    op: UnOp::Not,
                    arg: Box::new(to_bool(a)),
                    ty: Ty::Bool,
                };
                Ok(Some(Val::Scalar(Expr::Binary {
                    op: BinOp::LOr,
                    lhs: Box::new(na),
                    rhs: Box::new(to_bool(b)),
                    ty: Ty::Bool,
                })))
            }
            // Every pointer parameter is already a distinct array in this model.
            "__enabled" | "__requires_fresh_array" => Ok(Some(Val::Scalar(Expr::bool(true)))),
            "min" | "max" | "abs" | "llabs" | "__mul24" | "__umul24" => {
                let v = scalars(self, out)?;
                let ty = self.scalar_ty(n)?;
                if let Ty::Float { bits } = ty {
                    let fname = match name {
                        "min" => "fminf",
                        "max" => "fmaxf",
                        other => other,
                    };
                    let _ = bits;
                    return Ok(Some(Val::Scalar(Expr::Opaque {
                        name: fname.into(),
                        args: v,
                        ty,
                    })));
                }
                let e = match (name, v.as_slice()) {
                    ("min" | "max", [a, b]) => {
                        let op = if name == "min" { BinOp::Lt } else { BinOp::Gt };
                        let c = Expr::Binary {
                            op,
                            lhs: Box::new(a.clone()),
                            rhs: Box::new(b.clone()),
                            ty: Ty::Bool,
                        };
                        Expr::Select {
                            cond: Box::new(c),
                            then: Box::new(a.clone()),
                            els: Box::new(b.clone()),
                            ty,
                        }
                    }
                    ("abs" | "llabs", [a]) => {
                        let c = Expr::Binary {
                            op: BinOp::Lt,
                            lhs: Box::new(a.clone()),
                            rhs: Box::new(Expr::int(0, ty)),
                            ty: Ty::Bool,
                        };
                        let neg = Expr::Unary {
                            op: UnOp::Neg,
                            arg: Box::new(a.clone()),
                            ty,
                        };
                        Expr::Select {
                            cond: Box::new(c),
                            then: Box::new(neg),
                            els: Box::new(a.clone()),
                            ty,
                        }
                    }
                    ("__mul24" | "__umul24", [a, b]) => Expr::Binary {
                        op: BinOp::Mul,
                        lhs: Box::new(a.clone()),
                        rhs: Box::new(b.clone()),
                        ty,
                    },
                    _ => {
                        return unsupported(span.clone(), format!("`{name}` with these arguments"));
                    }
                };
                Ok(Some(Val::Scalar(e)))
            }
            _ if name.starts_with("__") && is_annotation(name) => {
                unsupported(span.clone(), format!("annotation `{name}`"))
            }
            _ if self.is_bodyless_math(n, name) => {
                let v = scalars(self, out)?;
                let ty = self.scalar_ty(n)?;
                Ok(Some(Val::Scalar(Expr::Opaque {
                    name: name.to_string(),
                    args: v,
                    ty,
                })))
            }
            _ => Ok(None),
        }
    }

    /// A body-less function from the prelude returning a scalar (math functions).
    fn is_bodyless_math(&self, n: &Node, name: &str) -> bool {
        MATH.contains(&name) && matches!(self.ctype(n), CType::Scalar(_))
    }
}

const MATH: &[&str] = &[
    "sqrtf",
    "expf",
    "exp2f",
    "logf",
    "log2f",
    "log10f",
    "fabsf",
    "sinf",
    "cosf",
    "tanf",
    "floorf",
    "ceilf",
    "rsqrtf",
    "truncf",
    "roundf",
    "__expf",
    "__logf",
    "__sinf",
    "__cosf",
    "tanhf",
    "atanf",
    "asinf",
    "acosf",
    "__saturatef",
    "sqrt",
    "exp",
    "log",
    "fabs",
    "sin",
    "cos",
    "floor",
    "ceil",
    "rsqrt",
    "tanh",
    "log2",
    "exp2",
    "trunc",
    "round",
    "fminf",
    "fmaxf",
    "powf",
    "atan2f",
    "fmodf",
    "__fdividef",
    "__fmul_rn",
    "__fadd_rn",
    "fmaf",
    "fmin",
    "fmax",
    "pow",
    "fma",
    "fmod",
    "atan2",
    "__float2int_rn",
    "__int2float_rn",
    "__float_as_int",
    "__int_as_float",
];

fn is_annotation(name: &str) -> bool {
    matches!(
        name,
        "__read"
            | "__write"
            | "__atomic"
            | "__no_read"
            | "__no_write"
            | "__read_implies"
            | "__write_implies"
            | "__read_offset_bytes"
            | "__write_offset_bytes"
            | "__ptr_base"
            | "__ptr_offset_bytes"
            | "__other_int"
            | "__other_bool"
            | "__uniform_int"
            | "__uniform_bool"
            | "__distinct_int"
            | "__distinct_bool"
            | "__all"
            | "__exclusive"
            | "__same_group"
            | "__same_block"
            | "__add_noovfl"
            | "__return_val_int"
            | "__return_val_bool"
            | "__return_val_ptr"
            | "__old_int"
    )
}

fn wrap_ty(v: BigInt, ty: Ty) -> BigInt {
    match ty {
        Ty::Int { bits, signed } => wrap(v, bits, signed),
        Ty::Bool => BigInt::from((v != BigInt::from(0)) as u8),
        Ty::Float { .. } => v,
    }
}

fn describe(n: &Node, t: &CType) -> String {
    let s = n.ty.as_ref().map(|t| t.qual_type.clone()).unwrap_or_default();
    if s.is_empty() { t.describe() } else { s }
}

fn callee_name(n: &Node) -> Option<String> {
    let c = strip_parens(n);
    c.referenced_decl.as_ref().map(|d| d.name.clone())
}

fn uses_this(n: &Node) -> bool {
    n.kind == "CXXThisExpr" || n.inner.iter().any(uses_this)
}

fn contains_break(n: &Node) -> bool {
    match n.kind.as_str() {
        "BreakStmt" => true,
        "ForStmt" | "WhileStmt" | "DoStmt" | "SwitchStmt" => false,
        _ => n.inner.iter().any(contains_break),
    }
}

fn return_type(def: &Node, env: &TypeEnv) -> CType {
    let t = def.ty.as_ref().map(|t| t.qual_type.as_str()).unwrap_or("void ()");
    // `int (int *, int)`: the return type is what precedes the parameter list.
    let ret = match t.find('(') {
        Some(i) => &t[..i],
        None => t,
    };
    env.parse(ret.trim())
}
