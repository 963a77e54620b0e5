//! Code that clang rejects: host code's errors, which stop no kernel (issue 42 item 2), and
//! device functions' errors, which stop only the kernels that reach them (issue 55).
//!
//! gpug verifies device code. A CUDA file's host code (`main`, timing helpers, argument
//! parsing) is parsed by clang too, even with `--cuda-device-only`, and clang rejects some of
//! what nvcc accepts there (`k<< <g, b>> >(…)` spacing, an overload of `time`, a string
//! literal's suffix) or cannot see what it needs (a host library header's macro). Such an
//! error leaves the device code's AST whole: clang recovers at the end of the statement and
//! still prints the AST (`-ast-dump=json`, with `-ferror-limit=0` so it never stops early).
//!
//! [`host_only_errors`] accepts a failed parse when every error clang reports lies inside the body of
//! a host-only function (one with neither `__device__` nor `__global__`, innermost function
//! first, so a `__device__` lambda inside `main` counts as device code), and says which
//! functions were skipped. Anything else (an error in device code, at file scope, in a
//! `__host__ __device__` function, a fatal error such as a missing header) stays an error.
//!
//! [`accept`] goes further: an error inside a device function (`__device__`, `__global__`, or
//! `__host__ __device__`) makes that function [`Broken`], and only the kernels that reach it
//! ([`reaches_broken`], by names, over-approximated) are not read; the others are. Sound for
//! the same reason: clang recovers inside a function body, so every other function's AST is
//! whole, and a kernel that may call a broken function is never lowered. clang's refusal of
//! `alignas` after `__shared__` is tolerated (the variable is kept, shared, with its uses).
//!
//! Why this is sound: the kernels and the device functions they call are lowered from the AST
//! as clang built it, and no host function is ever lowered; a host error can only lose a host
//! function's statements. One thing it can lose that matters: a template kernel instantiated
//! only by a launch inside the broken host function is not instantiated (gpug then verifies
//! the instantiations it finds, or asks for `--kernel name<args>`).
//!
//! Owns the reading of clang's diagnostics lines (`file:line:col: error: text`) and the
//! function ranges of the AST; does not run clang ([`crate::frontend::clang`]).

use crate::frontend::ast::{Node, Pos};
use std::collections::HashSet;

/// One error clang printed: where, and its text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClangError {
    /// The file as clang names it (as in the AST's locations).
    pub file: String,
    /// 1-based line.
    pub line: u32,
    /// 1-based column.
    pub col: u32,
    /// The message after `error: `.
    pub text: String,
}

/// The errors of clang's stderr: each line `file:line:col: error: text`. `None` when clang
/// reported a fatal error or an error without a location (neither can be host code's alone).
pub fn errors(stderr: &str) -> Option<Vec<ClangError>> {
    let mut out = Vec::new();
    for line in stderr.lines() {
        if line.contains(": fatal error: ") || line.starts_with("fatal error: ") || line.starts_with("error: ") {
            return None;
        }
        let Some((at, text)) = line.split_once(": error: ") else {
            continue;
        };
        // `file:line:col`, the file possibly holding colons of its own.
        let mut parts = at.rsplitn(3, ':');
        let (Some(col), Some(ln), Some(file)) = (parts.next(), parts.next(), parts.next()) else {
            return None;
        };
        let (Ok(col), Ok(ln)) = (col.parse(), ln.parse()) else {
            return None;
        };
        out.push(ClangError {
            file: file.to_string(),
            line: ln,
            col,
            text: text.to_string(),
        });
    }
    Some(out)
}

/// A function definition of the AST: its name, whether it is host-only, and its range.
struct Function<'a> {
    name: &'a str,
    host_only: bool,
    global: bool,
    begin: &'a Pos,
    end: &'a Pos,
}

const FUNCTION_KINDS: &[&str] = &[
    "FunctionDecl",
    "CXXMethodDecl",
    "CXXConstructorDecl",
    "CXXDestructorDecl",
    "CXXConversionDecl",
];

