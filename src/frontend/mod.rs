//! Front end: clang's JSON AST lowered to [`crate::ir`] (ARCHITECTURE.md "Front end").
//!
//! [`load`] runs clang on a `.cu` file over NVIDIA's real CUDA headers, precompiled once into
//! a cached PCH (or, when they are not installed, over gpug's stub prelude and headers), reads
//! the JSON AST ([`ast`]) and lowers every `__global__` kernel ([`lower`]).
//!
//! Module map (each owns one concern; none knows about SMT):
//!
//! | module | owns |
//! | --- | --- |
//! | `mod.rs` | the public entry [`load`] (with `--assume`), [`FrontendOptions`], [`FrontendError`] |
//! | `clang` | finding and running clang, reading its JSON output |
//! | [`ast`] | the small serde view of clang's JSON AST |
//! | [`types`] | C types from clang's spellings, record layouts |
//! | [`libraries`] | host libraries' headers: which are missing, which package provides them |
//! | [`lower`] | the one lowering of the core language to [`crate::ir`]: declarations, statements, expressions, places, calls (`lower/calls/`), built-in functions (`lower/builtin/`, with the tables' types), GPUVerify's annotations (`lower/annotations/`) |
//! | `cuda/` | CUDA's clang flags, NVIDIA's headers (found, precompiled), the stub prelude and headers, built-in variables (`mod.rs`); CUDA's features as lowering extensions (WMMA, cuRAND, textures, cooperative groups, inline assembly, vector types, 16-bit floats) and CUDA's built-in table |
//! | `opencl/` | OpenCL's clang flags, prelude and AST normalization (`mod.rs`); OpenCL's vectors and work-group copies as lowering extensions, and OpenCL's built-in table |
//! | [`host`] | the host code: launches read by a small interpreter (`mod.rs`, `walk.rs`, `eval.rs`, `record.rs`, `terms.rs`; what of the program runs: `reach.rs`), host-only code clang rejects (`rejected.rs`) |
//! | [`program`] | the program's other files in the folder (callers of the file's functions), parsed for the host interpretation |

pub mod ast;
mod clang;
mod cuda;
pub mod host;
pub mod libraries;
pub mod lower;
mod opencl;
pub mod program;
pub mod types;

pub use clang::find_clang;
pub use cuda::{
    ANNOTATIONS, CUDA_PATH_ENV, CudaVersion, DEFAULT_CUDA_PATHS, Headers, NVIDIA_PRELUDE, PRELUDE, STUB_HEADERS,
    nvidia_pch, resolve_headers, support_files,
};
pub use opencl::{CL_STDS, DEFAULT_CL_STD, OPENCL_PRELUDE};

use crate::ir::{Language, Program, Span};
use std::path::{Path, PathBuf};

