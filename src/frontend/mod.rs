//! Front end: clang's JSON AST lowered to [`crate::ir`] (DESIGN.md, "Front end").
//!
//! [`load`] runs clang on a `.cu` file with an embedded prelude (CUDA keywords, builtins,
//! atomics, GPUVerify's annotation functions) and a stub include directory, reads the JSON AST
//! ([`ast`]) and lowers every `__global__` kernel ([`lower`]).

pub mod ast;
pub mod lower;
pub mod types;

use crate::ir::{Program, Span};
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Options for [`load`].
#[derive(Clone, Debug, Default)]
pub struct FrontendOptions {
    /// The clang binary; found on `PATH` by [`find_clang`] when `None`.
    pub clang: Option<PathBuf>,
    /// Preprocessor definitions, `N` or `N=4`.
    pub defines: Vec<String>,
    /// Extra include directories.
    pub include_dirs: Vec<PathBuf>,
    /// Lower only this kernel (plain name or full name such as `k<int, 4>`).
    pub kernel: Option<String>,
    /// `--assume` (PUG's `+C`): C expressions over the kernel's parameters and the launch
    /// geometry, assumed at the start of every selected kernel as `__requires(e)` would be.
    pub assumptions: Vec<String>,
}

/// Why the front end failed.
#[derive(Debug, thiserror::Error)]
pub enum FrontendError {
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
    /// The file defines no `__global__` function.
    #[error("{file}: no kernel (__global__ function) found")]
    NoKernel {
        /// The file.
        file: String,
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

/// The prelude force-included before every file.
pub const PRELUDE: &str = include_str!("prelude.h");

/// Stub headers: (file name, contents).
pub const STUB_HEADERS: &[(&str, &str)] = &[
    ("cuda.h", include_str!("include/cuda.h")),
    ("cuda_runtime.h", include_str!("include/cuda_runtime.h")),
    ("cuda_runtime_api.h", include_str!("include/cuda_runtime_api.h")),
    (
        "device_launch_parameters.h",
        include_str!("include/device_launch_parameters.h"),
    ),
    ("device_functions.h", include_str!("include/device_functions.h")),
    ("math_functions.h", include_str!("include/math_functions.h")),
    ("sm_atomic_functions.h", include_str!("include/sm_atomic_functions.h")),
    ("math.h", include_str!("include/math.h")),
    ("stdlib.h", include_str!("include/stdlib.h")),
    ("assert.h", include_str!("include/assert.h")),
    ("cassert", include_str!("include/cassert")),
    ("stdio.h", include_str!("include/stdio.h")),
    ("cstdio", include_str!("include/cstdio")),
];

/// Find clang: `explicit` if given, else `clang`, then `clang-19` down to `clang-14` on `PATH`.
pub fn find_clang(explicit: Option<&Path>) -> Result<PathBuf, FrontendError> {
    if let Some(p) = explicit {
        if p.is_file() {
            return Ok(p.to_path_buf());
        }
        if let Some(found) = search_path(&p.to_string_lossy()) {
            return Ok(found);
        }
        return Err(FrontendError::ClangNotFound(format!(
            "`{}` does not exist",
            p.display()
        )));
    }
    let mut names = vec!["clang".to_string()];
    names.extend((14..=19).rev().map(|v| format!("clang-{v}")));
    for n in &names {
        if let Some(p) = search_path(n) {
            return Ok(p);
        }
    }
    Err(FrontendError::ClangNotFound(format!(
        "none of {} is on PATH (use --clang PATH)",
        names.join(", ")
    )))
}

fn search_path(name: &str) -> Option<PathBuf> {
    if name.contains('/') {
        let p = PathBuf::from(name);
        return p.is_file().then_some(p);
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|d| d.join(name)).find(|p| p.is_file())
}

/// Write the prelude and the stub headers to a cache directory named after their contents.
/// Returns (prelude path, include directory).
pub fn support_files() -> Result<(PathBuf, PathBuf), FrontendError> {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    PRELUDE.hash(&mut h);
    STUB_HEADERS.hash(&mut h);
    let dir = std::env::temp_dir().join(format!("gpug-{}-{:016x}", env!("CARGO_PKG_VERSION"), h.finish()));
    let inc = dir.join("include");
    let io = |context: String| move |source| FrontendError::Io { context, source };
    std::fs::create_dir_all(&inc).map_err(io(format!("creating {}", inc.display())))?;
    let prelude = dir.join("gpug_prelude.h");
    write_if_changed(&prelude, PRELUDE)?;
    for (name, text) in STUB_HEADERS {
        write_if_changed(&inc.join(name), text)?;
    }
    Ok((prelude, inc))
}

/// Write `text` to `path` atomically unless it already holds exactly that.
fn write_if_changed(path: &Path, text: &str) -> Result<(), FrontendError> {
    if std::fs::read_to_string(path).is_ok_and(|t| t == text) {
        return Ok(());
    }
    let tmp = path.with_extension(format!("tmp{}", std::process::id()));
    let io = |context: String| move |source| FrontendError::Io { context, source };
    std::fs::write(&tmp, text).map_err(io(format!("writing {}", tmp.display())))?;
    std::fs::rename(&tmp, path).map_err(io(format!("writing {}", path.display())))?;
    Ok(())
}

/// Run clang on `path` and return the parsed, location-resolved AST.
pub fn parse(path: &Path, opts: &FrontendOptions) -> Result<(ast::Node, PathBuf), FrontendError> {
    let clang = find_clang(opts.clang.as_deref())?;
    let (prelude, inc) = support_files()?;
    let mut cmd = Command::new(&clang);
    cmd.args([
        "-x",
        "cuda",
        "--cuda-device-only",
        "-nocudainc",
        "-nocudalib",
        "--cuda-gpu-arch=sm_70",
    ])
    .arg("-fsyntax-only")
    .arg("-include")
    .arg(&prelude)
    .arg(format!("-I{}", inc.display()));
    for d in &opts.defines {
        cmd.arg(format!("-D{d}"));
    }
    for i in &opts.include_dirs {
        cmd.arg(format!("-I{}", i.display()));
    }
    cmd.args(["-Xclang", "-ast-dump=json"]).arg(path);
    cmd.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = cmd.spawn().map_err(|source| FrontendError::ClangSpawn {
        path: clang.clone(),
        source,
    })?;
    // Drain stderr on a thread so a chatty clang cannot block on a full pipe.
    let mut stderr_pipe = child.stderr.take();
    let err_thread = std::thread::spawn(move || {
        let mut s = String::new();
        if let Some(e) = stderr_pipe.as_mut() {
            let _ = std::io::Read::read_to_string(e, &mut s);
        }
        s
    });
    let parsed: Option<Result<ast::Node, serde_json::Error>> = child.stdout.take().map(|out| {
        let mut de = serde_json::Deserializer::from_reader(std::io::BufReader::with_capacity(1 << 20, out));
        ast::Node::deserialize(&mut de)
    });
    let status = child.wait().map_err(|source| FrontendError::ClangSpawn {
        path: clang.clone(),
        source,
    })?;
    let stderr = err_thread.join().unwrap_or_default();
    if !status.success() {
        return Err(FrontendError::ClangFailed { stderr });
    }
    let mut root = match parsed {
        Some(r) => r?,
        None => return Err(FrontendError::ClangFailed { stderr }),
    };
    ast::resolve_locations(&mut root);
    Ok((root, prelude))
}

use serde::Deserialize as _;

/// Run clang on `path` and lower its kernels.
///
/// With [`FrontendOptions::assumptions`], clang runs twice: once to find where each selected
/// kernel's body opens, then on a copy of the file in a temporary directory with
/// `__requires((e));` inserted after each body's `{` on the same line (so lines keep their
/// numbers; positions in the copy are reported as the original's, and `-I<path's directory>`
/// keeps quoted includes working). So an assumption is type-checked by clang in the kernel's scope: a name that is not
/// a parameter or builtin is clang's error, reported with its location in the kernel.
pub fn load(path: &Path, opts: &FrontendOptions) -> Result<Program, FrontendError> {
    let (root, prelude) = parse(path, opts)?;
    let file = path.display().to_string();
    let prelude_s = prelude.to_string_lossy();
    if opts.assumptions.is_empty() {
        return lower::lower_program(&root, &file, &prelude_s, opts.kernel.as_deref());
    }
    let offsets = lower::kernel_body_offsets(&root, &file, &prelude_s, opts.kernel.as_deref())?;
    let io = |context: String| move |source| FrontendError::Io { context, source };
    let text = std::fs::read(path).map_err(io(format!("reading {file}")))?;
    let inserted: String = opts
        .assumptions
        .iter()
        .map(|e| format!(" __requires(({e}));"))
        .collect();
    let mut out = Vec::new();
    let mut last = 0usize;
    let mut sorted = offsets.clone();
    sorted.sort_unstable();
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
    let dir = std::env::temp_dir().join(format!("gpug-assume-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(io(format!("creating {}", dir.display())))?;
    let copy = dir.join(path.file_name().unwrap_or(std::ffi::OsStr::new("kernel.cu")));
    std::fs::write(&copy, &out).map_err(io(format!("writing {}", copy.display())))?;
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
    let _ = std::fs::remove_dir_all(&dir);
    let (mut root, prelude) = parsed.map_err(|e| match e {
        FrontendError::ClangFailed { stderr } => FrontendError::ClangFailed {
            stderr: stderr.replace(&copy.display().to_string(), &file),
        },
        other => other,
    })?;
    ast::rename_file(
        &mut root,
        &copy.display().to_string(),
        &std::sync::Arc::from(file.as_str()),
    );
    lower::lower_program(&root, &file, &prelude.to_string_lossy(), opts.kernel.as_deref())
}

#[cfg(test)]
mod tests;
