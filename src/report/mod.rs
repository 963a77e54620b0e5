//! Verdicts and witnesses as human text, as JSON and as SARIF: sibling printers ([`Render`])
//! over the plain result data of [`crate::verdict`] (and source lines read for carets). Must not
//! decide anything, nor import any pipeline stage: it sees only `verdict` and `ir::Span`.
//!
//! SARIF 2.1.0: [`sarif`] (one log for a whole run, its results added file by file).
//!
//! Text: one verdict line per kernel (`reduce: verified`), then each defect with both source
//! lines and carets under the accesses, both threads' `blockIdx`/`threadIdx`, the parameter
//! values and the racing index.
//!
//! JSON (one object):
//! `{"file", "kernels": [{"name", "verdict": "verified"|"defect"|"inconclusive",
//!   "findings": [{"kind": "race"|"divergence"|"assertion", "race": "read-write"|"write-write",
//!   "array", "accesses": [{"line", "col", "access": "read"|"write"|"atomic"|"barrier"|"assert",
//!   "block": [x,y,z], "thread": [x,y,z], "reaches"}], "params": {name: value},
//!   "geometry": {name: value}, "index"}], "inconclusive": [reason], "notes": [note],
//!   "contract": [assumption], "excluded": [finding + "condition"], "suggestions": [assume],
//!   "benign": [finding]}]}`: a `verified` kernel with a non-empty `contract` holds for the
//!   launches where every assumption of it holds, and `excluded` lists the findings of the
//!   other launches (for a `defect` kernel too: findings that only launches outside the
//!   standard assumptions have). A finding's `"condition"` (when present) says which launches
//!   or parameter values it needs (`only when n % blockDim.x != 0`), its `"reason"` why
//!   its accesses are not ordered when that is not plain (atomics of block scope in
//!   different blocks); `suggestions` are
//!   `--assume` expressions under which gpug verified the kernel, all together, never assumed
//!   by the verdict; `benign` lists the benign write-write races (both threads write the same
//!   value), which are not defects; `"launch"` is `null`, or the launch of the file's host code
//!   the result is for (issue 43): `{"site": "file:line:col", "callers", "config", "assuming",
//!   "same", "in_loop"}`.
//!
//! A result at a launch of the host code names it in its text line (`k at the launch in main,
//! prog.cu:42: <<<(n + 255) / 256, 256>>>: verified`), then what was assumed of the launch.

pub mod bank;
pub mod check;
mod launches;
pub mod sarif;

use crate::ir::Language;
use crate::verdict::{
    BarrierInvariantFailure, FileResult, FileRow, Finding, FindingKind, KernelResult, Verdict, WitnessAccess,
};
use launches::{launch_text, merged_launches_text};
use sarif::{Entry, Rule, SarifLog};
use serde_json::{Map, Value, json};
use serde_sarif::sarif::{ResultKind, ResultLevel};
use std::collections::HashMap;
use std::fmt::Write;

/// The summary table of a run over many files: a row per kernel (`file`, `kernel`, `verdict`,
/// `time`, `solver`; a file without a verdict is one row whose kernel is `-`, whose verdict is
/// `error`, and which ends with the reason), then a line of counts.
pub fn files_table(rows: &[FileRow]) -> String {
    let mut lines: Vec<[String; 6]> = vec![["file", "kernel", "verdict", "time", "solver", ""].map(String::from)];
    let (mut counts, mut errors, mut included) = ([0usize; 3], 0usize, 0usize);
    for r in rows {
        let time = format!("{:.2}s", r.seconds);
        match &r.kernels {
            Ok(_) if r.included_by.is_some() => {
                let by = format!("by {}", r.included_by.as_deref().unwrap_or_default());
                lines.push([&r.file, "-", "included", &time, &r.solver, &by].map(String::from));
                included += 1;
            }
            Ok(kernels) if kernels.is_empty() => {
                lines.push([&r.file, "-", "no kernel", &time, &r.solver, ""].map(String::from));
            }
            Ok(kernels) => {
                for (k, v) in kernels {
                    counts[*v as usize] += 1;
                    let cells = [&r.file, k, v.as_str(), &time, &r.solver, ""];
                    lines.push(cells.map(String::from));
                }
            }
            Err(why) => {
                errors += 1;
                lines.push([&r.file, "-", "error", &time, &r.solver, why].map(String::from));
            }
        }
    }
    let width = |i: usize| lines.iter().map(|l| l[i].chars().count()).max().unwrap_or(0);
    let (w0, w1, w2, w3, w4) = (width(0), width(1), width(2), width(3), width(4));
    let mut out = String::new();
    for l in &lines {
        let line = format!(
            "{:<w0$}  {:<w1$}  {:<w2$}  {:>w3$}  {:<w4$}  {}",
            l[0], l[1], l[2], l[3], l[4], l[5]
        );
        let _ = writeln!(out, "{}", line.trim_end());
    }
    let total: f64 = rows.iter().map(|r| r.seconds).sum();
    let _ = writeln!(
        out,
        "{} files, {} kernels: {} verified, {} defect, {} inconclusive; {} files with an error{}; {:.2}s summed over the files",
        rows.len(),
        counts.iter().sum::<usize>(),
        counts[Verdict::Verified as usize],
        counts[Verdict::Defect as usize],
        counts[Verdict::Inconclusive as usize],
        errors,
        if included > 0 {
            format!(", {included} verified through a file that includes them")
        } else {
            String::new()
        },
        total
    );
    out
}

