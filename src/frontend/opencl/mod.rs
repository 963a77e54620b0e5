//! OpenCL C as clang sees it (issue 13): the language flags (`-x cl`, `-cl-std=CL1.2` unless
//! `--cl-std` says otherwise, clang's own `opencl-c-base.h` and built-in declarations through
//! `-finclude-default-header`), the prelude force-included before every file (GPUVerify's
//! annotation functions in their OpenCL spelling, `opencl/prelude.h`), and [`normalize`], which
//! puts clang's OpenCL AST in the shapes the one lowering reads.
//!
//! What bends, and where: the lowering ([`crate::frontend::lower`]) was written for CUDA's AST, whose
//! memory spaces are attributes (`CUDASharedAttr`, …) and whose types have no address-space
//! qualifiers. [`normalize`] gives an OpenCL kernel the attribute of its CUDA counterpart
//! (`__kernel` → `CUDAGlobalAttr`, a `__local` variable → `CUDASharedAttr`, a program-scope
//! `__constant` variable → `CUDAConstantAttr`, a `__local T *` kernel parameter → a
//! `CUDASharedAttr` on the parameter: a work-group array of symbolic size) and strips the
//! address-space qualifiers from every type spelling. The built-in functions differ by name
//! ([`crate::frontend::opencl::builtins`]); nothing after the front end knows which language a kernel came
//! from, but for the words of the report ([`crate::ir::Language`]).
//!
//! Owns what is OpenCL-specific before lowering (this file), and the room of OpenCL's features
//! that the lowering hands calls to, each an extension of the lowering
//! ([`crate::frontend::lower`]'s `Lower`):
//!
//! | file | owns |
//! | --- | --- |
//! | `builtins.rs` | OpenCL's table of built-in functions (the [`crate::frontend::lower::builtin::table`] types) |
//! | `ext_vector.rs` | OpenCL's vector types: swizzles, vector literals, `vload`/`vstore`, `as_type` |
//! | `group_copy.rs` | `async_work_group_copy` and `wait_group_events` |
//!
//! Does not run the clang process itself ([`crate::frontend::clang`]).

pub(in crate::frontend) mod builtins;
pub(in crate::frontend) mod ext_vector;
pub(in crate::frontend) mod group_copy;

use crate::frontend::ast::{Node, TypeInfo};
use crate::frontend::clang::{dump_ast, find_clang, write_if_changed};
use crate::frontend::{FrontendError, FrontendOptions};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The prelude force-included before every OpenCL file: GPUVerify's annotations.
pub const OPENCL_PRELUDE: &str = include_str!("prelude.h");

/// The OpenCL C version of `-cl-std` when `--cl-std` is not given (GPUVerify's suite and most
/// kernels in the wild are OpenCL 1.x).
pub const DEFAULT_CL_STD: &str = "CL1.2";

/// The OpenCL C versions `--cl-std` takes (clang's `-cl-std` spellings).
pub const CL_STDS: &[&str] = &["CL1.0", "CL1.1", "CL1.2", "CL2.0", "CL3.0"];

/// The prelude written once into gpug's cache folder in the temporary directory.
///
/// # Errors
/// [`FrontendError::Io`] when the folder or the file cannot be written.
fn prelude_file() -> Result<PathBuf, FrontendError> {
    let shared = crate::frontend::cuda::BARRIER_INVARIANTS;
    let dir = crate::frontend::cuda::cache_dir(("opencl", OPENCL_PRELUDE, shared))?;
    let prelude = dir.join("gpug_opencl_prelude.h");
    write_if_changed(&dir.join("gpug_barrier_invariants.h"), shared)?;
    write_if_changed(&prelude, OPENCL_PRELUDE)?;
    Ok(prelude)
}