/// Every function of `n` with a body and a resolved range, outer before inner.
fn functions<'a>(n: &'a Node, out: &mut Vec<Function<'a>>) {
    if FUNCTION_KINDS.contains(&n.kind.as_str())
        && let (Some(begin), Some(end)) = (&n.begin, &n.end)
        && defines(n)
    {
        out.push(Function {
            name: n.name.as_deref().unwrap_or("?"),
            host_only: !n.has_attr("CUDADeviceAttr") && !n.has_attr("CUDAGlobalAttr"),
            global: n.has_attr("CUDAGlobalAttr"),
            begin,
            end,
        });
    }
    for c in &n.inner {
        functions(c, out);
    }
}

/// Whether the function declaration `n` has a body.
fn defines(n: &Node) -> bool {
    n.inner
        .iter()
        .any(|c| c.kind == "CompoundStmt" || c.kind == "CXXTryStmt")
}

fn contains(f: &Function, e: &ClangError) -> bool {
    let at = (e.line, e.col);
    *f.begin.file == *e.file
        && *f.end.file == *e.file
        && (f.begin.line, f.begin.col) <= at
        && at <= (f.end.line, f.end.col)
}

/// A declaration at file scope (in the translation unit, a namespace or an `extern "C"`
/// block) that is not a function definition: a type, a typedef, a variable, a prototype.
struct FileDecl<'a> {
    name: Option<&'a str>,
    begin: &'a Pos,
    end: &'a Pos,
    node: &'a Node,
}

fn file_decls<'a>(n: &'a Node, out: &mut Vec<FileDecl<'a>>) {
    for c in &n.inner {
        if matches!(c.kind.as_str(), "NamespaceDecl" | "LinkageSpecDecl") {
            file_decls(c, out);
        } else if let (Some(begin), Some(end)) = (&c.begin, &c.end) {
            out.push(FileDecl {
                name: c.name.as_deref().filter(|s| !s.is_empty()),
                begin,
                end,
                node: c,
            });
        }
    }
}

fn decl_contains(d: &FileDecl, e: &ClangError) -> bool {
    let at = (e.line, e.col);
    *d.begin.file == *e.file
        && *d.end.file == *e.file
        && (d.begin.line, d.begin.col) <= at
        && at <= (d.end.line, d.end.col)
}

/// Every identifier `n` and its children name or spell in a type (`struct R *` gives `R`).
fn identifiers<'a>(n: &'a Node, out: &mut HashSet<&'a str>) {
    let mut add = |s: &'a str| {
        for w in s.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')) {
            if !w.is_empty() {
                out.insert(w);
            }
        }
    };
    if let Some(x) = &n.name {
        add(x);
    }
    for t in [&n.ty, &n.arg_type].into_iter().flatten() {
        add(&t.qual_type);
        if let Some(d) = &t.desugared {
            add(d);
        }
    }
    for r in [&n.referenced_decl, &n.decl].into_iter().flatten() {
        add(&r.name);
        add(&r.ty.qual_type);
    }
    for c in &n.inner {
        identifiers(c, out);
    }
}

/// A device function (`__device__`, `__global__`, or both with `__host__`) holding an error
/// of clang's: its range and its first error. A kernel that is one, or that calls one
/// (directly or through other functions), is not read; the file's other kernels are
/// ([`accept`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Broken {
    /// The function's name.
    pub name: String,
    /// Whether it is a kernel (`__global__`): one whose errors clang met while instantiating
    /// it is missing from the AST's instantiations, and is reported from here.
    pub kernel: bool,
    /// Its file, as clang names it.
    pub file: String,
    /// Its first and last (line, column), 1-based.
    pub range: ((u32, u32), (u32, u32)),
    /// Its first error.
    pub error: ClangError,
}

impl Broken {
    /// Whether the function node `n` (a definition, or an instantiation of a template
    /// defined there: same range) is this one.
    pub fn is(&self, n: &Node) -> bool {
        match (&n.begin, &n.end) {
            (Some(b), Some(e)) => *b.file == *self.file && ((b.line, b.col), (e.line, e.col)) == self.range,
            _ => false,
        }
    }
}

/// What a failed parse of a CUDA file still gives: the note on the host code skipped
/// ([`host_only_errors`]), and the device functions holding errors ([`Broken`]).
#[derive(Debug, Default)]
pub struct Accepted {
    pub note: Option<String>,
    pub broken: Vec<Broken>,
}