/// A command's result for one file, printable as text, as JSON and as SARIF.
pub trait Render {
    /// The human report.
    fn text(&self) -> String;
    /// The JSON report: one object on one line.
    fn json(&self) -> String;
    /// Adds the file's results, and its kernels' verdicts, to a SARIF log (see [`sarif`]).
    fn sarif(&self, log: &mut SarifLog);
}

impl Render for FileResult {
    fn text(&self) -> String {
        merged_launches_text(&self.kernels)
    }

    /// The fields are in the module docs.
    fn json(&self) -> String {
        let kernels: Vec<Value> = self
            .kernels
            .iter()
            .map(|k| {
                json!({
                    "name": k.name,
                    "verdict": k.verdict.as_str(),
                    "findings": k.findings.iter().map(finding_json).collect::<Vec<_>>(),
                    "inconclusive": k.inconclusive,
                    "notes": k.notes,
                    "loops": k.loops,
                    "answers": k.answers,
                    "answered_by": k.answered_by,
                    "contract": k.contract,
                    "suggestions": k.suggestions,
                    "excluded": k.excluded.iter().map(|e| {
                        let mut f = finding_json(&e.finding);
                        f["condition"] = json!(e.condition);
                        f
                    }).collect::<Vec<_>>(),
                    "benign": k.benign.iter().map(finding_json).collect::<Vec<_>>(),
                    "stage": k.stage.as_str(),
                    "launch": k.launch.as_ref().map(launch_json),
                })
            })
            .zip(&self.kernels)
            .map(|(mut v, k)| {
                if let Some(p) = &k.profile {
                    v["profile"] = profile_json(p);
                }
                (v, k)
            })
            .map(|(v, k)| match k.language {
                Language::OpenCl => {
                    let mut v = opencl_json(v);
                    v["language"] = json!("opencl");
                    v
                }
                Language::Cuda => v,
            })
            .collect();
        json!({ "file": self.file, "kernels": kernels }).to_string()
    }

    /// Each finding a result of its rule (a possible one a warning); each finding the launch
    /// contract excludes a note; each benign race an informational result; an inconclusive
    /// kernel an open result with its reasons. Every result has the kernel's notes, contract,
    /// stage and suggestions as properties.
    fn sarif(&self, log: &mut SarifLog) {
        for k in &self.kernels {
            // A result at a launch of the host code names it in each message.
            let title = match &k.launch {
                Some(l) => format!("{} {}", k.name, l.title()),
                None => k.name.clone(),
            };
            let mut row = Map::new();
            row.insert("verdict".into(), json!(k.verdict.as_str()));
            row.insert("stage".into(), json!(k.stage.as_str()));
            row.insert("contract".into(), json!(k.contract));
            row.insert("notes".into(), json!(k.notes));
            if let Some(l) = &k.launch {
                row.insert("launch".into(), launch_json(l));
            }
            if k.language == Language::OpenCl {
                row.insert("language".into(), json!("opencl"));
            }
            log.kernel(&self.file, &k.name, k.language, row);
            let context = |mut props: Map<String, Value>| {
                props.insert("notes".into(), json!(k.notes));
                props.insert("contract".into(), json!(k.contract));
                props.insert("stage".into(), json!(k.stage.as_str()));
                props.insert("suggestions".into(), json!(k.suggestions));
                props
            };
            for f in &k.findings {
                let level = if f.possible {
                    ResultLevel::Warning
                } else {
                    ResultLevel::Error
                };
                let mut e = finding_entry(f, &self.file, &title, k.language, ResultKind::Fail, level);
                e.properties = context(e.properties);
                log.push(e);
            }
            for x in &k.excluded {
                let mut e = finding_entry(
                    &x.finding,
                    &self.file,
                    &title,
                    k.language,
                    ResultKind::Fail,
                    ResultLevel::Note,
                );
                e.details.push(match k.verdict {
                    Verdict::Verified => format!("excluded by the launch contract ({})", x.condition),
                    _ => format!("outside the standard launch assumptions ({})", x.condition),
                });
                e.properties.insert("excluded".into(), json!(x.condition));
                e.properties = context(e.properties);
                log.push(e);
            }
            for b in &k.benign {
                let mut e = finding_entry(
                    b,
                    &self.file,
                    &title,
                    k.language,
                    ResultKind::Informational,
                    ResultLevel::None,
                );
                e.headline = format!("benign {}", e.headline);
                e.details.insert(
                    0,
                    "both threads write the same value (--no-benign reports it as a race)".into(),
                );
                e.properties.insert("benign".into(), json!(true));
                e.properties = context(e.properties);
                log.push(e);
            }
            log.extend(inconclusive_entry(
                &self.file,
                &title,
                k.language,
                &k.inconclusive,
                context(Map::new()),
            ));
        }
    }
}

