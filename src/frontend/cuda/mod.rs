//! CUDA as clang sees it: the language flags, the prelude force-included before every file
//! (CUDA keywords, builtins, atomics, GPUVerify's annotation functions, in `cuda/prelude.h`),
//! the stub include directory (`cuda/include/`), and the built-in variables (`threadIdx`,
//! `blockIdx`, `blockDim`, `gridDim`) as they appear in clang's AST.
//!
//! Owns what is CUDA-specific before lowering (this file), and the room of CUDA's features
//! that the lowering hands calls and types to, each an extension of the lowering
//! ([`crate::frontend::lower`]'s `Lower`):
//!
//! | file | owns |
//! | --- | --- |
//! | `builtins.rs` | CUDA's table of built-in functions (the [`crate::frontend::lower::builtin::table`] types) |
//! | `vector.rs` | vector types by name: `make_float4`, `dim3(x, y)`, `threadIdx` as a `uint3` |
//! | `ctor16.rs` | constructor calls of CUDA's own records (the 16-bit float types): inlined into a fresh object, bit copies |
//! | `texture.rs` | texture fetches (read-only data), surfaces, loads and stores with cache hints (`__ldg`) |
//! | `curand.rs` | cuRAND's device API: the state read and written, per thread or per block (MTGP32) |
//! | `groups.rs` | cooperative groups: handles, ranks and sizes, their barriers and collectives |
//! | `nv_atomic.rs` | CUDA 12.8's atomics with an order and a scope (`__nv_atomic_fetch_add`, …) |
//! | `atomic16.rs` | `atomicAdd` on the 16-bit float types and their pairs, on the record's bits |
//! | `pipeline.rs` | asynchronous copies (`__pipeline_memcpy_async`, `__pipeline_commit`, `__pipeline_wait_prior`), the block's copy (`cooperative_groups::memcpy_async`, `cg::wait`, `cg::wait_prior`) |
//! | `barrier.rs` | libcu++'s `cuda::barrier<thread_scope_block>` and `cuda::memcpy_async` completed through it |
//! | `thread_pipeline.rs` | libcu++'s `cuda::pipeline<thread_scope_thread>` and `cuda::memcpy_async` into it |
//! | `atomic_ref.rs` | libcu++'s `cuda::atomic_ref` at each thread scope, as scoped atomics |
//! | `cub.rs` | CUB's `BlockReduce` by its documented contract (its `TempStorage`, a barrier inside) |
//! | `toolkit.rs` | which CUDA headers (12.8 or 11.8) and which clang read a file |
//! | `asm.rs` | inline assembly of NVIDIA's headers that computes values: uninterpreted functions of its inputs |
//! | `fragment.rs` | a WMMA fragment's shape and storage, read from its record name |
//! | `wmma.rs` | warp matrix functions (`nvcuda::wmma`, tensor cores): fragments, tile loads and stores as each lane's share |
//!
//! Does not run the clang process itself ([`crate::frontend::clang`]) or lower the core
//! language (statements, expressions, places, calls: [`crate::frontend::lower`]).

pub(in crate::frontend) mod asm;
pub(in crate::frontend) mod atomic16;
pub(in crate::frontend) mod atomic_ref;
pub(in crate::frontend) mod barrier;
pub(in crate::frontend) mod builtins;
pub(in crate::frontend) mod ctor16;
pub(in crate::frontend) mod cub;
pub(in crate::frontend) mod curand;
pub(in crate::frontend) mod device_launch;
pub(in crate::frontend) mod fragment;
pub(in crate::frontend) mod groups;
pub(in crate::frontend) mod nv_atomic;
pub(in crate::frontend) mod pipeline;
pub(in crate::frontend) mod texture;
pub(in crate::frontend) mod thread_pipeline;
pub mod toolkit;
pub(in crate::frontend) mod vector;
pub(in crate::frontend) mod wmma;

use crate::frontend::ast::{self, Node};
use crate::frontend::clang::{dump_ast, write_if_changed};
use crate::frontend::{FrontendError, FrontendOptions};
use crate::ir::{Builtin, Dim};
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::process::Command;
pub use toolkit::CudaVersion;

