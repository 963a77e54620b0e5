//! Which CUDA toolkit a `.cu` file is read with: NVIDIA's headers of CUDA 12.8 with clang 19
//! or newer (the default), or CUDA 11.8's with whichever clang [`find_clang`] finds
//! (`--cuda-version 11.8`), and the clang flags that go with each.
//!
//! Owns the choice (clang, CUDA folder, version) and nothing else: running clang and the
//! precompiled headers are [`super`]'s.
//!
//! Why two: CUDA 12 removed texture references (`texture<T, dim>`), which older code (and
//! GPUVerify's suite) still uses, while code written for CUDA 12.8 tests `CUDA_VERSION >=
//! 12080` and takes branches that 11.8's headers hide (`__nv_atomic_fetch_add`, …). Clang 14
//! does not parse CUDA 12's headers (nor libcu++'s), so 12.8 comes with clang 19.

use crate::frontend::clang::find_clang;
use crate::frontend::{FrontendError, FrontendOptions};
use std::path::{Path, PathBuf};

/// A CUDA toolkit version gpug reads files with (`--cuda-version`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CudaVersion {
    /// CUDA 12.8's headers (`CUDA_VERSION` 12080) with clang 19 or newer: the default.
    V12_8,
    /// CUDA 11.8's headers, the last with texture references, with the clang
    /// [`find_clang`] finds (clang 14 on Debian 12).
    V11_8,
}

impl CudaVersion {
    /// The version `s` names (`12.8`, `11.8`), if any.
    pub fn parse(s: &str) -> Option<Self> {
        match s.trim() {
            "12.8" | "12" => Some(Self::V12_8),
            "11.8" | "11" => Some(Self::V11_8),
            _ => None,
        }
    }

    /// The version as written on the command line (`12.8`).
    pub fn label(self) -> &'static str {
        match self {
            Self::V12_8 => "12.8",
            Self::V11_8 => "11.8",
        }
    }

    /// Where `scripts/install-deps.sh` puts this version's headers (the first), and where else
    /// gpug looks for them when neither `--cuda-path` nor `$GPUG_CUDA_PATH` is given. `~` is
    /// `$HOME`.
    pub fn default_paths(self) -> &'static [&'static str] {
        match self {
            Self::V12_8 => &["/usr/local/share/gpug/cuda-12.8", "~/.local/share/gpug/cuda-12.8"],
            Self::V11_8 => super::DEFAULT_CUDA_PATHS,
        }
    }

    /// The CUDA SDK version clang is told (`-Xclang -target-sdk-version=V`), which picks the
    /// kernel launch API of host code (`k<<<g, b>>>(…)`): a version clang does not know selects
    /// the legacy `cudaConfigureCall`, which CUDA 11 and 12 headers no longer declare. 11.8:
    /// 9.2, the first version of today's `__cudaPushCallConfiguration` (clang 14 knows no
    /// 11.8); 12.8: 12.4, the newest clang 19 knows.
    pub fn sdk_version_flag(self) -> &'static str {
        match self {
            Self::V12_8 => "-target-sdk-version=12.4",
            Self::V11_8 => "-target-sdk-version=9.2",
        }
    }

    /// The oldest clang major version that reads this version's headers.
    fn min_clang(self) -> u32 {
        match self {
            Self::V12_8 => 19,
            Self::V11_8 => 14,
        }
    }
}

/// The toolkit a file is read with: clang, NVIDIA's CUDA folder (`None`: gpug's stubs), the
/// version, and a note for the user when gpug chose another version than the default.
#[derive(Clone, Debug)]
pub struct Toolkit {
    /// The clang binary.
    pub clang: PathBuf,
    /// The CUDA folder (`--cuda-path`), `None` for gpug's stub headers.
    pub cuda: Option<PathBuf>,
    /// The headers' version.
    pub version: CudaVersion,
    /// Why the file is not read with the default toolkit, when that is so.
    pub note: Option<String>,
}