/// Runs clang's OpenCL mode on `path` and returns its AST, [`normalize`]d, with the path of the
/// prelude (whose declarations are not the file's).
///
/// # Errors
/// [`FrontendError::ClangFailed`] with clang's diagnostics; the errors of finding and running
/// clang ([`find_clang`]).
pub fn parse(path: &Path, opts: &FrontendOptions) -> Result<crate::frontend::Parsed, FrontendError> {
    let clang = find_clang(opts.clang.as_deref())?;
    let prelude = prelude_file()?;
    let std = opts.cl_std.as_deref().unwrap_or(DEFAULT_CL_STD);
    let make = || {
        let mut cmd = Command::new(&clang);
        cmd.args(["-x", "cl"])
            .arg(format!("-cl-std={std}"))
            .args(["-Xclang", "-finclude-default-header", "-fsyntax-only"])
            // Kernels of the wild use doubles and byte-addressed stores without the pragmas.
            .args(["-Xclang", "-cl-ext=+cl_khr_fp64,+cl_khr_byte_addressable_store,+cl_khr_global_int32_base_atomics,+cl_khr_local_int32_base_atomics,+cl_khr_int64_base_atomics"])
            .arg("-Wno-unused-value")
            .arg("-include")
            .arg(&prelude)
            .args(&opts.clang_args);
        cmd
    };
    let (mut root, notes, broken) = dump_ast(make, &clang, path, opts, false)?;
    normalize(&mut root);
    let mut files = std::collections::HashMap::new();
    name_vector_accessors(&mut root, &mut files);
    Ok(crate::frontend::Parsed {
        root,
        prelude,
        notes,
        broken,
    })
}

/// OpenCL's address-space qualifiers as clang spells them in types.
const ADDRESS_SPACES: &[&str] = &["__global", "__local", "__constant", "__private", "__generic"];

/// The address space of an object of type `t` itself (not of what it points to): the
/// qualifier after the last `*` of a pointer type, else any qualifier of the spelling
/// (`__local int [64]`, `__constant float`).
fn own_space(t: &str) -> Option<&'static str> {
    let tail = t.rfind('*').map_or(t, |i| &t[i..]);
    ADDRESS_SPACES.iter().copied().find(|s| has_word(tail, s))
}

/// The address space a pointer type `t` points into (the qualifier before its first `*`).
fn pointee_space(t: &str) -> Option<&'static str> {
    let head = &t[..t.find('*')?];
    ADDRESS_SPACES.iter().copied().find(|s| has_word(head, s))
}

/// Whether `word` occurs in `s` as a whole identifier.
fn has_word(s: &str, word: &str) -> bool {
    find_word(s, word, 0).is_some()
}

/// The byte index of the first whole-identifier occurrence of `word` in `s` at or after `from`.
fn find_word(s: &str, word: &str, from: usize) -> Option<usize> {
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut at = from;
    while let Some(i) = s[at..].find(word).map(|i| i + at) {
        let before = s[..i].chars().next_back().is_some_and(ident);
        let after = s[i + word.len()..].chars().next().is_some_and(ident);
        if !before && !after {
            return Some(i);
        }
        at = i + word.len();
    }
    None
}

/// `t` without its address-space qualifiers (`__global int *__private` → `int *`).
pub(in crate::frontend) fn strip_spaces(t: &str) -> String {
    let mut s = t.to_string();
    for space in ADDRESS_SPACES {
        while let Some(i) = find_word(&s, space, 0) {
            let mut end = i + space.len();
            while s[end..].starts_with(' ') {
                end += 1;
            }
            s.replace_range(i..end, "");
        }
    }
    // An event (`async_work_group_copy`'s) is an integer handle (`opencl/group_copy.rs`).
    while let Some(i) = find_word(&s, "event_t", 0) {
        s.replace_range(i..i + "event_t".len(), "unsigned int");
    }
    s.trim_end().replace("* ", "*")
}

/// An attribute node gpug adds (`implicit`, so a user-written one is told apart).
fn attr(kind: &str) -> Node {
    Node {
        kind: kind.to_string(),
        implicit: true,
        ..Node::default()
    }
}

/// Puts clang's OpenCL AST in the shapes the lowering reads (see the module docs): CUDA's
/// attributes on kernels, `__local` and `__constant` variables and `__local`/`__constant`
/// pointer parameters of kernels; no address-space qualifier left in any type spelling.
pub fn normalize(root: &mut Node) {
    mark(root, false);
    strip(root);
}

