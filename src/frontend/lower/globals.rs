//! What a translation unit declares, collected once before lowering: records, typedefs, enum
//! constants, file-scope variables and function definitions ([`Globals`]), and which kernels
//! `--kernel` selects under which names.
//!
//! Reads declarations only; it lowers no statement or expression.

use super::R;
use crate::frontend::FrontendError;
use crate::frontend::ast::Node;
use crate::frontend::types::{self, CType, TypeEnv};
use num_bigint::BigInt;
use std::collections::HashMap;

/// The kernels of `root` that `only` selects (all when `None`), each with the name reports
/// use (plain, or with template arguments where a template has several instantiations).
pub(in crate::frontend) fn select_kernels<'a>(
    g: &Globals<'a>,
    file: &str,
    only: Option<&str>,
) -> R<Vec<(String, &'a Node)>> {
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
        return Err(FrontendError::NoKernel {
            file: file.to_string(),
            hint: String::new(),
        });
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
                .filter(|(_, d, k)| same_name(d, want) || same_name(&full_name(k), want))
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

/// Whether `a` and `b` name the same kernel, ignoring white space (`k<256,float>` is
/// `k<256, float>`).
fn same_name(a: &str, b: &str) -> bool {
    a.chars()
        .filter(|c| !c.is_whitespace())
        .eq(b.chars().filter(|c| !c.is_whitespace()))
}

/// For `--kernel NAME<ARGS>` naming a `__global__` function template of the file that the file
/// does not instantiate with those arguments: the explicit instantiation to append to a copy
/// of the file, `template __global__ decltype(ns::NAME<ARGS>) ns::NAME<ARGS>;` (qualified by
/// the template's namespaces). Clang 14 to 19 accept this form, which needs no parameter
/// list: `decltype` of the template-id gives the function type once clang has deduced it.
/// `None` when the file already has the kernel, or no such template.
pub(in crate::frontend) fn template_instantiation(
    g: &Globals,
    root: &Node,
    file: &str,
    prelude: &str,
    want: &str,
) -> Option<String> {
    let (name, args) = want.trim().split_once('<')?;
    let args = args.strip_suffix('>')?;
    if select_kernels(g, file, Some(want)).is_ok() {
        return None;
    }
    let base = name.trim().rsplit("::").next()?.to_string();
    let scope = find_kernel_template(root, &base, prelude, "")?;
    let id = format!("{scope}{base}<{args}>");
    Some(format!("\ntemplate __global__ decltype({id}) {id};\n"))
}

/// The namespace qualifier (`ns::`) of a `__global__` function template named `name` outside
/// the prelude, searched below `n` (whose qualifier is `scope`).
fn find_kernel_template(n: &Node, name: &str, prelude: &str, scope: &str) -> Option<String> {
    for c in &n.inner {
        match c.kind.as_str() {
            "NamespaceDecl" => {
                let s = format!("{scope}{}::", c.name.as_deref().unwrap_or(""));
                if let Some(found) = find_kernel_template(c, name, prelude, &s) {
                    return Some(found);
                }
            }
            "LinkageSpecDecl" => {
                if let Some(found) = find_kernel_template(c, name, prelude, scope) {
                    return Some(found);
                }
            }
            "FunctionTemplateDecl" if c.name.as_deref() == Some(name) => {
                let pattern = c.inner.iter().find(|f| f.kind == "FunctionDecl");
                let in_prelude = c.pos.as_ref().is_some_and(|p| &*p.file == prelude);
                if pattern.is_some_and(|f| f.has_attr("CUDAGlobalAttr")) && !in_prelude {
                    return Some(scope.to_string());
                }
            }
            _ => {}
        }
    }
    None
}

fn full_name(k: &Node) -> String {
    let name = k.name.clone().unwrap_or_default();
    if k.inner.iter().any(|c| c.kind == "TemplateArgument") {
        format!("{name}<{}>", template_args(k))
    } else {
        name
    }
}

pub(in crate::frontend) fn template_args(k: &Node) -> String {
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
pub(in crate::frontend) struct Globals<'a> {
    pub(in crate::frontend) types: TypeEnv,
    /// Kernels (and whether each is a template instantiation).
    pub(in crate::frontend) kernels: Vec<(&'a Node, bool)>,
    /// Kernels defined in a library's header ([`in_library`]), not verified: (name, file).
    pub(in crate::frontend) library_kernels: Vec<(String, String)>,
    /// Function definitions by declaration id.
    pub(in crate::frontend) funcs_by_id: HashMap<String, &'a Node>,
    /// Function definitions by (name, type).
    pub(in crate::frontend) funcs_by_sig: HashMap<(String, String), &'a Node>,
    /// Complete record declarations by the name their type is spelt with (as
    /// [`TypeEnv::records`] keys them): where their constructors are found (`ctor.rs`).
    pub(in crate::frontend) record_nodes: HashMap<String, &'a Node>,
    /// File-scope variables by id.
    pub(in crate::frontend) vars: HashMap<String, &'a Node>,
    /// Enum constants by id.
    pub(in crate::frontend) enum_consts: HashMap<String, BigInt>,
    /// Record fields by record declaration id.
    pub(in crate::frontend) record_by_id: HashMap<String, Vec<(String, CType)>>,
    /// Alignments that records ask for (`__align__(n)`), by record declaration id.
    pub(in crate::frontend) align_by_id: HashMap<String, u64>,
    /// GPUVerify's axioms: the functions the prelude's `__axiom(e)` defines at file scope, in
    /// source order.
    pub(in crate::frontend) axioms: Vec<&'a Node>,
    /// The names of the translation unit's aliases of `cooperative_groups` (`cg` of
    /// `namespace cg = cooperative_groups;`, at any depth): the qualifiers under which
    /// [`crate::frontend::cuda::groups`] takes a type spelling clang did not desugar for a group's.
    pub(in crate::frontend) group_aliases: Vec<String>,
    /// The source language: which table of built-in functions calls are looked up in.
    pub(in crate::frontend) language: crate::ir::Language,
    /// Whether device code of the file names a null pointer (`NULL`, `nullptr`, `0` as a
    /// pointer): CUDA kernels then get `null.rs`'s null array, as OpenCL's always do.
    pub(in crate::frontend) device_null: bool,
    /// OpenCL's global offset per dimension ([`crate::frontend::FrontendOptions::global_offset`]).
    pub(in crate::frontend) global_offset: [u64; 3],
    /// OpenCL's `get_work_dim()` when known ([`crate::frontend::FrontendOptions::work_dim`]).
    pub(in crate::frontend) work_dim: Option<u32>,
    /// Constructors with a body (`ctor.rs`), by (record name as [`TypeEnv::parse`] names it,
    /// the constructor's type as clang spells it: `void (const float)`).
    pub(in crate::frontend) ctors: HashMap<(String, String), &'a Node>,
    /// The `operator()`s of the lambdas in function bodies, by id: the id of their closure
    /// class (`lambda.rs`). They are in [`Self::funcs_by_id`] too.
    pub(in crate::frontend) lambda_ops: HashMap<String, String>,
    /// Whether each function declaration (by id, with or without a body) is the program's:
    /// first declared in one of its files, not in a toolkit or system header
    /// ([`in_library`]) nor in gpug's prelude. A redeclaration takes its first declaration's
    /// origin (`previousDecl`). A call to the program's function is lowered from its body (or
    /// uninterpreted without one), never as the built-in of the same name: a program's own
    /// `atomicMin(float *, float)` is not CUDA's (issue 53, item 1).
    pub(in crate::frontend) program_fns: HashMap<String, bool>,
}

/// The name prefix of the functions the prelude's `__axiom(e)` macro defines.
pub(in crate::frontend) const AXIOM_PREFIX: &str = "__gpug_axiom_";

fn is_function(n: &Node) -> bool {
    matches!(
        n.kind.as_str(),
        "FunctionDecl" | "CXXMethodDecl" | "CXXConversionDecl" | "CXXConstructorDecl"
    )
}

impl Globals<'_> {
    /// Whether the function declaration `id` is the program's ([`Self::program_fns`]): a call
    /// to it is never taken as a built-in of the same name.
    pub(in crate::frontend) fn is_program_fn(&self, id: &str) -> bool {
        self.program_fns.get(id).copied().unwrap_or(false)
    }
}

pub(in crate::frontend) fn body_of(f: &Node) -> Option<&Node> {
    f.inner.iter().find(|c| c.kind == "CompoundStmt")
}

/// The names of the aliases of `cooperative_groups` declared anywhere under `n`
/// ([`Globals::group_aliases`]).
pub(in crate::frontend) fn group_aliases(n: &Node, out: &mut Vec<String>) {
    for c in &n.inner {
        if c.kind == "NamespaceAliasDecl" {
            if let (Some(name), Some(ns)) = (&c.name, &c.aliased_namespace)
                && ns.name == "cooperative_groups"
                && !out.contains(name)
            {
                out.push(name.clone());
            }
        } else {
            group_aliases(c, out);
        }
    }
}

/// Whether `file` is a library's header, whose kernels are not the program's to verify (thrust's
/// and CUB's, instantiated by the host code's `thrust::device_vector`): a file under a CUDA
/// installation's `include/` (a folder holding `cuda_runtime.h`, as gpug's CUDA folder), or
/// under `/usr/include` or `/usr/lib`.
pub(in crate::frontend) fn in_library(file: &str) -> bool {
    let path = std::path::Path::new(file);
    if !path.is_absolute() {
        return false;
    }
    if file.starts_with("/usr/include/") || file.starts_with("/usr/lib/") {
        return true;
    }
    path.ancestors()
        .any(|a| a.file_name().is_some_and(|n| n == "include") && a.join("cuda_runtime.h").is_file())
}

pub(in crate::frontend) fn collect<'a>(n: &'a Node, g: &mut Globals<'a>, prelude: &str) {
    collect_in(n, g, prelude, &mut Vec::new());
}

