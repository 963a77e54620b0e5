//! Many files in one run (issue 15): `gpug FILE… | DIR`.
//!
//! Owns: finding the `.cu` and `.cl` files of the paths given (directories recursively, in name
//! order; with `-p`, the compilation database's files under them), `--shard`, each file's flags
//! (its GPUVerify-style header line under the command line's, and its compilation-database
//! entry under both, one run per distinct flag set of its entries),
//! the progress bar (indicatif, drawn only on a terminal), and the run's exit code. Each file
//! is verified as `gpug FILE` would verify it, its report printed as soon as it is done; the
//! summary table is `report`'s ([`crate::report::files_table`]). Must not: analyse or format
//! results itself.

use super::compile_db::{CompileDb, DbFlags, variant_names};
use super::{Cli, EXIT_ERROR, Format, VerifyArgs, error_line, options, strip_ignored_flags, write_sarif};
use crate::driver;
use crate::ir::Span;
use crate::report::sarif::SarifLog;
use crate::report::{Render, files_table};
use crate::verdict::{FileResult, FileRow, Verdict};
use clap::{CommandFactory, FromArgMatches};
use indicatif::{ProgressBar, ProgressStyle};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Instant;

/// Parses `--shard I/N`: `1 <= I <= N`.
pub(super) fn parse_shard(s: &str) -> Result<(usize, usize), String> {
    let (i, n) = s
        .split_once('/')
        .ok_or_else(|| format!("expected I/N (`2/4`), got `{s}`"))?;
    let (i, n): (usize, usize) = match (i.trim().parse(), n.trim().parse()) {
        (Ok(i), Ok(n)) => (i, n),
        _ => return Err(format!("expected I/N with whole numbers, got `{s}`")),
    };
    if n == 0 || i == 0 || i > n {
        return Err(format!("I/N wants 1 <= I <= N, got `{s}`"));
    }
    Ok((i, n))
}

/// One verification of a run: a file, with one flag set of its compilation-database entries.
#[derive(Debug)]
pub(super) struct Job {
    /// The file.
    file: PathBuf,
    /// The flags of one of its entries in the database of `-p`; `None` without `-p`, or when
    /// the database has no entry for it.
    flags: Option<DbFlags>,
    /// What tells this job from the file's other ones (`-DTILE=32`); empty when it is the
    /// file's only one.
    variant: String,
}

impl Job {
    /// The job's name in the table: the file, then its variant in brackets.
    fn name(&self) -> String {
        match self.variant.is_empty() {
            true => self.file.display().to_string(),
            false => format!("{} [{}]", self.file.display(), self.variant),
        }
    }
}

/// The verifications of `paths` (none: every file of `db`): without a database, each `.cu` and
/// `.cl` file ([`collect`]) once; with one, a directory's files are the database's `.cu` and
/// `.cl` files under it ([`CompileDb::files_under`]), and each file is verified once per
/// distinct flag set of its entries, or once with the command line's flags when it has none
/// (with a note, the second value). Errors: a path that does not exist or cannot be read, as a
/// message.
pub(super) fn jobs(paths: &[PathBuf], db: Option<&CompileDb>) -> Result<(Vec<Job>, Vec<String>), String> {
    let plain = |file: PathBuf| Job {
        file,
        flags: None,
        variant: String::new(),
    };
    let Some(db) = db else {
        return Ok((collect(paths)?.into_iter().map(plain).collect(), Vec::new()));
    };
    let mut files = Vec::new();
    if paths.is_empty() {
        files = db.files_under(None);
    }
    for p in paths {
        match p.is_dir() {
            true => files.extend(db.files_under(Some(p))),
            false => files.extend(collect(std::slice::from_ref(p))?),
        }
    }
    let (mut out, mut notes) = (Vec::new(), Vec::new());
    for file in files {
        match db.flags_of(&file) {
            Some(sets) => {
                for (flags, variant) in sets.iter().zip(variant_names(sets)) {
                    out.push(Job {
                        file: file.clone(),
                        flags: Some(flags.clone()),
                        variant,
                    });
                }
            }
            None => {
                notes.push(super::compile_db::not_in_db(&file, db));
                out.push(plain(file));
            }
        }
    }
    Ok((out, notes))
}

/// The `.cu` and `.cl` files of `paths`: a file as given (whatever its extension), a directory's `.cu` and `.cl`
/// files at any depth, each directory's entries in name order. Errors: a path that does not
/// exist or cannot be read, as a message.
pub(super) fn collect(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
        let entries = std::fs::read_dir(dir).map_err(|e| format!("cannot read directory {}: {e}", dir.display()))?;
        let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                walk(&p, out)?;
            } else if p.extension().is_some_and(|x| x == "cu" || x == "cl") {
                out.push(p);
            }
        }
        Ok(())
    }
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            walk(p, &mut out)?;
        } else if p.exists() {
            out.push(p.clone());
        } else {
            return Err(format!("no such file or directory: {}", p.display()));
        }
    }
    Ok(out)
}

