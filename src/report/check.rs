//! `gpug check` results as human text and as JSON. Decides nothing.
//!
//! Text, per kernel: `bitonic: all assertions hold for 8 threads (1 block), 0.9 s`, or for each
//! failing assertion its source position and text, the failing thread, the scalar parameters
//! and the global arrays' input values, what the condition read, the arrays' final values and
//! (schedule IDs) the schedule as an ordered list of (thread, line, access, value). A race
//! found by the pre-check is printed as `gpug` prints races.
//!
//! JSON (one object): `{"file", "command": "check", "kernels": [{"name", "verdict",
//! "threads", "blocks", "ordering": "canonical"|"all-schedules", "assertions",
//! "findings": [race findings as in `gpug --json`, or {"kind": "assertion", "postcondition",
//! "line", "col", "text", "thread": [x,y,z], "block": [x,y,z], "params": {name: value},
//! "inputs": {array: {index: value}}, "reads": {label: value}, "final": {array: {index:
//! value}}, "schedule": [{"sid", "thread", "block", "line", "col", "access", "location",
//! "value"}]}], "inconclusive": [reason], "notes": [note], "time_s"}]}`.

use super::sarif::{Entry, Rule, SarifLog};
use super::{
    Render, Sources, assignments, coords, finding_entry, finding_json, finding_text, inconclusive_entry, kernels_text,
};
use crate::ir::{Language, Span};
use crate::verdict::{ArrayValues, AssertionFailure, CheckResult, KernelCheck, Ordering, Verdict};
use serde_json::{Map, Value, json};
use serde_sarif::sarif::{ResultKind, ResultLevel};
use std::fmt::Write;

/// The source text of the call a span starts (`assert(s[i] <= s[i + 1])`, up to its matching
/// parenthesis on the same line), or the trimmed line.
fn span_text(sources: &mut Sources, span: &Span) -> String {
    let Some(line) = sources.line(&span.file, span.line) else {
        return String::new();
    };
    let start = (span.col.saturating_sub(1) as usize).min(line.len());
    let rest = &line[start..];
    let mut depth = 0i32;
    for (i, c) in rest.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return rest[..=i].to_string();
                }
            }
            _ => {}
        }
    }
    line.trim().to_string()
}

fn file_name(span: &Span) -> String {
    std::path::Path::new(&*span.file)
        .file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_else(|| span.file.to_string())
}

fn values_text(a: &ArrayValues) -> String {
    let contiguous = a.elems.iter().enumerate().all(|(i, (idx, _))| *idx == i as i64);
    if contiguous {
        let v: Vec<&str> = a.elems.iter().map(|(_, v)| v.as_str()).collect();
        format!("{} = [{}]", a.name, v.join(", "))
    } else {
        let v: Vec<String> = a.elems.iter().map(|(i, v)| format!("{}[{i}] = {v}", a.name)).collect();
        v.join(", ")
    }
}

impl Render for CheckResult {
    fn text(&self) -> String {
        kernels_text(&self.kernels, kernel_text)
    }

    /// The fields are in the module docs.
    fn json(&self) -> String {
        let mut sources = Sources::default();
        let kernels: Vec<Value> = self.kernels.iter().map(|k| kernel_json(k, &mut sources)).collect();
        json!({ "file": self.file, "command": "check", "kernels": kernels }).to_string()
    }

