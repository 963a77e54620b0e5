//! Running clang, whatever the language: finding the binary, caching support files on disk,
//! and reading the JSON AST it prints (`-Xclang -ast-dump=json`).
//!
//! Owns the clang process and its pipes. Does not choose language flags, headers or built-ins
//! (that is [`super::cuda`]'s job) and does not lower anything.

use super::host::rejected::BrokenParse;
use super::{FrontendError, FrontendOptions, ast};
use serde::Deserialize as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

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

/// Write `text` to `path` atomically unless it already holds exactly that, through a fresh
/// temporary file beside it (the `tempfile` crate), so threads and processes that write the
/// same file do not race.
pub(super) fn write_if_changed(path: &Path, text: &str) -> Result<(), FrontendError> {
    if std::fs::read_to_string(path).is_ok_and(|t| t == text) {
        return Ok(());
    }
    let io = |source| FrontendError::Io {
        context: format!("writing {}", path.display()),
        source,
    };
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut tmp = tempfile::NamedTempFile::new_in(dir).map_err(io)?;
    std::io::Write::write_all(&mut tmp, text.as_bytes()).map_err(io)?;
    tmp.persist(path).map_err(|e| io(e.error))?;
    Ok(())
}

/// At most this many headers clang cannot find are read as empty ([`dump_ast`]).
const MAX_EMPTY_HEADERS: usize = 16;

/// Finish the command `make` builds (clang `clang` with its language flags already given) with
/// the compilation database's preprocessor flags, then the user's `-D` and `-I` options, and
/// `-Xclang -ast-dump=json path`, run it and return the parsed, location-resolved AST with the
/// notes to give. Clang's diagnostics become [`FrontendError::ClangFailed`], except, where
/// `host_code` (a CUDA file):
/// - errors that all lie in host-only functions or device functions, or are tolerated
///   ([`crate::frontend::host::rejected::accept`]): the AST is returned with a note naming the
///   host functions skipped, and the device functions holding errors ([`BrokenParse`]), whose
///   kernels are then refused one by one;
/// - headers clang cannot find (a platform's: `windows.h`, Tegra's `cudla.h`, a window
///   toolkit's): each is read as an empty file (an `-idirafter` folder of empty headers, so a
///   header that exists is never shadowed) and clang runs again; when the kernels then parse,
///   with errors in host code only, they are verified with a note naming the headers. When
///   device code needed them, the first run's error (the missing header) is returned.
///
/// Reading a missing header as empty is sound for what gpug verifies as long as device code
/// uses nothing it declares (device code that does fails to parse, and the file is refused);
/// the one thing it can change is a macro test (`#ifdef`), which the note says.
pub(super) fn dump_ast(
    make: impl Fn() -> Command,
    clang: &Path,
    path: &Path,
    opts: &FrontendOptions,
    host_code: bool,
) -> Result<(ast::Node, Vec<String>, BrokenParse), FrontendError> {
    let (parsed, ok, stderr) = run(make(), clang, path, opts, None)?;
    let missing = super::libraries::missing_headers(&stderr);
    let first = finish(parsed, ok, stderr, path, host_code);
    if !host_code || first.is_ok() || missing.is_empty() {
        return first;
    }
    let io = |source| FrontendError::Io {
        context: "making a folder of empty headers".to_string(),
        source,
    };
    let dir = tempfile::tempdir().map_err(io)?;
    let mut read_empty: Vec<String> = Vec::new();
    let mut pending = missing;
    while read_empty.len() + pending.len() <= MAX_EMPTY_HEADERS {
        for name in pending {
            let rel = Path::new(&name);
            if rel.is_absolute() || rel.components().any(|c| !matches!(c, std::path::Component::Normal(_))) {
                return first;
            }
            let file = dir.path().join(rel);
            if let Some(parent) = file.parent() {
                std::fs::create_dir_all(parent).map_err(io)?;
            }
            std::fs::write(&file, "").map_err(io)?;
            read_empty.push(name);
        }
        let (parsed, ok, stderr) = run(make(), clang, path, opts, Some(dir.path()))?;
        pending = super::libraries::missing_headers(&stderr);
        pending.retain(|n| !read_empty.contains(n));
        if !pending.is_empty() {
            continue;
        }
        return match finish(parsed, ok, stderr, path, host_code) {
            // Device code that needed them: the missing header is the error.
            Ok((_, _, broken)) if !broken.functions.is_empty() => first,
            Ok((root, mut notes, broken)) => {
                notes.insert(0, empty_headers_note(&read_empty));
                Ok((root, notes, broken))
            }
            Err(_) => first,
        };
    }
    first
}