/// [`collect`] under the named namespaces `ns` (outermost first).
fn collect_in<'a>(n: &'a Node, g: &mut Globals<'a>, prelude: &str, ns: &mut Vec<String>) {
    for c in &n.inner {
        match c.kind.as_str() {
            "NamespaceDecl" if c.name.as_deref().is_some_and(|n| !n.is_empty()) => {
                ns.push(c.name.clone().unwrap_or_default());
                collect_in(c, g, prelude, ns);
                ns.pop();
            }
            "NamespaceDecl" | "LinkageSpecDecl" | "ExternCContextDecl" => collect_in(c, g, prelude, ns),
            "FunctionTemplateDecl" => {
                for (i, f) in c.inner.iter().enumerate().filter(|(_, f)| is_function(f)) {
                    let spec = f.inner.iter().any(|a| a.kind == "TemplateArgument");
                    if i > 0 && spec {
                        add_function(f, g, prelude, true);
                    }
                }
            }
            "CXXRecordDecl" | "RecordDecl" | "ClassTemplateSpecializationDecl" => {
                add_record(c, g, ns);
                add_methods(c, g, prelude);
            }
            "ClassTemplateDecl" => {
                for s in c.inner.iter().filter(|s| s.kind == "ClassTemplateSpecializationDecl") {
                    add_record(s, g, ns);
                    add_methods(s, g, prelude);
                }
            }
            "VarDecl" => {
                g.vars.insert(c.id.clone(), c);
            }
            "TypedefDecl" | "TypeAliasDecl" => add_typedef(c, g),
            // Enums are read by `names.rs`, wherever they are declared.
            _ if is_function(c) => add_function(c, g, prelude, false),
            _ => {}
        }
    }
}