/// Options for [`load`].
#[derive(Clone, Debug, Default)]
pub struct FrontendOptions {
    /// The clang binary; found on `PATH` by [`find_clang`] when `None`.
    pub clang: Option<PathBuf>,
    /// Preprocessor definitions, `N` or `N=4`.
    pub defines: Vec<String>,
    /// Extra include directories.
    pub include_dirs: Vec<PathBuf>,
    /// Preprocessor flags of the file's entry in a compilation database (`-p`), in the
    /// database's order; clang gets them before [`FrontendOptions::defines`] and
    /// [`FrontendOptions::include_dirs`], so a `-D` of those wins.
    pub preprocessor: Vec<PreprocessorFlag>,
    /// The C++ standard of a CUDA file, as clang's `-std` (`c++20`; `None`:
    /// [`DEFAULT_CXX_STD`]). NVIDIA's precompiled headers are built once per standard.
    pub cxx_std: Option<String>,
    /// `--clang-arg`: flags passed to clang as they are, after gpug's own and before the file
    /// (NVIDIA's precompiled headers are built with them too).
    pub clang_args: Vec<String>,
    /// Lower only this kernel (plain name or full name such as `k<int, 4>`).
    pub kernel: Option<String>,
    /// `--assume` (PUG's `+C`): C expressions over the kernel's parameters and the launch
    /// geometry, assumed at the start of every selected kernel as `__requires(e)` would be.
    pub assumptions: Vec<String>,
    /// `--kernel-args`: per kernel name, the values of its scalar parameters in order (`None`:
    /// unconstrained), assumed on entry.
    pub kernel_args: Vec<(String, Vec<Option<num_bigint::BigInt>>)>,
    /// Where CUDA's headers come from: NVIDIA's (found, or `--cuda-path`) or gpug's stubs.
    pub headers: Headers,
    /// `--cuda-version`: the CUDA toolkit a CUDA file is read with. `None`: CUDA 12.8 with
    /// clang 19 when both are installed and the file uses no texture references, else 11.8
    /// (`cuda/toolkit.rs`).
    pub cuda_version: Option<CudaVersion>,
    /// The GPU architecture clang compiles for (`sm_80`; `None`: [`DEFAULT_GPU_ARCH`]), which
    /// decides the intrinsics the headers declare (`__reduce_add_sync` needs `sm_80`).
    pub gpu_arch: Option<String>,
    /// The source language: `None` picks it by the file's extension ([`language_of`]: `.cl` is
    /// OpenCL C, anything else CUDA).
    pub language: Option<Language>,
    /// OpenCL C's version, as clang's `-cl-std` (`CL2.0`; `None`: [`DEFAULT_CL_STD`]).
    pub cl_std: Option<String>,
    /// OpenCL's global offset per dimension (`--global_offset`): the value of
    /// `get_global_offset(d)`, added to every `get_global_id(d)`; 0 where not given, as in
    /// GPUVerify.
    pub global_offset: [u64; 3],
    /// The number of dimensions of the launch (`get_work_dim()`), when the command line gives
    /// it (the values of `--local_size`); `None`: unknown (a uniform value).
    pub work_dim: Option<u32>,
    /// `--modular` (GPUVerify's `--no-inline`): also check, each on its own and for every
    /// caller, the file's device functions that have a contract or that no kernel calls
    /// (`lower/modular.rs`). Only when every kernel is selected.
    pub modular: bool,
    /// `--single-file`: read only the file's host code, not the program's other files in its
    /// folder ([`program`]).
    pub single_file: bool,
}

/// The language of the file `path` under `opts`: [`FrontendOptions::language`] when given, else
/// OpenCL C for a `.cl` file and CUDA for any other.
pub fn language_of(path: &Path, opts: &FrontendOptions) -> Language {
    opts.language
        .unwrap_or_else(|| match path.extension().and_then(|e| e.to_str()) {
            Some("cl") => Language::OpenCl,
            _ => Language::Cuda,
        })
}

/// Runs clang on `path` in the mode of its language ([`language_of`]) and returns the AST with
/// the path of the prelude gpug force-included (whose declarations are not the file's).
///
/// # Errors
/// Clang's diagnostics ([`FrontendError::ClangFailed`]), a missing clang or CUDA headers.
pub fn parse(path: &Path, opts: &FrontendOptions) -> Result<Parsed, FrontendError> {
    match language_of(path, opts) {
        Language::Cuda => cuda::parse(path, opts),
        Language::OpenCl => opencl::parse(path, opts),
    }
}

/// `e`, and when it is [`FrontendError::NoKernel`] while `notes` say headers clang could not
/// find were read as empty ([`clang::dump_ast`]), that the kernels may be in them.
fn empty_headers_hint(e: FrontendError, notes: &[String]) -> FrontendError {
    match e {
        FrontendError::NoKernel { file, hint } if hint.is_empty() => {
            let hint = notes
                .iter()
                .find_map(|n| n.strip_prefix("note: header"))
                .and_then(|n| n.split_once(" not found"))
                .map(|(names, _)| {
                    format!(
                        "; clang could not find the header{names}, read as empty: the kernels may be there \
                         (give the folder with -I DIR)"
                    )
                })
                .unwrap_or_default();
            FrontendError::NoKernel { file, hint }
        }
        e => e,
    }
}

/// A file as clang parsed it ([`parse`]).
#[derive(Debug)]
pub struct Parsed {
    /// The translation unit's AST, locations resolved.
    pub root: ast::Node,
    /// The prelude gpug force-included (whose declarations are not the file's).
    pub prelude: PathBuf,
    /// Notes on the file as a whole: host code that clang rejected and gpug skipped
    /// ([`host`]).
    pub notes: Vec<String>,
    /// The device functions holding clang's errors: the kernels that reach one are not read,
    /// the others are ([`host::rejected::accept`]).
    pub broken: host::rejected::BrokenParse,
}