/// The stub prelude force-included before every file when NVIDIA's headers are not found.
pub const PRELUDE: &str = include_str!("prelude.h");

/// GPUVerify's annotation functions, included by both preludes as `gpug_annotations.h`.
pub const ANNOTATIONS: &str = include_str!("annotations.h");

/// GPUVerify's barrier invariants and `__read_permission`, included by the annotations and by
/// the OpenCL prelude as `gpug_barrier_invariants.h` (each defines the qualifier and the
/// instantiation type first).
pub const BARRIER_INVARIANTS: &str = include_str!("../barrier_invariants.h");

/// The prelude precompiled over NVIDIA's real headers (cooperative groups, cuRAND, the
/// annotations).
pub const NVIDIA_PRELUDE: &str = include_str!("nvidia_prelude.h");

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

/// Where CUDA's headers come from ([`FrontendOptions::headers`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Headers {
    /// NVIDIA's headers from `$GPUG_CUDA_PATH`, else from the first of [`DEFAULT_CUDA_PATHS`]
    /// that holds them; gpug's stubs (said once on stderr) when none does.
    #[default]
    Auto,
    /// NVIDIA's headers from this CUDA folder (`--cuda-path DIR`); an error when it lacks them.
    At(PathBuf),
    /// gpug's own stub headers (`--stub-headers`).
    Stubs,
}

/// Where `scripts/install-deps.sh` puts NVIDIA's CUDA 11.8 headers (the first), and where else
/// gpug looks for them under `--cuda-version 11.8` when neither `--cuda-path` nor
/// `$GPUG_CUDA_PATH` is given. `~` is `$HOME`. CUDA 12.8's:
/// [`CudaVersion::default_paths`].
pub const DEFAULT_CUDA_PATHS: &[&str] = &["/usr/local/share/gpug/cuda", "~/.local/share/gpug/cuda"];

/// The environment variable naming a CUDA folder, as `--cuda-path` does.
pub const CUDA_PATH_ENV: &str = "GPUG_CUDA_PATH";

/// Why `dir` cannot serve as a CUDA folder for clang (`--cuda-path`): it needs
/// `include/cuda_runtime.h` and `include/crt/host_defines.h` (the runtime and nvcc wheels'
/// headers in one `include/`), and clang also looks for the folders `bin/` and `lib64/`
/// (which may be empty). `None` when it can.
pub fn cuda_path_problem(dir: &Path) -> Option<String> {
    for f in ["include/cuda_runtime.h", "include/crt/host_defines.h"] {
        if !dir.join(f).is_file() {
            return Some(format!("{} has no {f}", dir.display()));
        }
    }
    for d in ["bin", "lib64"] {
        if !dir.join(d).is_dir() {
            return Some(format!(
                "{} has no folder {d}/ (clang requires one, even empty)",
                dir.display()
            ));
        }
    }
    None
}

/// The CUDA folder `headers` selects for the CUDA `version` (its
/// [`CudaVersion::default_paths`] under [`Headers::Auto`]), or `None` for gpug's stubs.
///
/// Errors: [`FrontendError::CudaPath`] when `--cuda-path` or `$GPUG_CUDA_PATH` names a folder
/// without NVIDIA's headers.
pub fn resolve_headers(headers: &Headers, version: CudaVersion) -> Result<Option<PathBuf>, FrontendError> {
    let checked = |dir: PathBuf, from: &str| match cuda_path_problem(&dir) {
        None => Ok(Some(dir)),
        Some(why) => Err(FrontendError::CudaPath(format!("{from}: {why}"))),
    };
    match headers {
        Headers::Stubs => Ok(None),
        Headers::At(dir) => checked(dir.clone(), "--cuda-path"),
        Headers::Auto => {
            if let Some(dir) = std::env::var_os(CUDA_PATH_ENV).filter(|v| !v.is_empty()) {
                return checked(PathBuf::from(dir), &format!("${CUDA_PATH_ENV}"));
            }
            let home = std::env::var_os("HOME").map(PathBuf::from);
            let found = version.default_paths().iter().find_map(|p| {
                let dir = match (p.strip_prefix("~/"), &home) {
                    (Some(rest), Some(h)) => h.join(rest),
                    (Some(_), None) => return None,
                    (None, _) => PathBuf::from(p),
                };
                cuda_path_problem(&dir).is_none().then_some(dir)
            });
            if found.is_none() {
                static SAID: std::sync::Once = std::sync::Once::new();
                SAID.call_once(|| {
                    eprintln!(
                        "note: NVIDIA's CUDA headers not found (--cuda-path, ${CUDA_PATH_ENV}, {}); using gpug's \
                         stub headers, which lack texture references, cooperative groups and cuRAND \
                         (scripts/install-deps.sh installs the headers)",
                        version.default_paths().join(", ")
                    )
                });
            }
            Ok(found)
        }
    }
}