/// A launch of the host code as JSON: `site` (`file:line:col`), `callers`, `config`,
/// `assuming`, `same` (other sites), `in_loop`.
fn launch_json(l: &crate::verdict::LaunchSite) -> Value {
    json!({
        "site": l.site.to_string(),
        "callers": l.callers,
        "config": l.config,
        "assuming": l.assuming,
        "same": l.same.iter().map(ToString::to_string).collect::<Vec<_>>(),
        "in_loop": l.in_loop,
    })
}

/// The result of a finding `f` of kernel `kernel`: its title, each access with its thread and
/// block, the parameters, the launch's symbolic dimensions, its condition and reason; its
/// `--json` object as the properties.
fn finding_entry<'a>(
    f: &'a Finding,
    file: &'a str,
    kernel: &'a str,
    language: Language,
    kind: ResultKind,
    level: ResultLevel,
) -> Entry<'a> {
    let rule = match f.kind {
        FindingKind::Race { .. } => Rule::DataRace,
        FindingKind::Divergence => Rule::BarrierDivergence,
        FindingKind::Assertion => Rule::Assertion,
        FindingKind::SignedOverflow => Rule::SignedOverflow,
        FindingKind::Invariant { .. } => Rule::LoopInvariant,
        FindingKind::BarrierInvariant { .. } => Rule::BarrierInvariant,
    };
    let possible = if f.possible { "possible " } else { "" };
    let places = f
        .accesses
        .iter()
        .map(|a| {
            let who = format!(
                "{} by thread {} of block {}",
                access_what(f.kind, a),
                coords(a.thread),
                coords(a.block)
            );
            (&a.span, who)
        })
        .collect();
    let mut details = Vec::new();
    details.extend(assignments("params", &f.params));
    details.extend(assignments("geometry", &f.geometry));
    details.extend(rests_on(f));
    details.extend(f.condition.iter().cloned());
    details.extend(f.reason.iter().cloned());
    let properties = match finding_json(f) {
        Value::Object(m) => m,
        _ => Map::new(),
    };
    Entry {
        rule,
        kind,
        level,
        headline: format!("{possible}{} in kernel {kernel}", finding_title(f)),
        places,
        details,
        file,
        kernel,
        language,
        properties,
    }
}

/// The open result of an inconclusive kernel: its `reasons` as the message and as the
/// `inconclusive` property beside `properties`; `None` when there is no reason (the kernel is
/// not inconclusive).
fn inconclusive_entry<'a>(
    file: &'a str,
    kernel: &'a str,
    language: Language,
    reasons: &[String],
    mut properties: Map<String, Value>,
) -> Option<Entry<'a>> {
    if reasons.is_empty() {
        return None;
    }
    properties.insert("inconclusive".into(), json!(reasons));
    Some(Entry {
        rule: Rule::Inconclusive,
        kind: ResultKind::Open,
        level: ResultLevel::None,
        headline: format!("kernel {kernel} is inconclusive"),
        places: Vec::new(),
        details: reasons.to_vec(),
        file,
        kernel,
        language,
        properties,
    })
}

/// `label: n1 = v1, n2 = v2` of `pairs` (a witness's parameters, reads or geometry); `None`
/// when there are none.
fn assignments<N: std::fmt::Display, V: std::fmt::Display>(label: &str, pairs: &[(N, V)]) -> Option<String> {
    if pairs.is_empty() {
        return None;
    }
    let each: Vec<String> = pairs.iter().map(|(n, v)| format!("{n} = {v}")).collect();
    Some(format!("{label}: {}", each.join(", ")))
}