/// A preprocessor flag for clang, as a compilation database gives it (`-p`); paths are
/// absolute (resolved against the entry's directory).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum PreprocessorFlag {
    /// `-DNAME` or `-DNAME=VALUE`: the text after `-D`.
    Define(String),
    /// `-UNAME`.
    Undefine(String),
    /// `-I DIR`: searched for `#include "…"` and `#include <…>`.
    Include(PathBuf),
    /// `-isystem DIR`: a system include directory, searched after the `-I` ones.
    SystemInclude(PathBuf),
    /// `-iquote DIR`: searched for `#include "…"` only.
    QuoteInclude(PathBuf),
    /// `-idirafter DIR`: searched after the system directories.
    AfterInclude(PathBuf),
    /// `-include FILE`: read before the file's first line.
    ForceInclude(PathBuf),
    /// `-ivfsoverlay FILE`: clang's virtual file system overlay (a YAML file mapping paths to
    /// other files' contents), by which `--assume` edits a header a kernel is defined in.
    VfsOverlay(PathBuf),
}

impl PreprocessorFlag {
    /// The flag as clang's arguments (`["-DN=4"]`, `["-isystem", "/usr/include/x"]`).
    pub fn clang_args(&self) -> Vec<std::ffi::OsString> {
        let pair = |flag: &str, p: &Path| vec![flag.into(), p.as_os_str().to_owned()];
        match self {
            PreprocessorFlag::Define(d) => vec![format!("-D{d}").into()],
            PreprocessorFlag::Undefine(u) => vec![format!("-U{u}").into()],
            PreprocessorFlag::Include(p) => pair("-I", p),
            PreprocessorFlag::SystemInclude(p) => pair("-isystem", p),
            PreprocessorFlag::QuoteInclude(p) => pair("-iquote", p),
            PreprocessorFlag::AfterInclude(p) => pair("-idirafter", p),
            PreprocessorFlag::ForceInclude(p) => pair("-include", p),
            PreprocessorFlag::VfsOverlay(p) => pair("-ivfsoverlay", p),
        }
    }
}

impl std::fmt::Display for PreprocessorFlag {
    /// The flag as it would be typed (`-DTILE=16`, `-I /src/include`).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let words: Vec<String> = self
            .clang_args()
            .iter()
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        write!(f, "{}", words.join(" "))
    }
}

/// The GPU architecture of [`FrontendOptions::gpu_arch`] when none is given: Ampere, the
/// oldest of the GPUs that ML code targets today, for which CUDA 11's headers declare the
/// bfloat16 API (`cuda_bf16.h`, llm.c) and the warp reductions (`__reduce_add_sync`). Like
/// Volta (the first), it schedules threads independently: gpug's default warp semantics.
pub const DEFAULT_GPU_ARCH: &str = "sm_80";

/// The C++ standard of CUDA files when neither `--std` nor a compilation database gives one:
/// nvcc's default since CUDA 11 (llm.c, CUTLASS and CCCL need it: `std::is_same_v`,
/// `if constexpr`).
pub const DEFAULT_CXX_STD: &str = "c++17";

