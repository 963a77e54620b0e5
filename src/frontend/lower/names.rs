//! Names a translation unit gives to types and constants wherever it declares them: enums
//! (their constants, and the integer type that holds them), typedefs and `using` aliases, and
//! static data members of records (`S::K`), at namespace scope, inside records and inside
//! function bodies alike.
//!
//! Runs before [`super::collect::collect`], so that record fields spelled with a typedef
//! (`real *p`) parse. Uninstantiated template patterns are skipped: their names are dependent
//! (`typedef T real`) and only their instantiations are lowered.

use super::globals::{Globals, const_value};
use crate::frontend::ast::Node;
use crate::ir::Ty;
use num_bigint::BigInt;

/// Walk the whole tree `root` and record its enums, typedefs and static data members in `g`.
pub(in crate::frontend) fn collect_names<'a>(root: &'a Node, g: &mut Globals<'a>) {
    walk(root, g, "", false);
}

/// `scope`: the qualifier of names declared here (`ns::S::`); `in_record`: whether `n`'s
/// children are members of a record (so a `VarDecl` is a static data member).
fn walk<'a>(n: &'a Node, g: &mut Globals<'a>, scope: &str, in_record: bool) {
    for c in &n.inner {
        match c.kind.as_str() {
            "EnumDecl" => add_enum(c, g, scope),
            "TypedefDecl" | "TypeAliasDecl" => {
                if let (Some(name), Some(t)) = (&c.name, &c.ty) {
                    g.types.add_typedef(name, &t.qual_type);
                    if !scope.is_empty() {
                        g.types.add_typedef(&format!("{scope}{name}"), &t.qual_type);
                    }
                }
            }
            "VarDecl" if in_record => {
                g.vars.insert(c.id.clone(), c);
            }
            "NamespaceDecl" => {
                let s = format!("{scope}{}::", c.name.as_deref().unwrap_or(""));
                walk(c, g, if c.name.is_some() { &s } else { scope }, false);
            }
            "CXXRecordDecl" | "RecordDecl" | "ClassTemplateSpecializationDecl" => {
                let name = c.name.as_deref().unwrap_or("");
                let s = if name.is_empty() {
                    scope.to_string()
                } else {
                    format!("{scope}{name}::")
                };
                walk(c, g, &s, true);
                if c.kind == "ClassTemplateSpecializationDecl" {
                    walk_specialization(c, g, scope);
                }
            }
            // The pattern (first record / function) of a template is dependent; its
            // specializations are walked.
            "ClassTemplateDecl" | "FunctionTemplateDecl" => {
                for s in &c.inner {
                    if s.kind == "ClassTemplateSpecializationDecl" {
                        let name = s.name.as_deref().unwrap_or("");
                        walk(s, g, &format!("{scope}{name}::"), true);
                        walk_specialization(s, g, scope);
                    } else if s.inner.iter().any(|a| a.kind == "TemplateArgument") {
                        walk(s, g, scope, false);
                    }
                }
            }
            "LinkageSpecDecl" | "ExternCContextDecl" => walk(c, g, scope, false),
            _ => walk(c, g, scope, false),
        }
    }
}

/// The members of the class template specialization `s` under its full name too
/// (`Opt<float>::CallPut`, as clang spells the type of a field of the specialization).
fn walk_specialization<'a>(s: &'a Node, g: &mut Globals<'a>, scope: &str) {
    let name = s.name.as_deref().unwrap_or("");
    let args = super::globals::template_args(s);
    walk(s, g, &format!("{scope}{name}<{args}>::"), true);
}

/// An enum: its constants' values, and its type under its plain and qualified names.
fn add_enum(c: &Node, g: &mut Globals, scope: &str) {
    let mut next = BigInt::from(0);
    let mut values = Vec::new();
    for e in c.inner.iter().filter(|e| e.kind == "EnumConstantDecl") {
        if let Some(v) = e.inner.first().and_then(const_value) {
            next = v;
        }
        g.enum_consts.insert(e.id.clone(), next.clone());
        values.push(next.clone());
        next += 1;
    }
    let Some(name) = c.name.as_ref().filter(|n| !n.is_empty()) else {
        return;
    };
    let fixed = c
        .fixed_underlying_type
        .as_ref()
        .and_then(|t| g.types.parse(t.best()).scalar());
    let ty = fixed.unwrap_or_else(|| chosen_type(&values));
    g.types.enums.insert(name.clone(), ty);
    if !scope.is_empty() {
        g.types.enums.insert(format!("{scope}{name}"), ty);
    }
}

/// The type clang gives an enum without a fixed underlying type (C++): `unsigned int` when no
/// value is negative and all fit in 32 bits, `int` when some are negative and all fit, else
/// the 64-bit type of the same signedness.
fn chosen_type(values: &[BigInt]) -> Ty {
    let negative = values.iter().any(|v| *v < BigInt::from(0));
    let fits = |lo: i64, hi: i64| values.iter().all(|v| *v >= BigInt::from(lo) && *v <= BigInt::from(hi));
    let (bits, signed) = match negative {
        false if fits(0, u32::MAX as i64) => (32, false),
        false => (64, false),
        true if fits(i32::MIN as i64, i32::MAX as i64) => (32, true),
        true => (64, true),
    };
    Ty::Int { bits, signed }
}
