//! The command line: clap definitions, GPUVerify flag compatibility, exit codes.
//!
//! Owns: turning arguments into the driver's options (a verification's in `options`), running one [`Command`] on the file
//! (`run_command`), printing its report or error, and the exit code, computed in one place
//! ([`exit_code`]): 0 all kernels verified, 1 a defect found, 2 input or usage error
//! ([`EXIT_ERROR`]), 3 inconclusive (timeout, `unknown`, an annotation that could not be
//! checked). Must not: analyse anything itself, or format results (that is `report`'s job).

pub mod bank;
mod batch;
pub mod check;
pub mod compile_db;
mod live;
mod options;
mod values;

pub use options::LaunchMode;
use options::options;
pub use values::{MaxMemory, parse_dim, parse_dim_partial, strip_ignored_flags};
use values::{parse_cuda_version, parse_gpu_arch, parse_max_memory, parse_offset, parse_warp_size};

use crate::driver::show::{Show, ShowStage};
use crate::driver::{self, Command, RunOptions};
use crate::frontend::{FrontendError, FrontendOptions, Headers};
use crate::ir::eval::Geometry;
use crate::passes::PassOptions;
use crate::report::Render;
use crate::report::sarif::{Invocation, SarifLog};
use crate::solver;
use crate::verdict::{Outcome, Verdict};
use clap::{Parser, Subcommand};
use compile_db::CompileDb;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

/// Exit code of success without a verdict (`gpug solvers`, `--help`).
pub const EXIT_OK: i32 = 0;
/// Exit code of an input or usage error (also clang failing, a solver that cannot start).
pub const EXIT_ERROR: i32 = 2;
/// Exit code of an inconclusive result (also a run stopped at `--max-memory`).
pub const EXIT_INCONCLUSIVE: i32 = 3;

/// The exit code of a file's overall verdict: 0 verified, 1 defect, 3 inconclusive.
pub fn exit_code(verdict: Verdict) -> i32 {
    match verdict {
        Verdict::Verified => 0,
        Verdict::Defect => 1,
        Verdict::Inconclusive => EXIT_INCONCLUSIVE,
    }
}

/// Runs `command` on `file`, prints its report in `output`'s `--format` on stdout (text, JSON,
/// or a SARIF log) or its error on stderr (after `error_prefix`: `gpug bank` writes `error: `,
/// the others print the error as it is), writes the SARIF log to `--sarif FILE` if asked, and
/// returns the exit code (the format does not change it; a SARIF file that cannot be written
/// is [`EXIT_ERROR`]).
pub(crate) fn run_command<C>(
    file: &Path,
    common: &RunOptions,
    command: &C,
    output: &CommonArgs,
    error_prefix: &str,
) -> i32
where
    C: Command,
    C::File: Render + Outcome,
{
    // A text report is printed kernel by kernel as each is decided (issue 56 item 3), with a
    // spinner on a terminal.
    let streamed = output.format() == Format::Text;
    let result = match (streamed, live::live_terminal()) {
        (true, true) => live::run_live(file, common, command),
        (true, false) => live::run_streaming(file, common, command),
        (false, _) => driver::run(file, common, command),
    };
    let code = match &result {
        Ok(result) => {
            match output.format() {
                // Each kernel's report was printed as it was decided.
                Format::Text => {}
                Format::Json => println!("{}", result.json()),
                Format::Sarif => {}
            }
            exit_code(result.overall())
        }
        Err(driver::Error::Frontend(FrontendError::ClangFailed { stderr })) => clang_failed(file, stderr),
        // The file's kernels could not even be read within the bound: inconclusive, as a
        // kernel stopped at the bound is.
        Err(e) if e.is_memory() => {
            eprintln!("{error_prefix}{e}");
            EXIT_INCONCLUSIVE
        }
        Err(e) => {
            eprintln!("{error_prefix}{e}");
            EXIT_ERROR
        }
    };
    if !output.wants_sarif() {
        return code;
    }
    let mut log = SarifLog::new(std::env::current_dir().unwrap_or_default());
    match &result {
        Ok(r) => log.add(r),
        Err(e) => {
            let (why, span) = error_line(e);
            log.error(&file.display().to_string(), &why, span.as_ref());
        }
    }
    write_sarif(output, code, log)
}

/// `log`, the SARIF log of a run whose exit code is `code`, printed on stdout with `--format
/// sarif` and written to `--sarif FILE`. Returns `code`, or [`EXIT_ERROR`] when FILE cannot be
/// written (said on stderr).
fn write_sarif(output: &CommonArgs, code: i32, log: SarifLog) -> i32 {
    let invocation = Invocation {
        arguments: std::env::args().collect(),
        exit_code: code,
    };
    let text = log.finish(&invocation);
    if output.format() == Format::Sarif {
        println!("{text}");
    }
    if let Some(path) = &output.sarif
        && let Err(e) = std::fs::write(path, format!("{text}\n"))
    {
        eprintln!("error: cannot write the SARIF log to {}: {e}", path.display());
        return EXIT_ERROR;
    }
    code
}

/// One line saying why `e` left a file without a verdict (clang's first error, or the error's
/// first line), and the place in the source it names, if any.
fn error_line(e: &driver::Error) -> (String, Option<crate::ir::Span>) {
    match e {
        driver::Error::Frontend(FrontendError::ClangFailed { stderr }) => {
            let first = stderr.lines().find(|l| l.contains("error")).unwrap_or("").trim();
            (format!("clang could not compile it: {first}"), None)
        }
        driver::Error::Frontend(FrontendError::Unsupported { span, .. } | FrontendError::OverLimit { span, .. }) => {
            (batch::first_line(&e.to_string()), Some(span.clone()))
        }
        e => (batch::first_line(&e.to_string()), None),
    }
}

