//! The compilation database of `-p BUILD_DIR` (as clang-tidy's `-p`, issue 46): the
//! `compile_commands.json` that CMake (`-DCMAKE_EXPORT_COMPILE_COMMANDS=ON`) and Bear write.
//!
//! Owns: reading the database ([`CompileDb::load`]), taking from each entry's command the flags
//! that change what a kernel means ([`DbFlags::from_arguments`]), finding a file's entries
//! ([`CompileDb::flags_of`]) and the database's kernel files under a folder
//! ([`CompileDb::files_under`]), and putting an entry's flags under the command line's
//! ([`DbFlags::apply`]). Must not: run clang, verify, or print anything.
//!
//! What is taken from an entry, in its order: `-D`, `-U`, `-I`, `-isystem`, `-iquote`,
//! `-idirafter`, `-include` (and nvcc's long names `--define-macro`, `--undefine-macro`,
//! `--include-path`, `--system-include`, `--pre-include`), each joined (`-DN=4`, `-Iinc`),
//! separate (`-D N=4`) or after `=` (nvcc's `-isystem=DIR`; for gcc and clang `=DIR` would be
//! DIR under the sysroot, which gpug does not take); `-std` / `--std` (C++ standards only:
//! `c++17`, `gnu++17`) and `-cl-std`; the GPU architecture of clang's `--cuda-gpu-arch` and
//! `--offload-arch` and nvcc's `-arch`, `--gpu-architecture`, `-code`, `--gpu-code`,
//! `-gencode` and `--generate-code` (`arch=compute_70,code=[compute_70,sm_70]`): of all those
//! named, the highest (`compute_NN` counts as `sm_NN`). Relative paths are resolved against
//! the entry's `directory`. Everything else is left out: `-o`, `-c`, `-x`, `-O`, warnings,
//! the values of pass-through flags (`-Xcompiler -DHOST_ONLY`, `-Xclang …`, `-Xptxas …`),
//! `--options-file` and `@file` response files.

use crate::frontend::{FrontendOptions, PreprocessorFlag};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Why a compilation database could not be used.
#[derive(Debug, thiserror::Error)]
pub enum CompileDbError {
    /// There is no such file (a `-p` folder without `compile_commands.json`).
    #[error(
        "no compilation database at {}: CMake writes one with -DCMAKE_EXPORT_COMPILE_COMMANDS=ON, Bear with `bear -- make`",
        path.display()
    )]
    Missing {
        /// The path looked at.
        path: PathBuf,
    },
    /// The file exists but cannot be read.
    #[error("cannot read the compilation database {}: {source}", path.display())]
    Read {
        /// The database's path.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The file is not a JSON array of entries with `directory`, `file` and `command` or
    /// `arguments`.
    #[error("{} is not a compilation database: {source}", path.display())]
    Json {
        /// The database's path.
        path: PathBuf,
        /// serde_json's reason, with its line and column.
        source: serde_json::Error,
    },
    /// An entry has neither `command` nor `arguments`, or a `command` that cannot be split
    /// into words (an unterminated quote).
    #[error("{}: entry {index} ({file}): {reason}", path.display())]
    Entry {
        /// The database's path.
        path: PathBuf,
        /// The entry's position in the array, from 1.
        index: usize,
        /// The entry's `file`.
        file: String,
        /// What is wrong with it.
        reason: String,
    },
}

/// One entry of `compile_commands.json` as written (clang's JSON Compilation Database format).
#[derive(Deserialize)]
struct RawEntry {
    directory: PathBuf,
    file: PathBuf,
    #[serde(default)]
    command: Option<String>,
    #[serde(default)]
    arguments: Option<Vec<String>>,
}

