//! The command line of a verification as the driver's options ([`options`]): the launch
//! (CUDA's `--blockDim`/`--gridDim` or OpenCL's `--local_size`/`--global_size`, checked against
//! CUDA's limits), the passes, the front end's additions (`get_work_dim()`, `--kernel-args`),
//! and what to verify.

use super::values::parse_kernel_args;
use super::{VerifyArgs, check};
use crate::driver::{RunOptions, VerifyOptions};
use crate::ir::eval::Geometry;
use crate::passes::PassOptions;

/// `--launch`: which launches a kernel is verified for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum LaunchMode {
    /// At the launches the file's host code makes (kernels it does not launch: every launch).
    Host,
    /// Every launch the command line allows, ignoring host code.
    Symbolic,
}

/// The driver's options for `a`; `Err` why they are wrong (a launch outside CUDA's limits, an
/// unknown solver, a bad `--timeout`).
pub(super) fn options(a: &VerifyArgs) -> Result<(RunOptions, VerifyOptions), String> {
    let block_dim = a.block_dim.unwrap_or([None; 3]);
    let grid_dim = match a.global_size {
        Some(global) => groups_of(global, block_dim)?,
        None => a.grid_dim.unwrap_or([None; 3]),
    };
    // A global size over a symbolic local size: the product of the two counts is known.
    let global_products: Vec<String> = match a.global_size {
        Some(global) => (0..3)
            .filter_map(|d| match (global[d], block_dim[d]) {
                (Some(g), None) => Some(format!("get_local_size({d}) * get_num_groups({d}) == {g}")),
                _ => None,
            })
            .collect(),
        None => Vec::new(),
    };
    let geometry = Geometry { block_dim, grid_dim };
    // OpenCL leaves the limits to the device (CL_DEVICE_MAX_WORK_GROUP_SIZE).
    let opencl = !a.file.is_empty() && a.file.iter().all(|f| a.common.is_opencl(f));
    if let Some(why) = geometry.outside_limits().filter(|_| !opencl) {
        return Err(format!("{why} (CUDA's launch limits)"));
    }
    let passes = PassOptions {
        unroll: a.unroll,
        loop_unwind: a.loop_unwind,
        no_infer: a.no_infer,
        check_array_bounds: a.check_array_bounds,
        ..PassOptions::default()
    };
    let dims = work_dim(&geometry);
    let host_launches =
        a.launch == LaunchMode::Host && a.block_dim.is_none() && a.grid_dim.is_none() && a.global_size.is_none();
    let mut common = a.common.try_run_options(a.timeout, geometry, passes)?;
    common.host_launches = host_launches;
    common.frontend.work_dim = dims;
    common.frontend.modular = a.modular;
    common.frontend.assumptions.extend(global_products);
    for k in &a.kernel_args {
        match k.split(',').next().is_some_and(|first| first.contains('=')) {
            // `n=4,k=1`: by name, as assumptions clang checks in the kernel's scope.
            true => {
                for (name, v) in check::parse_kernel_args(std::slice::from_ref(k))? {
                    common.frontend.assumptions.push(format!("{name} == ({v})"));
                }
            }
            false => common.frontend.kernel_args.push(parse_kernel_args(k)?),
        }
    }
    let opts = VerifyOptions {
        only_divergence: a.only_divergence,
        no_barrier_access_checks: a.no_barrier_access_checks,
        split_invariants: a.split_invariants,
        only_intra_group: a.only_intra_group,
        explain: a.explain,
        no_overflow: a.no_overflow,
        check_overflow: a.check_overflow,
        strict: a.strict,
        benign: match (a.no_benign || a.strict, a.equality_abstraction) {
            (true, _) => crate::encode::Benign::Off,
            (false, false) => crate::encode::Benign::Adversarial,
            (false, true) => crate::encode::Benign::Equality,
        },
        warp_sync: a.warp_sync,
        pairwise_races: a.race_encoding == super::RaceEncoding::Pairwise,
        race_pairs: a.race_pairs as usize,
        stage: a.stage,
    };
    Ok((common, opts))
}

/// OpenCL's work-groups per dimension for `--global_size` `global` and `--local_size` `local`:
/// `global / local`, symbolic where either is.
///
/// # Errors
/// A dimension of `global` that `local` does not divide (GPUVerify's command-line error).
fn groups_of(global: [Option<u32>; 3], local: [Option<u32>; 3]) -> Result<[Option<u32>; 3], String> {
    let mut out = [None; 3];
    for d in 0..3 {
        out[d] = match (global[d], local[d]) {
            (Some(g), Some(l)) if g % l != 0 => {
                return Err(format!(
                    "dimension {d} of --global_size ({g}) is not a multiple of dimension {d} of --local_size ({l})"
                ));
            }
            (Some(g), Some(l)) => Some(g / l),
            _ => None,
        };
    }
    Ok(out)
}

/// OpenCL's `get_work_dim()` for a launch: 1 + the last dimension whose work-item or
/// work-group count is not 1 (`--local_size=[64,64]`: 2); `None` when a count is symbolic.
/// (A dimension of extent 1 on both counts is told from no dimension only by `get_work_dim()`,
/// which then says fewer.)
fn work_dim(g: &Geometry) -> Option<u32> {
    let mut dims = 1;
    for d in 0..3 {
        match (g.block_dim[d], g.grid_dim[d]) {
            (Some(1), Some(1)) => {}
            (Some(_), Some(_)) => dims = d as u32 + 1,
            _ => return None,
        }
    }
    Some(dims)
}