    /// A race of the pre-check as `gpug`'s; each failing assertion or postcondition a result of
    /// rule `assertion` at it, with the failing thread, the parameters and what the condition
    /// read in the message, and its `--json` object (inputs, final values, schedule) as the
    /// properties; an inconclusive kernel an open result.
    fn sarif(&self, log: &mut SarifLog) {
        for k in &self.kernels {
            let mut row = Map::new();
            row.insert("verdict".into(), json!(k.verdict.as_str()));
            row.insert("threads".into(), json!(k.threads));
            row.insert("blocks".into(), json!(k.blocks));
            row.insert("ordering".into(), json!(k.ordering.as_str()));
            row.insert("assertions".into(), json!(k.assertions));
            row.insert("notes".into(), json!(k.notes));
            log.kernel(&self.file, &k.name, Language::Cuda, row);
            let context = |mut props: Map<String, Value>| {
                props.insert("notes".into(), json!(k.notes));
                props.insert("threads".into(), json!(k.threads));
                props.insert("blocks".into(), json!(k.blocks));
                props.insert("ordering".into(), json!(k.ordering.as_str()));
                props
            };
            for f in &k.races {
                let mut e = finding_entry(
                    f,
                    &self.file,
                    &k.name,
                    Language::Cuda,
                    ResultKind::Fail,
                    ResultLevel::Error,
                );
                e.properties = context(e.properties);
                log.push(e);
            }
            for f in &k.failures {
                let what = if f.postcondition { "postcondition" } else { "assertion" };
                let text = span_text(log.sources(), &f.span);
                let properties = match failure_json(f, log.sources()) {
                    Value::Object(m) => context(m),
                    _ => Map::new(),
                };
                let w = &f.witness;
                let final_state = if f.postcondition { " (final state)" } else { "" };
                let mut details = Vec::new();
                details.extend(assignments("params", &w.params));
                details.extend(assignments("read", &w.reads));
                let headline = match text.is_empty() {
                    true => format!("{what} in kernel {}", k.name),
                    false => format!("{what} `{text}` in kernel {}", k.name),
                };
                let place = format!(
                    "fails for thread {} of block {}{final_state}",
                    coords(w.thread_idx),
                    coords(w.block)
                );
                log.push(Entry {
                    places: vec![(&f.span, place)],
                    details,
                    properties,
                    ..Entry::failure(Rule::Assertion, ResultLevel::Error, headline, &self.file, &k.name)
                });
            }
            log.extend(inconclusive_entry(
                &self.file,
                &k.name,
                Language::Cuda,
                &k.inconclusive,
                context(Map::new()),
            ));
        }
    }
}

fn launch(k: &KernelCheck) -> String {
    format!(
        "{} thread{} ({} block{})",
        k.threads,
        if k.threads == 1 { "" } else { "s" },
        k.blocks,
        if k.blocks == 1 { "" } else { "s" }
    )
}