/// What a compilation database's entry says about a kernel's meaning ([module docs](self)).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct DbFlags {
    /// `-D`, `-U`, `-I`, `-isystem`, `-iquote`, `-idirafter`, `-include`, in the entry's order,
    /// paths absolute.
    pub preprocessor: Vec<PreprocessorFlag>,
    /// The C++ standard of the last `-std` (`c++17`).
    pub std: Option<String>,
    /// OpenCL C's version of the last `-cl-std` (`CL2.0`).
    pub cl_std: Option<String>,
    /// The highest GPU architecture named (`sm_80`).
    pub gpu_arch: Option<String>,
}

/// The flags that carry a value, joined, separate or after `=`, and what each becomes.
#[derive(Clone, Copy)]
enum Takes {
    Define,
    Undefine,
    Include,
    SystemInclude,
    QuoteInclude,
    AfterInclude,
    ForceInclude,
    Std,
    ClStd,
    /// A GPU architecture: `sm_70`, `compute_70`, or `arch=…,code=…`.
    Arch,
    /// A value gpug leaves out (`-o FILE`, `-Xcompiler FLAG`).
    Skip,
}

/// Flags whose value may be joined to them (`-DN`, `-Iinc`), longest first where one is a
/// prefix of another (`-include-pch` before `-include`).
const JOINED: &[(&str, Takes)] = &[
    ("-include-pch", Takes::Skip),
    ("-include", Takes::ForceInclude),
    ("-isystem", Takes::SystemInclude),
    ("-iquote", Takes::QuoteInclude),
    ("-idirafter", Takes::AfterInclude),
    ("-D", Takes::Define),
    ("-U", Takes::Undefine),
    ("-I", Takes::Include),
];

/// Flags whose value follows as the next argument or after `=` (`-std=c++17`, `-std c++17`).
const SEPARATE: &[(&str, Takes)] = &[
    ("--define-macro", Takes::Define),
    ("--undefine-macro", Takes::Undefine),
    ("--include-path", Takes::Include),
    ("--system-include", Takes::SystemInclude),
    ("--pre-include", Takes::ForceInclude),
    ("-std", Takes::Std),
    ("--std", Takes::Std),
    ("-cl-std", Takes::ClStd),
    ("--cuda-gpu-arch", Takes::Arch),
    ("--offload-arch", Takes::Arch),
    ("-arch", Takes::Arch),
    ("--gpu-architecture", Takes::Arch),
    ("-code", Takes::Arch),
    ("--gpu-code", Takes::Arch),
    ("-gencode", Takes::Arch),
    ("--generate-code", Takes::Arch),
    ("-o", Takes::Skip),
    ("--output-file", Takes::Skip),
    ("-x", Takes::Skip),
    ("-MF", Takes::Skip),
    ("-MT", Takes::Skip),
    ("-MQ", Takes::Skip),
    ("-MJ", Takes::Skip),
    ("-ccbin", Takes::Skip),
    ("--compiler-bindir", Takes::Skip),
    ("--compiler-options", Takes::Skip),
    ("--linker-options", Takes::Skip),
    ("--ptxas-options", Takes::Skip),
    ("--nvlink-options", Takes::Skip),
    ("--archive-options", Takes::Skip),
    ("--options-file", Takes::Skip),
    ("-optf", Takes::Skip),
    ("-imacros", Takes::Skip),
    ("-isysroot", Takes::Skip),
    ("--sysroot", Takes::Skip),
    ("-target", Takes::Skip),
];

