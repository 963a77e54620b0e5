//! gpug: a verifier for CUDA kernels in the style of PUG (FSE 2010).
//!
//! The pipeline (ARCHITECTURE.md, which also states the invariants between stages and the
//! models' soundness arguments), data flowing one way:
//!
//! ```text
//! file.cu ─► frontend ─► ir::Program ─► passes ─► encode ─► Query* ─► solver ─► verdict ─► report
//! ```
//!
//! [`driver`] runs it for each command of [`cli`]; `main.rs` only calls [`cli::main`].
//!
//! # The rooms
//!
//! | room | owns | must not |
//! | --- | --- | --- |
//! | [`frontend`] | `clang.rs`: running clang and reading its JSON AST ([`frontend::ast`]); `cuda.rs` (+ `cuda/`): CUDA's flags, prelude, stub headers and built-in variables; `lower/`: one lowering to [`ir`] split by concern (`globals`, `decl`, `stmt`, `expr`, `place`: lvalues and pointers to (array, offset), `call`: inlining, `builtin`); `builtins/`: built-in functions as tables keyed by name (`builtins/cuda.rs`) | know about SMT |
//! | [`ir`] | the kernel language (`mod.rs`), the one walker ([`ir::visit`]: `Visitor`, `VisitorMut` with use contexts), the walk helpers every stage shares ([`ir::query`]), constant evaluation and the launch geometry ([`ir::eval`]: `Geometry`, `Env`, `eval`, the floor every stage stands on), the text form ([`ir::print`]) and the validator of the invariants between stages ([`ir::validate`]) | analyse anything |
//! | [`passes`] | one file per pass under the pass manager [`passes::prepare_observed`] (which validates after each pass): `propagate` (constants with the geometry), `unroll`, `unwind` (`--loop-unwind`), `abstraction` and `closed_form` (PUG §6 loop abstraction), `demote` | emit SMT |
//! | [`encode`] | `engine/`, the lock-step symbolic interpreter every model runs (`state`, `expr`, `access`, `loops`, `barriers`, `races`, `stmt`, …), which asks one `Model` (`engine/model.rs`) what differs between the models; the thread models as its clients, each in its room with its own state: `pair/` (two symbolic threads; the equality abstraction, adversarial arrays, uniformity, no-wrap facts), `concrete/` (every thread explicit; memory overlay, schedule IDs, assertion reads), `bank.rs`; `options.rs` ([`encode::EncodeOptions`]), `property.rs` (properties, checks, accesses), `terms.rs`, `nonlinear`, `float`, `witness` serve every model | run a solver; let one model import another; test the thread count where the `Model` decides |
//! | [`solver`] | solver programs (registry), [`solver::Session`]s that own their process and its pid from the start, deadlines, `.smt2` dumps | know about kernels |
//! | [`driver`] | the one pipeline ([`driver::pipeline`]) and the three commands over it (`verify`, `check`, `bank`); the launch contracts (`contracts/`, asking re-verifications through their `Reverify` trait, never importing `verify`); `--show` ([`driver::show`]); the one [`driver::Error`] | print |
//! | [`verdict`] | plain result data: verdicts, findings, witnesses, per-kernel and per-file results | depend on any stage |
//! | [`report`] | text, JSON and SARIF of [`verdict`] data ([`report::Render`], [`report::sarif`]) | decide anything, import `driver` or `encode` |
//! | [`memory`] | the memory bound (`--max-memory`): the monitor of the resident set, the flag stages poll, [`memory::Exceeded`], the solvers' limit | print, exit, know kernels |
//! | [`cli`] | clap definitions, GPUVerify flag compatibility, the exit code (computed once) | analyse anything |
//!
//! Where the coming work lives: OpenCL in `frontend/opencl.rs` beside `cuda.rs` with
//! `builtins/opencl.rs`; NVIDIA's real headers in `frontend/cuda.rs`; new intrinsics as lines in
//! `frontend/builtins/*.rs`; warps as `encode/warp/` beside `pair/` and `concrete/` over `engine/`, warp
//! statements in `ir` (one arm in `ir::visit`); barrier invariants in `encode/engine/invariants.rs` (their IR a `StmtKind::BarrierInvariant`);
//! launch contracts in `driver/` (re-asking queries) with their data in `verdict`; parallel
//! queries and a solver portfolio in `driver::pipeline` over `solver`.

pub mod cli;
pub mod driver;
pub mod encode;
pub mod frontend;
pub mod ir;
pub mod memory;
pub mod passes;
pub mod report;
pub mod solver;
pub mod verdict;
