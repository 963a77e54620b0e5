//! The program's other files (issue 53 item 2): the host code that calls a file's launching
//! functions from another translation unit.
//!
//! A `.cu` file without `main` is often half a program: its `extern "C"` wrappers hold the
//! launches (`convolutionRowsGPU(d_Dst, d_Src, imageW, imageH)` runs
//! `convolutionRowsKernel<<<blocks, threads>>>(…)`), and a `main.cpp` beside it calls them with
//! the sizes (`const int imageW = 3072`). Read alone, the wrappers' parameters are unknown and
//! every launch is symbolic: the witnesses have grids of 2^30 blocks and images of 2^31 pixels
//! that the program never makes.
//!
//! [`other_files`] finds the files of the program in the file's folder: the C, C++ and CUDA
//! sources (`.cu .cpp .cc .cxx .c`) that name one of the file's functions with external linkage,
//! then those that name theirs, and so on (a file that only calls `runTest` of a file that calls
//! the wrapper is the program's too). Each is parsed by clang with the file's flags, and its node
//! ids are prefixed (`f1:0x…`) so that they never meet the file's own (clang's ids are
//! addresses, and two runs of clang may reuse them). The host interpretation ([`super::host`])
//! then starts from their `main` and inlines a call of a function they only declare into the
//! file's definition of that name.
//!
//! Soundness: the program is taken to be the files of the folder. A function with external
//! linkage that another folder's file calls is called with values not read here; with `main`
//! among the files read, the program is whole, as a single file that defines `main` is, and a
//! note names the files read. A folder of more than 64 sources is not searched (a test suite, a
//! collection of samples), and if a file that names the file's functions cannot be read (clang
//! fails, or more than 6 match) none is used: an unread caller could make launches the others
//! do not. `--single-file` reads the file alone.
//!
//! Must not: lower anything (that is [`super::lower`] and [`super::host`]).

use crate::frontend::ast::Node;
use crate::frontend::{FrontendOptions, Parsed, parse};
use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// At most this many other files of a folder are parsed for one file (each costs a run of clang).
const MAX_FILES: usize = 6;
/// A folder with more sources than this is not searched (not one program's).
const MAX_CANDIDATES: usize = 64;
/// Sources larger than this are not searched (generated tables, amalgamations).
const MAX_BYTES: u64 = 2 << 20;

/// The other files of `path`'s program that this run read ([`other_files`]), parsed, with a
/// note naming them (or naming those clang could not read).
#[derive(Debug, Default)]
pub struct OtherFiles {
    /// Each file's AST, its ids prefixed.
    pub roots: Vec<Node>,
    /// The notes for the report: which files were read, which failed.
    pub notes: Vec<String>,
    /// The files read and the files they include (not gpug's prelude), as clang names them.
    pub files: Vec<String>,
}