impl DbFlags {
    /// The flags of an entry's command `args` (the compiler first, as the database gives it),
    /// relative paths resolved against `directory` ([module docs](self)). Never fails: what
    /// gpug does not know is left out.
    pub fn from_arguments(args: &[String], directory: &Path) -> DbFlags {
        let mut out = DbFlags::default();
        let mut archs: Vec<u32> = Vec::new();
        let mut rest = args.iter().skip(1);
        while let Some(arg) = rest.next() {
            let Some((takes, value)) = Self::split(arg, &mut rest) else {
                continue;
            };
            let value = value.strip_prefix('=').unwrap_or(&value).to_string();
            let path = |v: &str| directory.join(v);
            match takes {
                Takes::Define => out.preprocessor.push(PreprocessorFlag::Define(value)),
                Takes::Undefine => out.preprocessor.push(PreprocessorFlag::Undefine(value)),
                Takes::Include => out.preprocessor.push(PreprocessorFlag::Include(path(&value))),
                Takes::SystemInclude => out.preprocessor.push(PreprocessorFlag::SystemInclude(path(&value))),
                Takes::QuoteInclude => out.preprocessor.push(PreprocessorFlag::QuoteInclude(path(&value))),
                Takes::AfterInclude => out.preprocessor.push(PreprocessorFlag::AfterInclude(path(&value))),
                Takes::ForceInclude => out.preprocessor.push(PreprocessorFlag::ForceInclude(path(&value))),
                Takes::Std if value.contains("++") => out.std = Some(value),
                Takes::Std => {}
                Takes::ClStd => out.cl_std = Some(value),
                Takes::Arch => archs.extend(arch_numbers(&value)),
                Takes::Skip => {}
            }
        }
        out.gpu_arch = archs.into_iter().max().map(|n| format!("sm_{n}"));
        out
    }

    /// What `arg` is, with its value (taken from `rest` when it is separate); `None` for a flag
    /// gpug leaves out (its value too, for `-X…` pass-through flags and [`SEPARATE`]'s).
    fn split<'a>(arg: &str, rest: &mut impl Iterator<Item = &'a String>) -> Option<(Takes, String)> {
        for &(name, takes) in SEPARATE {
            if arg == name {
                return Some((takes, rest.next()?.clone()));
            }
            if let Some(v) = arg.strip_prefix(name).and_then(|v| v.strip_prefix('=')) {
                return Some((takes, v.to_string()));
            }
        }
        for &(name, takes) in JOINED {
            if arg == name {
                return Some((takes, rest.next()?.clone()));
            }
            if let Some(v) = arg.strip_prefix(name) {
                return Some((takes, v.to_string()));
            }
        }
        // `-Xcompiler FLAG`, `-Xclang FLAG`, `-Xptxas FLAG`, `-Xarch_host FLAG`: the flag is
        // another tool's (`-Xcompiler=FLAG` carries it joined).
        if arg.starts_with("-X") && arg.len() > 2 && !arg.contains('=') {
            rest.next();
        }
        None
    }

    /// Puts these flags under those of `fe` (the command line's, with a file's header): the
    /// preprocessor flags and the C++ standard are the database's (clang gets the command
    /// line's `-D` and `-I` after them, so a `-D` there wins), and the GPU architecture and
    /// OpenCL version the database's only where the command line gives none.
    pub fn apply(&self, fe: &mut FrontendOptions) {
        fe.preprocessor = self.preprocessor.clone();
        if fe.cxx_std.is_none() {
            fe.cxx_std = self.std.clone();
        }
        if fe.gpu_arch.is_none() {
            fe.gpu_arch = self.gpu_arch.clone();
        }
        if fe.cl_std.is_none() {
            fe.cl_std = self.cl_std.clone();
        }
    }

    /// The flags as words (`-DTILE=16`, `-I /src/include`, `-std=c++17`, `--gpu-arch=sm_80`).
    fn words(&self) -> Vec<String> {
        let mut out: Vec<String> = self.preprocessor.iter().map(ToString::to_string).collect();
        out.extend(self.std.iter().map(|s| format!("-std={s}")));
        out.extend(self.cl_std.iter().map(|s| format!("-cl-std={s}")));
        out.extend(self.gpu_arch.iter().map(|s| format!("--gpu-arch={s}")));
        out
    }
}