/// The text of every kernel of a file, in order, as `kernel` writes each (source lines for
/// carets read once).
fn kernels_text<K>(kernels: &[K], kernel: impl Fn(&K, &mut Sources, &mut String)) -> String {
    let mut sources = Sources::default();
    let mut out = String::new();
    for k in kernels {
        kernel(k, &mut sources, &mut out);
    }
    out
}

fn kernel_text(k: &KernelResult, sources: &mut Sources, out: &mut String) {
    if k.language == Language::OpenCl {
        let mut text = String::new();
        cuda_kernel_text(k, sources, &mut text);
        out.push_str(&opencl_words(&text));
        return;
    }
    cuda_kernel_text(k, sources, out);
}

/// CUDA's terms and OpenCL's (OpenCL 1.2 sections 3.2, 6.12.1): the built-in variables as the
/// work-item functions, then the words.
const OPENCL_WORDS: &[(&str, &str)] = &[
    ("threadIdx.x", "get_local_id(0)"),
    ("threadIdx.y", "get_local_id(1)"),
    ("threadIdx.z", "get_local_id(2)"),
    ("blockIdx.x", "get_group_id(0)"),
    ("blockIdx.y", "get_group_id(1)"),
    ("blockIdx.z", "get_group_id(2)"),
    ("blockDim.x", "get_local_size(0)"),
    ("blockDim.y", "get_local_size(1)"),
    ("blockDim.z", "get_local_size(2)"),
    ("gridDim.x", "get_num_groups(0)"),
    ("gridDim.y", "get_num_groups(1)"),
    ("gridDim.z", "get_num_groups(2)"),
    ("__shared__", "__local"),
    ("__syncthreads()", "barrier()"),
    (" by thread ", " by work-item "),
    ("threads (", "work-items ("),
    ("thread (", "work-item ("),
    (" of block (", " of work-group ("),
    ("the threads", "the work-items"),
    ("two threads", "two work-items"),
    ("blocks", "work-groups"),
];

/// `text`, a CUDA kernel's report, in OpenCL's words ([`OPENCL_WORDS`], whole words only): the
/// source lines it quotes (`  12 |   code`, their carets) and the parameters' values, which
/// hold the source's names, stay as written.
fn opencl_words(text: &str) -> String {
    text.split_inclusive('\n')
        .map(|line| {
            let t = line.trim_start();
            let source = t.starts_with('|')
                || t.starts_with("params:")
                || t.split_once(" | ")
                    .is_some_and(|(n, _)| n.bytes().all(|b| b.is_ascii_digit()));
            match source {
                true => line.to_string(),
                false => OPENCL_WORDS
                    .iter()
                    .fold(line.to_string(), |l, (cuda, cl)| replace_words(&l, cuda, cl)),
            }
        })
        .collect()
}

/// `s` with each occurrence of `from` that is not part of a longer identifier replaced by `to`.
fn replace_words(s: &str, from: &str, to: &str) -> String {
    let ident = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
    let starts_ident = ident(from.chars().next());
    let ends_ident = ident(from.chars().next_back());
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find(from) {
        let before = rest[..i].chars().next_back();
        let after = rest[i + from.len()..].chars().next();
        let whole = !(starts_ident && ident(before) || ends_ident && ident(after));
        out.push_str(&rest[..i]);
        out.push_str(if whole { to } else { from });
        rest = &rest[i + from.len()..];
    }
    out.push_str(rest);
    out
}

/// A kernel's JSON object in OpenCL's words (the caller adds `"language": "opencl"`): each
/// access's `thread` and `block` as `local_id` and `group_id`; geometry names and the other
/// strings in OpenCL's words ([`opencl_words`]); the names of the kernel, arrays and
/// parameters as the source spells them.
fn opencl_json(v: Value) -> Value {
    match v {
        Value::String(s) => Value::String(opencl_words(&s)),
        Value::Array(items) => Value::Array(items.into_iter().map(opencl_json).collect()),
        Value::Object(m) => Value::Object(
            m.into_iter()
                .map(|(k, v)| match k.as_str() {
                    "thread" => ("local_id".to_string(), v),
                    "block" => ("group_id".to_string(), v),
                    // Names from the source stay as written.
                    "name" | "array" | "index" | "params" => (k, v),
                    _ => (opencl_words(&k), opencl_json(v)),
                })
                .collect(),
        ),
        other => other,
    }
}