/// gpug: verifies CUDA and OpenCL kernels for data races and barrier divergence.
///
/// Every `__global__` kernel of FILE (every `__kernel` of an OpenCL `.cl` file) is lowered
/// through clang, converted to SSA and encoded as
/// SMT-LIB2 bit-vector formulas over two symbolic threads (the pair model), split by barrier
/// intervals, and each property is asked of an SMT solver. A defect is printed with a witness
/// from the solver's model: both accesses with their source lines, both threads' blockIdx and
/// threadIdx, the kernel's parameter values and the racing index.
///
/// Exit codes: 0 all kernels verified, 1 a defect found, 2 input or usage error,
/// 3 inconclusive.
#[derive(Parser, Debug)]
#[command(name = "gpug", version, args_conflicts_with_subcommands = true, max_term_width = 100)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Cmd>,
    #[command(flatten)]
    pub verify: VerifyArgs,
}

/// Subcommands besides verification.
#[derive(Subcommand, Debug)]
pub enum Cmd {
    /// Lists the SMT solvers gpug knows and whether each is installed, with its version.
    Solvers,
    /// Checks assertions (`assert`, `__assert`, `__ensures`) for a fixed launch, every thread
    /// explicit (PUG §7); exit 0 all hold, 1 one fails or a race, 2 input error, 3 inconclusive.
    Check(Box<check::CheckArgs>),
    /// Shared-memory bank conflicts per access, with degree and witness (needs --blockDim).
    Bank(Box<bank::BankArgs>),
}

/// Arguments of verification (the default command).
#[derive(clap::Args, Debug)]
pub struct VerifyArgs {
    /// The CUDA source file (.cu) or OpenCL C one (.cl). Several files, or a directory (searched
    /// for `.cu` and `.cl` files, recursively, in name order; with -p, the compilation
    /// database's files under it, and with -p alone, all of them), verify each one: each
    /// file's report, then a table of every kernel's verdict, time and solver (`--json`: one
    /// object per file, one per line; `--format sarif`: one SARIF log of every file, no
    /// table). A file's second line, when it is a comment of flags (GPUVerify's
    /// `//--blockDim=64 --gridDim=4 -DN=8`), gives the file's flags, under those of the command
    /// line. Exit code of such a run: 1 if any kernel has a defect, else 2 if any file could not be verified
    /// (an input error), else 3 if any kernel is inconclusive, else 0.
    #[arg(value_name = "FILE|DIR")]
    pub file: Vec<PathBuf>,

    /// With several files: verify only shard I of N (`--shard 2/4`: the 2nd, 6th, 10th, … of
    /// the files in name order), so that N machines of a CI matrix share a code base.
    #[arg(long, value_name = "I/N", value_parser = batch::parse_shard)]
    pub shard: Option<(usize, usize)>,

    #[command(flatten)]
    pub common: CommonArgs,

    /// Threads per block: `64`, `[16,16]` or `[8,8,4]`. Dimensions not given are 1, and a `*`
    /// makes one symbolic (`[*,1,1]`: any number of threads in x); without the flag all three
    /// are symbolic (positive, within CUDA's limits).
    /// OpenCL's --local_size (work-items per work-group) is the same flag.
    #[arg(long = "blockDim", visible_alias = "local_size", value_name = "DIM", value_parser = parse_dim_partial)]
    pub block_dim: Option<[Option<u32>; 3]>,

    /// Blocks per grid, as for --blockDim; OpenCL's --num_groups (work-groups) is the same flag.
    #[arg(long = "gridDim", visible_alias = "num_groups", value_name = "DIM", value_parser = parse_dim_partial)]
    pub grid_dim: Option<[Option<u32>; 3]>,

    /// Which launches each kernel is verified for. `host` (the default): at each distinct
    /// launch the file's host code makes (`k<<<grid, block>>>(args)`, `cudaLaunchKernel`, also
    /// in helpers called from `main`), with the geometry and argument values the host code
    /// makes known assumed (literals, macros, constants, `dim3`s, locals assigned once, their
    /// arithmetic; what it cannot follow stays symbolic), the report naming the launch; a
    /// kernel no host code launches is verified for every launch. `symbolic`: every launch,
    /// ignoring host code. --blockDim, --gridDim or --global_size replace the host's launches.
    #[arg(long, value_enum, value_name = "WHICH", default_value = "host")]
    pub launch: LaunchMode,

    /// OpenCL's global size (work-items in all, per dimension), as for --blockDim: the
    /// work-groups are then the global size divided by --local_size, which must divide it.
    /// Not with --num_groups.
    #[arg(long = "global_size", value_name = "DIM", value_parser = parse_dim_partial, conflicts_with = "grid_dim")]
    pub global_size: Option<[Option<u32>; 3]>,

    /// Limit per solver query, in seconds of the solver's CPU time, counting the time a
    /// restarted solver takes to read the kernel's script. CPU time, not wall-clock time, so
    /// that a file gets the same report on an idle machine and on a busy one; a query that
    /// makes no progress at all for as long (neither the solver nor gpug's thread talking to it
    /// uses CPU time: a solver waiting for input after a malformed answer) is stopped too. On expiry the solver is killed and the verdict is inconclusive (a solver
    /// that cannot read a kernel's script in time is not asked again).
    #[arg(long, value_name = "SECONDS", default_value_t = 60.0)]
    pub timeout: f64,

    /// Most iterations a loop with a concrete trip count is unrolled to; longer loops and loops
    /// whose trip count is not concrete are abstracted (PUG §6).
    #[arg(long, value_name = "N", default_value_t = 64)]
    pub unroll: u32,

    /// Unroll every loop N times and assume it exits then (GPUVerify's bounded unwinding):
    /// the verdict then holds only for executions with at most N iterations per loop.
    #[arg(long = "loop-unwind", value_name = "N")]
    pub loop_unwind: Option<u32>,

