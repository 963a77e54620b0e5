//! The walk that fills [`Globals`] from a translation unit, once before lowering: records
//! (with their layouts, alignments and constructors; WMMA fragments by
//! [`crate::frontend::cuda::wmma::add_fragment`]), typedefs, methods, function definitions
//! (with the lambdas their bodies define, [`crate::frontend::lower::calls::lambda`]), the
//! prelude's axioms and the kernels.
//!
//! Reads declarations only; it lowers no statement or expression.

use crate::frontend::ast::Node;
use crate::frontend::lower::globals::{
    AXIOM_PREFIX, Globals, body_of, const_value, in_library, is_function, template_args,
};
use crate::frontend::types::{self, CType};

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
        // clang's implicit declarations (`__builtin_assume_aligned`) have no place of their own.
        None if f.is_implicit => false,
        None => f.pos.as_ref().is_some_and(|p| {
            // gpug's own headers (the prelude, the annotations, the stub headers) are written
            // into the prelude's folder.
            let gpug_dir = std::path::Path::new(prelude).parent();
            let file = std::path::Path::new(&*p.file);
            !p.file.is_empty() && !in_library(&p.file) && gpug_dir.is_none_or(|d| file.parent() != Some(d))
        }),
    };
    g.program_fns.insert(f.id.clone(), program);
    if f.is_virtual {
        g.virtual_methods.insert(f.id.clone());
    }
    if f.ty.as_ref().is_some_and(|t| t.qual_type.contains(") const")) {
        g.const_methods.insert(f.id.clone());
    }
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