fn cuda_kernel_text(k: &KernelResult, sources: &mut Sources, out: &mut String) {
    let name = match &k.launch {
        Some(l) => format!("{} {}", k.name, l.title()),
        None => k.name.clone(),
    };
    let at = out.len();
    match k.verdict {
        Verdict::Verified if !k.contract.is_empty() => {
            let _ = writeln!(out, "{}: verified for launches where {}", name, k.contract.join(", "));
            for e in &k.excluded {
                let _ = writeln!(out, "  excluded by the launch contract ({}):", e.condition);
                finding_text(&e.finding, sources, out);
            }
        }
        Verdict::Verified => {
            let _ = writeln!(out, "{}: verified", name);
        }
        Verdict::Inconclusive => {
            let _ = writeln!(out, "{}: inconclusive", name);
            for why in &k.inconclusive {
                let _ = writeln!(out, "  {why}");
            }
            // Every finding excluded by a launch contract, parts of the kernel unchecked.
            if !k.contract.is_empty() {
                let _ = writeln!(out, "  no defect in launches where {}", k.contract.join(", "));
                for e in &k.excluded {
                    let _ = writeln!(out, "  excluded by the launch contract ({}):", e.condition);
                    finding_text(&e.finding, sources, out);
                }
            }
        }
        Verdict::Defect => {
            let n = k.findings.len();
            let _ = writeln!(out, "{}: {} defect{}", name, n, if n == 1 { "" } else { "s" });
            for f in &k.findings {
                finding_text(f, sources, out);
            }
            for e in &k.excluded {
                let _ = writeln!(
                    out,
                    "  also, outside the standard launch assumptions ({}):",
                    e.condition
                );
                finding_text(&e.finding, sources, out);
            }
            for why in &k.inconclusive {
                let _ = writeln!(out, "  also inconclusive: {why}");
            }
            if !k.suggestions.is_empty() {
                let flags: Vec<String> = k.suggestions.iter().map(|s| format!("--assume '{s}'")).collect();
                let requires: Vec<String> = k.suggestions.iter().map(|s| format!("__requires({s});")).collect();
                let _ = writeln!(
                    out,
                    "  suggestion: verified with {} (checked by gpug; or `{}` at the top of the kernel); gpug does not assume it",
                    flags.join(" "),
                    requires.join(" ")
                );
            }
        }
    }
    if let Some(l) = &k.launch {
        launch_text(l, at, out);
    }
    for b in &k.benign {
        benign_text(b, out);
    }
    for n in &k.notes {
        let _ = writeln!(out, "  note: {n}");
    }
    for l in &k.loops {
        let _ = writeln!(out, "  loop: {l}");
    }
    // A portfolio's answers, by solver (one solver's need no saying).
    if k.answered_by.len() > 1 || k.answered_by.keys().any(|s| s.contains('+')) {
        let by: Vec<String> = k.answered_by.iter().map(|(s, n)| format!("{s} {n}")).collect();
        let _ = writeln!(out, "  answered by: {}", by.join(", "));
    }
    for a in &k.answers {
        let _ = writeln!(out, "  {a}");
    }
    if let Some(p) = &k.profile {
        profile_text(p, out);
    }
}

/// How many of a profile's queries the text report names, the slowest first.
const SLOWEST: usize = 5;

/// `--profile` as text: one line of stage times, then the slowest queries.
fn profile_text(p: &crate::verdict::Profile, out: &mut String) {
    let total: std::time::Duration = p.queries.iter().map(|q| q.1).sum();
    let _ = writeln!(
        out,
        "  profile: passes {:.2} s, encoding {:.2} s, {} queries {:.2} s, launch contracts {:.2} s (their passes, encodings and queries included)",
        p.passes.as_secs_f64(),
        p.encoding.as_secs_f64(),
        p.queries.len(),
        total.as_secs_f64(),
        p.contracts.as_secs_f64()
    );
    let mut slow: Vec<&(String, std::time::Duration, String)> = p.queries.iter().collect();
    slow.sort_by_key(|q| std::cmp::Reverse(q.1));
    for (name, secs, answer) in slow.into_iter().take(SLOWEST) {
        let _ = writeln!(out, "    {:.2} s {answer}: {name}", secs.as_secs_f64());
    }
}

/// `--profile` in JSON: seconds per stage, and each query asked in order.
fn profile_json(p: &crate::verdict::Profile) -> Value {
    json!({
        "passes_s": p.passes.as_secs_f64(),
        "encoding_s": p.encoding.as_secs_f64(),
        "contracts_s": p.contracts.as_secs_f64(),
        "queries": p.queries.iter().map(|(name, secs, answer)| json!({
            "name": name,
            "seconds": secs.as_secs_f64(),
            "answer": answer,
        })).collect::<Vec<_>>(),
    })
}

/// `(x, y, z)`.
fn coords(v: [u64; 3]) -> String {
    format!("({}, {}, {})", v[0], v[1], v[2])
}

