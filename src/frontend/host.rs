//! Host code that clang rejects: errors that stop no kernel (issue 42 item 2).
//!
//! gpug verifies device code. A CUDA file's host code (`main`, timing helpers, argument
//! parsing) is parsed by clang too, even with `--cuda-device-only`, and clang rejects some of
//! what nvcc accepts there (`k<< <g, b>> >(…)` spacing, an overload of `time`, a string
//! literal's suffix) or cannot see what it needs (a host library header's macro). Such an
//! error leaves the device code's AST whole: clang recovers at the end of the statement and
//! still prints the AST (`-ast-dump=json`, with `-ferror-limit=0` so it never stops early).
//!
//! [`host_only`] accepts a failed parse when every error clang reports lies inside the body of
//! a host-only function (one with neither `__device__` nor `__global__`, innermost function
//! first, so a `__device__` lambda inside `main` counts as device code), and says which
//! functions were skipped. Anything else (an error in device code, at file scope, in a
//! `__host__ __device__` function, a fatal error such as a missing header) stays an error.
//!
//! Why this is sound: the kernels and the device functions they call are lowered from the AST
//! as clang built it, and no host function is ever lowered; a host error can only lose a host
//! function's statements. One thing it can lose that matters: a template kernel instantiated
//! only by a launch inside the broken host function is not instantiated (gpug then verifies
//! the instantiations it finds, or asks for `--kernel name<args>`).
//!
//! Owns the reading of clang's diagnostics lines (`file:line:col: error: text`) and the
//! function ranges of the AST; does not run clang ([`super::clang`]).

use super::ast::{Node, Pos};

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
        && n.inner
            .iter()
            .any(|c| c.kind == "CompoundStmt" || c.kind == "CXXTryStmt")
    {
        out.push(Function {
            name: n.name.as_deref().unwrap_or("?"),
            host_only: !n.has_attr("CUDADeviceAttr") && !n.has_attr("CUDAGlobalAttr"),
            begin,
            end,
        });
    }
    for c in &n.inner {
        functions(c, out);
    }
}

fn contains(f: &Function, e: &ClangError) -> bool {
    let at = (e.line, e.col);
    *f.begin.file == *e.file
        && *f.end.file == *e.file
        && (f.begin.line, f.begin.col) <= at
        && at <= (f.end.line, f.end.col)
}

/// When every error of `stderr` (clang's, for the AST `root` of a CUDA file) lies inside a
/// host-only function, the note to give: which functions were skipped and the first error.
/// `None` when some error is elsewhere, or clang's stderr holds no located error at all.
pub fn host_only(root: &Node, stderr: &str) -> Option<String> {
    let errs = errors(stderr)?;
    if errs.is_empty() {
        return None;
    }
    let mut fns = Vec::new();
    functions(root, &mut fns);
    let mut skipped: Vec<String> = Vec::new();
    for e in &errs {
        // The innermost function holding the error: the last one found that contains it.
        let f = fns.iter().rev().find(|f| contains(f, e))?;
        if !f.host_only {
            return None;
        }
        let what = format!("`{}` ({}:{})", f.name, f.begin.file, f.begin.line);
        if !skipped.contains(&what) {
            skipped.push(what);
        }
    }
    let first = &errs[0];
    Some(format!(
        "note: clang reported {} error{} in host code, which gpug does not verify; skipped the host function{} {} \
         (first: {}:{}:{}: {}); the kernels are verified as clang parsed them",
        errs.len(),
        if errs.len() == 1 { "" } else { "s" },
        if skipped.len() == 1 { "" } else { "s" },
        skipped.join(", "),
        first.file,
        first.line,
        first.col,
        first.text
    ))
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
