//! A text report as it goes (issue 56 item 3): each kernel's report is printed as soon as it is
//! decided, on a terminal or not (`gpug FILE | tee log` shows a slow file's kernels one by
//! one), and on a terminal a spinner names the kernel and the query being asked. Owns only the
//! drawing; the report's text is `report`'s and the run is the driver's
//! ([`driver::run_reporting`]).

use crate::driver::{self, Command, RunOptions};
use crate::report::Render;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

/// Whether the report goes to a terminal and progress can be drawn on another (issue 56 item
/// 3): then [`run_live`] prints each kernel's report as it is decided.
pub(super) fn live_terminal() -> bool {
    use std::io::IsTerminal;
    std::io::stdout().is_terminal() && std::io::stderr().is_terminal()
}

/// [`driver::run`] printing each kernel's text report on stdout as soon as it is decided (the
/// same text as the whole file's report, one kernel at a time, flushed after each), without a
/// spinner: for standard output that is not a terminal.
pub(super) fn run_streaming<C>(file: &Path, common: &RunOptions, command: &C) -> Result<C::File, driver::Error>
where
    C: Command,
    C::File: Render,
{
    driver::run_reporting(file, common, command, &mut |one: C::File| {
        use std::io::Write;
        let mut out = std::io::stdout().lock();
        let _ = write!(out, "{}", one.text());
        let _ = out.flush();
    })
}

/// [`driver::run`] on a terminal: a spinner on stderr names the kernel and the query being
/// asked (`softmax_kernel1: race.out.seg0.L115`) with the seconds since the run began, and each
/// kernel's report is printed on stdout as soon as it is decided (the same text as the whole
/// file's report, one kernel at a time).
pub(super) fn run_live<C>(file: &Path, common: &RunOptions, command: &C) -> Result<C::File, driver::Error>
where
    C: Command,
    C::File: Render,
{
    let bar = indicatif::ProgressBar::new_spinner();
    bar.set_style(
        indicatif::ProgressStyle::with_template("{spinner} [{elapsed}] {wide_msg}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner()),
    );
    bar.enable_steady_tick(Duration::from_millis(200));
    let shown = bar.clone();
    let common = RunOptions {
        progress: Some(crate::solver::Watch(Arc::new(move |query: &str| {
            // Query names start with the kernel's name.
            let msg = match query.split_once('.') {
                Some((kernel, rest)) => format!("{kernel}: {rest}"),
                None => query.to_string(),
            };
            shown.set_message(msg);
        }))),
        ..common.clone()
    };
    let result = driver::run_reporting(file, &common, command, &mut |one: C::File| {
        bar.suspend(|| print!("{}", one.text()));
    });
    bar.finish_and_clear();
    result
}