    /// Derive no loop invariants (GPUVerify's --no-infer): an abstracted loop keeps only its
    /// `__invariant`s, and its loop-carried variables are havocked instead of given closed
    /// forms (PUG §6), so an invariant must be inductive on its own.
    #[arg(long = "no-infer")]
    pub no_infer: bool,

    /// Check that every access to an array of known size (a declared `__shared__`, `__local`
    /// or private array) stays within it, as an assertion at the access (GPUVerify's
    /// --check-array-bounds). Arrays behind pointer parameters have the host's size and are not
    /// checked.
    #[arg(long = "check-array-bounds")]
    pub check_array_bounds: bool,

    /// Check barrier divergence only (GPUVerify's --only-divergence).
    #[arg(long = "only-divergence")]
    pub only_divergence: bool,

    /// Do not check that a barrier invariant reads only locations that one of the two threads
    /// accessed since the last barrier (GPUVerify's --no-barrier-access-checks). Without the check,
    /// an invariant that reads a location some third thread writes in that interval may be assumed
    /// although it does not hold: only for kernels whose invariants were checked with it (Chong et
    /// al. (OOPSLA 2013), section 3.2).
    #[arg(long = "no-barrier-access-checks")]
    pub no_barrier_access_checks: bool,

    /// Ask whether each barrier invariant holds once per value of the checking thread's
    /// threadIdx.x (needs a concrete --blockDim): blockDim.x smaller queries instead of one;
    /// and whether it reads only known locations (the access check) once per range of at most
    /// 8 ranges of threadIdx.x.
    /// Invariants that sum over ranges depending on the thread (a scan's partial sums) are
    /// then ground arithmetic the solvers simplify, where the whole query runs into --timeout.
    /// The verdict is the same; a failing invariant is reported once, at the first failing
    /// thread.
    #[arg(long = "split-invariants")]
    pub split_invariants: bool,

    /// Fix scalar parameters on entry. GPUVerify's form `--kernel-args=foo,0x3,*,12`: kernel
    /// foo's scalar parameters in order (`*` leaves one free); or gpug check's form
    /// `--kernel-args n=4,k=-1`, by name (as `--assume 'n == 4 && k == -1'`). Decimal or
    /// 0x-hexadecimal, taken modulo the parameter's width. May be repeated.
    #[arg(long = "kernel-args", value_name = "KERNEL,V1,… | NAME=V,…")]
    pub kernel_args: Vec<String>,

    /// Also check, each on its own, the file's device functions that have a contract
    /// (`__requires`/`__ensures`) or that no kernel calls: for every caller, each thread
    /// passing arbitrary arguments of its own that satisfy the function's `__requires`, with
    /// its `__ensures` checked at its exits (GPUVerify's modular checking, whose --no-inline
    /// is taken as this flag). Calls from kernels are still inlined. Not with --kernel.
    #[arg(long = "modular", alias = "no-inline")]
    pub modular: bool,

    /// Staged verification (Chong et al. (OOPSLA 2013) section 3.3): `races` checks races and
    /// barrier divergence (with the barrier and loop invariants they rest on) but not assertions or
    /// postconditions; `functional` checks those with race checking off, which is sound once
    /// `races` has verified the kernel; `all` (the default) checks everything at once. The report
    /// gives the stage of each verdict.
    #[arg(long, value_enum, default_value_t = crate::verdict::Stage::All)]
    pub stage: crate::verdict::Stage,

    /// Check only races between threads of one block (work-group), as GPUVerify's
    /// --only-intra-group: races between blocks are not looked for, and the report says so.
    #[arg(long = "only-intra-group")]
    pub only_intra_group: bool,

    /// List every loop with its treatment: unrolled, or abstracted with the closed forms
    /// derived, the variables havocked and the invariants given.
    #[arg(long)]
    pub explain: bool,

    /// Assume that no integer `+`, `-`, `*` overflows its type (PUG's `+O`); said in the
    /// report, since a defect that needs an overflow is then not found.
    #[arg(long = "no-overflow")]
    pub no_overflow: bool,

    /// Report each signed `+`, `-`, `*` of the source (in `int` or `long`, after C's integer
    /// promotions) that some thread can reach while it overflows, as a defect of its own kind
    /// (UBSan's `signed-integer-overflow`: undefined behaviour in C++ and OpenCL C), with a
    /// witness: the thread, the launch and the parameters. Unsigned arithmetic wraps as C++
    /// defines it and is never reported. One query per operation. Without it, a race or
    /// assertion that exists only when such an operation overflows is listed apart, with
    /// that operation as its condition (see --strict).
    #[arg(long = "check-overflow")]
    pub check_overflow: bool,

    /// Report every finding as a defect. Without it, under a launch left symbolic, a kernel
    /// whose findings all need a launch outside the standard assumptions (each dimension the
    /// kernel never reads has extent 1; `gridDim * blockDim` of each dimension it reads stays
    /// within 2^32, else 2^31, so the linear thread index does not wrap) is verified for
    /// launches where they hold: the verdict lists that launch contract and each finding it
    /// excludes, with its condition; a defect lists its findings of other launches apart;
    /// likewise a finding that needs a signed `int` `+`, `-`, `*` of the source to overflow
    /// (undefined behaviour), named with that operation and its line; a
    /// finding that a parameter relation (`n % blockDim.x == 0`, …) excludes carries its
    /// condition, and a relation under which gpug verified the kernel is suggested as an
    /// --assume, never assumed. These are sizes the program cannot have (a 2^32-element array,
    /// a grid of 2^30 blocks, an `int` offset past 2^31), and --strict reports them as
    /// defects, with the findings whose exclusion a timeout left undecided (listed apart, the
    /// verdict then inconclusive). --strict also reports benign races as races (as --no-benign).
    #[arg(long)]
    pub strict: bool,

    /// Report benign write-write races as races (GPUVerify's --no-benign). A write-write race
    /// is benign when both threads store the same value at the same place whenever they race
    /// (every thread setting `flag[0] = 1`): by default, as in GPUVerify, it is listed as a
    /// note and the kernel can still be verified.
    #[arg(long = "no-benign", alias = "no-benign-tolerance")]
    pub no_benign: bool,