/// The compute capabilities `value` names (`sm_70`, `compute_80`, `arch=compute_70,code=[sm_70,
/// sm_86]`), as numbers (70, 80, 86); `native`, `all` and AMD's `gfx…` name none.
fn arch_numbers(value: &str) -> Vec<u32> {
    value
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter_map(|w| w.strip_prefix("sm_").or_else(|| w.strip_prefix("compute_")))
        .filter_map(|cc| {
            let digits: String = cc.chars().take_while(char::is_ascii_digit).collect();
            (2..=3).contains(&digits.len()).then(|| digits.parse().ok()).flatten()
        })
        .collect()
}

/// A loaded compilation database: per source file, its distinct flag sets.
#[derive(Debug)]
pub struct CompileDb {
    /// The `compile_commands.json` read.
    path: PathBuf,
    /// Per file (canonical path), the distinct [`DbFlags`] of its entries, in the database's
    /// order.
    files: BTreeMap<PathBuf, Vec<DbFlags>>,
}

impl CompileDb {
    /// Reads the database of `-p PATH`: `PATH/compile_commands.json` when `PATH` is a folder,
    /// else `PATH` itself. Entries of one file whose flags ([`DbFlags`]) are equal count once.
    ///
    /// # Errors
    /// The file is missing or unreadable, is not a JSON array of entries, or an entry has
    /// neither `command` nor `arguments` or a `command` that cannot be split into words.
    pub fn load(path: &Path) -> Result<CompileDb, CompileDbError> {
        let path = match path.is_dir() {
            true => path.join("compile_commands.json"),
            false => path.to_path_buf(),
        };
        let bytes = std::fs::read(&path).map_err(|source| match source.kind() {
            std::io::ErrorKind::NotFound => CompileDbError::Missing { path: path.clone() },
            _ => CompileDbError::Read {
                path: path.clone(),
                source,
            },
        })?;
        let raw: Vec<RawEntry> = serde_json::from_slice(&bytes).map_err(|source| CompileDbError::Json {
            path: path.clone(),
            source,
        })?;
        let db_dir = path.parent().map(absolute).unwrap_or_default();
        let mut files: BTreeMap<PathBuf, Vec<DbFlags>> = BTreeMap::new();
        for (i, e) in raw.into_iter().enumerate() {
            let entry_error = |reason: String| CompileDbError::Entry {
                path: path.clone(),
                index: i + 1,
                file: e.file.display().to_string(),
                reason,
            };
            let args = match (&e.arguments, &e.command) {
                (Some(a), _) => a.clone(),
                (None, Some(c)) => {
                    shell_words::split(c).map_err(|err| entry_error(format!("cannot split its command: {err}")))?
                }
                (None, None) => return Err(entry_error("neither `command` nor `arguments`".into())),
            };
            let directory = db_dir.join(&e.directory);
            let flags = DbFlags::from_arguments(&args, &directory);
            let sets = files.entry(canonical(&directory.join(&e.file))).or_default();
            if !sets.contains(&flags) {
                sets.push(flags);
            }
        }
        Ok(CompileDb { path, files })
    }

    /// The `compile_commands.json` read.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The distinct flag sets of `file`'s entries (the entry whose `file`, resolved and
    /// canonicalized, is `file`'s canonical path), in the database's order; `None` when the
    /// database has no entry for it.
    pub fn flags_of(&self, file: &Path) -> Option<&[DbFlags]> {
        self.files.get(&canonical(file)).map(Vec::as_slice)
    }

    /// The database's `.cu` and `.cl` files under the folder `dir` (every one with `None`), in
    /// name order, as paths under `dir` as given.
    pub fn files_under(&self, dir: Option<&Path>) -> Vec<PathBuf> {
        let kernel = |p: &Path| p.extension().is_some_and(|x| x == "cu" || x == "cl");
        let Some(dir) = dir else {
            return self.files.keys().filter(|p| kernel(p)).cloned().collect();
        };
        let root = canonical(dir);
        self.files
            .keys()
            .filter(|p| kernel(p))
            .filter_map(|p| p.strip_prefix(&root).ok().map(|rel| dir.join(rel)))
            .collect()
    }
}