/// A folder in the temporary directory named after the hash of `key` (gpug's version in
/// front), created if missing.
pub(in crate::frontend) fn cache_dir(key: impl Hash) -> Result<PathBuf, FrontendError> {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    key.hash(&mut h);
    let dir = std::env::temp_dir().join(format!("gpug-{}-{:016x}", env!("CARGO_PKG_VERSION"), h.finish()));
    std::fs::create_dir_all(&dir).map_err(|source| FrontendError::Io {
        context: format!("creating {}", dir.display()),
        source,
    })?;
    Ok(dir)
}

/// Write the stub prelude and the stub headers to a cache directory named after their
/// contents. Returns (prelude path, include directory).
pub fn support_files() -> Result<(PathBuf, PathBuf), FrontendError> {
    let dir = cache_dir((PRELUDE, ANNOTATIONS, BARRIER_INVARIANTS, STUB_HEADERS))?;
    let inc = dir.join("include");
    std::fs::create_dir_all(&inc).map_err(|source| FrontendError::Io {
        context: format!("creating {}", inc.display()),
        source,
    })?;
    let prelude = dir.join("gpug_prelude.h");
    write_if_changed(&dir.join("gpug_annotations.h"), ANNOTATIONS)?;
    write_if_changed(&dir.join("gpug_barrier_invariants.h"), BARRIER_INVARIANTS)?;
    write_if_changed(&prelude, PRELUDE)?;
    for (name, text) in STUB_HEADERS {
        write_if_changed(&inc.join(name), text)?;
    }
    Ok((prelude, inc))
}

/// clang's flags for device-side CUDA for the GPU architecture `arch` (`sm_70`) and the C++
/// standard `std` (`c++17`) over the CUDA folder `cuda` (`None`: gpug's stubs) of the CUDA
/// `version`, then the user's `--clang-arg` flags `extra`.
///
/// Then [`CUDA_FLAGS`].
fn cuda_command(
    clang: &Path,
    (cuda, version): (Option<&Path>, CudaVersion),
    arch: &str,
    std: &str,
    extra: &[String],
) -> Command {
    side_command(clang, (cuda, version), arch, std, extra, "--cuda-device-only")
}

/// [`cuda_command`] for the compilation `side` (`--cuda-device-only`, or `--cuda-host-only`
/// for [`host_side`]).
fn side_command(
    clang: &Path,
    (cuda, version): (Option<&Path>, CudaVersion),
    arch: &str,
    std: &str,
    extra: &[String],
    side: &str,
) -> Command {
    let mut cmd = Command::new(clang);
    cmd.args(["-x", "cuda", side, "-nocudalib"])
        .arg(format!("--cuda-gpu-arch={arch}"))
        .arg(format!("-std={std}"))
        .args(CUDA_FLAGS);
    match cuda {
        Some(dir) => {
            cmd.arg(format!("--cuda-path={}", dir.display()))
                .arg("-Wno-unknown-cuda-version")
                // Kernel launches (`k<<<g, b>>>(…)`) in host code: clang picks the launch API
                // by the CUDA SDK version (`CudaVersion::sdk_version_flag`).
                .args(["-Xclang", version.sdk_version_flag()]);
        }
        None => {
            cmd.arg("-nocudainc");
        }
    }
    cmd.args(extra);
    cmd
}