    /// Judge a write-write race benign also when the values written come from memory
    /// (GPUVerify's --equality-abstraction): both threads read the same value from one
    /// location, as the equality abstraction has them. Without it, as under GPUVerify's default
    /// adversarial abstraction, a value that depends on a read of memory differs between the
    /// threads, so `out[0] = in[0]` by every thread is a race. gpug's model of memory is the
    /// equality abstraction either way.
    #[arg(long = "equality-abstraction")]
    pub equality_abstraction: bool,

    /// The lock-step warp model of kernels written before CUDA 9 (GPUVerify's --warp-sync, Bardsley
    /// and Donaldson (NFM 2014) section 3): the N consecutive threads of a warp (N a power of two,
    /// at most 1024) execute each statement together, reads before writes, so two threads of one
    /// warp race only when both write at one statement; threads of different warps as without it.
    /// An array's values are forgotten after each statement that writes it (the warp's other lanes
    /// wrote it too; Bardsley and Donaldson (NFM 2014) section 3). Without it, as on GPUs since
    /// Volta, a warp has no implicit synchrony: only `__syncwarp` and barriers order its threads.
    #[arg(long = "warp-sync", value_name = "N", value_parser = parse_warp_size)]
    pub warp_sync: Option<u32>,

    /// How each race query is built. `linear` (the default): per array and barrier interval,
    /// each of the two threads chooses one of its accesses and the race condition is stated
    /// once over the two chosen ones (GPUVerify's access-log instrumentation), so a query grows
    /// with the accesses. `pairwise`: PUG's query, one disjunct per conflicting pair of
    /// accesses, which grows with their square. Both give the same verdicts; kernels with locks
    /// or flags always get pairwise queries.
    #[arg(long = "race-encoding", value_name = "ENCODING", value_enum, default_value_t = RaceEncoding::Linear)]
    pub race_encoding: RaceEncoding,

    /// How many racing pairs of source locations to list per race check, each with its own
    /// witness (1 to 8; default 8, so that the pair a fix needs is not hidden behind another):
    /// after a race is found, its query is asked again with the pairs found so far excluded
    /// (one more solver query per pair, asked only when a race is reported), and a note says
    /// when more pairs race than are listed. `--race-pairs 1` lists one pair per check (as
    /// `--race-encoding pairwise` always does).
    #[arg(long = "race-pairs", value_name = "N", default_value_t = 8, value_parser = clap::value_parser!(u64).range(1..=8))]
    pub race_pairs: u64,
}

/// `--race-encoding`: how race queries are built ([`crate::encode::EncodeOptions::pairwise_races`]).
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum RaceEncoding {
    /// One selector per thread: linear in the accesses.
    Linear,
    /// One disjunct per pair of accesses: quadratic.
    Pairwise,
}

/// Arguments every command shares: which kernel, clang's input, the solver, the output form.
#[derive(clap::Args, Debug)]
pub struct CommonArgs {
    /// Whether the command needs SMT-LIB's FloatingPoint theory (`gpug check --float ieee`): the
    /// default solver is then one that has it (not yices). Set by the command, not a flag.
    #[arg(skip)]
    pub needs_floats: bool,

    /// Only this kernel (plain name, or `name<args>` for a template instantiation).
    #[arg(long, value_name = "NAME")]
    pub kernel: Option<String>,

    /// Read only FILE's host code for the launches. By default, when FILE does not define
    /// `main`, the C, C++ and CUDA files of its folder that call its functions (a `main.cpp`
    /// calling FILE's `extern "C"` launch wrappers) are read too, and their calls give the
    /// launches' values; the report names the files read.
    #[arg(long = "single-file")]
    pub single_file: bool,

    /// Define a preprocessor macro for clang, as `-DN` or `-DN=4`.
    #[arg(short = 'D', value_name = "NAME[=V]")]
    pub defines: Vec<String>,

    /// Add an include directory for clang.
    #[arg(short = 'I', value_name = "DIR")]
    pub include_dirs: Vec<PathBuf>,

    /// The compilation database (as clang-tidy's -p): a build folder holding
    /// compile_commands.json (CMake's -DCMAKE_EXPORT_COMPILE_COMMANDS=ON, Bear), or that file;
    /// each file is verified with its entry's -D, -I, -std and GPU architecture.
    ///
    /// A file's entry gives its -D, -U, -I, -isystem, -iquote, -idirafter, -include and -std
    /// (nvcc's spellings too), in the entry's order, and its GPU architecture (clang's
    /// --cuda-gpu-arch, nvcc's -arch, -code, -gencode: the highest named) unless --gpu-arch is
    /// given; the command line's -D and -I come after the entry's (a -D there wins; its -I are
    /// searched after the entry's). A file with no entry is verified with the command line's
    /// flags only, with a note. A directory argument, or no file argument at all, verifies the
    /// database's .cu and .cl files under it (all of them), not the files found on disk. A file
    /// whose entries differ in those flags (one file in two targets) is verified once per
    /// distinct set, named by the flags that set it apart (`gpug check` and `gpug bank` take
    /// the first, with a note).
    #[arg(short = 'p', value_name = "BUILD_DIR")]
    pub compile_db: Option<PathBuf>,

    /// The clang to run (default: `clang`, then `clang-19` down to `clang-14` on PATH).
    #[arg(long, value_name = "PATH")]
    pub clang: Option<PathBuf>,

    /// The C++ standard of CUDA files, as clang's and nvcc's `-std` (`c++14`, `c++17`,
    /// `c++20`, `gnu++17`; `-std=c++20` is read as `--std=c++20`). Default c++17, as nvcc 11
    /// and later; a compilation database's entry (-p) gives its own, under this flag.
    #[arg(long = "std", value_name = "STD")]
    pub cxx_std: Option<String>,

