//! `gpug check`: assertion checking for a fixed launch (PUG (Li and Gopalakrishnan, FSE 2010), §7).
//!
//! Exit codes: 0 all assertions hold, 1 an assertion fails or a race or divergence is found,
//! 2 input or usage error (also a launch that is not fully concrete), 3 inconclusive.
//! Owns the subcommand's arguments and their translation into [`CheckOptions`]; must not
//! analyse or print results itself (the driver and `report` do, through `run_command`).

use super::{EXIT_ERROR, run_command};
use crate::driver::check::CheckOptions;
use crate::encode::concrete::ConcreteOptions;
use crate::ir::eval::Geometry;
use crate::passes::PassOptions;
use num_bigint::BigInt;
use std::path::PathBuf;

/// How floats are encoded.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum FloatMode {
    /// Uninterpreted functions (PUG's choice): an assertion about float values is inconclusive.
    Opaque,
    /// SMT-LIB's FloatingPoint theory (z3, cvc5), round-to-nearest-even.
    Ieee,
}

/// Arguments of `gpug check`.
#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    /// The CUDA source file (.cu).
    pub file: PathBuf,

    #[command(flatten)]
    pub common: super::CommonArgs,

    /// Threads per block: `8`, `[4,2]` or `[2,2,2]` (required: the launch must be concrete).
    #[arg(long = "blockDim", visible_alias = "local_size", value_name = "DIM", value_parser = super::parse_dim)]
    pub block_dim: Option<[u32; 3]>,

    /// Blocks per grid, as for --blockDim (required).
    #[arg(long = "gridDim", visible_alias = "num_groups", value_name = "DIM", value_parser = super::parse_dim)]
    pub grid_dim: Option<[u32; 3]>,

    /// Limit per solver query, in seconds of the solver's CPU time (as for `gpug --timeout`).
    #[arg(long, value_name = "SECONDS", default_value_t = 300.0)]
    pub timeout: f64,

    /// Unroll every loop at most N times: loops whose trip count is not concrete for the launch
    /// (or exceeds N) are cut after N iterations, and the result then holds only for executions
    /// in which every loop runs at most N times (said in a note). Without it, loops with a
    /// concrete trip count (up to 64) are unrolled and any other loop makes the result
    /// inconclusive.
    #[arg(long, value_name = "N")]
    pub unroll: Option<u32>,

    /// Check every interleaving of shared and global accesses (schedule IDs, PUG §3) instead of
    /// the canonical serialization; skips the race check, so racy kernels can be checked.
    #[arg(long = "all-schedules")]
    pub all_schedules: bool,

    /// How floats are encoded.
    #[arg(long = "float", value_enum, default_value_t = FloatMode::Opaque)]
    pub float: FloatMode,

    /// Fix scalar parameters: `n=4,k=-1`.
    #[arg(long = "kernel-args", value_name = "NAME=V,...")]
    pub kernel_args: Vec<String>,
}

/// A decimal or 0x-hexadecimal integer, possibly negative.
pub(super) fn parse_int(s: &str) -> Result<BigInt, String> {
    let s = s.trim();
    let (neg, body) = match s.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, s),
    };
    let v = match body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
        Some(h) => BigInt::parse_bytes(h.as_bytes(), 16),
        None => BigInt::parse_bytes(body.as_bytes(), 10),
    }
    .ok_or_else(|| format!("`{s}` is not an integer"))?;
    Ok(if neg { -v } else { v })
}

/// Parses `--kernel-args` values (`n=4,k=-1`, possibly repeated).
pub fn parse_kernel_args(args: &[String]) -> Result<Vec<(String, BigInt)>, String> {
    let mut out = Vec::new();
    for a in args {
        for part in a.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (name, v) = part
                .split_once('=')
                .ok_or_else(|| format!("--kernel-args: expected NAME=VALUE, got `{part}`"))?;
            out.push((name.trim().to_string(), parse_int(v)?));
        }
    }
    Ok(out)
}

/// Runs `gpug check`; returns the exit code.
pub fn run(mut a: CheckArgs) -> i32 {
    a.common.needs_floats = a.float == FloatMode::Ieee;
    let geometry = Geometry {
        block_dim: a.block_dim.unwrap_or([1; 3]).map(Some),
        grid_dim: a.grid_dim.unwrap_or([1; 3]).map(Some),
    };
    let passes = PassOptions {
        unroll: a.unroll.unwrap_or(64),
        ..PassOptions::default()
    };
    let common = match a.common.file_run_options(&a.file, a.timeout, geometry, passes) {
        Ok(c) => c,
        Err(code) => return code,
    };
    if a.block_dim.is_none() || a.grid_dim.is_none() {
        eprintln!("error: `gpug check` needs a concrete launch: give --blockDim and --gridDim");
        return EXIT_ERROR;
    }
    let param_values = match parse_kernel_args(&a.kernel_args) {
        Ok(v) => v,
        Err(e) => {
            eprintln!("error: {e}");
            return EXIT_ERROR;
        }
    };
    let opts = CheckOptions {
        concrete: ConcreteOptions {
            schedules: a.all_schedules,
            float_ieee: a.float == FloatMode::Ieee,
            param_values,
        },
        bound: a.unroll,
    };
    run_command(&a.file, &common, &opts, &a.common, "")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kernel_args() {
        let v = parse_kernel_args(&["n=4,k=-1".into(), "m=0x10".into()]).unwrap();
        assert_eq!(
            v,
            vec![
                ("n".into(), BigInt::from(4)),
                ("k".into(), BigInt::from(-1)),
                ("m".into(), BigInt::from(16))
            ]
        );
        assert!(parse_kernel_args(&["n".into()]).is_err());
    }
}