/// The device functions of a parse that hold clang's errors, and clang's whole stderr (for
/// the error to give when no kernel is left).
#[derive(Clone, Debug, Default)]
pub struct BrokenParse {
    pub functions: Vec<Broken>,
    pub stderr: String,
}

/// When clang's errors `stderr` (for the AST `root` of a CUDA file) stop only some kernels,
/// what the parse still gives; `None` when they may touch every kernel (an error at file
/// scope that device code names, a directive's, a fatal one). An error is
/// - tolerated when it is clang's refusal of `alignas(…)` after `__shared__` (nvcc accepts
///   `__shared__ alignas(16) float a[…]`; clang drops the alignment and keeps the variable,
///   shared, with every use: an alignment changes no access gpug models);
/// - a device function's, when the innermost function holding it is one: that function is
///   [`Broken`], and the kernels that reach it are refused one by one, each with its error
///   (clang recovers inside a function body, so the other functions' ASTs are whole);
/// - else host code's, as [`host_only_errors`] judges it.
pub fn accept(root: &Node, stderr: &str) -> Option<Accepted> {
    let errs: Vec<ClangError> = errors(stderr)?.into_iter().filter(|e| !misplaced_alignas(e)).collect();
    let mut fns = Vec::new();
    functions(root, &mut fns);
    let mut broken: Vec<Broken> = Vec::new();
    let mut rest = Vec::new();
    for e in errs {
        match fns.iter().rev().find(|f| contains(f, &e)) {
            Some(f) if !f.host_only => {
                if directive_line(&e) {
                    return None;
                }
                let range = ((f.begin.line, f.begin.col), (f.end.line, f.end.col));
                if !broken.iter().any(|b| *b.file == *f.begin.file && b.range == range) {
                    broken.push(Broken {
                        name: f.name.to_string(),
                        kernel: f.global,
                        file: f.begin.file.to_string(),
                        range,
                        error: e,
                    });
                }
            }
            _ => rest.push(e),
        }
    }
    let note = match rest.is_empty() {
        true => None,
        false => Some(host_only_errors(root, rest)?),
    };
    Some(Accepted { note, broken })
}

/// The first of `broken` that the kernel `kernel` is or may call, directly or through other
/// functions of `root`. Over-approximated by names, never under: the names `kernel` spells
/// ([`identifiers`]: calls, types, members) are closed over the names spelled by every
/// function definition and every named file-scope declaration of `root` whose name they
/// hold (a constructor by its class's name, an operator by the word `operator`, a table of
/// function pointers by its name), and a broken function whose name's words are all among
/// them is reached; so is one inside the kernel's own text (a lambda's body).
pub fn reaches_broken<'b>(root: &Node, kernel: &Node, broken: &'b [Broken]) -> Option<&'b Broken> {
    if broken.is_empty() {
        return None;
    }
    // The kernel itself, or a function inside it (a lambda's body).
    let inside = |b: &Broken| match (&kernel.begin, &kernel.end) {
        (Some(kb), Some(ke)) => *kb.file == *b.file && (kb.line, kb.col) <= b.range.0 && b.range.1 <= (ke.line, ke.col),
        _ => false,
    };
    if let Some(b) = broken.iter().find(|b| b.is(kernel) || inside(b)) {
        return Some(b);
    }
    // Every function definition, and every named declaration at file scope (a `__device__`
    // table of function pointers names its functions in its initializer).
    let mut defs = Vec::new();
    definitions(root, &mut defs);
    let mut decls = Vec::new();
    file_decls(root, &mut decls);
    defs.extend(decls.iter().filter(|d| d.name.is_some()).map(|d| d.node));
    let words = |name: &str| -> Vec<String> {
        name.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .filter(|w| !w.is_empty())
            .map(str::to_string)
            .collect()
    };
    let mut names: HashSet<&str> = HashSet::new();
    identifiers(kernel, &mut names);
    let mut taken = vec![false; defs.len()];
    loop {
        let before = names.len();
        for (i, d) in defs.iter().enumerate() {
            let name = d.name.as_deref().unwrap_or("");
            let w = words(name);
            if !taken[i] && !w.is_empty() && w.iter().all(|w| names.contains(w.as_str())) {
                taken[i] = true;
                identifiers(d, &mut names);
            }
        }
        if names.len() == before {
            break;
        }
    }
    broken.iter().find(|b| {
        let w = words(&b.name);
        !w.is_empty() && w.iter().all(|w| names.contains(w.as_str()))
    })
}