    /// Pass ARG to clang as it is, after gpug's own flags and before the file (repeat for
    /// several: `--clang-arg=-fms-extensions --clang-arg=-Wno-error=register`). It applies
    /// to NVIDIA's precompiled headers too (cached per set of flags).
    #[arg(long = "clang-arg", value_name = "ARG", allow_hyphen_values = true)]
    pub clang_args: Vec<String>,

    /// NVIDIA's CUDA headers: a folder with `include/cuda_runtime.h` and `include/crt/`
    /// (default: $GPUG_CUDA_PATH, else /usr/local/share/gpug/cuda-12.8 for CUDA 12.8 and
    /// /usr/local/share/gpug/cuda for 11.8, where scripts/install-deps.sh puts them). They are
    /// precompiled once per clang and CUDA version into a cache in the temporary directory.
    #[arg(long, value_name = "DIR", conflicts_with = "stub_headers")]
    pub cuda_path: Option<PathBuf>,

    /// The CUDA toolkit whose headers CUDA files are read with: `12.8` (the default, with
    /// clang 19 or newer: code under `#if CUDA_VERSION >= 12080` is read) or `11.8` (with the
    /// clang found on PATH, clang 14 on Debian 12: the last headers with texture references).
    /// Without it, a file that declares texture references (`texture<…>`, removed in CUDA
    /// 12) is read with 11.8, and so is every file when 12.8's headers or clang 19 are
    /// missing, each with a note.
    #[arg(long, value_name = "VERSION", value_parser = parse_cuda_version)]
    pub cuda_version: Option<crate::frontend::CudaVersion>,

    /// Parse with gpug's own stub headers instead of NVIDIA's (no texture references,
    /// cooperative groups or cuRAND); the default when NVIDIA's are not found.
    #[arg(long)]
    pub stub_headers: bool,

    /// The GPU architecture to compile for, as nvcc's `-arch` (default sm_80). It decides
    /// which intrinsics CUDA's headers declare: `__reduce_add_sync` and the other warp
    /// reductions need sm_80. It does not change gpug's semantics (no implicit warp synchrony
    /// on any; see --warp-sync).
    #[arg(long, value_name = "sm_NN", value_parser = parse_gpu_arch)]
    pub gpu_arch: Option<String>,

    /// The source language: `cuda` or `cl` (OpenCL C). Default: by the file's extension, `.cl`
    /// for OpenCL C, any other for CUDA.
    #[arg(short = 'x', value_name = "LANG", value_parser = ["cuda", "cu", "cl"])]
    pub language: Option<String>,

    /// Read the file as OpenCL C, whatever its extension (as `-x cl`).
    #[arg(long)]
    pub opencl: bool,

    /// OpenCL C's version, as clang's -cl-std (default CL1.2).
    #[arg(long = "cl-std", value_name = "CLX.Y", value_parser = crate::frontend::CL_STDS.to_vec())]
    pub cl_std: Option<String>,

    /// OpenCL's global offset per dimension (`get_global_offset(d)`, added to every
    /// `get_global_id(d)`): `64` or `[0,16]`. Default 0 in every dimension, as in GPUVerify and
    /// for a NULL offset of clEnqueueNDRangeKernel.
    #[arg(long = "global_offset", value_name = "DIM", value_parser = parse_offset)]
    pub global_offset: Option<[u64; 3]>,

    /// The solver: z3, cvc5, yices (yices-smt2) or bitwuzla. Default: the first of yices, z3,
    /// cvc5 on PATH (yices decided as many of GPUVerify's kernels, fastest; z3 first for
    /// `gpug check --float ieee`, which yices cannot answer). Several, comma-separated (`z3,yices`), or `portfolio` (every one of the
    /// four that is installed), make a portfolio: each query is raced by all of them; an
    /// answer (`sat`, its model checked, or `unsat`) stands once a second solver gives the
    /// same, or when no other answers within three times its time (at least 5 s); a solver
    /// answering sat and another unsat is a
    /// disagreement: neither is trusted, the query is written as a .smt2 file and the verdict
    /// is inconclusive (exit 3). The report names the solvers that answered
    #[arg(long, value_name = "NAME[,NAME…]")]
    pub solver: Option<String>,

    /// Any SMT-LIB 2 solver with an interactive mode, as 'PROGRAM ARGS', split into words as a
    /// shell would (quotes, backslashes) but not run by one. It must read SMT-LIB 2 on standard
    /// input and answer `success` (`:print-success`): a program that answers otherwise is
    /// reported as not a solver, and one that does not answer within --timeout (at most 10 s)
    /// is killed with its children. May be repeated, and given with --solver: all of them
    /// then make a portfolio
    #[arg(long, value_name = "CMD")]
    pub solver_cmd: Vec<String>,