/// clang's flags for every CUDA parse (and NVIDIA's precompiled headers, whose cache key
/// holds them):
/// - `-ferror-limit=0`: every error is reported, so that [`crate::frontend::host::rejected::accept`] can tell
///   whether all of them lie in host code;
/// - `-Wno-register`: C++17 removed the `register` storage class, which older CUDA code still
///   writes and nvcc accepts with a warning;
/// - `-fcuda-allow-variadic-functions`: libcu++ (`cuda/barrier`, `cuda/std/type_traits`)
///   declares variadic overloads used only in unevaluated contexts, which nvcc accepts in
///   device code and clang refuses without it;
/// - `-DCCCL_IGNORE_DEPRECATED_API`: CCCL 2.8 (thrust) puts `[[deprecated]]` where clang 14
///   refuses it; the attribute only warns.
const CUDA_FLAGS: &[&str] = &[
    "-ferror-limit=0",
    "-Wno-register",
    "-Xclang",
    "-fcuda-allow-variadic-functions",
    "-DCCCL_IGNORE_DEPRECATED_API",
];

/// What the PCH over NVIDIA's headers holds besides the CUDA runtime headers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Libraries {
    /// The runtime headers and the annotations only (~0.1 s of CPU per kernel).
    Runtime,
    /// Also `cooperative_groups.h` and `curand_kernel.h` (~0.2 s per kernel).
    WithLibraries,
}

/// Names whose presence in a kernel's file asks for [`Libraries::WithLibraries`].
const LIBRARY_WORDS: &[&str] = &[
    "curand",
    "cooperative_groups",
    "this_grid",
    "this_thread_block",
    "grid_group",
    "thread_block",
    "tiled_partition",
    "coalesced_",
    "synchronize",
];

/// The PCH `file`'s text asks for: with the libraries when it names cooperative groups or
/// cuRAND (a file that reaches them only through a header of its own is parsed again with
/// them when the first parse fails, [`parse`]).
pub fn libraries_for(file: &Path) -> Libraries {
    match std::fs::read(file) {
        Ok(b) => {
            let text = String::from_utf8_lossy(&b);
            if LIBRARY_WORDS.iter().any(|w| text.contains(w)) {
                Libraries::WithLibraries
            } else {
                Libraries::Runtime
            }
        }
        Err(_) => Libraries::WithLibraries,
    }
}

