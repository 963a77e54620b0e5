//! CUDA as clang sees it: the language flags, the prelude force-included before every file
//! (CUDA keywords, builtins, atomics, GPUVerify's annotation functions, in `cuda/prelude.h`),
//! the stub include directory (`cuda/include/`), and the built-in variables (`threadIdx`,
//! `blockIdx`, `blockDim`, `gridDim`) as they appear in clang's AST.
//!
//! Owns what is CUDA-specific before lowering. Does not run the clang process itself
//! ([`super::clang`]), lower statements ([`super::lower`]) or list built-in functions
//! ([`super::builtins`]).

use super::ast::{self, Node};
use super::clang::{dump_ast, find_clang, write_if_changed};
use super::{FrontendError, FrontendOptions};
use crate::ir::{Builtin, Dim};
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The prelude force-included before every file.
pub const PRELUDE: &str = include_str!("cuda/prelude.h");

/// Stub headers: (file name, contents).
pub const STUB_HEADERS: &[(&str, &str)] = &[
    ("cuda.h", include_str!("cuda/include/cuda.h")),
    ("cuda_runtime.h", include_str!("cuda/include/cuda_runtime.h")),
    ("cuda_runtime_api.h", include_str!("cuda/include/cuda_runtime_api.h")),
    (
        "device_launch_parameters.h",
        include_str!("cuda/include/device_launch_parameters.h"),
    ),
    ("device_functions.h", include_str!("cuda/include/device_functions.h")),
    ("math_functions.h", include_str!("cuda/include/math_functions.h")),
    (
        "sm_atomic_functions.h",
        include_str!("cuda/include/sm_atomic_functions.h"),
    ),
    ("math.h", include_str!("cuda/include/math.h")),
    ("stdlib.h", include_str!("cuda/include/stdlib.h")),
    ("assert.h", include_str!("cuda/include/assert.h")),
    ("cassert", include_str!("cuda/include/cassert")),
    ("stdio.h", include_str!("cuda/include/stdio.h")),
    ("cstdio", include_str!("cuda/include/cstdio")),
];

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
    let root = dump_ast(cmd, &clang, path, opts)?;
    Ok((root, prelude))
}

/// The built-in variable a clang type names (`__cuda_builtin_threadIdx_t` is `threadIdx`).
pub(super) fn is_builtin_struct(t: &str) -> Option<&'static str> {
    for (s, name) in [
        ("__cuda_builtin_threadIdx_t", "threadIdx"),
        ("__cuda_builtin_blockIdx_t", "blockIdx"),
        ("__cuda_builtin_blockDim_t", "blockDim"),
        ("__cuda_builtin_gridDim_t", "gridDim"),
    ] {
        if t.contains(s) {
            return Some(name);
        }
    }
    None
}

/// The built-in that field `field` (`x`, or clang's `__fetch_builtin_x`) of the built-in variable
/// `var` (`threadIdx`, …) reads.
pub(super) fn builtin_from(var: &str, field: &str) -> Option<Builtin> {
    let d = match field.trim_start_matches("__fetch_builtin_") {
        "x" => Dim::X,
        "y" => Dim::Y,
        "z" => Dim::Z,
        _ => return None,
    };
    Some(match var {
        "threadIdx" => Builtin::ThreadIdx(d),
        "blockIdx" => Builtin::BlockIdx(d),
        "blockDim" => Builtin::BlockDim(d),
        "gridDim" => Builtin::GridDim(d),
        _ => return None,
    })
}

/// Find `threadIdx.x`-like builtins anywhere below a `PseudoObjectExpr`/`MemberExpr`.
pub(super) fn find_builtin(n: &Node) -> Option<Builtin> {
    fn var_name(n: &Node) -> Option<&'static str> {
        if n.kind == "DeclRefExpr" {
            return is_builtin_struct(n.type_str());
        }
        n.inner.iter().find_map(var_name)
    }
    fn member(n: &Node) -> Option<&Node> {
        if (n.kind == "MemberExpr" || n.kind == "MSPropertyRefExpr")
            && n.name
                .as_deref()
                .is_some_and(|s| s.starts_with("__fetch_builtin_") || s.len() == 1)
        {
            return Some(n);
        }
        n.inner.iter().find_map(member)
    }
    let m = member(n)?;
    let v = var_name(m)?;
    builtin_from(v, m.name.as_deref()?)
}

/// The built-in an lvalue such as `threadIdx.x` (a `MemberExpr` of a built-in variable) reads.
pub(super) fn find_builtin_lv(n: &Node) -> Option<Builtin> {
    let n = ast::strip_parens(n);
    if n.kind == "MemberExpr"
        && n.inner
            .first()
            .is_some_and(|b| is_builtin_struct(b.type_str()).is_some())
    {
        return find_builtin(n);
    }
    None
}