    /// Solver processes at once (default: the number of processors). With several files, N
    /// files are verified at once, each asking its queries one after another; with one file,
    /// its kernel's queries are shared among N solver processes, each holding the kernel's
    /// formula once (`--jobs 1`: one process, queries one after another). Reports and
    /// witnesses come in source order whatever order the answers arrive in
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(usize))]
    pub jobs: Option<usize>,

    /// The most memory gpug may use (resident set, sampled as the run goes), and the most
    /// each solver process may allocate: `8G`, `512M`, `1.5G` (units K, M, G, T: powers of
    /// 1024), at least 64M; `0` or `none` for no limit. Default: half of the machine's memory (or of its
    /// cgroup's limit), at most 8G. A kernel whose analysis reaches it is inconclusive
    /// (exit 3) with the reason (`memory limit of 8 GiB exceeded … while encoding the race
    /// check of `a` …`); the next kernel starts afresh. A stage that cannot stop (reading
    /// clang's AST) and keeps growing past 1.25 times the limit for 2 s ends the run
    /// (exit 3). A solver that needs more than the limit fails its query (inconclusive)
    #[arg(long = "max-memory", value_name = "SIZE", value_parser = parse_max_memory)]
    pub max_memory: Option<MaxMemory>,

    /// Write every query as a standalone .smt2 script into DIR.
    #[arg(long = "dump-smt2", value_name = "DIR")]
    pub dump_smt2: Option<PathBuf>,

    /// Say where each kernel's time went: the passes, the encoding, each query with its seconds
    /// and answer (the slowest first), and the launch contracts' re-verifications (JSON: the
    /// kernel's `profile`). Wall-clock seconds, for finding what is slow; they decide nothing.
    #[arg(long)]
    pub profile: bool,

    /// The report's form on stdout: `text` (the default), `json` (one JSON object per file, as
    /// --json) or `sarif` (one SARIF 2.1.0 log for the whole run, as GitHub code scanning reads
    /// it: a result per finding, rule ids `data-race`, `barrier-divergence`, `assertion`,
    /// `loop-invariant`, `barrier-invariant`, `bank-conflict`, `inconclusive`; with several
    /// files, one run holding every file's results and no table). The exit code is the same in
    /// every form.
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub format: Option<Format>,

    /// Print one JSON object instead of text (the same as --format json).
    #[arg(long, conflicts_with = "format")]
    pub json: bool,

    /// Also write the results as a SARIF 2.1.0 log to FILE, beside the report --format prints
    /// (with several files: one log for all of them). A FILE that cannot be written is exit 2.
    #[arg(long, value_name = "FILE")]
    pub sarif: Option<PathBuf>,

    /// Assume a C condition over the kernel's parameters and the launch geometry, e.g.
    /// `--assume 'n > 0 && n % blockDim.x == 0'` (PUG's `+C`); may be repeated. It is
    /// type-checked by clang inside every selected kernel (`--kernel` picks one) and assumed on
    /// entry, as `__requires(e)` as the kernel's first statement would be.
    #[arg(long = "assume", value_name = "EXPR")]
    pub assume: Vec<String>,

    /// Print a stage of the pipeline for each kernel on stdout, ahead of the report:
    /// `lowered` (the kernel as the front end lowered it, in the IR's text form: a line per
    /// statement, its source line:column as a trailing comment), `passes` (the kernel after
    /// each pass: `bounds` with --check-array-bounds, `sync`, `loops`), `ssa` (the encoder's
    /// SSA: the SMT-LIB declarations, definitions and path conditions its queries share),
    /// `queries` (each query's name, property and size). Comma-separated or repeated
    /// (`--show=passes,queries`). Launch contracts' re-verifications are not shown.
    #[arg(long, value_enum, value_name = "STAGE", value_delimiter = ',')]
    pub show: Vec<ShowArg>,

    /// Check that the IR is well formed after lowering and after every pass (always on in
    /// debug builds): variables defined before use, operand types, nesting, labels, statement
    /// kinds per stage. A broken invariant is an internal error (exit 2) that names the pass
    /// and the statement, never a verdict. GPUG_VALIDATE=1 in the environment does the same
    /// (`cargo test` sets it).
    #[arg(long)]
    pub validate: bool,
}

/// Whether `GPUG_VALIDATE=1` is in the environment: the same as `--validate` (the repository's
/// `.cargo/config.toml` sets it for `cargo test`, so every test validates the IR).
fn validate_from_env() -> bool {
    std::env::var_os("GPUG_VALIDATE").is_some_and(|v| v == "1")
}

/// A stage `--show` prints ([`crate::driver::show::ShowStage`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ShowArg {
    /// The kernel after lowering.
    Lowered,
    /// The kernel after each pass.
    Passes,
    /// The encoder's SSA.
    Ssa,
    /// Each query's name, property and size.
    Queries,
}

impl ShowArg {
    fn stage(self) -> ShowStage {
        match self {
            ShowArg::Lowered => ShowStage::Lowered,
            ShowArg::Passes => ShowStage::Passes,
            ShowArg::Ssa => ShowStage::Ssa,
            ShowArg::Queries => ShowStage::Queries,
        }
    }
}

/// The form of the report on stdout (`--format`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// The human report.
    Text,
    /// One JSON object per file (`--json`).
    Json,
    /// One SARIF 2.1.0 log for the run.
    Sarif,
}

impl CommonArgs {
    /// The report's form: `--format`, else JSON with `--json`, else text.
    pub fn format(&self) -> Format {
        match (self.format, self.json) {
            (Some(f), _) => f,
            (None, true) => Format::Json,
            (None, false) => Format::Text,
        }
    }

    /// Whether a SARIF log is wanted: `--format sarif` or `--sarif FILE`.
    pub fn wants_sarif(&self) -> bool {
        self.format() == Format::Sarif || self.sarif.is_some()
    }

    /// Starts the memory bound of `--max-memory` ([`crate::memory::start`], default
    /// [`crate::memory::default_limit`]). Its last resort prints the reason on stderr, kills
    /// every solver process and exits with code 3 (inconclusive).
    pub fn start_memory_bound(&self) {
        let limit = match self.max_memory {
            Some(MaxMemory(l)) => l,
            None => Some(crate::memory::default_limit()),
        };
        crate::memory::start(limit, |e| {
            eprintln!("error: {e}");
            solver::kill_all();
            std::process::exit(EXIT_INCONCLUSIVE);
        });
    }