/// Every function definition of `n` (with a body).
fn definitions<'a>(n: &'a Node, out: &mut Vec<&'a Node>) {
    if FUNCTION_KINDS.contains(&n.kind.as_str()) && defines(n) {
        out.push(n);
    }
    for c in &n.inner {
        definitions(c, out);
    }
}

/// Whether `e` is clang's "an attribute list cannot appear here" at an `alignas` (after
/// `__shared__`, which clang's headers spell as a GNU attribute).
fn misplaced_alignas(e: &ClangError) -> bool {
    e.text == "an attribute list cannot appear here"
        && std::fs::read_to_string(&e.file).is_ok_and(|text| {
            text.lines()
                .nth(e.line.saturating_sub(1) as usize)
                .and_then(|l| l.get(e.col.saturating_sub(1) as usize..))
                .is_some_and(|at| at.starts_with("alignas"))
        })
}

/// When every error of `errs` (clang's, for the AST `root` of a CUDA file) lies in host code
/// alone, the note to give: which host functions and declarations were skipped and the first
/// error. `None` when some error may touch device code, or clang's stderr holds no located
/// error at all.
///
/// An error is host code's when the innermost function holding it is host-only, or when it
/// lies in a declaration at file scope (a struct of a platform's handles, a prototype of a
/// missing header's type) that no device function names, directly or through other such
/// declarations: the names of every device function's body, parameters and types are
/// compared with the names of the failed declarations and of the declarations that name them,
/// transitively. Clang recovers a failed declaration (an unknown type becomes `int`), so a
/// device function that used one would be lowered from a guess; naming is over-approximated
/// (the same identifier anywhere counts), never under.
fn host_only_errors(root: &Node, errs: Vec<ClangError>) -> Option<String> {
    if errs.is_empty() {
        return None;
    }
    let mut fns = Vec::new();
    functions(root, &mut fns);
    let mut decls = Vec::new();
    file_decls(root, &mut decls);
    let mut skipped: Vec<String> = Vec::new();
    let mut failed: Vec<usize> = Vec::new();
    let mut decl_part = None;
    let mut dropped = 0;
    for e in &errs {
        // The innermost function holding the error: the last one found that contains it.
        if let Some(f) = fns.iter().rev().find(|f| contains(f, e)) {
            // A directive's error (`#error`) is the configuration's, wherever it lies.
            if !f.host_only || directive_line(e) {
                return None;
            }
            let what = format!("`{}` ({}:{})", f.name, f.begin.file, f.begin.line);
            if !skipped.contains(&what) {
                skipped.push(what);
            }
            continue;
        }
        let holding: Vec<usize> = (0..decls.len()).filter(|&i| decl_contains(&decls[i], e)).collect();
        if !holding.iter().any(|&i| decls[i].name.is_some()) {
            // A declaration clang dropped: device code cannot name it without an error of
            // its own, unless it was a device declaration (an overload a call could miss).
            if !holding.is_empty() || device_line(e) {
                return None;
            }
            dropped += 1;
            continue;
        }
        for i in holding {
            if !failed.contains(&i) {
                failed.push(i);
            }
        }
    }
    if !failed.is_empty() {
        // Close the failed declarations over naming: a typedef of a failed struct fails too.
        let names: Vec<HashSet<&str>> = decls
            .iter()
            .map(|d| {
                let mut ids = HashSet::new();
                identifiers(d.node, &mut ids);
                ids
            })
            .collect();
        let mut tainted: HashSet<&str> = failed.iter().filter_map(|&i| decls[i].name).collect();
        loop {
            let before = tainted.len();
            for (i, d) in decls.iter().enumerate() {
                // A function definition is checked by the function rule above.
                if FUNCTION_KINDS.contains(&d.node.kind.as_str()) && defines(d.node) {
                    continue;
                }
                if let Some(n) = d.name
                    && !tainted.contains(n)
                    && names[i].iter().any(|w| tainted.contains(w))
                {
                    tainted.insert(n);
                }
            }
            if tainted.len() == before {
                break;
            }
        }
        let mut device = HashSet::new();
        device_identifiers(root, &mut device);
        if device.iter().any(|w| tainted.contains(w)) {
            return None;
        }
        let mut list: Vec<&str> = failed.iter().filter_map(|&i| decls[i].name).collect();
        list.sort_unstable();
        list.dedup();
        let shown: Vec<String> = list.iter().take(6).map(|n| format!("`{n}`")).collect();
        decl_part = Some(format!(
            "the declaration{} {}{} (no device code names {})",
            if list.len() == 1 { "" } else { "s" },
            shown.join(", "),
            if list.len() > 6 {
                format!(" and {} more", list.len() - 6)
            } else {
                String::new()
            },
            if list.len() == 1 { "it" } else { "them" }
        ));
    }
    let mut parts = Vec::new();
    if !skipped.is_empty() {
        parts.push(format!(
            "the host function{} {}",
            if skipped.len() == 1 { "" } else { "s" },
            skipped.join(", ")
        ));
    }
    parts.extend(decl_part);
    if dropped > 0 {
        parts.push(format!(
            "{dropped} declaration{} at file scope that clang dropped (none on a directive's line or one that says \
             `__device__`, `__global__`, `__host__`, `__shared__`, `__constant__` or `__managed__`)",
            if dropped == 1 { "" } else { "s" }
        ));
    }
    let first = &errs[0];
    Some(format!(
        "note: clang reported {} error{} in host code, which gpug does not verify; skipped {} \
         (first: {}:{}:{}: {}); the kernels are verified as clang parsed them",
        errs.len(),
        if errs.len() == 1 { "" } else { "s" },
        parts.join(" and "),
        first.file,
        first.line,
        first.col,
        first.text
    ))
}