/// `path` absolute (against the current folder), without resolving links.
fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}

/// `path` canonicalized (links resolved); when it does not exist, absolute with its `.` and
/// `..` components folded (a stale build folder's `../src/k.cu`).
fn canonical(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| {
        let mut out = PathBuf::new();
        for c in absolute(path).components() {
            match c {
                std::path::Component::CurDir => {}
                std::path::Component::ParentDir => {
                    out.pop();
                }
                c => out.push(c),
            }
        }
        out
    })
}

/// A name for each of one file's flag sets `sets` that tells them apart: the flags of each
/// that not all of them share (`-DTILE=32`), else its position (`entry 2`). Empty names when
/// there is one set.
pub fn variant_names(sets: &[DbFlags]) -> Vec<String> {
    if sets.len() < 2 {
        return vec![String::new(); sets.len()];
    }
    let words: Vec<Vec<String>> = sets.iter().map(DbFlags::words).collect();
    words
        .iter()
        .enumerate()
        .map(|(i, w)| {
            let own: Vec<&str> = w
                .iter()
                .filter(|x| !words.iter().all(|other| other.contains(x)))
                .map(String::as_str)
                .collect();
            match own.is_empty() {
                true => format!("entry {}", i + 1),
                false => own.join(" "),
            }
        })
        .collect()
}

/// Puts the flags of `file`'s first entry in `db` under `fe` ([`DbFlags::apply`]),
/// with a note on stderr when the file has no entry (as clang-tidy warns) or several that
/// differ.
pub(super) fn apply_first_entry(db: &CompileDb, file: &Path, fe: &mut FrontendOptions) {
    match db.flags_of(file) {
        None => eprintln!("{}", not_in_db(file, db)),
        Some(sets) => {
            if sets.len() > 1 {
                eprintln!(
                    "note: {} has {} entries with different flags in {}; using the first ({})",
                    file.display(),
                    sets.len(),
                    db.path().display(),
                    variant_names(sets)[0]
                );
            }
            sets[0].apply(fe);
        }
    }
}