    /// The front end's options for these arguments.
    pub fn frontend(&self) -> FrontendOptions {
        FrontendOptions {
            clang: self.clang.clone(),
            defines: self.defines.clone(),
            include_dirs: self.include_dirs.clone(),
            preprocessor: Vec::new(),
            cxx_std: self.cxx_std.clone(),
            clang_args: self.clang_args.clone(),
            kernel: self.kernel.clone(),
            assumptions: self.assume.clone(),
            kernel_args: Vec::new(),
            headers: match (&self.cuda_path, self.stub_headers) {
                (_, true) => Headers::Stubs,
                (Some(dir), false) => Headers::At(dir.clone()),
                (None, false) => Headers::Auto,
            },
            cuda_version: self.cuda_version,
            gpu_arch: self.gpu_arch.clone(),
            language: match (self.opencl, self.language.as_deref()) {
                (true, _) | (_, Some("cl")) => Some(crate::ir::Language::OpenCl),
                (false, Some(_)) => Some(crate::ir::Language::Cuda),
                (false, None) => None,
            },
            cl_std: self.cl_std.clone(),
            global_offset: self.global_offset.unwrap_or([0; 3]),
            work_dim: None,
            modular: false,
            single_file: self.single_file,
        }
    }

    /// The compilation database of `-p`, read; `None` without `-p`. On an error its reason is
    /// printed and `Err` holds the exit code ([`EXIT_ERROR`]).
    pub fn compile_db(&self) -> Result<Option<CompileDb>, i32> {
        self.compile_db
            .as_deref()
            .map(CompileDb::load)
            .transpose()
            .map_err(|e| {
                eprintln!("error: {e}");
                EXIT_ERROR
            })
    }

    /// For a command that runs once per file (`gpug check`, `gpug bank`): its options for
    /// `file` ([`CommonArgs::run_options`]) with the flags of its entry in the database of `-p`
    /// ([`CommonArgs::apply_compile_db`]), once `geometry` is within CUDA's launch limits (an
    /// OpenCL file's are the device's). `Err`: the exit code, after the reason.
    pub fn file_run_options(
        &self,
        file: &Path,
        timeout: f64,
        geometry: Geometry,
        passes: PassOptions,
    ) -> Result<RunOptions, i32> {
        if let Some(why) = geometry.outside_limits().filter(|_| !self.is_opencl(file)) {
            eprintln!("error: {why} (CUDA's launch limits)");
            return Err(EXIT_ERROR);
        }
        let mut common = self.run_options(timeout, geometry, passes)?;
        self.apply_compile_db(file, &mut common.frontend)?;
        Ok(common)
    }

    /// For a command that runs once per file (`gpug check`, `gpug bank`): puts the flags of
    /// `file`'s entry in the database of `-p` under `fe` ([`compile_db::apply_first_entry`]). Nothing
    /// without `-p`. `Err`: the exit code of a database that cannot be read, after its reason.
    pub fn apply_compile_db(&self, file: &Path, fe: &mut FrontendOptions) -> Result<(), i32> {
        if let Some(db) = self.compile_db()? {
            compile_db::apply_first_entry(&db, file, fe);
        }
        Ok(())
    }

    /// Whether `file` is read as OpenCL C under these arguments.
    pub fn is_opencl(&self, file: &Path) -> bool {
        crate::frontend::language_of(file, &self.frontend()) == crate::ir::Language::OpenCl
    }

    /// The options every command shares, for `geometry`, `passes` and a per-query limit of
    /// `timeout` seconds; on a bad solver or limit, the error is printed and `Err` holds the
    /// exit code ([`EXIT_ERROR`]).
    pub fn run_options(&self, timeout: f64, geometry: Geometry, passes: PassOptions) -> Result<RunOptions, i32> {
        self.try_run_options(timeout, geometry, passes).map_err(|e| {
            eprintln!("error: {e}");
            EXIT_ERROR
        })
    }

    /// [`CommonArgs::run_options`], the error as its message (an unknown solver, a bad
    /// `--timeout`).
    pub fn try_run_options(
        &self,
        timeout: f64,
        geometry: Geometry,
        mut passes: PassOptions,
    ) -> Result<RunOptions, String> {
        passes.validate |= self.validate || validate_from_env();
        let mut solvers = self.solvers().map_err(|e| e.to_string())?;
        let solver = solvers.remove(0);
        let portfolio = match solvers.is_empty() {
            true => Vec::new(),
            false => [vec![solver.clone()], solvers].concat(),
        };
        if !(timeout > 0.0 && timeout.is_finite()) {
            return Err("--timeout must be a positive number of seconds".into());
        }
        let dump_source = self
            .dump_smt2
            .as_ref()
            .map(|_| dump_source(&std::env::args().collect::<Vec<_>>(), &geometry).into());
        Ok(RunOptions {
            frontend: self.frontend(),
            profile: self.profile,
            geometry,
            passes,
            solver,
            portfolio,
            jobs: self.jobs.unwrap_or_else(batch::default_jobs).max(1),
            timeout: Duration::from_secs_f64(timeout),
            dump_source,
            dump_dir: self.dump_smt2.clone(),
            host_launches: false,
            progress: None,
            show: match self.show.is_empty() {
                true => Show::default(),
                // The text form goes to stdout, as the report does (the driver does not print).
                false => Show::new(
                    self.show.iter().map(|s| s.stage()).collect(),
                    Arc::new(|text: &str| print!("{text}")),
                ),
            },
        })
    }

    /// The solvers named by `--solver` (comma-separated; `portfolio`: every registry solver
    /// installed) and `--solver-cmd`, in that order, else the first one installed; at least
    /// one, each once.
    ///
    /// Errors: a named solver is unknown or not on PATH, a command cannot be split, or no
    /// solver is installed.
    pub fn solvers(&self) -> Result<Vec<solver::SolverSpec>, solver::SolverError> {
        let mut out: Vec<solver::SolverSpec> = Vec::new();
        for name in self.solver.iter().flat_map(|s| s.split(',')).map(str::trim) {
            let specs = match name {
                "portfolio" => solver::installed(),
                n => vec![solver::by_name(n)?],
            };
            for spec in specs {
                if !out.contains(&spec) {
                    out.push(spec);
                }
            }
        }
        for c in &self.solver_cmd {
            out.push(solver::from_command(c)?);
        }
        if out.is_empty() {
            out.push(solver::default_solver(self.needs_floats)?);
        }
        Ok(out)
    }
}