/// Registers the methods of the record `c` (a class template's specialization too): its
/// member functions, and the instantiations of its member templates (`op.f<true>(…)`, each a
/// method of its own with the template's arguments substituted).
fn add_methods<'a>(c: &'a Node, g: &mut Globals<'a>, prelude: &str) {
    for m in &c.inner {
        if is_function(m) {
            add_function(m, g, prelude, false);
        } else if m.kind == "FunctionTemplateDecl" {
            for f in m.inner.iter().filter(|f| is_function(f)) {
                if f.inner.iter().any(|a| a.kind == "TemplateArgument") {
                    add_function(f, g, prelude, false);
                }
            }
        }
    }
}

/// Registers the record `c`, declared in the namespaces `ns`.
fn add_record<'a>(c: &'a Node, g: &mut Globals<'a>, ns: &[String]) {
    // A union: its members all at offset 0 (`TypeEnv::fields`), its objects always in memory
    // (`decl.rs`), so that reading one member after writing another reads the same bytes.
    if c.tag_used.as_deref() == Some("union") {
        let Some(name) = c.name.as_ref().filter(|n| !n.is_empty()) else {
            return;
        };
        g.types.unions.insert(name.clone());
    }
    if !c.complete_definition {
        return;
    }
    if crate::frontend::cuda::wmma::add_fragment(c, g, ns) {
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
                add_record(f, g, ns);
                if f.name.as_deref().unwrap_or("").is_empty() {
                    anon = Some(record_fields(f, g));
                }
            }
            "FieldDecl" => {
                let t = f.type_str();
                if let Some(af) = anon.take()
                    && (t.contains("(unnamed") || t.contains("(anonymous"))
                {
                    g.types.records.insert(types::strip_tag(t).to_string(), af);
                }
                fields.push((f.name.clone().unwrap_or_default(), g.types.parse(t)));
            }
            _ => {}
        }
    }
    g.record_by_id.insert(c.id.clone(), fields.clone());
    let align = aligned_attr(c);
    if let Some(a) = align {
        g.align_by_id.insert(c.id.clone(), a);
    }
    let Some(name) = c.name.as_ref().filter(|n| !n.is_empty()) else {
        return;
    };
    let key = if c.kind == "ClassTemplateSpecializationDecl" {
        format!("{name}<{}>", template_args(c))
    } else {
        name.clone()
    };
    if let Some(a) = align {
        g.types.aligns.entry(key.clone()).or_insert(a);
    }
    for m in c
        .inner
        .iter()
        .filter(|m| m.kind == "CXXConstructorDecl" && !m.is_implicit && body_of(m).is_some())
    {
        let t = m.ty.as_ref().map(|t| t.qual_type.clone()).unwrap_or_default();
        if !ns.is_empty() {
            g.ctors.insert((format!("{}::{key}", ns.join("::")), t.clone()), m);
        }
        g.ctors.insert((key.clone(), t), m);
    }
    // Also by its qualified name (`mylib::S`, as a type qualified where it is used is
    // spelled), which no other record shares.
    if !ns.is_empty() {
        let qualified = format!("{}::{key}", ns.join("::"));
        g.record_nodes.entry(qualified.clone()).or_insert(c);
        if let Some(a) = align {
            g.types.aligns.entry(qualified.clone()).or_insert(a);
        }
        g.types.records.entry(qualified).or_insert(fields.clone());
    }
    g.record_nodes.entry(key.clone()).or_insert(c);
    g.types.records.entry(key).or_insert(fields);
}