fn kernel_text(k: &KernelCheck, sources: &mut Sources, out: &mut String) {
    let secs = k.time.as_secs_f64();
    let orderings = match k.ordering {
        Ordering::AllSchedules => ", all schedules",
        Ordering::Canonical => "",
    };
    match k.verdict {
        Verdict::Verified => {
            let what = if k.assertions == 0 {
                "race-free, no assertions to check".to_string()
            } else {
                "all assertions hold".to_string()
            };
            let _ = writeln!(out, "{}: {what} for {}{orderings}, {secs:.1} s", k.name, launch(k));
        }
        Verdict::Inconclusive => {
            let _ = writeln!(
                out,
                "{}: inconclusive for {}{orderings}, {secs:.1} s",
                k.name,
                launch(k)
            );
            for why in &k.inconclusive {
                let _ = writeln!(out, "  {why}");
            }
        }
        Verdict::Defect => {
            if !k.races.is_empty() {
                let n = k.races.len();
                let _ = writeln!(out, "{}: {} defect{}", k.name, n, if n == 1 { "" } else { "s" });
                for f in &k.races {
                    finding_text(f, sources, out);
                }
            }
            for f in &k.failures {
                let what = if f.postcondition { "postcondition" } else { "assertion" };
                let _ = writeln!(
                    out,
                    "{}: {what} failed at {}:{}:{}  {}",
                    k.name,
                    file_name(&f.span),
                    f.span.line,
                    f.span.col,
                    span_text(sources, &f.span)
                );
                let w = &f.witness;
                let _ = writeln!(
                    out,
                    "  thread {} of block {}{}",
                    coords(w.thread_idx),
                    coords(w.block),
                    if f.postcondition { " (final state)" } else { "" }
                );
                let mut input: Vec<String> = w.inputs.iter().map(values_text).collect();
                input.extend(w.params.iter().map(|(n, v)| format!("{n} = {v}")));
                if !input.is_empty() {
                    let _ = writeln!(out, "  input  {}", input.join("   "));
                }
                if !w.reads.is_empty() {
                    let r: Vec<String> = w.reads.iter().map(|(l, v)| format!("{l} = {v}")).collect();
                    let _ = writeln!(out, "  read   {}", r.join(", "));
                }
                let fin: Vec<String> = w.finals.iter().map(values_text).collect();
                if !fin.is_empty() {
                    let _ = writeln!(out, "  final  {}", fin.join("   "));
                }
                if !w.schedule.is_empty() {
                    let _ = writeln!(out, "  schedule:");
                    for (i, s) in w.schedule.iter().enumerate() {
                        let who = if k.blocks > 1 {
                            format!("thread {} of block {}", coords(s.thread_idx), coords(s.block))
                        } else {
                            format!("thread {}", coords(s.thread_idx))
                        };
                        let _ = writeln!(
                            out,
                            "    {:>3}. {who}  line {:<4} {:<6} {} = {}",
                            i + 1,
                            s.span.line,
                            s.access.as_str(),
                            s.location,
                            s.value
                        );
                    }
                }
            }
            for why in &k.inconclusive {
                let _ = writeln!(out, "  also inconclusive: {why}");
            }
        }
    }
    for n in &k.notes {
        let _ = writeln!(out, "  note: {n}");
    }
}

fn values_json(v: &[ArrayValues]) -> Value {
    let m: serde_json::Map<String, Value> = v
        .iter()
        .map(|a| {
            let e: serde_json::Map<String, Value> = a.elems.iter().map(|(i, v)| (i.to_string(), json!(v))).collect();
            (a.name.clone(), Value::Object(e))
        })
        .collect();
    Value::Object(m)
}

/// One kernel's JSON object: races and failing assertions as findings.
fn kernel_json(k: &KernelCheck, sources: &mut Sources) -> Value {
    let mut findings: Vec<Value> = k.races.iter().map(finding_json).collect();
    findings.extend(k.failures.iter().map(|f| failure_json(f, sources)));
    json!({
        "name": k.name,
        "verdict": k.verdict.as_str(),
        "threads": k.threads,
        "blocks": k.blocks,
        "ordering": k.ordering.as_str(),
        "assertions": k.assertions,
        "findings": findings,
        "inconclusive": k.inconclusive,
        "notes": k.notes,
        "time_s": k.time.as_secs_f64(),
    })
}

/// A failing assertion's JSON object (the module docs' `{"kind": "assertion", …}`).
fn failure_json(f: &AssertionFailure, sources: &mut Sources) -> Value {
    let w = &f.witness;
    let schedule: Vec<Value> = w
        .schedule
        .iter()
        .map(|s| {
            json!({"sid": s.sid, "thread": s.thread_idx, "block": s.block, "line": s.span.line,
                   "col": s.span.col, "access": s.access.as_str(), "location": s.location,
                   "value": s.value})
        })
        .collect();
    let params: serde_json::Map<String, Value> = w.params.iter().map(|(n, v)| (n.clone(), json!(v))).collect();
    let reads: serde_json::Map<String, Value> = w.reads.iter().map(|(n, v)| (n.clone(), json!(v))).collect();
    json!({
        "kind": "assertion",
        "postcondition": f.postcondition,
        "line": f.span.line,
        "col": f.span.col,
        "text": span_text(sources, &f.span),
        "thread": w.thread_idx,
        "block": w.block,
        "params": params,
        "inputs": values_json(&w.inputs),
        "reads": reads,
        "final": values_json(&w.finals),
        "schedule": schedule,
    })
}