/// `read-write race on sdata[64]`, `barrier divergence`, …: what `f` is, in a few words.
fn finding_title(f: &Finding) -> String {
    match f.kind {
        FindingKind::Race { write_write } => format!(
            "{} race on {}",
            if write_write { "write-write" } else { "read-write" },
            f.index.as_deref().or(f.array.as_deref()).unwrap_or("?")
        ),
        FindingKind::Divergence => "barrier divergence".to_string(),
        FindingKind::Assertion => "assertion may fail".to_string(),
        FindingKind::SignedOverflow => "signed integer overflow".to_string(),
        FindingKind::Invariant { base: true } => "loop invariant may not hold on entry".to_string(),
        FindingKind::Invariant { base: false } => "loop invariant may not be preserved by an iteration".to_string(),
        FindingKind::BarrierInvariant { failure } => match failure {
            BarrierInvariantFailure::Holds => "barrier invariant may not hold at its barrier",
            BarrierInvariantFailure::Access => "barrier invariant may read a location its threads did not access",
            BarrierInvariantFailure::Uniform => "barrier invariant cannot be instantiated at other threads",
        }
        .to_string(),
    }
}

fn finding_text(f: &Finding, sources: &mut Sources, out: &mut String) {
    let title = finding_title(f);
    let possible = if f.possible { "possible " } else { "" };
    let _ = writeln!(out, "  {possible}{title}");
    if let Some(r) = rests_on(f) {
        let _ = writeln!(out, "    {r}");
    }
    if let Some(c) = &f.condition {
        let _ = writeln!(out, "    {c}");
    }
    if let Some(r) = &f.reason {
        let _ = writeln!(out, "    {r}");
    }
    for a in &f.accesses {
        access_text(f.kind, a, sources, out);
    }
    if !f.params.is_empty() {
        let ps: Vec<String> = f.params.iter().map(|(n, v)| format!("{n} = {v}")).collect();
        let _ = writeln!(out, "    params: {}", ps.join(", "));
    }
    if !f.geometry.is_empty() {
        let gs: Vec<String> = f.geometry.iter().map(|(n, v)| format!("{n} = {v}")).collect();
        let _ = writeln!(out, "    geometry: {}", gs.join(", "));
    }
}

/// `note: benign write-write race on flag[0]: threads (1, 0, 0) of block (0, 0, 0) and …`, one
/// line.
fn benign_text(f: &Finding, out: &mut String) {
    let what = f.index.as_deref().or(f.array.as_deref()).unwrap_or("?");
    let who = match f.accesses.as_slice() {
        [a, b] if a.span == b.span => format!(
            "threads {} of block {} and {} of block {} both write the same value at {}",
            coords(a.thread),
            coords(a.block),
            coords(b.thread),
            coords(b.block),
            a.span
        ),
        accesses => {
            let each: Vec<String> = accesses
                .iter()
                .map(|a| format!("thread {} of block {} at {}", coords(a.thread), coords(a.block), a.span))
                .collect();
            format!("{} write the same value", each.join(" and "))
        }
    };
    let _ = writeln!(
        out,
        "  note: benign write-write race on {what}: {who} (--no-benign reports it as a race)"
    );
}

/// What a thread does at an access of a finding of `kind`: `read`, `write`, `atomic`,
/// `barrier reached`, `barrier not reached`, `fails`.
fn access_what(kind: FindingKind, a: &WitnessAccess) -> &'static str {
    match (kind, a.access, a.reaches) {
        (FindingKind::Divergence, _, Some(true)) => "barrier reached",
        (FindingKind::Divergence, _, _) => "barrier not reached",
        (FindingKind::Assertion | FindingKind::Invariant { .. } | FindingKind::BarrierInvariant { .. }, _, _) => {
            "fails"
        }
        (FindingKind::SignedOverflow, _, _) => "overflows",
        (_, k, _) => k.as_str(),
    }
}

fn access_text(kind: FindingKind, a: &WitnessAccess, sources: &mut Sources, out: &mut String) {
    let what = access_what(kind, a);
    let _ = writeln!(
        out,
        "    {}: {} by thread {} of block {}",
        a.span,
        what,
        coords(a.thread),
        coords(a.block)
    );
    if let Some(line) = sources.line(&a.span.file, a.span.line) {
        let num = a.span.line.to_string();
        let pad = " ".repeat(num.len());
        let _ = writeln!(out, "      {num} | {}", line.trim_end());
        let start = a.span.col.saturating_sub(1) as usize;
        let len = match a.span.end_col {
            Some(e) if e >= a.span.col => (e - a.span.col + 1) as usize,
            _ => 1,
        };
        // Keep tabs so the carets line up with the source line.
        let lead: String = line
            .chars()
            .take(start)
            .map(|c| if c == '\t' { '\t' } else { ' ' })
            .collect();
        let _ = writeln!(out, "      {pad} | {lead}{}", "^".repeat(len));
    }
}