/// The files of `path`'s folder that call, directly or through one another, the functions with
/// external linkage that `root` (the file's AST, as clang gave it) defines, when `root` does not
/// define `main` itself; parsed by clang with `opts`. Files clang cannot read are left out with a
/// note. Nothing for an OpenCL file (its host code is another program).
pub fn other_files(path: &Path, root: &Node, prelude: &Path, opts: &FrontendOptions) -> OtherFiles {
    let mut out = OtherFiles::default();
    let mut names = HashSet::new();
    let mut has_main = false;
    exported(root, path, prelude, &mut names, &mut has_main);
    // The driver API fetches a kernel by its name, as a string (`cuModuleGetFunction(&f,
    // module, "matrixMul_bs32")`): a file that quotes one is a caller too.
    let mut kernels = HashSet::new();
    kernel_names(root, path, &mut kernels);
    if has_main || (names.is_empty() && kernels.is_empty()) {
        return out;
    }
    // The folder as the file's path names it (none for a file in the working directory, so
    // that the other files are named `main.cpp`, not `./main.cpp`).
    let (dir, named) = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => (d.to_path_buf(), d.to_path_buf()),
        _ => (PathBuf::from("."), PathBuf::new()),
    };
    let own = std::fs::canonicalize(path).ok();
    let mut candidates: Vec<(PathBuf, String)> = std::fs::read_dir(&dir)
        .into_iter()
        .flatten()
        .filter_map(Result::ok)
        .map(|e| named.join(e.file_name()))
        .filter(|p| {
            p.extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| matches!(e, "cu" | "cpp" | "cc" | "cxx" | "c"))
        })
        .filter(|p| std::fs::canonicalize(p).ok() != own)
        .filter(|p| std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.len() <= MAX_BYTES))
        .collect::<Vec<_>>()
        .into_iter()
        .filter_map(|p| std::fs::read_to_string(&p).ok().map(|t| (p, t)))
        .collect();
    candidates.sort();
    // A folder of many sources is not one program's (a test suite, a collection of samples):
    // reading only some of them could miss the caller that makes a launch, so none is read.
    if candidates.len() > MAX_CANDIDATES {
        return out;
    }
    let own_name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    let mut read: Vec<String> = Vec::new();
    let mut failed: Vec<String> = Vec::new();
    let mut whole = false;
    while let Some(at) = candidates.iter().position(|(_, text)| {
        names.iter().any(|n| names_word(text, n)) || kernels.iter().any(|k| text.contains(&format!("\"{k}\"")))
    }) {
        let (file, text) = candidates.remove(at);
        let shown = file.display().to_string();
        // A file that includes this one holds its kernels itself: it is another reading of the
        // program, not a caller of this file's functions (a directory run verifies it).
        if !own_name.is_empty() && includes(&text, own_name) {
            continue;
        }
        if read.len() + failed.len() >= MAX_FILES {
            failed.push(format!("{shown} (more than {MAX_FILES} files)"));
            continue;
        }
        let sub = FrontendOptions {
            kernel: None,
            assumptions: Vec::new(),
            ..opts.clone()
        };
        match parse(&file, &sub) {
            // Host code clang rejected (or a header read as empty) may have lost a call the
            // others do not make: such a file is used only when every line of it that names one
            // of the functions or kernels sought is a line where its AST names one.
            Ok(Parsed { notes, root, .. })
                if !notes.is_empty() && !all_mentions_parsed(&root, &file, &text, &names, &kernels) =>
            {
                let first = notes[0].strip_prefix("note: ").unwrap_or(&notes[0]);
                failed.push(format!("{shown} ({})", first.lines().next().unwrap_or("").trim()));
            }
            Ok(Parsed {
                mut root, prelude: p, ..
            }) => {
                let prefix = format!("f{}:", out.roots.len() + 1);
                prefix_ids(&mut root, &prefix);
                let shown_file = file.display().to_string();
                for f in std::iter::once(shown_file.clone()).chain(super::included_files(
                    &root,
                    &shown_file,
                    &p.to_string_lossy(),
                )) {
                    if !out.files.contains(&f) {
                        out.files.push(f);
                    }
                }
                exported(&root, &file, &p, &mut names, &mut whole);
                out.roots.push(root);
                read.push(shown);
            }
            Err(e) => {
                let reason = e.to_string();
                let first = reason.lines().next().unwrap_or("").trim().to_string();
                failed.push(format!("{shown} ({first})"));
            }
        }
    }
    // A caller that could not be read may make launches the others do not: the program is
    // then not read at all (the file alone, as before), and the note says why.
    if !failed.is_empty() {
        out.notes.push(format!(
            "note: {}: the program's other files were not read, since {} could not be: {} (the file is read alone)",
            path.display(),
            if failed.len() == 1 { "one" } else { "some" },
            failed.join("; ")
        ));
        out.roots.clear();
        out.files.clear();
        return out;
    }
    if !read.is_empty() {
        let one = read.len() == 1;
        out.notes.push(format!(
            "note: {}: launches read from the program's other file{} {}, which {} `main`{} (--single-file reads this file alone)",
            path.display(),
            if one { "" } else { "s" },
            read.join(", "),
            match (whole, one) {
                (true, true) => "defines",
                (true, false) => "define",
                (false, true) => "does not define",
                (false, false) => "do not define",
            },
            if whole { ": a whole program" } else { "" },
        ));
    }
    out
}

/// Into `names`, the names of the host functions with a body and external linkage that `root`
/// defines in `file` itself (not in a header, nor in gpug's `prelude`); `main` sets `has_main`.
fn exported(root: &Node, file: &Path, prelude: &Path, names: &mut HashSet<String>, has_main: &mut bool) {
    let file = file.display().to_string();
    let canonical = std::fs::canonicalize(&file).ok();
    let prelude = prelude.display().to_string();
    let here = |n: &Node| {
        n.pos.as_ref().or(n.begin.as_ref()).is_some_and(|p| {
            *p.file == *file
                || (*p.file != *prelude && canonical.is_some() && std::fs::canonicalize(&*p.file).ok() == canonical)
        })
    };
    fn walk(n: &Node, here: &dyn Fn(&Node) -> bool, names: &mut HashSet<String>, has_main: &mut bool) {
        for c in &n.inner {
            match c.kind.as_str() {
                "FunctionDecl" => {
                    let device =
                        c.has_attr("CUDAGlobalAttr") || (c.has_attr("CUDADeviceAttr") && !c.has_attr("CUDAHostAttr"));
                    let body = c.inner.iter().any(|b| b.kind == "CompoundStmt");
                    if !device
                        && body
                        && !c.is_implicit
                        && c.storage_class.as_deref() != Some("static")
                        && here(c)
                        && let Some(name) = &c.name
                    {
                        if name == "main" {
                            *has_main = true;
                        } else {
                            names.insert(name.clone());
                        }
                    }
                }
                "NamespaceDecl" | "LinkageSpecDecl" => walk(c, here, names, has_main),
                _ => {}
            }
        }
    }
    walk(root, &here, names, has_main);
}