/// NVIDIA's headers under `cuda` (of the CUDA `version`), precompiled once with
/// [`NVIDIA_PRELUDE`] into a clang PCH cached in the temporary directory (keyed by clang and
/// its file's size and time, the CUDA folder and its version, the prelude, the architecture
/// `arch` and the C++ standard `std`, which clang requires the PCH to share with the file, and
/// the `--clang-arg` flags `extra`: one PCH per clang and CUDA version), with or without
/// cooperative groups and cuRAND (`libs`). Returns (PCH path, prelude path).
///
/// Why: parsed afresh, the real headers cost ~0.5 s of CPU per kernel and their JSON AST is
/// ~130 MB; through the PCH a kernel parses in ~0.1 s (~0.2 s with the libraries) and the dump
/// holds the kernel's file only (declarations that come from the PCH are not dumped; the front
/// end knows header functions by name, [`crate::frontend::lower::builtin::table`], and vector types by layout,
/// `types.rs`).
///
/// Errors: clang fails on the headers ([`FrontendError::ClangFailed`]), or the cache cannot be
/// written.
pub fn nvidia_pch(
    clang: &Path,
    (cuda, version): (&Path, CudaVersion),
    libs: Libraries,
    arch: &str,
    std: &str,
    extra: &[String],
) -> Result<(PathBuf, PathBuf), FrontendError> {
    let stamp = |p: &Path| std::fs::metadata(p).ok().map(|m| (m.len(), m.modified().ok()));
    let api = cuda.join("include/cuda_runtime_api.h");
    let dir = cache_dir((
        "nvidia",
        clang,
        stamp(clang),
        cuda,
        stamp(&api),
        NVIDIA_PRELUDE,
        ANNOTATIONS,
        BARRIER_INVARIANTS,
        (version, version.sdk_version_flag(), CUDA_FLAGS),
        arch,
        std,
        extra,
    ))?;
    let prelude = dir.join("gpug_nvidia_prelude.h");
    write_if_changed(&dir.join("gpug_annotations.h"), ANNOTATIONS)?;
    write_if_changed(&dir.join("gpug_barrier_invariants.h"), BARRIER_INVARIANTS)?;
    write_if_changed(&prelude, NVIDIA_PRELUDE)?;
    let (top, pch) = match libs {
        Libraries::Runtime => (prelude.clone(), dir.join("gpug_nvidia.pch")),
        Libraries::WithLibraries => {
            let top = dir.join("gpug_nvidia_libraries.h");
            write_if_changed(&top, "#define __GPUG_LIBRARIES 1\n#include \"gpug_nvidia_prelude.h\"\n")?;
            (top, dir.join("gpug_nvidia_libraries.pch"))
        }
    };
    if pch.is_file() {
        return Ok((pch, prelude));
    }
    let io = |source| FrontendError::Io {
        context: format!("writing {}", pch.display()),
        source,
    };
    let tmp = tempfile::NamedTempFile::new_in(&dir).map_err(io)?;
    let out = cuda_command(clang, (Some(cuda), version), arch, std, extra)
        .args(["-S", "-Xclang", "-emit-pch", "-o"])
        .arg(tmp.path())
        .arg(&top)
        .stdin(std::process::Stdio::null())
        .output()
        .map_err(|source| FrontendError::ClangSpawn {
            path: clang.to_path_buf(),
            source,
        })?;
    if !out.status.success() {
        return Err(FrontendError::ClangFailed {
            stderr: format!(
                "{}error: clang could not precompile NVIDIA's CUDA headers in {} (try --stub-headers)\n",
                String::from_utf8_lossy(&out.stderr),
                cuda.display()
            ),
        });
    }
    tmp.persist(&pch).map_err(|e| io(e.error))?;
    Ok((pch, prelude))
}

/// Run clang on `path` and return the parsed, location-resolved AST, the prelude's path and the
/// notes to give (host code skipped, [`crate::frontend::host::rejected`]).
///
/// The toolkit (clang, CUDA headers and their version) is [`toolkit::select`]'s. With NVIDIA's
/// headers the file is parsed over the precompiled headers ([`nvidia_pch`]): without
/// cooperative groups and cuRAND unless the file names them ([`libraries_for`]), and again
/// with them when that parse fails. Without NVIDIA's headers the file is parsed over gpug's
/// stub prelude and headers. The toolkit's note, if any, comes first among the notes.
pub fn parse(path: &Path, opts: &FrontendOptions) -> Result<crate::frontend::Parsed, FrontendError> {
    let tk = toolkit::select(path, opts)?;
    let mut parsed = parse_with(path, opts, &tk)?;
    if let Some(note) = tk.note {
        parsed.notes.insert(0, note);
    }
    Ok(parsed)
}