/// The toolkit for the CUDA file `path` under `opts`:
/// - `--stub-headers`: gpug's stubs with [`find_clang`]'s clang;
/// - `--cuda-path DIR` or `$GPUG_CUDA_PATH`: that folder, at `--cuda-version` or else the
///   version its `include/cuda.h` says (12.x is read as 12.8), with a clang that reads it;
/// - `--cuda-version V`: V's folder ([`CudaVersion::default_paths`]) and a clang that reads it,
///   an error when either is missing (11.8 falls back to gpug's stubs, as before 12.8);
/// - by default, 12.8 when its headers and clang 19 or newer are installed, unless the file
///   uses texture references (`texture<…>`, removed in CUDA 12): then 11.8, with a note; 11.8
///   too, with a note, when 12.8's headers or clang 19 are missing.
///
/// Errors: a folder named by `--cuda-path`/`$GPUG_CUDA_PATH` without headers, `--cuda-version
/// 12.8` without its headers or a clang 19, no clang at all.
pub fn select(path: &Path, opts: &FrontendOptions) -> Result<Toolkit, FrontendError> {
    use super::Headers;
    let explicit_dir = match &opts.headers {
        Headers::Stubs => {
            return Ok(Toolkit {
                clang: find_clang(opts.clang.as_deref())?,
                cuda: None,
                version: opts.cuda_version.unwrap_or(CudaVersion::V11_8),
                note: None,
            });
        }
        Headers::At(dir) => Some((dir.clone(), "--cuda-path".to_string())),
        Headers::Auto => std::env::var_os(super::CUDA_PATH_ENV)
            .filter(|v| !v.is_empty())
            .map(|d| (PathBuf::from(d), format!("${}", super::CUDA_PATH_ENV))),
    };
    if let Some((dir, from)) = explicit_dir {
        if let Some(why) = super::cuda_path_problem(&dir) {
            return Err(FrontendError::CudaPath(format!("{from}: {why}")));
        }
        let version = opts.cuda_version.unwrap_or_else(|| version_of_dir(&dir));
        let clang = clang_for(version, opts)?.unwrap_or(find_clang(opts.clang.as_deref())?);
        return Ok(Toolkit {
            clang,
            cuda: Some(dir),
            version,
            note: None,
        });
    }
    match opts.cuda_version {
        Some(CudaVersion::V11_8) => Ok(Toolkit {
            clang: find_clang(opts.clang.as_deref())?,
            cuda: super::resolve_headers(&Headers::Auto, CudaVersion::V11_8)?,
            version: CudaVersion::V11_8,
            note: None,
        }),
        Some(CudaVersion::V12_8) => {
            let v = CudaVersion::V12_8;
            let Some(cuda) = find_dir(v) else {
                return Err(FrontendError::CudaPath(format!(
                    "--cuda-version 12.8: none of {} holds CUDA 12.8's headers (scripts/install-deps.sh installs them)",
                    v.default_paths().join(", ")
                )));
            };
            let Some(clang) = clang_for(v, opts)? else {
                return Err(FrontendError::ClangNotFound(
                    "--cuda-version 12.8 needs clang 19 or newer (`clang-19` on PATH, or --clang PATH)".to_string(),
                ));
            };
            Ok(Toolkit {
                clang,
                cuda: Some(cuda),
                version: v,
                note: None,
            })
        }
        None => {
            let v = CudaVersion::V12_8;
            let modern = match find_dir(v) {
                Some(cuda) => clang_for(v, opts)?.map(|clang| (clang, cuda)),
                None => None,
            };
            let old = CudaVersion::V11_8;
            let fallback = |note: String| -> Result<Toolkit, FrontendError> {
                Ok(Toolkit {
                    clang: find_clang(opts.clang.as_deref())?,
                    cuda: super::resolve_headers(&Headers::Auto, old)?,
                    version: old,
                    note: Some(note),
                })
            };
            match modern {
                Some(_) if uses_texture_references(path) && find_dir(old).is_some() => fallback(format!(
                    "note: {} declares texture references (`texture<…>`), which CUDA 12 removed: read with \
                     CUDA 11.8's headers (as --cuda-version 11.8)",
                    path.display()
                )),
                Some((clang, cuda)) => Ok(Toolkit {
                    clang,
                    cuda: Some(cuda),
                    version: v,
                    note: None,
                }),
                None => fallback(format!(
                    "note: CUDA 12.8's headers ({}) or clang 19 not found: read with CUDA 11.8's headers \
                     (scripts/install-deps.sh installs both)",
                    v.default_paths()[0]
                )),
            }
        }
    }
}

