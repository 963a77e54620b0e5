//! `gpug bank`: the shared-memory bank-conflict subcommand (PUG (Li and Gopalakrishnan, FSE 2010),
//! §7).
//!
//! Exit codes: 0 every shared access is conflict-free (degree 1), 1 some access conflicts,
//! 2 input or usage error (also a missing `--blockDim`), 3 inconclusive.
//! Owns the subcommand's arguments and their translation into [`BankOptions`]; must not
//! analyse or print results itself (the driver and `report` do, through `run_command`).

use super::{EXIT_ERROR, parse_dim, run_command};
use crate::driver::{self, bank::BankOptions};
use crate::ir::eval::Geometry;
use crate::passes::PassOptions;
use crate::verdict::BankModel;
use std::path::PathBuf;

/// Shared-memory bank conflicts of every kernel, for a concrete block size.
///
/// For each access of a `__shared__` array: whether two lanes of one warp can touch different
/// words of one bank (pair model, for all parameter values: "conflict-free" is a proof), and
/// the degree, the largest number of distinct words of one bank that one warp touches in that
/// access, maximized by the SMT solver over parameter values and loop iterations, with a
/// witness (warp, threads, bank). Then per barrier interval and per kernel PUG's summary: HI
/// when at least half of the barrier intervals have a conflict, LO when fewer do.
///
/// The bank model: word = byte offset / bank width, bank = word mod banks; warps are
/// consecutive linear thread ids (x + y*blockDim.x + z*blockDim.x*blockDim.y). Accesses to the
/// same word are broadcasts, not conflicts; an element wider than the bank width counts every
/// word it touches.
///
/// Exit codes: 0 conflict-free, 1 some access conflicts, 2 input or usage error, 3
/// inconclusive.
#[derive(clap::Args, Debug)]
pub struct BankArgs {
    /// The CUDA source file (.cu).
    pub file: PathBuf,

    #[command(flatten)]
    pub common: super::CommonArgs,

    /// Threads per block: `64`, `[32,32]` or `[8,8,4]` (missing dimensions are 1). Required:
    /// which threads share a warp depends on it.
    #[arg(long = "blockDim", visible_alias = "local_size", value_name = "DIM", value_parser = parse_dim)]
    pub block_dim: Option<[u32; 3]>,

    /// Blocks per grid, as for --blockDim. Optional: without it the grid stays symbolic
    /// (any size within CUDA's limits), and the results hold for every grid.
    #[arg(long = "gridDim", visible_alias = "num_groups", value_name = "DIM", value_parser = parse_dim)]
    pub grid_dim: Option<[u32; 3]>,

    /// Number of shared-memory banks (32 on current GPUs, 16 on compute capability 1.x).
    #[arg(long, value_name = "N", default_value_t = 32)]
    pub banks: u32,

    /// Bytes per bank word (4 on current GPUs; 8 for the 64-bit bank mode of Kepler).
    #[arg(long = "bank-width", value_name = "BYTES", default_value_t = 4)]
    pub bank_width: u32,

    /// Limit per solver query, in seconds of the solver's CPU time (as for `gpug --timeout`);
    /// on expiry the result is inconclusive.
    #[arg(long, value_name = "SECONDS", default_value_t = 60.0)]
    pub timeout: f64,

    /// Most iterations a loop with a concrete trip count is unrolled to.
    #[arg(long, value_name = "N", default_value_t = 64)]
    pub unroll: u32,
}

/// Runs `gpug bank`; returns the exit code.
pub fn run(a: BankArgs) -> i32 {
    let Some(block_dim) = a.block_dim else {
        eprintln!("error: {}", driver::Error::SymbolicBlock);
        return EXIT_ERROR;
    };
    if a.banks == 0 || a.bank_width == 0 {
        eprintln!("error: --banks and --bank-width must be positive");
        return EXIT_ERROR;
    }
    let geometry = Geometry {
        block_dim: block_dim.map(Some),
        grid_dim: a.grid_dim.map(|d| d.map(Some)).unwrap_or([None; 3]),
    };
    let passes = PassOptions {
        unroll: a.unroll,
        ..PassOptions::default()
    };
    let common = match a.common.file_run_options(&a.file, a.timeout, geometry, passes) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let opts = BankOptions {
        model: BankModel {
            banks: a.banks,
            bank_width: a.bank_width,
            ..BankModel::default()
        },
    };
    run_command(&a.file, &common, &opts, &a.common, "error: ")
}

#[cfg(test)]
mod tests {
    use crate::cli::{Cli, Cmd};
    use clap::Parser;

    #[test]
    fn bank_flags_parse() {
        let cli = Cli::try_parse_from([
            "gpug",
            "bank",
            "--blockDim=[32,32]",
            "--banks",
            "16",
            "--bank-width",
            "8",
            "k.cu",
        ])
        .expect("parses");
        let Some(Cmd::Bank(b)) = cli.command else {
            panic!("not the bank subcommand")
        };
        assert_eq!(b.block_dim, Some([32, 32, 1]));
        assert_eq!((b.banks, b.bank_width), (16, 8));
        assert_eq!(b.grid_dim, None);
    }

    #[test]
    fn bank_defaults_are_todays_hardware() {
        let cli = Cli::try_parse_from(["gpug", "bank", "--blockDim=64", "k.cu"]).expect("parses");
        let Some(Cmd::Bank(b)) = cli.command else {
            panic!("not the bank subcommand")
        };
        assert_eq!((b.banks, b.bank_width), (32, 4));
    }
}