/// The largest alignment a declaration's `aligned` attributes ask for (`__align__(16)`,
/// `__attribute__((aligned(16)))`), if any.
fn aligned_attr(c: &Node) -> Option<u64> {
    c.inner
        .iter()
        .filter(|a| a.kind == "AlignedAttr")
        .filter_map(|a| a.inner.first().and_then(const_value))
        .filter_map(|v| u64::try_from(v).ok())
        .max()
}

fn record_fields(c: &Node, g: &Globals) -> Vec<(String, CType)> {
    c.inner
        .iter()
        .filter(|f| f.kind == "FieldDecl")
        .map(|f| (f.name.clone().unwrap_or_default(), g.types.parse(f.type_str())))
        .collect()
}

/// A typedef: its spelling for [`TypeEnv::parse`], and for `typedef struct { … } name;` the
/// record it names.
fn add_typedef(c: &Node, g: &mut Globals) {
    // The record the typedef names, not one of its template arguments' (`typedef
    // Packed128<__nv_bfloat16> x128;` names `Packed128<…>`, whose type node lists the
    // argument `__nv_bfloat16` first).
    fn record_id(n: &Node) -> Option<&str> {
        if n.kind == "RecordType" {
            return n.decl.as_ref().map(|d| d.id.as_str());
        }
        n.inner
            .iter()
            .filter(|c| c.kind != "TemplateArgument")
            .find_map(record_id)
    }
    let (Some(name), Some(id)) = (&c.name, record_id(c)) else {
        return;
    };
    if let Some(fields) = g.record_by_id.get(id) {
        let fields = fields.clone();
        g.types.records.entry(name.clone()).or_insert(fields);
        if let Some(a) = g.align_by_id.get(id).copied() {
            g.types.aligns.entry(name.clone()).or_insert(a);
        }
    }
}