/// Why the front end failed.
#[derive(Debug, thiserror::Error)]
pub enum FrontendError {
    /// gpug's memory passed `--max-memory` while lowering ([`crate::memory`]).
    #[error(transparent)]
    Memory(#[from] crate::memory::Exceeded),
    /// `--cuda-path` or `$GPUG_CUDA_PATH` names a folder without NVIDIA's CUDA headers.
    #[error("no CUDA headers: {0}")]
    CudaPath(String),
    /// No clang binary could be found.
    #[error("clang not found: {0}")]
    ClangNotFound(String),
    /// Clang could not be started.
    #[error("cannot run clang `{path}`: {source}")]
    ClangSpawn {
        /// The binary.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// Clang reported errors; holds its stderr verbatim.
    #[error("{stderr}")]
    ClangFailed {
        /// Clang's diagnostics as clang printed them.
        stderr: String,
    },
    /// A construct the front end does not model.
    #[error("{span}: unsupported: {what}")]
    Unsupported {
        /// Where.
        span: Span,
        /// What, in one line.
        what: String,
    },
    /// The kernel breaks one of CUDA's limits that nvcc enforces (static `__shared__` memory).
    #[error("{span}: {what}")]
    OverLimit {
        /// Where.
        span: Span,
        /// Which limit, in one line.
        what: String,
    },
    /// The file defines no `__global__` function.
    #[error("{file}: no kernel (__global__ function) found{hint}")]
    NoKernel {
        /// The file.
        file: String,
        /// Empty, or why the kernels may be missing (`; the headers … were read as empty`).
        hint: String,
    },
    /// `--kernel NAME` names no kernel of the file.
    #[error("{file}: kernel `{name}` not found (kernels: {available})")]
    KernelNotFound {
        /// The file.
        file: String,
        /// The requested name.
        name: String,
        /// The kernels present, comma separated.
        available: String,
    },
    /// Reading or writing a file failed.
    #[error("{context}: {source}")]
    Io {
        /// What was being done.
        context: String,
        /// The error.
        source: std::io::Error,
    },
    /// Clang's JSON could not be read.
    #[error("cannot read clang's JSON AST: {0}")]
    Json(#[from] serde_json::Error),
}

/// Run clang on `path` and lower its kernels.
///
/// With [`FrontendOptions::assumptions`], clang runs twice: once to find where each selected
/// kernel's body opens, then on a copy of the file in a temporary directory with
/// `__requires((e));` inserted after each body's `{` on the same line (so lines keep their
/// numbers; positions in the copy are reported as the original's, and `-I<path's directory>`
/// keeps quoted includes working). So an assumption is type-checked by clang in the kernel's scope: a name that is not
/// a parameter or builtin is clang's error, reported with its location in the kernel.
///
/// With `--kernel NAME<ARGS>` naming a `__global__` template that the file does not
/// instantiate with `ARGS` (by an explicit instantiation or a launch `NAME<ARGS><<<…>>>`), clang
/// runs again on a copy with an explicit instantiation appended after the last line
/// (`lower::kernel::template_instantiation`), so the file need not be edited; a clang error about it
/// says what was appended.
pub fn load(path: &Path, opts: &FrontendOptions) -> Result<Program, FrontendError> {
    let mut program = load_kernels(path, opts)?;
    for k in &mut program.kernels {
        let name = k.name.clone();
        for (_, values) in opts.kernel_args.iter().filter(|(n, _)| *n == name) {
            assume_kernel_args(k, values);
        }
    }
    Ok(program)
}

/// `--kernel-args`: each given value of `k`'s scalar parameters (in order) assumed on entry,
/// taken modulo the parameter's width.
fn assume_kernel_args(k: &mut crate::ir::Kernel, values: &[Option<num_bigint::BigInt>]) {
    use crate::ir::{BinOp, Expr, ParamKind, Stmt, StmtKind, Ty};
    let scalars: Vec<_> = k
        .params
        .iter()
        .filter_map(|p| match p.kind {
            ParamKind::Scalar(v) => Some(v),
            ParamKind::Array(_) => None,
        })
        .collect();
    let mut assumed = Vec::new();
    for (v, value) in scalars.into_iter().zip(values) {
        let Some(value) = value else { continue };
        let ty = k.var(v).ty;
        let value = match ty {
            Ty::Int { bits, signed } => crate::ir::query::wrap(value.clone(), bits, signed),
            _ => value.clone(),
        };
        assumed.push(Stmt {
            kind: StmtKind::Assume {
                cond: Expr::Binary {
                    op: BinOp::Eq,
                    lhs: Box::new(Expr::Var { id: v, ty }),
                    rhs: Box::new(Expr::int(value, ty)),
                    ty: Ty::Bool,
                },
            },
            span: k.span.clone(),
        });
    }
    k.body.splice(0..0, assumed);
}

/// [`load`] before `--kernel-args`.
fn load_kernels(path: &Path, opts: &FrontendOptions) -> Result<Program, FrontendError> {
    let language = language_of(path, opts);
    let opts = &FrontendOptions {
        language: Some(language),
        ..opts.clone()
    };
    let Parsed {
        mut root,
        mut prelude,
        mut notes,
        mut broken,
    } = parse(path, opts)?;
    let file = path.display().to_string();
    let io = |context: String| move |source| FrontendError::Io { context, source };
    let mut appended = String::new();
    if let Some(want) = opts.kernel.as_deref()
        && let Some(text) = lower::kernel::template_instantiation(&root, &file, &prelude.to_string_lossy(), want)
    {
        let mut bytes = std::fs::read(path).map_err(io(format!("reading {file}")))?;
        bytes.extend_from_slice(text.as_bytes());
        let note = format!(
            "note: to instantiate `--kernel {want}`, gpug appended `{}` to a copy of {file}",
            text.trim()
        );
        Parsed {
            root,
            prelude,
            notes,
            broken,
        } = reparse(path, opts, &bytes, &note)?;
        appended = text;
    }
    let prelude_s = prelude.to_string_lossy();
    // The program's other files, for the launches their host code makes ([`program`]).
    let others = match language {
        Language::Cuda if !opts.single_file => program::other_files(path, &root, &prelude, opts),
        _ => program::OtherFiles::default(),
    };
    let program::OtherFiles {
        roots: others,
        notes: other_notes,
        files: other_files,
    } = others;
    if opts.assumptions.is_empty() {
        notes.extend(other_notes);
        let mut program =
            lower::kernel::lower_program(&root, &file, &prelude_s, opts.kernel.as_deref(), opts, &others, &broken)
                .map_err(|e| empty_headers_hint(e, &notes))?;
        program.notes.splice(0..0, notes);
        program.includes = included_files(&root, &file, &prelude_s);
        program.other_files = other_files;
        return Ok(program);
    }
    let offsets = lower::kernel::kernel_body_offsets(&root, &file, &prelude_s, opts.kernel.as_deref())?;
    let inserted: String = opts
        .assumptions
        .iter()
        .map(|e| format!(" __requires(({e}));"))
        .collect();
    // The kernels' files: the file itself, edited in a copy ([`reparse`]), and the headers
    // that define kernels, each edited in a copy that clang reads in its place through a
    // virtual file system overlay (so that includes and positions stay as they were).
    let mut by_file: Vec<(&str, Vec<u64>)> = Vec::new();
    for (f, o) in &offsets {
        match by_file.iter_mut().find(|(g, _)| g == &&**f) {
            Some((_, os)) => os.push(*o),
            None => by_file.push((f, vec![*o])),
        }
    }
    let mut out = std::fs::read(path).map_err(io(format!("reading {file}")))?;
    let headers = tempfile::Builder::new()
        .prefix("gpug-assume-")
        .tempdir()
        .map_err(io("creating a temporary directory".into()))?;
    let mut overlay = Vec::new();
    for (f, os) in by_file {
        if f == file {
            out = insert_after(&out, &os, &inserted, f)?;
            continue;
        }
        let text = std::fs::read(f).map_err(io(format!("reading {f}")))?;
        let copy = headers.path().join(format!(
            "{}-{}",
            overlay.len(),
            Path::new(f).file_name().and_then(|n| n.to_str()).unwrap_or("kernel.h")
        ));
        std::fs::write(&copy, insert_after(&text, &os, &inserted, f)?)
            .map_err(io(format!("writing {}", copy.display())))?;
        let original = std::fs::canonicalize(f).map_err(io(format!("reading {f}")))?;
        overlay.push(serde_json::json!({
            "type": "file",
            "name": original,
            "external-contents": copy,
        }));
    }
    out.extend_from_slice(appended.as_bytes());
    let mut opts = opts.clone();
    if !overlay.is_empty() {
        let yaml = headers.path().join("overlay.yaml");
        let text = serde_json::json!({
            "version": 0,
            "use-external-names": false,
            "roots": overlay,
        });
        std::fs::write(&yaml, text.to_string()).map_err(io(format!("writing {}", yaml.display())))?;
        opts.preprocessor.push(PreprocessorFlag::VfsOverlay(yaml));
    }
    let again = reparse(path, &opts, &out, "")?;
    let mut program = lower::kernel::lower_program(
        &again.root,
        &file,
        &again.prelude.to_string_lossy(),
        opts.kernel.as_deref(),
        &opts,
        &others,
        &again.broken,
    )
    .map_err(|e| empty_headers_hint(e, &again.notes))?;
    program.notes.splice(0..0, again.notes);
    program.notes.splice(0..0, other_notes);
    program.other_files = other_files;
    program.includes = included_files(&again.root, &file, &again.prelude.to_string_lossy());
    Ok(program)
}

/// The files other than `file` and the `prelude` where the translation unit `root` declares
/// something at namespace scope, in the order first seen (see [`Program::includes`]).
fn included_files(root: &ast::Node, file: &str, prelude: &str) -> Vec<String> {
    fn walk(n: &ast::Node, skip: [&str; 2], out: &mut Vec<String>) {
        for c in &n.inner {
            if let Some(p) = &c.begin
                && !skip.contains(&&*p.file)
                && !out.iter().any(|f| **f == *p.file)
            {
                out.push(p.file.to_string());
            }
            if matches!(c.kind.as_str(), "NamespaceDecl" | "LinkageSpecDecl") {
                walk(c, skip, out);
            }
        }
    }
    let mut out = Vec::new();
    walk(root, [file, prelude], &mut out);
    out
}

/// `text` (the file `file`) with `inserted` after the `{` at each byte offset of `offsets`.
///
/// Errors: an offset that does not hold a `{` ([`FrontendError::ClangFailed`]).
fn insert_after(text: &[u8], offsets: &[u64], inserted: &str, file: &str) -> Result<Vec<u8>, FrontendError> {
    let mut sorted = offsets.to_vec();
    sorted.sort_unstable();
    let mut out = Vec::new();
    let mut last = 0usize;
    for o in sorted {
        let o = o as usize;
        if text.get(o) != Some(&b'{') {
            return Err(FrontendError::ClangFailed {
                stderr: format!("{file}: --assume: cannot find the `{{` of a kernel body at byte {o}"),
            });
        }
        out.extend_from_slice(&text[last..=o]);
        out.extend_from_slice(inserted.as_bytes());
        last = o + 1;
    }
    out.extend_from_slice(&text[last..]);
    Ok(out)
}

/// Run clang on `text`, an edited copy of the file `path`, written to a temporary directory
/// (with `-I<path's directory>` first, so quoted includes still work); positions and clang's
/// diagnostics in the copy are reported as the original's, followed by `note` when clang fails.
fn reparse(path: &Path, opts: &FrontendOptions, text: &[u8], note: &str) -> Result<Parsed, FrontendError> {
    let file = path.display().to_string();
    let io = |context: String| move |source| FrontendError::Io { context, source };
    let dir = tempfile::Builder::new()
        .prefix("gpug-copy-")
        .tempdir()
        .map_err(io("creating a temporary directory".into()))?;
    let copy = dir
        .path()
        .join(path.file_name().unwrap_or(std::ffi::OsStr::new("kernel.cu")));
    std::fs::write(&copy, text).map_err(io(format!("writing {}", copy.display())))?;
    let mut again = opts.clone();
    if let Some(parent) = path.parent() {
        let parent = if parent.as_os_str().is_empty() {
            Path::new(".")
        } else {
            parent
        };
        again.include_dirs.insert(0, parent.to_path_buf());
    }
    let parsed = parse(&copy, &again);
    let mut parsed = parsed.map_err(|e| match e {
        FrontendError::ClangFailed { stderr } => {
            let mut stderr = stderr.replace(&copy.display().to_string(), &file);
            if !note.is_empty() {
                stderr.push_str(note);
                stderr.push('\n');
            }
            FrontendError::ClangFailed { stderr }
        }
        other => other,
    })?;
    let copy_name = copy.display().to_string();
    ast::rename_file(&mut parsed.root, &copy_name, &std::sync::Arc::from(file.as_str()));
    for n in &mut parsed.notes {
        *n = n.replace(&copy_name, &file);
    }
    // Clang's errors in device functions, as the original file's (with the note, as above).
    let broken = &mut parsed.broken;
    if !broken.functions.is_empty() {
        broken.stderr = broken.stderr.replace(&copy_name, &file);
        if !note.is_empty() {
            broken.stderr.push_str(note);
            broken.stderr.push('\n');
        }
        for b in &mut broken.functions {
            for f in [&mut b.file, &mut b.error.file] {
                if *f == copy_name {
                    *f = file.clone();
                }
            }
        }
    }
    Ok(parsed)
}

#[cfg(test)]
mod tests;