/// [`parse`] with the toolkit `tk`.
fn parse_with(
    path: &Path,
    opts: &FrontendOptions,
    tk: &toolkit::Toolkit,
) -> Result<crate::frontend::Parsed, FrontendError> {
    let (clang, version) = (&tk.clang, tk.version);
    let arch = opts.gpu_arch.as_deref().unwrap_or(crate::frontend::DEFAULT_GPU_ARCH);
    let std = opts.cxx_std.as_deref().unwrap_or(crate::frontend::DEFAULT_CXX_STD);
    let extra = &opts.clang_args;
    match tk.cuda.clone() {
        Some(cuda) => {
            let over = |libs| -> Result<crate::frontend::Parsed, FrontendError> {
                let (pch, prelude) = nvidia_pch(clang, (&cuda, version), libs, arch, std, extra)?;
                let make = || {
                    let mut cmd = cuda_command(clang, (Some(&cuda), version), arch, std, extra);
                    cmd.args(["-fsyntax-only", "-Xclang", "-include-pch", "-Xclang"])
                        .arg(&pch);
                    cmd
                };
                let (root, notes, broken) = dump_ast(make, clang, path, opts, true)?;
                Ok(crate::frontend::Parsed {
                    root,
                    prelude,
                    notes,
                    broken,
                })
            };
            let parsed = match libraries_for(path) {
                Libraries::WithLibraries => over(Libraries::WithLibraries),
                Libraries::Runtime => match over(Libraries::Runtime) {
                    Err(FrontendError::ClangFailed { .. }) => over(Libraries::WithLibraries),
                    // Some device functions failed: the libraries may be what they lack (a
                    // header of the program's own that includes them); the partial parse
                    // stands only when the libraries do not help.
                    Ok(p) if !p.broken.functions.is_empty() => match over(Libraries::WithLibraries) {
                        Err(FrontendError::ClangFailed { .. }) => Ok(p),
                        r => r,
                    },
                    r => r,
                },
            };
            // Dynamic parallelism: clang's device compilation refuses every kernel launch in
            // device code; its host compilation accepts one.
            let parsed = match parsed {
                Err(FrontendError::ClangFailed { stderr }) if device_launches_only(&stderr) => {
                    match host_side(path, opts, tk, &cuda, arch, std) {
                        Ok(p) => Ok(p),
                        // The host side fails too: the device side's errors say why.
                        Err(FrontendError::ClangFailed { .. }) => Err(FrontendError::ClangFailed { stderr }),
                        Err(e) => Err(e),
                    }
                }
                r => r,
            };
            parsed.map_err(|e| match e {
                FrontendError::ClangFailed { mut stderr } => {
                    if let Some(hint) = bf16_arch_hint(&stderr, arch) {
                        stderr.push_str(&hint);
                    }
                    FrontendError::ClangFailed { stderr }
                }
                e => e,
            })
        }
        None => {
            let (prelude, inc) = support_files()?;
            let make = || {
                let mut cmd = cuda_command(clang, (None, version), arch, std, extra);
                cmd.arg("-fsyntax-only")
                    .arg("-include")
                    .arg(&prelude)
                    .arg(format!("-I{}", inc.display()));
                cmd
            };
            let (root, notes, broken) = dump_ast(make, clang, path, opts, true)?;
            Ok(crate::frontend::Parsed {
                root,
                prelude,
                notes,
                broken,
            })
        }
    }
}

/// Whether every error of clang's `stderr` is its refusal of a kernel launch in device code
/// (CUDA's dynamic parallelism, which clang does not implement): "reference to __global__
/// function 'child' in __global__ function", or the launch's configuration call
/// (`__cudaPushCallConfiguration`) refused likewise; and there is one.
pub(in crate::frontend) fn device_launches_only(stderr: &str) -> bool {
    let mut any = false;
    for line in stderr.lines() {
        let Some((_, text)) = line.split_once("error: ") else {
            continue;
        };
        if line.starts_with("error: clang could not compile") {
            continue;
        }
        let launch = (text.starts_with("reference to __global__ function '")
            || text.starts_with("reference to __host__ function '__cudaPushCallConfiguration'"))
            && (text.ends_with(" in __global__ function") || text.ends_with(" in __device__ function"));
        if !launch {
            return false;
        }
        any = true;
    }
    any
}

