//! What a translation unit declares, collected once before lowering: records, typedefs, enum
//! constants, file-scope variables and function definitions ([`Globals`]), and which kernels
//! `--kernel` selects under which names.
//!
//! Reads declarations only; it lowers no statement or expression.

use super::R;
use crate::frontend::FrontendError;
use crate::frontend::ast::Node;
use crate::frontend::types::{CType, TypeEnv};
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
    /// The lambda expressions in function bodies (host code's included), by the id of their
    /// closure class (`lambda.rs`): a kernel's parameter of a closure type is bound to the
    /// lambda the host code passes.
    pub(in crate::frontend) lambda_exprs: HashMap<String, &'a Node>,
    /// Whether each function declaration (by id, with or without a body) is the program's:
    /// first declared in one of its files, not in a toolkit or system header
    /// ([`in_library`]) nor in gpug's prelude and headers (the prelude's folder). A
    /// redeclaration takes its first declaration's origin (`previousDecl`). A call to the program's function is lowered from its body (or
    /// uninterpreted without one), never as the built-in of the same name: a program's own
    /// `atomicMin(float *, float)` is not CUDA's (issue 53, item 1).
    pub(in crate::frontend) program_fns: HashMap<String, bool>,
    /// The ids of the virtual methods (with or without a body): a call of one through a
    /// pointer or a reference dispatches on the object's dynamic type, which gpug does not
    /// follow.
    pub(in crate::frontend) virtual_methods: std::collections::HashSet<String>,
    /// The ids of the `const` methods (with or without a body): a call of a program's other
    /// method without a body may write its object.
    pub(in crate::frontend) const_methods: std::collections::HashSet<String>,
}

/// The name prefix of the functions the prelude's `__axiom(e)` macro defines.
pub(in crate::frontend) const AXIOM_PREFIX: &str = "__gpug_axiom_";

pub(in crate::frontend) fn is_function(n: &Node) -> bool {
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