/// The first of `version`'s default folders that holds its headers.
fn find_dir(version: CudaVersion) -> Option<PathBuf> {
    let home = std::env::var_os("HOME").map(PathBuf::from);
    version.default_paths().iter().find_map(|p| {
        let dir = match (p.strip_prefix("~/"), &home) {
            (Some(rest), Some(h)) => h.join(rest),
            (Some(_), None) => return None,
            (None, _) => PathBuf::from(p),
        };
        super::cuda_path_problem(&dir).is_none().then_some(dir)
    })
}

/// A clang that reads `version`'s headers: `--clang` when it is recent enough (its major
/// version from `--version`), else the newest `clang-N` on `PATH` from 30 down to the
/// version's oldest, else `clang` when it is recent enough. `None` when there is none. For
/// 11.8, whatever [`find_clang`] finds.
fn clang_for(version: CudaVersion, opts: &FrontendOptions) -> Result<Option<PathBuf>, FrontendError> {
    if version == CudaVersion::V11_8 {
        return find_clang(opts.clang.as_deref()).map(Some);
    }
    let min = version.min_clang();
    if let Some(p) = opts.clang.as_deref() {
        let p = find_clang(Some(p))?;
        return Ok(clang_major(&p).is_some_and(|m| m >= min).then_some(p));
    }
    for v in (min..=30).rev() {
        if let Ok(p) = find_clang(Some(Path::new(&format!("clang-{v}")))) {
            return Ok(Some(p));
        }
    }
    Ok(find_clang(None)
        .ok()
        .filter(|p| clang_major(p).is_some_and(|m| m >= min)))
}

/// The major version `clang --version` prints (`clang version 19.1.7` is 19).
pub fn clang_major(clang: &Path) -> Option<u32> {
    let out = std::process::Command::new(clang)
        .arg("--version")
        .stdin(std::process::Stdio::null())
        .output()
        .ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    let rest = text.split("clang version ").nth(1)?;
    rest.split(|c: char| !c.is_ascii_digit()).next()?.parse().ok()
}

/// The version of the CUDA folder `dir`: 12.8 when its `include/cuda.h` defines `CUDA_VERSION`
/// 12000 or more, else 11.8.
fn version_of_dir(dir: &Path) -> CudaVersion {
    let text = std::fs::read_to_string(dir.join("include/cuda.h")).unwrap_or_default();
    let v = text.lines().find_map(|l| {
        let rest = l.trim_start().strip_prefix("#define")?.trim_start();
        rest.strip_prefix("CUDA_VERSION")?.trim().parse::<u32>().ok()
    });
    match v {
        Some(v) if v >= 12000 => CudaVersion::V12_8,
        _ => CudaVersion::V11_8,
    }
}

/// Whether the file's text declares or names a texture or surface reference (`texture<float,
/// 1>`, `surface<void, 2>`): the word followed by `<`.
pub fn uses_texture_references(path: &Path) -> bool {
    let Ok(bytes) = std::fs::read(path) else {
        return false;
    };
    let text = String::from_utf8_lossy(&bytes);
    ["texture", "surface"].iter().any(|w| {
        text.match_indices(w).any(|(i, _)| {
            let before = text[..i].chars().next_back();
            let word_start = before.is_none_or(|c| !(c.is_alphanumeric() || c == '_'));
            word_start && text[i + w.len()..].trim_start().starts_with('<')
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_parse_and_print() {
        assert_eq!(CudaVersion::parse("12.8"), Some(CudaVersion::V12_8));
        assert_eq!(CudaVersion::parse("11.8"), Some(CudaVersion::V11_8));
        assert_eq!(CudaVersion::parse("10.2"), None);
        assert_eq!(CudaVersion::V12_8.label(), "12.8");
    }

    #[test]
    fn texture_references_found_by_word() {
        let dir = tempfile::tempdir().expect("dir");
        let f = dir.path().join("t.cu");
        std::fs::write(&f, "texture<float, 1, cudaReadModeElementType> tex;\n").expect("write");
        assert!(uses_texture_references(&f));
        std::fs::write(&f, "texture <int> t;").expect("write");
        assert!(uses_texture_references(&f));
        std::fs::write(&f, "cudaTextureObject_t t; // a texture object\nmytexture<int> x;").expect("write");
        assert!(!uses_texture_references(&f));
    }
}