/// `path` as clang's host-side compilation of CUDA sees it (`--cuda-host-only`), for a file
/// whose device code launches kernels (dynamic parallelism: [`device_launches_only`]): the
/// host side accepts such a launch in a `__global__` or `__device__` function, and builds its
/// AST (`CUDAKernelCallExpr`) as for a host launch. `__CUDA_ARCH__` is defined as the device
/// side defines it for `arch` (`sm_80`: 800), so that the code read is the device side's, as
/// in every other parse ([`crate::frontend::lower`] reads device and host code from one AST).
/// Over NVIDIA's headers with cooperative groups and cuRAND, not precompiled (the precompiled
/// headers are the device side's), with a note saying so. Errors: clang's, as [`dump_ast`].
fn host_side(
    path: &Path,
    opts: &FrontendOptions,
    tk: &toolkit::Toolkit,
    cuda: &Path,
    arch: &str,
    std: &str,
) -> Result<crate::frontend::Parsed, FrontendError> {
    let (clang, version) = (&tk.clang, tk.version);
    let extra = &opts.clang_args;
    let (_, prelude) = nvidia_pch(clang, (cuda, version), Libraries::WithLibraries, arch, std, extra)?;
    let top = prelude.with_file_name("gpug_nvidia_libraries.h");
    let cuda_arch = arch
        .strip_prefix("sm_")
        .and_then(|n| n.parse::<u32>().ok())
        .unwrap_or(80)
        * 10;
    let make = || {
        let mut cmd = side_command(clang, (Some(cuda), version), arch, std, extra, "--cuda-host-only");
        cmd.arg("-fsyntax-only")
            .arg(format!("-D__CUDA_ARCH__={cuda_arch}"))
            .arg("-include")
            .arg(&top);
        cmd
    };
    let (root, mut notes, broken) = dump_ast(make, clang, path, opts, true)?;
    notes.push(format!(
        "note: {}: device code launches kernels (dynamic parallelism), which clang's device compilation refuses: the file is read as clang's host compilation sees it, with __CUDA_ARCH__ = {cuda_arch}",
        path.display()
    ));
    Ok(crate::frontend::Parsed {
        root,
        prelude,
        notes,
        broken,
    })
}

/// A note for clang's errors `stderr` when they are about bfloat16 and the GPU architecture
/// `arch` (`sm_70`) is below sm_80: CUDA 11's `cuda_bf16.h` declares the bfloat16 operators,
/// its conversions from integers and most of its functions (`__ushort_as_bfloat16`,
/// `__halves2bfloat162`, …) only for sm_80 and newer, where CUDA 12 declares them for every
/// architecture. `None` otherwise.
fn bf16_arch_hint(stderr: &str, arch: &str) -> Option<String> {
    let cc: u32 = arch.strip_prefix("sm_")?.parse().ok()?;
    let about_bf16 = stderr
        .lines()
        .any(|l| l.contains("error:") && (l.contains("bfloat16") || l.contains("bfloat162")));
    (cc < 80 && about_bf16).then(|| {
        format!(
            "note: before CUDA 12, NVIDIA's cuda_bf16.h declares the bfloat16 operators, conversions \
             from integers and most bfloat16 functions (`__ushort_as_bfloat16`, `__halves2bfloat162`, …) \
             only for sm_80 and newer; gpug compiled for {arch}: give --gpu-arch=sm_80 (or the \
             architecture the code is built for)\n"
        )
    })
}

/// The built-in variable a clang type names (`__cuda_builtin_threadIdx_t` is `threadIdx`).
pub(in crate::frontend) fn is_builtin_struct(t: &str) -> Option<&'static str> {
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
pub(in crate::frontend) fn builtin_from(var: &str, field: &str) -> Option<Builtin> {
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
pub(in crate::frontend) fn find_builtin(n: &Node) -> Option<Builtin> {
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
pub(in crate::frontend) fn find_builtin_lv(n: &Node) -> Option<Builtin> {
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

#[cfg(test)]
mod tests {
    use super::bf16_arch_hint;

    #[test]
    fn bf16_hint_below_sm_80_only() {
        let err = "k.cu:3:5: error: use of undeclared identifier '__ushort_as_bfloat16'\n";
        assert!(bf16_arch_hint(err, "sm_70").is_some_and(|h| h.contains("--gpu-arch=sm_80")));
        assert_eq!(bf16_arch_hint(err, "sm_80"), None);
        assert_eq!(bf16_arch_hint(err, "sm_90"), None);
        let other = "k.cu:3:5: error: use of undeclared identifier 'foo'\n";
        assert_eq!(bf16_arch_hint(other, "sm_70"), None);
        let ops = "k.cu:9:1: error: invalid operands to binary expression ('__nv_bfloat162' and '__nv_bfloat162')\n";
        assert!(bf16_arch_hint(ops, "sm_75").is_some());
    }
}