fn add_function<'a>(f: &'a Node, g: &mut Globals<'a>, prelude: &str, template: bool) {
    let program = match f.previous_decl.as_ref().and_then(|p| g.program_fns.get(p)) {
        Some(&first) => first,
        None => f
            .pos
            .as_ref()
            .is_some_and(|p| !p.file.is_empty() && &*p.file != prelude && !in_library(&p.file)),
    };
    g.program_fns.insert(f.id.clone(), program);
    if body_of(f).is_none() {
        return;
    }
    g.funcs_by_id.insert(f.id.clone(), f);
    if let Some(body) = body_of(f) {
        crate::frontend::lower::calls::lambda::collect_lambdas(body, g);
    }
    let key = (
        f.name.clone().unwrap_or_default(),
        f.ty.as_ref().map(|t| t.qual_type.clone()).unwrap_or_default(),
    );
    g.funcs_by_sig.insert(key, f);
    if f.name.as_deref().is_some_and(|n| n.starts_with(AXIOM_PREFIX)) && !g.axioms.iter().any(|a| a.id == f.id) {
        g.axioms.push(f);
    }
    let in_prelude = f.pos.as_ref().is_some_and(|p| &*p.file == prelude);
    let library = f.pos.as_ref().filter(|p| in_library(&p.file));
    if let Some(p) = library
        && f.has_attr("CUDAGlobalAttr")
    {
        let name = f.name.clone().unwrap_or_default();
        if !g.library_kernels.iter().any(|(n, _)| *n == name) {
            g.library_kernels.push((name, p.file.to_string()));
        }
        return;
    }
    if f.has_attr("CUDAGlobalAttr") && !in_prelude && !g.kernels.iter().any(|(k, _)| k.id == f.id) {
        g.kernels.push((f, template));
    }
}

/// An integer constant folded from literals (enum values, array sizes, `const` globals).
pub(in crate::frontend) fn const_value(n: &Node) -> Option<BigInt> {
    match n.kind.as_str() {
        "ConstantExpr" => match &n.value {
            // A `bool` constant prints as `true`/`false`.
            Some(serde_json::Value::String(s)) if s == "true" => Some(BigInt::from(1)),
            Some(serde_json::Value::String(s)) if s == "false" => Some(BigInt::from(0)),
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
