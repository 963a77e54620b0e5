//! A file as the front end gives it: its kernels, and what it read of the file's host code
//! (the launches the program makes, the kernels it never launches, the other files read).
//! The kernel language itself is [`super`].

use super::{Expr, Kernel, Span};

/// The kernels of one source file.
#[derive(Clone, Debug, PartialEq)]
pub struct Program {
    /// The file as given on the command line.
    pub file: String,
    pub kernels: Vec<Kernel>,
    /// Notes on the file as a whole (host code the front end skipped), given once.
    pub notes: Vec<String>,
    /// The other files whose declarations the translation unit holds (the headers and
    /// `#include`d `.cu` files of the program, as clang names them; not NVIDIA's headers, which
    /// come precompiled), so that a batch run can tell a file verified through its includer.
    pub includes: Vec<String>,
    /// The program's other files read for the launches their host code makes
    /// (`frontend/program.rs`), with the files they include: part of the program's text, where
    /// a kernel's name may occur.
    pub other_files: Vec<String>,
    /// The launches of [`Program::kernels`] that the file's host code makes
    /// (`frontend/host/`, issue 43), distinct ones only, in source order.
    pub launches: Vec<HostLaunch>,
    /// Kernels (by index into [`Program::kernels`]) whose only launches are in host functions
    /// the program never calls, each with why, as a note's text: `launched only from
    /// `layernorm_backward1` (…), which nothing in the program calls …`
    /// (`frontend/host`, issue 53 item 2).
    pub unlaunched: Vec<(usize, String)>,
    /// Where the program's `main` is defined (`file:line`, as clang names the file), when the
    /// translation units read (the file and its program's other files) define it: the program
    /// is whole, so a kernel that none of its files names is never launched
    /// (`driver::pipeline`, issue 53 item 2). `None`: a partial program, or OpenCL.
    pub main: Option<String>,
}

/// A launch of a kernel read from the file's host code (`k<<<grid, block>>>(args)`,
/// `cudaLaunchKernel`): the geometry and argument values the host code makes known, as the
/// front end evaluated them (`frontend/host/`).
#[derive(Clone, Debug, PartialEq)]
pub struct HostLaunch {
    /// The index of the launched kernel in [`Program::kernels`].
    pub kernel: usize,
    /// Where the launch is written (the kernel's name at the launch).
    pub site: Span,
    /// The host functions from the outermost one interpreted to the one holding the launch,
    /// each calling the next at the line given (`["main (line 24)", "run"]`).
    pub callers: Vec<String>,
    /// The launch configuration as written, whitespace collapsed (`<<<(n + 255) / 256, 256>>>`,
    /// or `cudaLaunchKernel(…)`).
    pub config: String,
    /// Threads per block per dimension where the host code makes it known (`None`: symbolic).
    pub block_dim: [Option<u32>; 3],
    /// Blocks per grid per dimension where known.
    pub grid_dim: [Option<u32>; 3],
    /// Uniform entry conditions over the kernel's scalar parameters and the launch geometry:
    /// each argument value the host code makes known (`n == 1000`) and each relation it makes
    /// (`gridDim.x == (n + 255) / 256` when `n` is passed too); assumed at the kernel's entry.
    pub assumptions: Vec<Expr>,
    /// The same facts as C text for the report (`n = 1000`, `gridDim.x = (n + 255) / 256`),
    /// the geometry's known dimensions first.
    pub described: Vec<String>,
    /// Other launch sites with the same kernel, geometry and assumptions (verified once).
    pub same: Vec<Span>,
    /// Host values that [`HostLaunch::assumptions`] use but no argument passes, each a read
    /// of a device property in its range (`gridDim.x == 2 * num_sms` with `num_sms` the
    /// device's SM count, 1 to 1024: `frontend/host/device.rs`): kernel variables
    /// `VarId(k.vars.len() + i)` of the kernel as lowered, each an arbitrary value at entry
    /// (per thread: the assumptions bound them, and each thread's relation holds of the same
    /// launch geometry).
    pub ghosts: Vec<super::VarDecl>,
    /// Whether the launch is inside a host loop and not fully known (its symbolic values then
    /// stand for every iteration's).
    pub in_loop: bool,
}
