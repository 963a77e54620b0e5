//! `gpug bank` results as human text and as JSON (PUG (Li and Gopalakrishnan, FSE 2010), §7).
//! Decides nothing.
//!
//! Text, per kernel: a header with the bank model, one line per shared access site (most
//! severe first) with its source text, its degree (`32-way`, `conflict-free`) and the witness
//! (warp, linear thread ids, bank), one line per barrier interval, and the summary
//! `1 of 2 shared accesses conflict; 1 of 2 barrier intervals (50%): HI`.
//!
//! JSON (one object):
//! `{"file", "model": {"banks", "bank_width", "warp_size"},
//!   "kernels": [{"name", "accesses": [{"line", "col", "array", "access": "read"|"write"|"atomic",
//!   "width", "degree", "exact", "possible": true|false|null, "occurrences",
//!   "witness": null | {"block": [x,y,z], "warp", "threads": [linear ids], "lanes": [lane ids],
//!   "thread_idx": [[x,y,z]…], "bank", "interval", "occurrence"}}],
//!   "intervals": [{"index", "accesses", "conflicting", "undecided"}],
//!   "conflicting_accesses", "conflicting_intervals", "summary": "HI"|"LO"|"none",
//!   "inconclusive": [reason], "notes": [note]}]}`. Degree 1 means conflict-free.

use super::sarif::{Entry, Rule, SarifLog};
use super::{Render, Sources, coords, inconclusive_entry, kernels_text};
use crate::ir::Language;
use crate::verdict::{BankFileResult, BankKernelResult, KernelOutcome, SiteResult};
use serde_json::{Map, Value, json};
use serde_sarif::sarif::ResultLevel;
use std::fmt::Write;

impl Render for BankFileResult {
    fn text(&self) -> String {
        let m = &self.model;
        kernels_text(&self.kernels, |k, sources, out| {
            let _ = writeln!(
                out,
                "{} ({} banks of {} bytes, warps of {} threads):",
                k.name, m.banks, m.bank_width, m.warp_size
            );
            kernel_text(k, sources, out);
        })
    }

    /// The fields are in the module docs.
    fn json(&self) -> String {
        let m = &self.model;
        json!({
            "file": self.file,
            "model": {"banks": m.banks, "bank_width": m.bank_width, "warp_size": m.warp_size},
            "kernels": self.kernels.iter().map(|k| kernel_json(k, m.warp_size)).collect::<Vec<_>>(),
        })
        .to_string()
    }