/// Source files read once for carets.
#[derive(Default)]
struct Sources {
    files: HashMap<String, Option<Vec<String>>>,
}

impl Sources {
    /// Line `line` (1-based) of `file`, if the file can be read and has it.
    fn line(&mut self, file: &str, line: u32) -> Option<String> {
        self.lines(file)?.get(line.checked_sub(1)? as usize).cloned()
    }

    /// The lines of `file`, if it can be read.
    fn lines(&mut self, file: &str) -> Option<&[String]> {
        self.files
            .entry(file.to_string())
            .or_insert_with(|| {
                std::fs::read_to_string(file)
                    .ok()
                    .map(|s| s.lines().map(String::from).collect())
            })
            .as_deref()
    }
}

fn finding_json(f: &Finding) -> Value {
    let kind = match f.kind {
        FindingKind::Race { .. } => "race",
        FindingKind::Divergence => "divergence",
        FindingKind::Assertion => "assertion",
        FindingKind::SignedOverflow => "signed_overflow",
        FindingKind::Invariant { .. } => "invariant",
        FindingKind::BarrierInvariant { .. } => "barrier_invariant",
    };
    let accesses: Vec<Value> = f
        .accesses
        .iter()
        .map(|a| {
            let mut v = json!({
                "line": a.span.line,
                "col": a.span.col,
                "access": a.access.as_str(),
                "block": a.block,
                "thread": a.thread,
            });
            if let Some(r) = a.reaches {
                v["reaches"] = json!(r);
            }
            v
        })
        .collect();
    let params: serde_json::Map<String, Value> = f.params.iter().map(|(n, v)| (n.clone(), json!(v))).collect();
    let geometry: serde_json::Map<String, Value> = f.geometry.iter().map(|(n, v)| (n.clone(), json!(v))).collect();
    let mut v = json!({
        "kind": kind,
        "array": f.array,
        "accesses": accesses,
        "params": params,
        "geometry": geometry,
        "index": f.index,
        "possible": f.possible,
    });
    if let FindingKind::Race { write_write } = f.kind {
        v["race"] = json!(if write_write { "write-write" } else { "read-write" });
    }
    if let Some(c) = &f.condition {
        v["condition"] = json!(c);
    }
    if let Some(r) = &f.reason {
        v["reason"] = json!(r);
    }
    if f.possible && !f.abstractions.is_empty() {
        v["rests_on"] = json!(f.abstractions);
    }
    v
}

