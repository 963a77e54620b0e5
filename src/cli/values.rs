//! The values of gpug's flags, parsed (clap's `value_parser`s: launch dimensions, GPU
//! architectures, warp sizes, memory sizes, `--kernel-args`), and the table of GPUVerify's
//! flags that do not apply to gpug. Must not: resolve options or run anything.

use super::check;

/// Parses `--gpu-arch`: `sm_` and a compute capability of two or three digits (`sm_80`).
pub(super) fn parse_gpu_arch(s: &str) -> Result<String, String> {
    match s.strip_prefix("sm_") {
        Some(cc) if (2..=3).contains(&cc.len()) && cc.bytes().all(|b| b.is_ascii_digit()) => Ok(s.to_string()),
        _ => Err(format!("`{s}` is not a GPU architecture such as sm_70 or sm_80")),
    }
}

/// Parses `--cuda-version`: `12.8` or `11.8`.
pub(super) fn parse_cuda_version(s: &str) -> Result<crate::frontend::CudaVersion, String> {
    crate::frontend::CudaVersion::parse(s).ok_or_else(|| format!("gpug reads CUDA 12.8 or 11.8, not `{s}`"))
}

/// Parses `--warp-sync N`: a power of two from 1 to 1024.
pub(super) fn parse_warp_size(s: &str) -> Result<u32, String> {
    match s.trim().parse::<u32>() {
        Ok(n) if n.is_power_of_two() && n <= 1024 => Ok(n),
        _ => Err(format!("a warp size is a power of two from 1 to 1024, got `{s}`")),
    }
}

/// `--max-memory`: a limit in bytes, or none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MaxMemory(pub Option<u64>);

pub(super) fn parse_max_memory(s: &str) -> Result<MaxMemory, String> {
    match crate::memory::parse_size(s)? {
        Some(b) if b < crate::memory::MIN_LIMIT => Err(format!(
            "`{s}` is below {}, too little for a solver to start (`none` for no limit)",
            crate::memory::human(crate::memory::MIN_LIMIT)
        )),
        limit => Ok(MaxMemory(limit)),
    }
}

/// Parses `64`, `[16,16]`, `[32,32,1]` into (x, y, z) with 1 for dimensions not given.
pub fn parse_dim(s: &str) -> Result<[u32; 3], String> {
    let inner = s.trim().trim_start_matches('[').trim_end_matches(']');
    let parts: Vec<&str> = inner.split(',').map(str::trim).collect();
    if parts.is_empty() || parts.len() > 3 {
        return Err(format!("expected N, [X,Y] or [X,Y,Z], got `{s}`"));
    }
    let mut out = [1u32; 3];
    for (i, p) in parts.iter().enumerate() {
        let v: u32 = p.parse().map_err(|_| format!("`{p}` is not a positive integer"))?;
        if v == 0 {
            return Err("dimensions must be positive".into());
        }
        out[i] = v;
    }
    Ok(out)
}

/// Parses `--global_offset`: `N`, `[X,Y]` or `[X,Y,Z]` (commas without brackets too), 0 where
/// not given.
pub(super) fn parse_offset(s: &str) -> Result<[u64; 3], String> {
    let inner = s.trim().trim_start_matches('[').trim_end_matches(']');
    let parts: Vec<&str> = inner.split(',').map(str::trim).collect();
    if parts.len() > 3 {
        return Err(format!("expected N, [X,Y] or [X,Y,Z], got `{s}`"));
    }
    let mut out = [0u64; 3];
    for (i, p) in parts.iter().enumerate() {
        out[i] = p.parse().map_err(|_| format!("`{p}` is not a non-negative integer"))?;
    }
    Ok(out)
}

/// Parses a dimension like [`parse_dim`], where a component `*` is symbolic (`None`).
pub fn parse_dim_partial(s: &str) -> Result<[Option<u32>; 3], String> {
    let inner = s.trim().trim_start_matches('[').trim_end_matches(']');
    let parts: Vec<&str> = inner.split(',').map(str::trim).collect();
    let mut out = [Some(1u32); 3];
    if parts.len() > 3 {
        return Err(format!("expected N, [X,Y] or [X,Y,Z], got `{s}`"));
    }
    for (i, p) in parts.iter().enumerate() {
        out[i] = if *p == "*" { None } else { Some(parse_dim(p)?[0]) };
    }
    Ok(out)
}

/// `KERNEL,V1,V2,…` of `--kernel-args`: the kernel's name and its scalar parameters' values
/// (`None` for `*`).
///
/// # Errors
/// No kernel name, or a value that is neither `*` nor a decimal or `0x` hexadecimal integer.
pub(super) fn parse_kernel_args(a: &str) -> Result<(String, Vec<Option<num_bigint::BigInt>>), String> {
    let mut parts = a.split(',').map(str::trim);
    let name = parts
        .next()
        .filter(|n| !n.is_empty())
        .ok_or_else(|| format!("--kernel-args `{a}`: no kernel name"))?;
    let values = parts
        .map(|v| match v {
            "*" => Ok(None),
            _ => check::parse_int(v)
                .map(Some)
                .map_err(|e| format!("--kernel-args `{a}`: {e} (decimal, 0x-hexadecimal or `*`)")),
        })
        .collect::<Result<Vec<_>, String>>()?;
    Ok((name.to_string(), values))
}

/// GPUVerify flags that do not apply to gpug: accepted, ignored with a note.
/// Each either changes only how GPUVerify runs (its logs, its solver's and clang's options, its
/// invariant inference) or narrows what it checks: ignoring one can only add findings, never
/// hide one.
const IGNORED_FLAGS: &[&str] = &[
    "--boogie-file",
    "--adversarial-abstraction",
    "--time",
    "--debug",
    "--vcgen-op",
    "--vcgen-opt",
    "--infer-info",
    "--cruncher-opt",
    "--clang-opt",
    "--only-log",
    "--invariants-as-candidates",
    "--k-induction-depth",
];

/// Removes GPUVerify's inapplicable flags from `args`, returning the notes to print; reads
/// clang's and nvcc's `-std=STD` as `--std=STD`.
pub fn strip_ignored_flags(args: Vec<String>) -> (Vec<String>, Vec<String>) {
    let mut kept = Vec::new();
    let mut notes = Vec::new();
    for a in args {
        let name = a.split('=').next().unwrap_or("");
        if let Some(std) = a.strip_prefix("-std=") {
            // clang's and nvcc's spelling of --std.
            kept.push(format!("--std={std}"));
        } else if IGNORED_FLAGS.contains(&name) {
            notes.push(format!(
                "note: ignoring GPUVerify flag `{a}`, which does not apply to gpug"
            ));
        } else {
            kept.push(a);
        }
    }
    (kept, notes)
}