    /// Each conflicting access (degree > 1) a warning of rule `bank-conflict` at it, with its
    /// degree, warp, threads and bank in the message and its `--json` object and the bank model
    /// as the properties; an inconclusive kernel an open result.
    fn sarif(&self, log: &mut SarifLog) {
        let m = &self.model;
        let model = json!({"banks": m.banks, "bank_width": m.bank_width, "warp_size": m.warp_size});
        for k in &self.kernels {
            let mut row = Map::new();
            row.insert("verdict".into(), json!(k.verdict().as_str()));
            row.insert("summary".into(), json!(k.summary().as_str()));
            row.insert("conflicting_accesses".into(), json!(k.conflicting_sites()));
            row.insert("conflicting_intervals".into(), json!(k.conflicting_intervals()));
            row.insert("notes".into(), json!(k.notes));
            log.kernel(&self.file, &k.name, Language::Cuda, row);
            let context = |mut props: Map<String, Value>| {
                props.insert("notes".into(), json!(k.notes));
                props.insert("model".into(), model.clone());
                props
            };
            for s in k.sites.iter().filter(|s| s.degree > 1) {
                let degree = match s.exact {
                    true => format!("{}-way", s.degree),
                    false => format!("at least {}-way", s.degree),
                };
                let what = match &s.witness {
                    Some(w) => format!(
                        "{} by warp {} of block {}: threads {} hit bank {}",
                        s.kind.as_str(),
                        w.witness.warp,
                        coords(w.witness.block),
                        id_list(&w.witness.threads),
                        w.witness.bank
                    ),
                    None => s.kind.as_str().to_string(),
                };
                let mut details = vec![format!(
                    "{} banks of {} bytes, warps of {} threads",
                    m.banks, m.bank_width, m.warp_size
                )];
                if let Some(w) = s.witness.as_ref().filter(|_| s.occurrences > 1) {
                    details.push(format!("occurrence {} of {}", w.occurrence + 1, s.occurrences));
                }
                let properties = match site_json(s, m.warp_size) {
                    Value::Object(o) => context(o),
                    _ => Map::new(),
                };
                let headline = format!("{degree} bank conflict on {} in kernel {}", s.array, k.name);
                log.push(Entry {
                    places: vec![(&s.span, what)],
                    details,
                    properties,
                    ..Entry::failure(Rule::BankConflict, ResultLevel::Warning, headline, &self.file, &k.name)
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

/// The source text of the access (its span on its line), or the array's name.
fn source_text(s: &SiteResult, sources: &mut Sources) -> String {
    let line = sources
        .lines(&s.span.file)
        .and_then(|l| l.get(s.span.line.saturating_sub(1) as usize));
    match (line, s.span.end_col) {
        (Some(l), Some(end)) => l
            .get(s.span.col.saturating_sub(1) as usize..(end as usize).min(l.len()))
            .map(str::to_string)
            .unwrap_or_else(|| s.array.clone()),
        _ => s.array.clone(),
    }
}

/// `0..31`, `0, 2, …, 30`, or `0, 16`.
pub fn id_list(ids: &[u64]) -> String {
    match ids {
        [] => String::new(),
        [a] => a.to_string(),
        [a, b] => format!("{a}, {b}"),
        [a, b, .., z] => {
            let d = b.wrapping_sub(*a);
            if ids.windows(2).all(|w| w[1].wrapping_sub(w[0]) == d) {
                if d == 1 {
                    format!("{a}..{z}")
                } else if ids.len() == 3 {
                    format!("{a}, {b}, {z}")
                } else {
                    format!("{a}, {b}, …, {z}")
                }
            } else {
                ids.iter().map(u64::to_string).collect::<Vec<_>>().join(", ")
            }
        }
    }
}

fn degree_text(s: &SiteResult) -> String {
    match (s.possible, s.degree, s.exact) {
        (None, _, _) => "inconclusive".to_string(),
        (_, 1, true) => "conflict-free".to_string(),
        (_, d, true) => format!("{d}-way"),
        (_, d, false) => format!(">= {d}-way (inconclusive)"),
    }
}

fn kernel_text(k: &BankKernelResult, sources: &mut Sources, out: &mut String) {
    let mut order: Vec<&SiteResult> = k.sites.iter().collect();
    order.sort_by_key(|s| std::cmp::Reverse(s.degree));
    let rows: Vec<(String, String, String, String)> = order
        .iter()
        .map(|s| {
            let mut deg = degree_text(s);
            if let Some(w) = &s.witness {
                let occ = if s.occurrences > 1 {
                    format!("; occurrence {} of {}", w.occurrence + 1, s.occurrences)
                } else {
                    String::new()
                };
                let _ = write!(
                    deg,
                    "  (warp {}: threads {} hit bank {}{occ})",
                    w.witness.warp,
                    id_list(&w.witness.threads),
                    w.witness.bank
                );
            }
            (
                s.span.to_string(),
                s.kind.as_str().to_string(),
                format!("{} ", source_text(s, sources)),
                deg,
            )
        })
        .collect();
    let w0 = rows.iter().map(|r| r.0.len()).max().unwrap_or(0);
    let w2 = rows.iter().map(|r| r.2.chars().count()).max().unwrap_or(0);
    for (a, b, c, d) in rows {
        let pad = w2 - c.chars().count();
        let _ = writeln!(out, "{a:<w0$}  {b:<5} {c}{}  {d}", " ".repeat(pad));
    }
    for i in &k.intervals {
        let und = if i.undecided > 0 {
            format!(", {} undecided", i.undecided)
        } else {
            String::new()
        };
        let _ = writeln!(
            out,
            "  barrier interval {}: {} of {} shared accesses conflict{und}",
            i.index, i.conflicting, i.accesses
        );
    }
    let n = k.intervals.len();
    let c = k.conflicting_intervals();
    let pct = (c * 100).checked_div(n).unwrap_or(0);
    let _ = writeln!(
        out,
        "{} of {} shared accesses conflict; {} of {} barrier intervals ({}%): {}",
        k.conflicting_sites(),
        k.sites.len(),
        c,
        n,
        pct,
        k.summary().as_str()
    );
    for why in &k.inconclusive {
        let _ = writeln!(out, "  inconclusive: {why}");
    }
    for note in &k.notes {
        let _ = writeln!(out, "  note: {note}");
    }
}

/// An access site's JSON object (the module docs' `{"line", "col", "array", …}`), for warps of
/// `warp` threads.
fn site_json(s: &SiteResult, warp: u32) -> Value {
    let witness = s.witness.as_ref().map(|w| {
        json!({
            "block": w.witness.block,
            "warp": w.witness.warp,
            "threads": w.witness.threads,
            "lanes": w.witness.threads.iter().map(|t| t % u64::from(warp.max(1))).collect::<Vec<_>>(),
            "thread_idx": w.witness.thread_idx,
            "bank": w.witness.bank,
            "interval": w.interval,
            "occurrence": w.occurrence,
        })
    });
    json!({
        "line": s.span.line,
        "col": s.span.col,
        "array": s.array,
        "access": s.kind.as_str(),
        "width": s.width,
        "degree": s.degree,
        "exact": s.exact,
        "possible": s.possible,
        "occurrences": s.occurrences,
        "witness": witness,
    })
}

fn kernel_json(k: &BankKernelResult, warp: u32) -> Value {
    let accesses: Vec<Value> = k.sites.iter().map(|s| site_json(s, warp)).collect();
    json!({
        "name": k.name,
        "accesses": accesses,
        "intervals": k.intervals.iter().map(|i| json!({
            "index": i.index, "accesses": i.accesses, "conflicting": i.conflicting, "undecided": i.undecided,
        })).collect::<Vec<_>>(),
        "conflicting_accesses": k.conflicting_sites(),
        "conflicting_intervals": k.conflicting_intervals(),
        "summary": k.summary().as_str(),
        "inconclusive": k.inconclusive,
        "notes": k.notes,
    })
}

#[cfg(test)]
mod tests {
    use super::id_list;

    #[test]
    fn thread_lists() {
        assert_eq!(id_list(&[]), "");
        assert_eq!(id_list(&[5]), "5");
        assert_eq!(id_list(&[0, 16]), "0, 16");
        assert_eq!(id_list(&(0..32).collect::<Vec<_>>()), "0..31");
        assert_eq!(id_list(&[0, 2, 4, 6]), "0, 2, …, 6");
        assert_eq!(id_list(&[1, 2, 7]), "1, 2, 7");
    }
}
