//! A result at a launch of the host code in the text report: the launch's assumptions after
//! the kernel's first line, and the launches of one site that verify alike merged into one
//! report (issue 53 item 2).

use super::{KernelResult, Sources, Verdict, kernel_text};
use std::fmt::Write;

/// The text of every kernel of a file, in order, where consecutive results of one kernel at one
/// launch site of the host code (a host loop over block sizes: llm.c launches each kernel at 6)
/// that are verified with the same report but for the launch's values are one report, the
/// others' values on a line after its own (issue 53 item 2: "merging identical reports").
/// The JSON keeps one result per launch.
pub(super) fn merged_launches_text(kernels: &[KernelResult]) -> String {
    let mut sources = Sources::default();
    let mut out = String::new();
    // A result's text without its launch's values, to compare.
    let without_values = |text: &str| -> String {
        text.lines()
            .filter(|l| !l.starts_with("  assuming the launch's "))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let mut i = 0;
    while i < kernels.len() {
        let first = &kernels[i];
        let mut text = String::new();
        kernel_text(first, &mut sources, &mut text);
        let mut others: Vec<&KernelResult> = Vec::new();
        if first.verdict == Verdict::Verified && first.launch.is_some() {
            let key = without_values(&text);
            while let Some(next) = kernels.get(i + 1 + others.len()) {
                let mut t = String::new();
                kernel_text(next, &mut sources, &mut t);
                let same_site = next.launch.as_ref().map(|l| l.title()) == first.launch.as_ref().map(|l| l.title());
                if next.verdict != Verdict::Verified || !same_site || without_values(&t) != key {
                    break;
                }
                others.push(next);
            }
        }
        if let (false, Some(l)) = (others.is_empty(), &first.launch) {
            let values: Vec<String> = others
                .iter()
                .filter_map(|o| o.launch.as_ref())
                .map(|o| {
                    let differ: Vec<&str> = o
                        .assuming
                        .iter()
                        .filter(|a| !l.assuming.contains(a))
                        .map(String::as_str)
                        .collect();
                    differ.join(", ")
                })
                .collect();
            let line = format!(
                "  verified alike at {} more launch{} from here: {}\n",
                others.len(),
                if others.len() == 1 { "" } else { "es" },
                values.join("; ")
            );
            let at = text.find('\n').map_or(text.len(), |n| n + 1);
            let at = match text[at..].starts_with("  assuming the launch's ") {
                true => text[at..].find('\n').map_or(text.len(), |n| at + n + 1),
                false => at,
            };
            text.insert_str(at, &line);
        }
        out.push_str(&text);
        i += 1 + others.len();
    }
    out
}

/// The launch's assumptions and other sites, as lines after the kernel's first line (which
/// starts at byte `at` of `out`).
pub(super) fn launch_text(l: &crate::verdict::LaunchSite, at: usize, out: &mut String) {
    let mut lines = String::new();
    if !l.assuming.is_empty() {
        let _ = writeln!(lines, "  assuming the launch's {}", l.assuming.join(", "));
    }
    if l.in_loop {
        let _ = writeln!(
            lines,
            "  note: the launch is in a host loop: its values that change are symbolic"
        );
    }
    if !l.same.is_empty() {
        let sites: Vec<String> = l.same.iter().map(|s| format!("{}:{}", s.file, s.line)).collect();
        let _ = writeln!(lines, "  the same launch also at {}", sites.join(", "));
    }
    let header_end = out[at..].find('\n').map_or(out.len(), |i| at + i + 1);
    out.insert_str(header_end, &lines);
}