/// Whether the line of `e` is a preprocessor directive (or unreadable).
fn directive_line(e: &ClangError) -> bool {
    let Ok(text) = std::fs::read_to_string(&e.file) else {
        return true;
    };
    text.lines()
        .nth(e.line.saturating_sub(1) as usize)
        .is_none_or(|l| l.trim_start().starts_with('#'))
}

/// Whether the line of `e` is unreadable, a preprocessor directive (`#error TILE must be
/// defined`: a configuration error, never host code's alone) or says a CUDA declaration
/// specifier.
fn device_line(e: &ClangError) -> bool {
    let Ok(text) = std::fs::read_to_string(&e.file) else {
        return true;
    };
    let Some(line) = text.lines().nth(e.line.saturating_sub(1) as usize) else {
        return true;
    };
    line.trim_start().starts_with('#')
        || [
            "__device__",
            "__global__",
            "__host__",
            "__shared__",
            "__constant__",
            "__managed__",
        ]
        .iter()
        .any(|k| line.contains(k))
}

/// The identifiers of every device function's definition (`__device__`, `__global__`, and
/// both with `__host__`), everywhere in `n`.
fn device_identifiers<'a>(n: &'a Node, out: &mut HashSet<&'a str>) {
    if FUNCTION_KINDS.contains(&n.kind.as_str()) && (n.has_attr("CUDADeviceAttr") || n.has_attr("CUDAGlobalAttr")) {
        // A record's implicit members are `__host__ __device__` and name their record; a
        // device function that uses them names the record itself.
        if !n.is_implicit {
            identifiers(n, out);
        }
        return;
    }
    for c in &n.inner {
        device_identifiers(c, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_located_errors_and_refuses_fatal_ones() {
        let e = errors(
            "a.cu:5:7: error: expected expression\n  k<< <1, 32>> >(d);\n      ^\n\
             /x:y/b.cu:6:10: error: use of undeclared identifier 'foo'\n2 errors generated.\n",
        )
        .expect("errors");
        assert_eq!(e.len(), 2);
        assert_eq!((e[0].file.as_str(), e[0].line, e[0].col), ("a.cu", 5, 7));
        assert_eq!((e[1].file.as_str(), e[1].line, e[1].col), ("/x:y/b.cu", 6, 10));
        assert_eq!(errors("a.cu:1:10: fatal error: 'x.h' file not found\n"), None);
        assert_eq!(errors("error: unknown argument: '-foo'\n"), None);
    }
}