/// The flags of `text`'s header: its second line, when it is a `//` comment whose text starts
/// with `-` (GPUVerify's `//--blockDim=64 --gridDim=4`, or `// --blockDim=…`), split as a shell
/// would; GPUVerify's flags that do not apply to gpug are left out. Empty when there is none.
/// Errors: a line that cannot be split (an unterminated quote).
pub(super) fn header_flags(text: &str) -> Result<Vec<String>, String> {
    let Some(line) = text.lines().nth(1) else {
        return Ok(Vec::new());
    };
    let Some(rest) = line.trim().strip_prefix("//").map(str::trim) else {
        return Ok(Vec::new());
    };
    if !rest.starts_with('-') {
        return Ok(Vec::new());
    }
    let words = shell_words::split(rest).map_err(|e| format!("cannot split the header line `{rest}`: {e}"))?;
    Ok(strip_ignored_flags(words).0)
}

/// The verification arguments of `file`: its header's flags, then the command line's `args`
/// (without the program name), the later occurrence of a flag winning; the file is `file`.
fn file_args(file: &Path, args: &[String]) -> Result<VerifyArgs, String> {
    let text = std::fs::read(file).map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    let header = header_flags(&String::from_utf8_lossy(&text))?;
    let argv = std::iter::once("gpug".to_string())
        .chain(header)
        .chain(args.iter().skip(1).cloned());
    let matches = Cli::command()
        .args_override_self(true)
        .try_get_matches_from(argv)
        .map_err(|e| first_line(&e.to_string()))?;
    let cli = Cli::from_arg_matches(&matches).map_err(|e| first_line(&e.to_string()))?;
    let mut a = cli.verify;
    a.file = vec![file.to_path_buf()];
    Ok(a)
}

/// The first non-empty line of `s`, without clap's `error: ` prefix.
pub(super) fn first_line(s: &str) -> String {
    let line = s.lines().find(|l| !l.trim().is_empty()).unwrap_or("").trim();
    line.strip_prefix("error: ").unwrap_or(line).to_string()
}