/// The note for headers read as empty ([`dump_ast`]).
fn empty_headers_note(names: &[String]) -> String {
    let list: Vec<String> = names
        .iter()
        .map(|n| match super::libraries::provider(n) {
            Some(p) => format!("'{n}' ({p})"),
            None => format!("'{n}'"),
        })
        .collect();
    let (s, it, they) = if names.len() == 1 {
        ("", "it", "it")
    } else {
        ("s", "them", "they")
    };
    format!(
        "note: header{s} {} not found: read as empty, since only host code needs {it} (the kernels \
         parse without {it}); a macro {they} would define is undefined here, so code under `#ifdef` of \
         one is read as if it were not defined",
        list.join(", ")
    )
}

/// Run `cmd` with the user's and the compilation database's flags on `path`, with `empty` (a
/// folder of empty headers) searched last: the AST read from clang's output (`None` when there
/// was none), whether clang succeeded, and its stderr with notes on missing headers added.
#[allow(clippy::type_complexity)]
fn run(
    mut cmd: Command,
    clang: &Path,
    path: &Path,
    opts: &FrontendOptions,
    empty: Option<&Path>,
) -> Result<(Option<Result<ast::Node, serde_json::Error>>, bool, String), FrontendError> {
    for p in &opts.preprocessor {
        cmd.args(p.clang_args());
    }
    for d in &opts.defines {
        cmd.arg(format!("-D{d}"));
    }
    for i in &opts.include_dirs {
        cmd.arg(format!("-I{}", i.display()));
    }
    for d in super::libraries::system_dirs() {
        cmd.arg("-idirafter").arg(d);
    }
    if let Some(d) = empty {
        cmd.arg("-idirafter").arg(d);
    }
    cmd.args(["-Xclang", "-ast-dump=json"]).arg(path);
    cmd.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = cmd.spawn().map_err(|source| FrontendError::ClangSpawn {
        path: clang.to_path_buf(),
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
        // Clang's AST nests as deep as the source's expressions (a sum of 64 terms is 64
        // levels of `BinaryOperator`, each with its casts): no depth limit, and a stack that
        // grows on the heap as the reader descends.
        de.disable_recursion_limit();
        ast::Node::deserialize(serde_stacker::Deserializer::new(&mut de))
    });
    let status = child.wait().map_err(|source| FrontendError::ClangSpawn {
        path: clang.to_path_buf(),
        source,
    })?;
    let mut stderr = err_thread.join().unwrap_or_default();
    stderr.push_str(&super::libraries::missing_header_notes(&stderr));
    Ok((parsed, status.success(), stderr))
}

/// The AST of one clang run ([`run`]), or its error: host code's errors accepted as
/// [`dump_ast`] says.
fn finish(
    parsed: Option<Result<ast::Node, serde_json::Error>>,
    success: bool,
    stderr: String,
    path: &Path,
    host_code: bool,
) -> Result<(ast::Node, Vec<String>, BrokenParse), FrontendError> {
    // A reader that stopped early closed clang's output: its error, not clang's status.
    if let Some(Err(e)) = &parsed
        && stderr.trim().is_empty()
    {
        return Err(FrontendError::ClangFailed {
            stderr: format!("gpug could not read clang's AST of {}: {e}\n", path.display()),
        });
    }
    let mut root = match parsed {
        Some(Ok(r)) => r,
        Some(Err(e)) if success => return Err(e.into()),
        _ => return Err(FrontendError::ClangFailed { stderr }),
    };
    ast::resolve_locations(&mut root);
    if success {
        return Ok((root, Vec::new(), BrokenParse::default()));
    }
    // Kernel launches in device code only: the caller reads the host side instead
    // (`cuda::host_side`), which builds those launches.
    if host_code && super::cuda::device_launches_only(&stderr) {
        return Err(FrontendError::ClangFailed { stderr });
    }
    match host_code
        .then(|| crate::frontend::host::rejected::accept(&root, &stderr))
        .flatten()
    {
        Some(a) => {
            let broken = BrokenParse {
                stderr: if a.broken.is_empty() { String::new() } else { stderr },
                functions: a.broken,
            };
            Ok((root, a.note.into_iter().collect(), broken))
        }
        None => Err(FrontendError::ClangFailed { stderr }),
    }
}