/// Prints clang's diagnostics as clang printed them, then one line naming `file`; returns the
/// exit code of an input error.
fn clang_failed(file: &Path, stderr: &str) -> i32 {
    eprint!("{stderr}");
    eprintln!("error: clang could not compile {}", file.display());
    EXIT_ERROR
}

/// Runs the command line; returns the exit code.
pub fn main() -> i32 {
    crate::solver::kill_solvers_on_signals();
    let (args, notes) = strip_ignored_flags(std::env::args().collect());
    for n in notes {
        eprintln!("{n}");
    }
    let cli = match Cli::try_parse_from(&args) {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { EXIT_ERROR } else { EXIT_OK };
        }
    };
    match &cli.command {
        Some(Cmd::Check(a)) => a.common.start_memory_bound(),
        Some(Cmd::Bank(a)) => a.common.start_memory_bound(),
        None => cli.verify.common.start_memory_bound(),
        Some(Cmd::Solvers) => {}
    }
    match cli.command {
        Some(Cmd::Solvers) => {
            for (spec, status) in solver::available() {
                match status {
                    Ok(version) => println!("{:<9} {:<12} {}", spec.name, spec.program, version),
                    Err(e) => println!("{:<9} {:<12} not available: {}", spec.name, spec.program, e),
                }
            }
            EXIT_OK
        }
        Some(Cmd::Check(a)) => check::run(*a),
        Some(Cmd::Bank(args)) => bank::run(*args),
        None => verify(cli.verify, &args),
    }
}

fn verify(a: VerifyArgs, args: &[String]) -> i32 {
    let db = match a.common.compile_db() {
        Ok(db) => db,
        Err(code) => return code,
    };
    // One file with at most one flag set is verified alone; anything else is a batch.
    let entries = |f: &Path| db.as_ref().and_then(|db| db.flags_of(f)).map_or(0, <[_]>::len);
    let file = match a.file.as_slice() {
        [] if db.is_none() => {
            eprintln!("error: no input file (see `gpug --help`)");
            return EXIT_ERROR;
        }
        [one] if !one.is_dir() && a.shard.is_none() && entries(one) < 2 => one.clone(),
        _ => return batch::run(&a, args, db.as_ref()),
    };
    let (mut common, opts) = match options(&a) {
        Ok(o) => o,
        Err(why) => {
            eprintln!("error: {why}");
            return EXIT_ERROR;
        }
    };
    if let Some(db) = &db {
        compile_db::apply_first_entry(db, &file, &mut common.frontend);
    }
    run_command(&file, &common, &opts, &a.common, "")
}

/// Flags that say how gpug ran, not what it was asked: left out of a dump's `Command:` line,
/// so that the same question gives the same file whatever the solver, limit or folder.
const RUN_ONLY_FLAGS: &[&str] = &[
    "--dump-smt2",
    "--solver",
    "--solver-cmd",
    "--timeout",
    "--jobs",
    "--max-memory",
    "--sarif",
    "--format",
];

/// The `Command:` and `Launch:` lines of a dump's `:source`
/// ([`crate::solver::SessionOptions::dump_source`]): the command line `args` (the program
/// as `gpug`) without [`RUN_ONLY_FLAGS`] and `--json`, and the launch `geometry` (`*` for a
/// symbolic dimension).
fn dump_source(args: &[String], geometry: &Geometry) -> String {
    let mut kept = vec!["gpug".to_string()];
    let mut rest = args.iter().skip(1);
    while let Some(a) = rest.next() {
        let name = a.split_once('=').map_or(a.as_str(), |(n, _)| n);
        if RUN_ONLY_FLAGS.contains(&name) {
            if !a.contains('=') {
                rest.next();
            }
            continue;
        }
        if a == "--json" {
            continue;
        }
        kept.push(a.clone());
    }
    let dims = |d: &[Option<u32>; 3]| {
        let parts: Vec<String> = d.iter().map(|v| v.map_or("*".to_string(), |v| v.to_string())).collect();
        format!("[{}]", parts.join(","))
    };
    format!(
        "Command: {}\nLaunch: blockDim={} gridDim={}\n",
        kept.join(" "),
        dims(&geometry.block_dim),
        dims(&geometry.grid_dim)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dims() {
        assert_eq!(parse_dim("64"), Ok([64, 1, 1]));
        assert_eq!(parse_dim("[16,16]"), Ok([16, 16, 1]));
        assert_eq!(parse_dim("[32, 32, 2]"), Ok([32, 32, 2]));
        assert!(parse_dim("[1,2,3,4]").is_err());
        assert!(parse_dim("0").is_err());
        assert!(parse_dim("x").is_err());
        assert_eq!(parse_dim_partial("[*,1,1]"), Ok([None, Some(1), Some(1)]));
        assert_eq!(parse_dim_partial("8"), Ok([Some(8), Some(1), Some(1)]));
        assert_eq!(parse_dim_partial("[4,*]"), Ok([Some(4), None, Some(1)]));
        assert!(parse_dim_partial("[*,0]").is_err());
    }

    #[test]
    fn gpuverify_flags_are_stripped() {
        let args = [
            "gpug",
            "--no-inline",
            "--blockDim=64",
            "--boogie-file=x.bpl",
            "--time",
            "k.cu",
        ]
        .map(String::from)
        .to_vec();
        let (kept, notes) = strip_ignored_flags(args);
        // `--no-inline` is gpug's `--modular`, not ignored.
        assert_eq!(kept, ["gpug", "--no-inline", "--blockDim=64", "k.cu"]);
        assert_eq!(notes.len(), 2);
    }

    #[test]
    fn unknown_flag_is_usage_error() {
        let e = Cli::try_parse_from(["gpug", "--frobnicate", "k.cu"]).unwrap_err();
        assert!(e.use_stderr());
    }
}