/// The note for a file that the compilation database `db` has no entry for (as clang-tidy warns).
pub(super) fn not_in_db(file: &Path, db: &CompileDb) -> String {
    format!(
        "note: {} has no entry in {}; verified with the command line's flags only",
        file.display(),
        db.path().display()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        shell_words::split(s).expect("splits")
    }

    /// The command CMake's CUDA language writes for nvcc: its `-D`, `-I`, `-isystem=`,
    /// `-std` and `--generate-code` are taken, host-only flags are not.
    #[test]
    fn nvcc_command_of_cmake() {
        let cmd = "/usr/local/cuda/bin/nvcc -forward-unknown-to-host-compiler -DTILE=16 \
                   -D USE_SHARED --define-macro=W=4 -I/src/include -Iinc -I rel \
                   -isystem=/opt/sys --system-include /opt/sys2 -Xcompiler -DHOST_ONLY \
                   -Xcompiler=-fPIC -UOLD --generate-code=arch=compute_70,code=[compute_70,sm_70] \
                   -gencode arch=compute_80,code=sm_80 -std=c++17 -x cu -c /src/k.cu \
                   -o CMakeFiles/k.dir/k.cu.o -O3 -Wall --options-file includes.rsp";
        let f = DbFlags::from_arguments(&words(cmd), Path::new("/build"));
        use PreprocessorFlag::*;
        assert_eq!(
            f.preprocessor,
            [
                Define("TILE=16".into()),
                Define("USE_SHARED".into()),
                Define("W=4".into()),
                Include("/src/include".into()),
                Include("/build/inc".into()),
                Include("/build/rel".into()),
                SystemInclude("/opt/sys".into()),
                SystemInclude("/opt/sys2".into()),
                Undefine("OLD".into()),
            ]
        );
        assert_eq!(f.std.as_deref(), Some("c++17"));
        // compute_70/sm_70 and compute_80/sm_80: the highest.
        assert_eq!(f.gpu_arch.as_deref(), Some("sm_80"));
    }

    /// nvcc's other spellings of the architecture and the standard, and clang's.
    #[test]
    fn architectures_and_standards() {
        let arch = |cmd: &str| DbFlags::from_arguments(&words(cmd), Path::new("/")).gpu_arch;
        assert_eq!(arch("nvcc -arch=sm_75 -c k.cu").as_deref(), Some("sm_75"));
        assert_eq!(arch("nvcc -arch sm_61 -c k.cu").as_deref(), Some("sm_61"));
        assert_eq!(
            arch("nvcc --gpu-architecture=compute_86 k.cu").as_deref(),
            Some("sm_86")
        );
        assert_eq!(
            arch("nvcc -arch=compute_70 -code=sm_70,sm_90a k.cu").as_deref(),
            Some("sm_90")
        );
        assert_eq!(arch("nvcc -arch=native k.cu"), None);
        assert_eq!(
            arch("clang++ --cuda-gpu-arch=sm_80 --cuda-gpu-arch=sm_70 k.cu").as_deref(),
            Some("sm_80")
        );
        assert_eq!(arch("clang++ --offload-arch=gfx906 k.cu"), None);
        // Apple's -arch names no GPU.
        assert_eq!(arch("clang++ -arch x86_64 -DX k.cu"), None);
        let std = |cmd: &str| DbFlags::from_arguments(&words(cmd), Path::new("/")).std;
        assert_eq!(std("nvcc --std c++14 k.cu").as_deref(), Some("c++14"));
        assert_eq!(std("nvcc --std=c++20 k.cu").as_deref(), Some("c++20"));
        assert_eq!(std("g++ -std=c++14 -std=gnu++17 k.cu").as_deref(), Some("gnu++17"));
        assert_eq!(std("gcc -std=c11 k.cu"), None);
    }

    /// Bear's `arguments` of a clang command: forced includes, -iquote, -idirafter, and the
    /// values of flags gpug leaves out are not read as flags.
    #[test]
    fn clang_arguments() {
        let args = words(
            "clang++ -x cuda --cuda-path=/usr/local/cuda -include pre.h -includeconfig.h -iquote q \
             -idirafter /after -include-pch x.pch -Xclang -DNOT_MINE -o -DNOT_EITHER -MF dep.d -D A=1 k.cu",
        );
        let f = DbFlags::from_arguments(&args, Path::new("/b"));
        use PreprocessorFlag::*;
        assert_eq!(
            f.preprocessor,
            [
                ForceInclude("/b/pre.h".into()),
                ForceInclude("/b/config.h".into()),
                QuoteInclude("/b/q".into()),
                AfterInclude("/after".into()),
                Define("A=1".into()),
            ]
        );
    }

    /// A database: `directory`-relative files and paths, `command` or `arguments`, duplicate
    /// entries counted once per distinct flag set, the lookup by canonical path and the files
    /// under a folder.
    #[test]
    fn load_and_look_up() {
        let tmp = tempfile::tempdir().expect("temp dir");
        let root = std::fs::canonicalize(tmp.path()).expect("canonical");
        std::fs::create_dir_all(root.join("src/sub")).expect("dirs");
        for f in ["src/a.cu", "src/sub/b.cu", "src/host.cpp"] {
            std::fs::write(root.join(f), "").expect("write");
        }
        let db = serde_json::json!([
            { "directory": root.join("build"), "file": "../src/a.cu",
              "command": "nvcc -DTILE=16 -I../include -c ../src/a.cu -o a.o" },
            { "directory": root.join("build"), "file": "../src/a.cu",
              "command": "nvcc -DTILE=16 -I../include -c ../src/a.cu -o a2.o -O3" },
            { "directory": root.join("build"), "file": root.join("src/a.cu"),
              "arguments": ["nvcc", "-DTILE=32", "-I../include", "-c", "a.cu"] },
            { "directory": root, "file": "src/sub/b.cu", "arguments": ["clang++", "-DB", "src/sub/b.cu"] },
            { "directory": root, "file": "src/host.cpp", "arguments": ["c++", "src/host.cpp"] },
        ]);
        std::fs::create_dir_all(root.join("build")).expect("dir");
        std::fs::write(root.join("build/compile_commands.json"), db.to_string()).expect("write");
        let db = CompileDb::load(&root.join("build")).expect("loads");
        assert_eq!(db.path(), root.join("build/compile_commands.json"));
        // The two TILE=16 entries differ only in -o and -O3: one flag set.
        let a = db.flags_of(&root.join("src/sub/../a.cu")).expect("a.cu is in it");
        assert_eq!(a.len(), 2);
        assert_eq!(
            a[0].preprocessor,
            [
                PreprocessorFlag::Define("TILE=16".into()),
                PreprocessorFlag::Include(root.join("build/../include")),
            ]
        );
        assert_eq!(variant_names(a), ["-DTILE=16", "-DTILE=32"]);
        assert!(db.flags_of(&root.join("src/none.cu")).is_none());
        // A file that does not exist (yet) is found through its folded path.
        assert_eq!(canonical(&root.join("gone/../src/./none.cu")), root.join("src/none.cu"));
        assert_eq!(db.files_under(Some(&root.join("src/sub"))), [root.join("src/sub/b.cu")]);
        assert_eq!(db.files_under(None), [root.join("src/a.cu"), root.join("src/sub/b.cu")]);
    }

    /// A missing, unreadable or malformed database is an error naming the file.
    #[test]
    fn bad_databases_name_the_file() {
        let tmp = tempfile::tempdir().expect("temp dir");
        let e = CompileDb::load(tmp.path()).unwrap_err();
        assert!(matches!(e, CompileDbError::Missing { .. }), "{e}");
        assert!(e.to_string().contains("compile_commands.json"), "{e}");
        let file = tmp.path().join("compile_commands.json");
        std::fs::write(&file, "{ \"not\": \"an array\" }").expect("write");
        let e = CompileDb::load(&file).unwrap_err();
        assert!(matches!(e, CompileDbError::Json { .. }), "{e}");
        std::fs::write(
            &file,
            r#"[{"directory": "/", "file": "k.cu", "command": "nvcc 'k.cu"}]"#,
        )
        .expect("write");
        let e = CompileDb::load(&file).unwrap_err();
        assert!(e.to_string().contains("entry 1 (k.cu)"), "{e}");
        std::fs::write(&file, r#"[{"directory": "/", "file": "k.cu"}]"#).expect("write");
        let e = CompileDb::load(&file).unwrap_err();
        assert!(e.to_string().contains("neither"), "{e}");
    }

    /// The command line's architecture and OpenCL version win; the database's preprocessor
    /// flags and standard are set.
    #[test]
    fn command_line_wins() {
        let f = DbFlags::from_arguments(&words("nvcc -arch=sm_80 -std=c++17 -DN=1 k.cu"), Path::new("/"));
        let mut fe = FrontendOptions {
            gpu_arch: Some("sm_70".into()),
            defines: vec!["N=2".into()],
            ..Default::default()
        };
        f.apply(&mut fe);
        assert_eq!(fe.gpu_arch.as_deref(), Some("sm_70"));
        assert_eq!(fe.cxx_std.as_deref(), Some("c++17"));
        assert_eq!(fe.preprocessor, [PreprocessorFlag::Define("N=1".into())]);
        assert_eq!(fe.defines, ["N=2"]);
        let mut fe = FrontendOptions::default();
        f.apply(&mut fe);
        assert_eq!(fe.gpu_arch.as_deref(), Some("sm_80"));
    }
}