/// Gives every `ExtVectorElementExpr` (`v.x`, `v.s01`, `v.hi`) its accessor as its `name`,
/// read from the source at the end of its range (clang's JSON AST leaves it out); left `None`
/// where the text there is not an identifier (the lowering then refuses the access by name).
/// `files` caches the text of each file read.
fn name_vector_accessors(n: &mut Node, files: &mut std::collections::HashMap<String, Option<Vec<String>>>) {
    if n.kind == "ExtVectorElementExpr"
        && let Some(end) = &n.end
    {
        let lines = files.entry(end.file.to_string()).or_insert_with(|| {
            std::fs::read(&*end.file)
                .ok()
                .map(|b| String::from_utf8_lossy(&b).lines().map(str::to_string).collect())
        });
        let token = lines.as_ref().and_then(|ls| {
            let line = ls.get(end.line.checked_sub(1)? as usize)?;
            let start = end.col.checked_sub(1)? as usize;
            line.get(start..start + end.tok_len as usize).map(str::to_string)
        });
        n.name = token.filter(|t| t.chars().all(|c| c.is_ascii_alphanumeric()) && !t.is_empty());
    }
    for c in n.inner.iter_mut() {
        name_vector_accessors(c, files);
    }
}

/// Adds the attributes of [`normalize`]; `kernel`: `n`'s children are a kernel's parameters.
fn mark(n: &mut Node, kernel: bool) {
    match n.kind.as_str() {
        "FunctionDecl" if n.has_attr("OpenCLKernelAttr") => {
            n.inner.push(attr("CUDAGlobalAttr"));
            for c in n.inner.iter_mut() {
                mark(c, true);
            }
            return;
        }
        "ParmVarDecl" if kernel => match pointee_space(n.type_str()) {
            Some("__local") => n.inner.push(attr("CUDASharedAttr")),
            Some("__constant") => n.inner.push(attr("CUDAConstantAttr")),
            _ => {}
        },
        // A device function's pointer parameter, for when the function is checked on its own
        // (`lower/calls/modular.rs`); inlined calls bind it to the argument and read no attribute.
        "ParmVarDecl" if n.type_str().contains('*') => match pointee_space(n.type_str()) {
            Some("__local") => n.inner.push(attr("CUDASharedAttr")),
            Some("__constant") => n.inner.push(attr("CUDAConstantAttr")),
            Some("__private") | None => n.inner.push(attr(crate::frontend::lower::decl::PRIVATE_ATTR)),
            _ => {}
        },
        "VarDecl" => match own_space(n.type_str()) {
            Some("__local") => n.inner.push(attr("CUDASharedAttr")),
            Some("__constant") => n.inner.push(attr("CUDAConstantAttr")),
            // OpenCL 2.0 program-scope variables.
            Some("__global") => n.inner.push(attr("CUDADeviceAttr")),
            _ => {}
        },
        _ => {}
    }
    for c in n.inner.iter_mut() {
        mark(c, false);
    }
}

/// Strips the address-space qualifiers from every type spelling below `n`.
fn strip(n: &mut Node) {
    let fix = |t: &mut TypeInfo| {
        t.qual_type = strip_spaces(&t.qual_type);
        if let Some(d) = &mut t.desugared {
            *d = strip_spaces(d);
        }
    };
    for t in [
        &mut n.ty,
        &mut n.arg_type,
        &mut n.compute_lhs_type,
        &mut n.compute_result_type,
    ]
    .into_iter()
    .flatten()
    {
        fix(t);
    }
    if let Some(r) = &mut n.referenced_decl {
        fix(&mut r.ty);
    }
    for c in n.inner.iter_mut() {
        strip(c);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn address_spaces_are_stripped_from_type_spellings() {
        assert_eq!(strip_spaces("__global int *__private"), "int *");
        assert_eq!(strip_spaces("const __global float *"), "const float *");
        assert_eq!(strip_spaces("__local int [64]"), "int [64]");
        assert_eq!(
            strip_spaces("int (volatile __global int *, int)"),
            "int (volatile int *, int)"
        );
        assert_eq!(strip_spaces("__global_thing"), "__global_thing");
    }

    #[test]
    fn the_space_of_an_object_is_told_from_the_space_it_points_to() {
        assert_eq!(own_space("__local int [64]"), Some("__local"));
        assert_eq!(own_space("__local int *__private"), Some("__private"));
        assert_eq!(pointee_space("__local int *__private"), Some("__local"));
        assert_eq!(pointee_space("const __constant float *__private"), Some("__constant"));
        assert_eq!(pointee_space("int"), None);
    }
}