/// For a possible finding, what it rests on, one line: `possible only through the loop at
/// line 89 (`k` arbitrary at its head)`; `None` for a finding that is not possible or whose
/// abstraction has no name.
fn rests_on(f: &Finding) -> Option<String> {
    (f.possible && !f.abstractions.is_empty()).then(|| format!("rests on {}", f.abstractions.join("; ")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::Span;
    use crate::verdict::AccessKind;
    use std::sync::Arc;
    use std::time::Duration;

    fn result() -> FileResult {
        let span = Span {
            file: Arc::from("no/such/file.cu"),
            line: 3,
            col: 5,
            end_col: Some(8),
        };
        let finding = Finding {
            signed_ok: None,
            kind: FindingKind::Race { write_write: true },
            array: Some("s".into()),
            accesses: vec![
                WitnessAccess {
                    span: span.clone(),
                    access: AccessKind::Write,
                    block: [1, 0, 0],
                    thread: [2, 0, 0],
                    reaches: None,
                },
                WitnessAccess {
                    span,
                    access: AccessKind::Write,
                    block: [1, 0, 0],
                    thread: [7, 0, 0],
                    reaches: None,
                },
            ],
            params: vec![("n".into(), "-3".into())],
            geometry: vec![],
            index: Some("s[0]".into()),
            possible: false,
            abstractions: Vec::new(),
            condition: None,
            reason: None,
        };
        let k = |name: &str, verdict, findings: Vec<Finding>, inconclusive: Vec<String>| KernelResult {
            name: name.into(),
            verdict,
            findings,
            unlisted_pairs: vec![],
            inconclusive,
            notes: vec![],
            loops: vec![],
            answers: vec![],
            answered_by: Default::default(),
            queries: 1,
            time: Duration::ZERO,
            contract: vec![],
            excluded: vec![],
            suggestions: vec![],
            benign: vec![],
            language: Default::default(),
            stage: Default::default(),
            launch: None,
            profile: None,
        };
        FileResult {
            file: "no/such/file.cu".into(),
            kernels: vec![
                k("a", Verdict::Verified, vec![], vec![]),
                k("b", Verdict::Defect, vec![finding], vec![]),
                k(
                    "c",
                    Verdict::Inconclusive,
                    vec![],
                    vec!["query q: no answer within 1 s".into()],
                ),
            ],
            includes: vec![],
        }
    }

    #[test]
    fn text_has_one_verdict_line_per_kernel_and_the_witness() {
        let t = result().text();
        let verdicts: Vec<&str> = t.lines().filter(|l| !l.starts_with(' ')).collect();
        assert_eq!(verdicts, ["a: verified", "b: 1 defect", "c: inconclusive"]);
        assert!(t.contains("  write-write race on s[0]\n"));
        assert!(t.contains("    no/such/file.cu:3:5: write by thread (2, 0, 0) of block (1, 0, 0)\n"));
        assert!(t.contains("    params: n = -3\n"));
        assert!(t.contains("  query q: no answer within 1 s\n"));
    }

    #[test]
    fn json_has_the_documented_fields() {
        let v: Value = serde_json::from_str(&result().json()).expect("valid JSON");
        assert_eq!(v["file"], "no/such/file.cu");
        let ks = v["kernels"].as_array().expect("kernels");
        assert_eq!(
            ks.iter()
                .map(|k| k["verdict"].as_str().unwrap_or(""))
                .collect::<Vec<_>>(),
            ["verified", "defect", "inconclusive"]
        );
        let f = &ks[1]["findings"][0];
        assert_eq!(f["kind"], "race");
        assert_eq!(f["race"], "write-write");
        assert_eq!(f["array"], "s");
        assert_eq!(f["index"], "s[0]");
        assert_eq!(f["params"]["n"], "-3");
        assert_eq!(f["accesses"][1]["thread"], json!([7, 0, 0]));
        assert_eq!(f["accesses"][0]["line"], 3);
        assert_eq!(f["accesses"][0]["access"], "write");
    }

    #[test]
    fn sarif_has_a_result_per_finding_with_both_accesses() {
        let mut log = SarifLog::new("/work/repo".into());
        log.add(&result());
        let invocation = sarif::Invocation {
            arguments: vec!["gpug".into(), "--format".into(), "sarif".into()],
            exit_code: 1,
        };
        let v: Value = serde_json::from_str(&log.finish(&invocation)).expect("valid JSON");
        let run = &v["runs"][0];
        assert_eq!(v["version"], "2.1.0");
        assert_eq!(run["tool"]["driver"]["name"], "gpug");
        assert_eq!(run["invocations"][0]["commandLine"], "gpug --format sarif");
        assert_eq!(run["invocations"][0]["exitCode"], 1);
        let verdicts: Vec<&str> = run["properties"]["kernels"]
            .as_array()
            .expect("kernels")
            .iter()
            .filter_map(|k| k["verdict"].as_str())
            .collect();
        assert_eq!(verdicts, ["verified", "defect", "inconclusive"]);
        let results = run["results"].as_array().expect("results");
        assert_eq!(results.len(), 2);
        let race = &results[0];
        assert_eq!(race["ruleId"], "data-race");
        assert_eq!(race["level"], "error");
        assert_eq!(
            race["message"]["text"],
            "Write-write race on s[0] in kernel b: write by thread (2, 0, 0) of block (1, 0, 0) and \
             [write by thread (7, 0, 0) of block (1, 0, 0)](1). Params: n = -3."
        );
        let place = &race["locations"][0]["physicalLocation"];
        assert_eq!(place["artifactLocation"]["uri"], "no/such/file.cu");
        assert_eq!(place["artifactLocation"]["uriBaseId"], sarif::SRCROOT);
        assert_eq!(
            place["region"],
            json!({"startLine": 3, "startColumn": 5, "endColumn": 9})
        );
        assert_eq!(race["relatedLocations"][0]["id"], 1);
        assert_eq!(race["properties"]["kernel"], "b");
        assert_eq!(race["properties"]["params"]["n"], "-3");
        assert_eq!(race["properties"]["accesses"][1]["thread"], json!([7, 0, 0]));
        let open = &results[1];
        assert_eq!(
            (&open["ruleId"], &open["kind"], &open["level"]),
            (&json!("inconclusive"), &json!("open"), &json!("none"))
        );
        assert_eq!(
            open["message"]["text"],
            "Kernel c is inconclusive. Query q: no answer within 1 s."
        );
    }
}