/// Verifies every file `a` names (after `--shard`), `args` being the command line (for each
/// file's flags), with `db` the compilation database of `-p` ([`jobs`]); prints each report,
/// then the table (text) or nothing more (`--json`); with `--format sarif` (or `--sarif
/// FILE`), one SARIF log of every file's results instead of (or besides) the reports.
/// Returns the run's exit code: 1 if a kernel has a defect, else 2 if a file could not be
/// verified, else 3 if a kernel is inconclusive, else 0.
pub(super) fn run(a: &VerifyArgs, args: &[String], db: Option<&CompileDb>) -> i32 {
    let mut files = match jobs(&a.file, db) {
        Ok((jobs, notes)) => {
            for n in notes {
                eprintln!("{n}");
            }
            jobs
        }
        Err(why) => {
            eprintln!("error: {why}");
            return EXIT_ERROR;
        }
    };
    if let Some((i, n)) = a.shard {
        files = files.into_iter().skip(i - 1).step_by(n).collect();
    }
    if files.is_empty() {
        let given: Vec<String> = a.file.iter().map(|p| p.display().to_string()).collect();
        match (db, given.is_empty()) {
            (Some(db), true) => eprintln!("error: no .cu or .cl file in {}", db.path().display()),
            (Some(db), false) => eprintln!(
                "error: no .cu or .cl file of {} under {}",
                db.path().display(),
                given.join(", ")
            ),
            (None, _) => eprintln!("error: no .cu or .cl file under {}", given.join(", ")),
        }
        return EXIT_ERROR;
    }
    let format = a.common.format();
    let sarif = a.common.wants_sarif();
    let mut log = SarifLog::new(std::env::current_dir().unwrap_or_default());
    let jobs = a.common.jobs.unwrap_or_else(default_jobs).clamp(1, files.len());
    let bar = ProgressBar::new(files.len() as u64);
    bar.set_style(
        ProgressStyle::with_template("{pos}/{len} [{elapsed}] {wide_msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    // `jobs` workers take the files in turn; each report is printed once every file before
    // it has been, so the output is in name order whatever order they finish in.
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel::<(usize, Done)>();
    let mut rows = Vec::new();
    // (file a verified file includes, that file's name), and the files that failed, held.
    let mut includers: Vec<(String, String)> = Vec::new();
    let mut held = Vec::new();
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            let tx = tx.clone();
            let (next, files) = (&next, &files);
            scope.spawn(move || {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(job) = files.get(i) else { break };
                    if tx.send((i, verify_file(job, args, format, sarif, jobs > 1))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let mut pending = BTreeMap::new();
        for (i, done) in rx {
            bar.inc(1);
            pending.insert(i, done);
            while let Some(mut done) = pending.remove(&rows.len()) {
                bar.set_message(done.row.file.clone());
                if done.row.kernels.is_ok() {
                    bar.suspend(|| {
                        print!("{}", done.stdout);
                        eprint!("{}", done.stderr);
                    });
                    if let Some(Ok(r)) = &done.outcome {
                        log.add(r);
                    }
                    let name = done.row.file.clone();
                    includers.extend(done.includes.drain(..).map(|f| (f, name.clone())));
                } else {
                    held.push((rows.len(), done.stdout, done.stderr, done.outcome));
                }
                rows.push(done.row);
            }
        }
    });
    bar.finish_and_clear();
    // A file that failed alone is reported under a file that includes it and was verified (a
    // program split over files: its kernels were verified there), else as the error it is.
    for (i, stdout, stderr, outcome) in held {
        let me = std::fs::canonicalize(&files[i].file).ok();
        let includer = includers
            .iter()
            .find(|(f, _)| me.is_some() && std::fs::canonicalize(f).ok() == me)
            .map(|(_, by)| by.clone());
        let row = &mut rows[i];
        match includer {
            Some(by) => {
                let why = row.kernels.as_ref().err().cloned().unwrap_or_default();
                match format {
                    Format::Json => println!(
                        "{}",
                        serde_json::json!({ "file": files[i].file.display().to_string(), "included_by": by, "alone": why })
                    ),
                    _ => eprintln!(
                        "note: {} is #included by {by}, where its kernels were verified (alone: {why})",
                        row.file
                    ),
                }
                row.kernels = Ok(Vec::new());
                row.included_by = Some(by);
            }
            None => {
                print!("{stdout}");
                eprint!("{stderr}");
                if let Some(Err((why, span))) = &outcome {
                    log.error(&row.file, why, span.as_ref());
                }
            }
        }
    }
    if format == Format::Text {
        print!("\n{}", files_table(&rows));
    }
    let code = exit_code(&rows);
    match sarif {
        true => write_sarif(&a.common, code, log),
        false => code,
    }
}

/// The default of `--jobs`: the number of processors the process may use.
pub(super) fn default_jobs() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// A verified file: its table row, what it prints, and (for a SARIF log) its result or its
/// error with the place it names.
struct Done {
    row: FileRow,
    stdout: String,
    stderr: String,
    outcome: Option<Result<FileResult, (String, Option<Span>)>>,
    /// The translation unit's other files ([`FileResult::includes`]).
    includes: Vec<String>,
}

/// The exit code of a run over `rows` ([`run`]).
fn exit_code(rows: &[FileRow]) -> i32 {
    let verdicts: Vec<Verdict> = rows
        .iter()
        .filter_map(|r| r.kernels.as_ref().ok())
        .flat_map(|k| k.iter().map(|(_, v)| *v))
        .collect();
    let worst = Verdict::worst(verdicts);
    if worst == Verdict::Defect {
        1
    } else if rows.iter().any(|r| r.kernels.is_err()) {
        EXIT_ERROR
    } else {
        super::exit_code(worst)
    }
}

/// Verifies one file as `gpug FILE` would, with the job's compilation-database flags: its row
/// of the table, and its report in `format` (or its error, after the job's name) as it is to
/// be printed; with `sarif`, its result too. With `files_at_once`, the file's queries are
/// asked one after another (the run's processes go to the files).
fn verify_file(job: &Job, args: &[String], format: Format, sarif: bool, files_at_once: bool) -> Done {
    let started = Instant::now();
    let file = job.file.as_path();
    let name = job.name();
    let mut solver = String::new();
    let mut no_kernel = false;
    let result = file_args(file, args)
        .and_then(|fa| options(&fa))
        .map_err(|why| (why, None))
        .and_then(|(mut common, opts)| {
            if files_at_once {
                common.jobs = 1;
            }
            if let Some(flags) = &job.flags {
                flags.apply(&mut common.frontend);
            }
            solver = common.solver_label();
            driver::run(file, &common, &opts).map_err(|e| {
                no_kernel = matches!(
                    e,
                    driver::Error::Frontend(crate::frontend::FrontendError::NoKernel { .. })
                );
                error_line(&e)
            })
        });
    let seconds = started.elapsed().as_secs_f64();
    let (mut stdout, mut stderr) = (String::new(), String::new());
    let kernels = match &result {
        // A file without kernels (host code only) among many: nothing to verify, no error.
        Err(_) if no_kernel => {
            if format == Format::Json {
                stdout = format!(
                    "{}\n",
                    serde_json::json!({ "file": file.display().to_string(), "kernels": [], "seconds": seconds })
                );
            }
            Ok(Vec::new())
        }
        Ok(r) => {
            match format {
                Format::Json => stdout = format!("{}\n", with_run_fields(&r.json(), seconds, &solver, &job.variant)),
                Format::Text => stdout = r.text(),
                Format::Sarif => {}
            }
            Ok(r.kernels.iter().map(|k| (k.name.clone(), k.verdict)).collect())
        }
        Err((why, _)) => {
            if format == Format::Json {
                let mut o = serde_json::json!({ "file": file.display().to_string(), "error": why, "seconds": seconds });
                if !job.variant.is_empty() {
                    o["variant"] = serde_json::json!(job.variant);
                }
                stdout = format!("{o}\n");
            } else {
                stderr = format!("{name}: error: {why}\n");
            }
            Err(why.clone())
        }
    };
    Done {
        includes: result.as_ref().map(|r| r.includes.clone()).unwrap_or_default(),
        row: FileRow {
            file: name,
            kernels,
            seconds,
            solver,
            included_by: None,
        },
        stdout,
        stderr,
        outcome: sarif.then_some(result).filter(|_| !no_kernel),
    }
}

/// A file's JSON report with the run's `"seconds"` and `"solver"` added, and its `"variant"`
/// when not empty (the flags that tell a file's runs under a compilation database apart).
fn with_run_fields(report: &str, seconds: f64, solver: &str, variant: &str) -> String {
    match serde_json::from_str::<serde_json::Value>(report) {
        Ok(serde_json::Value::Object(mut m)) => {
            m.insert("seconds".into(), serde_json::json!(seconds));
            m.insert("solver".into(), serde_json::json!(solver));
            if !variant.is_empty() {
                m.insert("variant".into(), serde_json::json!(variant));
            }
            serde_json::Value::Object(m).to_string()
        }
        _ => report.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards() {
        assert_eq!(parse_shard("2/4"), Ok((2, 4)));
        assert!(parse_shard("0/4").is_err());
        assert!(parse_shard("5/4").is_err());
        assert!(parse_shard("1/0").is_err());
        assert!(parse_shard("x").is_err());
    }

    #[test]
    fn header_lines() {
        let gv = "//pass\n//--blockDim=64 --gridDim=4 -DWIDTH=8 --no-inline\n#include <cuda.h>\n";
        assert_eq!(
            header_flags(gv),
            Ok(vec![
                "--blockDim=64".into(),
                "--gridDim=4".into(),
                "-DWIDTH=8".into(),
                "--no-inline".into()
            ])
        );
        let ours = "// expect: race\n// --blockDim=[*,*,1] --no-overflow\n";
        assert_eq!(
            header_flags(ours),
            Ok(vec!["--blockDim=[*,*,1]".into(), "--no-overflow".into()])
        );
        // A second line that is code or prose is no header.
        assert_eq!(
            header_flags("#include <cuda.h>\n__global__ void k() {}\n"),
            Ok(Vec::new())
        );
        assert_eq!(header_flags("// A kernel\n// that scales a vector\n"), Ok(Vec::new()));
        assert!(header_flags("//\n// --assume 'n > 0\n").is_err());
    }

    /// The command line's flags come after the header's: a flag given in both takes the
    /// command line's value, and `-D`s of both are kept.
    #[test]
    fn command_line_flags_win_over_the_header() {
        let dir = std::env::temp_dir().join(format!("gpug-batch-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let file = dir.join("k.cu");
        std::fs::write(&file, "//pass\n//--blockDim=64 --gridDim=4 -DWIDTH=8\n").expect("write");
        let args: Vec<String> = ["gpug", "--gridDim=2", "-DN=3", "ignored.cu"]
            .map(String::from)
            .to_vec();
        let a = file_args(&file, &args).expect("parses");
        assert_eq!(a.block_dim, Some([Some(64), Some(1), Some(1)]));
        assert_eq!(a.grid_dim, Some([Some(2), Some(1), Some(1)]));
        assert_eq!(a.common.defines, ["WIDTH=8", "N=3"]);
        assert_eq!(a.file, std::slice::from_ref(&file));
        std::fs::write(&file, "//pass\n//--frobnicate\n").expect("write");
        assert!(file_args(&file, &args).unwrap_err().contains("--frobnicate"));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