/// Into `out`, the names of the kernels `root` defines in `file` itself that the driver API can
/// fetch by name: not templates (whose names are mangled).
fn kernel_names(root: &Node, file: &Path, out: &mut HashSet<String>) {
    let file = file.display().to_string();
    fn walk(n: &Node, file: &str, out: &mut HashSet<String>) {
        for c in &n.inner {
            match c.kind.as_str() {
                "FunctionDecl"
                    if c.has_attr("CUDAGlobalAttr")
                        && c.pos.as_ref().is_some_and(|p| *p.file == *file)
                        && c.inner.iter().any(|b| b.kind == "CompoundStmt") =>
                {
                    out.extend(c.name.clone());
                }
                "NamespaceDecl" | "LinkageSpecDecl" => walk(c, file, out),
                _ => {}
            }
        }
    }
    walk(root, &file, out);
}

/// Whether every line of `text` (the file `file`, outside `//` comments) that names one of
/// `names` as an identifier or quotes one of `kernels` is a line where `root` (its AST) has a
/// reference to, a declaration of, or a string literal with that name: nothing that names them
/// was lost to clang's errors.
fn all_mentions_parsed(
    root: &Node,
    file: &Path,
    text: &str,
    names: &HashSet<String>,
    kernels: &HashSet<String>,
) -> bool {
    fn lines(n: &Node, file: &str, names: &HashSet<String>, kernels: &HashSet<String>, out: &mut HashSet<u32>) {
        let named = match n.kind.as_str() {
            "DeclRefExpr" => n.referenced_decl.as_ref().is_some_and(|d| names.contains(&d.name)),
            "FunctionDecl" => n.name.as_ref().is_some_and(|d| names.contains(d)),
            "StringLiteral" => n
                .value
                .as_ref()
                .and_then(|v| v.as_str())
                .is_some_and(|v| kernels.iter().any(|k| v == format!("\"{k}\""))),
            _ => false,
        };
        // What clang could not type it keeps as a `RecoveryExpr`: not a call gpug reads.
        if n.kind == "RecoveryExpr" {
            return;
        }
        if named {
            for p in [n.begin.as_ref(), n.pos.as_ref()].into_iter().flatten() {
                if *p.file == *file {
                    out.insert(p.line);
                }
            }
        }
        for c in &n.inner {
            lines(c, file, names, kernels, out);
        }
    }
    let mut seen = HashSet::new();
    lines(root, &file.display().to_string(), names, kernels, &mut seen);
    text.lines().enumerate().all(|(i, l)| {
        let code = l.split("//").next().unwrap_or("");
        let mentions =
            names.iter().any(|n| names_word(code, n)) || kernels.iter().any(|k| code.contains(&format!("\"{k}\"")));
        !mentions || seen.contains(&(i as u32 + 1))
    })
}

/// Whether `text` has `name` as a whole identifier.
fn names_word(text: &str, name: &str) -> bool {
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    text.match_indices(name).any(|(at, _)| {
        !text[..at].chars().next_back().is_some_and(ident) && !text[at + name.len()..].chars().next().is_some_and(ident)
    })
}

/// Whether `text` has an `#include` line naming a file called `name` (`#include "kernel.cu"`).
fn includes(text: &str, name: &str) -> bool {
    text.lines().any(|l| {
        let l = l.trim_start();
        l.strip_prefix('#').is_some_and(|rest| {
            let rest = rest.trim_start();
            rest.starts_with("include")
                && rest
                    .split(['"', '<', '>'])
                    .nth(1)
                    .is_some_and(|inc| Path::new(inc).file_name().and_then(|f| f.to_str()) == Some(name))
        })
    })
}

/// Whether the node id `id` is one of another file's ([`prefix_ids`]: `f1:0x…`).
pub(crate) fn is_other(id: &str) -> bool {
    id.strip_prefix('f')
        .and_then(|r| r.split_once(':'))
        .is_some_and(|(n, _)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// Prefixes every node id of `n` and every reference to one with `prefix`, so that the ids of
/// two ASTs (two runs of clang) are disjoint.
pub(crate) fn prefix_ids(n: &mut Node, prefix: &str) {
    let p = |s: &mut String| {
        if !s.is_empty() {
            s.insert_str(0, prefix);
        }
    };
    let refs = [
        n.referenced_decl.as_mut(),
        n.decl.as_mut(),
        n.aliased_namespace.as_mut(),
        n.any_init.as_mut(),
    ];
    let ids = [
        Some(&mut n.id),
        n.previous_decl.as_mut(),
        n.referenced_member_decl.as_mut(),
        n.target_label_decl_id.as_mut(),
        n.decl_id.as_mut(),
    ];
    for s in ids
        .into_iter()
        .chain(refs.into_iter().map(|d| d.map(|d| &mut d.id)))
        .flatten()
    {
        p(s);
    }
    for c in &mut n.inner {
        prefix_ids(c, prefix);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_is_found_as_a_whole_identifier_only() {
        assert!(names_word("  run(d, 4);", "run"));
        assert!(!names_word("  rerun(d, 4);", "run"));
        assert!(!names_word("  run_all(d, 4);", "run"));
        assert!(names_word("x=run", "run"));
    }

    #[test]
    fn an_include_line_names_the_file() {
        assert!(includes("#include \"kernels/k.cu\"\n", "k.cu"));
        assert!(includes("  #  include <k.cu>\n", "k.cu"));
        assert!(!includes("// #include \"k.cu\"\nint x;", "kk.cu"));
    }
}
