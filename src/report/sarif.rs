//! Results as one SARIF 2.1.0 log (OASIS, `sarif-schema-2.1.0.json`, errata 01), the format that
//! GitHub code scanning, GitLab and editors read. Builds the log with `serde-sarif`'s types;
//! decides nothing and prints nothing: the caller gives each file's result ([`Render::sarif`])
//! or error ([`SarifLog::error`]), then [`SarifLog::finish`] returns the log as text.
//!
//! The log has one run (every file of a run over many files), whose tool driver is `gpug` with
//! its version and the [`RULES`], and whose one invocation holds the command line, the exit
//! code, the working directory and a `toolExecutionNotifications` entry per file gpug could not
//! verify (an input error: exit 2). Each finding is one result:
//!
//! - `ruleId`: `data-race`, `barrier-divergence`, `assertion`, `loop-invariant`,
//!   `barrier-invariant`, `bank-conflict` (`gpug bank`), or `inconclusive`;
//! - `kind` `fail` with `level` `error` (`warning`: a possible defect, which rests on a loop
//!   abstraction, or a bank conflict; `note`: a finding the launch contract excludes), `open`
//!   (an inconclusive kernel, `level` `none`), or `informational` (a benign write-write race,
//!   `level` `none`);
//! - the message: what, in which kernel, both threads' `threadIdx` and `blockIdx`, the
//!   parameters' values, the launch's symbolic dimensions and the racing element; the second
//!   access is an embedded link (`[…](1)`) to the related location of id 1;
//! - `locations`: the first access (its kernel as a logical location of kind `function`);
//!   `relatedLocations`: the other accesses, ids 1, 2, …;
//! - `properties`: `kernel`, the finding in the shape of `--json`'s findings (`kind`, `race`,
//!   `array`, `accesses` with `thread` and `block`, `params`, `geometry`, `index`, `possible`,
//!   `condition`, `reason`; for `gpug check` its assertion fields, for `gpug bank` its access
//!   with degree and witness), and the kernel's `notes`, launch `contract`, `stage`,
//!   `suggestions` (and `excluded`: the condition of a finding the contract excludes).
//!
//! The run's `properties.kernels` lists every kernel with its verdict, verified ones too.
//! Locations: `artifactLocation.uri` relative to the working directory with `uriBaseId`
//! `%SRCROOT%` (given in `originalUriBaseIds`) when the file is under it, else an absolute
//! `file://` URI; regions with `startLine`, `startColumn` and `endColumn` (one past the last
//! character) in Unicode code points (`columnKind`), converted from clang's byte columns with
//! the source line when it can be read. OpenCL kernels are reported in OpenCL's words, as in
//! the text and JSON reports.

use super::{Render, Sources, opencl_json, opencl_words};
use crate::ir::{Language, Span};
use serde_json::{Map, Value, json};
use serde_sarif::sarif as s;
use std::path::{Component, Path, PathBuf};

/// The `$schema` of the log: OASIS's schema of SARIF 2.1.0 (errata 01).
pub const SCHEMA_URI: &str =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

/// The name `originalUriBaseIds` gives the working directory; relative URIs are relative to it.
pub const SRCROOT: &str = "%SRCROOT%";

/// What a result is about: one rule per kind of finding. Its index in [`RULES`] is its
/// `ruleIndex`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// Two threads access one location in one barrier interval, one of them writing.
    DataRace,
    /// Two threads of one block: one reaches a barrier, the other does not.
    BarrierDivergence,
    /// An assertion or postcondition may fail.
    Assertion,
    /// A loop invariant may not hold on entry or may not be preserved.
    LoopInvariant,
    /// A barrier invariant may fail at its barrier.
    BarrierInvariant,
    /// Lanes of one warp access different words of one shared-memory bank (`gpug bank`).
    BankConflict,
    /// A property could not be decided.
    Inconclusive,
    /// A signed `+`, `-`, `*` may overflow (`--check-overflow`). Last, so that the indices
    /// of the rules before it stay.
    SignedOverflow,
}

/// A rule's descriptor: `id`, `name`, short and full description, default level.
pub struct RuleInfo {
    /// The rule.
    pub rule: Rule,
    /// `ruleId`, kebab-case.
    pub id: &'static str,
    /// The descriptor's `name`, PascalCase.
    pub name: &'static str,
    /// One sentence.
    pub short: &'static str,
    /// A paragraph.
    pub full: &'static str,
    /// `defaultConfiguration.level`: `error`, `warning`, `note` or `none`.
    pub level: &'static str,
}

/// Every rule gpug reports under, in `ruleIndex` order (the order of [`Rule`]).
pub const RULES: &[RuleInfo] = &[
    RuleInfo {
        rule: Rule::DataRace,
        id: "data-race",
        name: "DataRace",
        short: "Two threads access one memory location without synchronisation, one of them writing.",
        full: "Two threads access one location of shared or global memory in one barrier interval, \
               at least one of them writing, and no barrier or atomic orders the accesses. The \
               witness gives both accesses, both threads' threadIdx and blockIdx, the parameters' \
               values and the racing element.",
        level: "error",
    },
    RuleInfo {
        rule: Rule::BarrierDivergence,
        id: "barrier-divergence",
        name: "BarrierDivergence",
        short: "Two threads of one block disagree on reaching a barrier.",
        full: "A barrier (__syncthreads, barrier) is reached by one thread of a block and not by \
               another: the behaviour is undefined. The witness gives both threads.",
        level: "error",
    },
    RuleInfo {
        rule: Rule::Assertion,
        id: "assertion",
        name: "AssertionFailure",
        short: "An assertion or postcondition may fail.",
        full: "An assert, __assert or __ensures may be false for some thread; the witness gives \
               the thread and the values that make it fail.",
        level: "error",
    },
    RuleInfo {
        rule: Rule::LoopInvariant,
        id: "loop-invariant",
        name: "LoopInvariantFailure",
        short: "A loop invariant may not hold on entry or may not be preserved by an iteration.",
        full: "A user-given loop invariant (__invariant) may be false when the loop is entered, \
               or may be made false by an iteration of the loop.",
        level: "error",
    },
    RuleInfo {
        rule: Rule::BarrierInvariant,
        id: "barrier-invariant",
        name: "BarrierInvariantFailure",
        short: "A barrier invariant may not hold at its barrier.",
        full: "A barrier invariant may be false when its barrier is reached, may read a location \
               that neither thread of the pair accessed since the last barrier, or reads a \
               variable that differs between threads, so that it cannot be instantiated at \
               other threads.",
        level: "error",
    },
    RuleInfo {
        rule: Rule::BankConflict,
        id: "bank-conflict",
        name: "BankConflict",
        short: "Lanes of one warp access different words of one shared-memory bank.",
        full: "An access to a __shared__ array in which lanes of one warp touch different words \
               of one bank, which serialises the access (gpug bank). The degree is the largest \
               number of distinct words of one bank that one warp touches in the access.",
        level: "warning",
    },
    RuleInfo {
        rule: Rule::Inconclusive,
        id: "inconclusive",
        name: "Inconclusive",
        short: "A property of the kernel could not be decided.",
        full: "A query timed out, a solver answered unknown or failed, or a loop could not be \
               treated: the kernel is neither verified nor shown to have a defect. The reasons \
               are in the message.",
        level: "none",
    },
    RuleInfo {
        rule: Rule::SignedOverflow,
        id: "signed-integer-overflow",
        name: "SignedIntegerOverflow",
        short: "A signed integer +, - or * may overflow, which is undefined behaviour.",
        full: "A thread may reach a signed `int` or `long` addition, subtraction or \
               multiplication of the source whose exact result does not fit its type \
               (--check-overflow): undefined behaviour in C++ and OpenCL C, as UBSan's \
               signed-integer-overflow check reports it. Unsigned arithmetic wraps and is \
               never reported.",
        level: "error",
    },
];

impl Rule {
    /// The rule's descriptor in [`RULES`].
    pub fn info(self) -> &'static RuleInfo {
        &RULES[self.index()]
    }

    /// The rule's `ruleIndex`.
    pub fn index(self) -> usize {
        self as usize
    }
}

/// The invocation of gpug, as the log records it.
#[derive(Clone, Debug)]
pub struct Invocation {
    /// The command line, the program first.
    pub arguments: Vec<String>,
    /// The run's exit code.
    pub exit_code: i32,
}

/// One SARIF log being built: results of every file, errors, every kernel's verdict.
pub struct SarifLog {
    cwd: PathBuf,
    sources: Sources,
    results: Vec<s::Result>,
    notifications: Vec<s::Notification>,
    kernels: Vec<Value>,
}

/// One result, before it becomes SARIF: what [`SarifLog::push`] takes.
pub(super) struct Entry<'a> {
    /// The rule.
    pub rule: Rule,
    /// `fail`, `open` or `informational`.
    pub kind: s::ResultKind,
    /// The level (`none` unless `kind` is `fail`).
    pub level: s::ResultLevel,
    /// The first sentence, without its full stop: `read-write race on sdata[64] in kernel reduce`.
    pub headline: String,
    /// The places of the witness with what happens at each: the first is the result's
    /// location, the others its related locations.
    pub places: Vec<(&'a Span, String)>,
    /// Further sentences, without their full stops (parameters, conditions).
    pub details: Vec<String>,
    /// The file, for a result without places.
    pub file: &'a str,
    /// The kernel.
    pub kernel: &'a str,
    /// The kernel's language: OpenCL's words for OpenCL.
    pub language: Language,
    /// The result's properties (`kernel` is added).
    pub properties: Map<String, Value>,
}

impl<'a> Entry<'a> {
    /// A failing result of `rule` at `level` in CUDA `kernel` of `file`: no places, details
    /// nor properties yet.
    pub(super) fn failure(
        rule: Rule,
        level: s::ResultLevel,
        headline: String,
        file: &'a str,
        kernel: &'a str,
    ) -> Entry<'a> {
        Entry {
            rule,
            kind: s::ResultKind::Fail,
            level,
            headline,
            places: Vec::new(),
            details: Vec::new(),
            file,
            kernel,
            language: Language::Cuda,
            properties: Map::new(),
        }
    }
}

impl SarifLog {
    /// An empty log of a run in `working_directory` (relative URIs are relative to it).
    pub fn new(working_directory: PathBuf) -> SarifLog {
        SarifLog {
            cwd: working_directory,
            sources: Sources::default(),
            results: Vec::new(),
            notifications: Vec::new(),
            kernels: Vec::new(),
        }
    }

    /// Adds a file's results.
    pub fn add(&mut self, result: &impl Render) {
        result.sarif(self);
    }

    /// Records that `file` could not be verified, for `why` (one line), at `span` when the error
    /// has one: a notification of level `error` in the invocation.
    pub fn error(&mut self, file: &str, why: &str, span: Option<&Span>) {
        let location = match span {
            Some(sp) => self.location(sp, None),
            None => self.file_location(file),
        };
        self.notifications.push(
            s::Notification::builder()
                .level(json!("error"))
                .message(message(&format!("{file}: {why}")))
                .locations(vec![location])
                .build(),
        );
    }

    /// Records kernel `kernel` of `file` in the run's `properties.kernels`: `row` (its verdict
    /// and what the command says of it, in OpenCL's words for OpenCL) with `file` (its URI) and
    /// `kernel` added.
    pub(super) fn kernel(&mut self, file: &str, kernel: &str, language: Language, row: Map<String, Value>) {
        let mut row = in_words(language, row);
        row.insert("file".into(), json!(self.uri(file).0));
        row.insert("kernel".into(), json!(kernel));
        self.kernels.push(Value::Object(row));
    }

    /// The source lines read so far, for the renderers.
    pub(super) fn sources(&mut self) -> &mut Sources {
        &mut self.sources
    }

    /// Adds each of `entries` (none, for an empty `Option`).
    pub(super) fn extend<'e>(&mut self, entries: impl IntoIterator<Item = Entry<'e>>) {
        for e in entries {
            self.push(e);
        }
    }

    /// Adds one result.
    pub(super) fn push(&mut self, e: Entry) {
        let mut text = capitalized(&e.headline);
        if let Some(((_, first), others)) = e.places.split_first() {
            text.push_str(": ");
            text.push_str(first);
            let links: Vec<String> = others
                .iter()
                .enumerate()
                .map(|(i, (_, what))| format!("[{}]({})", link_text(what), i + 1))
                .collect();
            match links.split_last() {
                Some((last, [])) => text.push_str(&format!(" and {last}")),
                Some((last, rest)) => text.push_str(&format!(", {} and {last}", rest.join(", "))),
                None => {}
            }
        }
        text.push('.');
        for d in &e.details {
            text.push(' ');
            text.push_str(&capitalized(d));
            text.push('.');
        }
        let words = |t: &str| match e.language {
            Language::OpenCl => opencl_words(t),
            Language::Cuda => t.to_string(),
        };
        let kernel_location = s::LogicalLocation::builder().name(e.kernel).kind("function").build();
        let mut locations = Vec::new();
        let mut related = Vec::new();
        for (i, (span, what)) in e.places.iter().enumerate() {
            let mut l = self.location(span, Some(&words(what)));
            match i {
                0 => {
                    l.logical_locations = Some(vec![kernel_location.clone()]);
                    locations.push(l);
                }
                _ => {
                    l.id = Some(i as i64);
                    related.push(l);
                }
            }
        }
        if locations.is_empty() {
            let mut l = self.file_location(e.file);
            l.logical_locations = Some(vec![kernel_location]);
            locations.push(l);
        }
        let mut properties = in_words(e.language, e.properties);
        properties.insert("kernel".into(), json!(e.kernel));
        let result = s::Result::builder()
            .rule_id(e.rule.info().id)
            .rule_index(e.rule.index() as i64)
            .kind(e.kind)
            .level(e.level)
            .message(message(&words(&text)))
            .locations(locations)
            .properties(bag(properties));
        self.results.push(match related.is_empty() {
            true => result.build(),
            false => result.related_locations(related).build(),
        });
    }

    /// The log as pretty-printed JSON, with `invocation`.
    pub fn finish(self, invocation: &Invocation) -> String {
        let version = env!("CARGO_PKG_VERSION");
        let rules: Vec<s::ReportingDescriptor> = RULES
            .iter()
            .map(|r| {
                s::ReportingDescriptor::builder()
                    .id(r.id)
                    .name(r.name)
                    .short_description(&r.short.to_string())
                    .full_description(&r.full.to_string())
                    .default_configuration(s::ReportingConfiguration::builder().level(json!(r.level)).build())
                    .build()
            })
            .collect();
        let driver = s::ToolComponent::builder()
            .name("gpug")
            .full_name(format!("gpug {version}"))
            .version(version)
            .semantic_version(version)
            .short_description(
                &"A verifier for CUDA and OpenCL kernels: data races, barrier divergence, assertions, bank conflicts."
                    .to_string(),
            )
            .rules(rules)
            .build();
        let args = &invocation.arguments;
        let mut run_invocation = s::Invocation::builder()
            .command_line(shell_words::join(args))
            .arguments(args.iter().skip(1).cloned().collect::<Vec<_>>())
            .execution_successful(self.notifications.is_empty())
            .exit_code(i64::from(invocation.exit_code))
            .working_directory(s::ArtifactLocation::builder().uri(dir_uri(&self.cwd)).build())
            .build();
        if !self.notifications.is_empty() {
            run_invocation.tool_execution_notifications = Some(self.notifications);
        }
        let base_ids: std::collections::BTreeMap<String, s::ArtifactLocation> = [(
            SRCROOT.to_string(),
            s::ArtifactLocation::builder().uri(dir_uri(&self.cwd)).build(),
        )]
        .into();
        let mut run_properties = Map::new();
        run_properties.insert("kernels".into(), Value::Array(self.kernels));
        let run = s::Run::builder()
            .tool(driver)
            .invocations(vec![run_invocation])
            .original_uri_base_ids(base_ids)
            .column_kind(json!("unicodeCodePoints"))
            .results(self.results)
            .properties(bag(run_properties))
            .build();
        let log = s::Sarif::builder()
            .schema(SCHEMA_URI)
            .version(json!("2.1.0"))
            .runs(vec![run])
            .build();
        serde_json::to_string_pretty(&log).unwrap_or_default()
    }

    /// A location at `span`, with `what` as its message.
    fn location(&mut self, span: &Span, what: Option<&str>) -> s::Location {
        let line = self.sources.line(&span.file, span.line);
        let start = code_point_col(line.as_deref(), span.col, false);
        let mut region = s::Region::builder()
            .start_line(i64::from(span.line))
            .start_column(start)
            .build();
        if let Some(end) = span.end_col.filter(|e| *e >= span.col) {
            region.end_column = Some(code_point_col(line.as_deref(), end, true));
        }
        let physical = s::PhysicalLocation::builder()
            .artifact_location(self.artifact(&span.file))
            .region(region)
            .build();
        let mut l = s::Location::builder().physical_location(physical).build();
        l.message = what.map(message);
        l
    }

    /// A location that is a whole file.
    fn file_location(&self, file: &str) -> s::Location {
        let physical = s::PhysicalLocation::builder()
            .artifact_location(self.artifact(file))
            .build();
        s::Location::builder().physical_location(physical).build()
    }

    /// `file`'s artifact location: relative to `%SRCROOT%`, or an absolute URI.
    fn artifact(&self, file: &str) -> s::ArtifactLocation {
        match self.uri(file) {
            (uri, true) => s::ArtifactLocation::builder().uri(uri).uri_base_id(SRCROOT).build(),
            (uri, false) => s::ArtifactLocation::builder().uri(uri).build(),
        }
    }

    /// `file`'s URI: relative to the working directory when the file is under it (`true`),
    /// else an absolute `file://` URI.
    fn uri(&self, file: &str) -> (String, bool) {
        let path = normalized(&self.cwd.join(file));
        match path.strip_prefix(normalized(&self.cwd)) {
            Ok(rel) if rel.components().next().is_some() => (percent_encoded(rel), true),
            _ => (file_uri(&path), false),
        }
    }
}

/// `properties` in OpenCL's words for an OpenCL kernel (as `--json` has them: `local_id` for
/// `thread`, …), else as they are.
fn in_words(language: Language, properties: Map<String, Value>) -> Map<String, Value> {
    match language {
        Language::OpenCl => match opencl_json(Value::Object(properties)) {
            Value::Object(m) => m,
            _ => Map::new(),
        },
        Language::Cuda => properties,
    }
}

/// `path` made absolute lexically: `.` dropped, `..` taking its parent off (no symbolic link
/// followed, so a file named through a link under the working directory stays under it).
fn normalized(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            c => out.push(c),
        }
    }
    out
}

/// `path`'s components joined by `/`, each percent-encoded but for RFC 3986's unreserved
/// characters.
fn percent_encoded(path: &Path) -> String {
    let parts: Vec<String> = path
        .components()
        .filter_map(|c| match c {
            Component::Normal(p) => Some(p.to_string_lossy()),
            _ => None,
        })
        .map(|p| {
            p.bytes()
                .map(|b| match b {
                    b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => (b as char).to_string(),
                    b => format!("%{b:02X}"),
                })
                .collect()
        })
        .collect();
    parts.join("/")
}

/// `file:///abs/path` of an absolute `path`.
fn file_uri(path: &Path) -> String {
    format!("file:///{}", percent_encoded(path))
}

/// The `file://` URI of directory `dir`, ending in `/` (as `originalUriBaseIds` wants).
fn dir_uri(dir: &Path) -> String {
    let uri = file_uri(&normalized(dir));
    match uri.ends_with('/') {
        true => uri,
        false => uri + "/",
    }
}

/// The 1-based column in Unicode code points of byte column `col` (1-based) of `line`; with
/// `past`, the column one past the character at `col` (a region's `endColumn`). `col` as it is
/// (plus one with `past`) when the line is unknown or shorter.
fn code_point_col(line: Option<&str>, col: u32, past: bool) -> i64 {
    let byte = col.saturating_sub(1) as usize;
    match line.filter(|l| byte < l.len()) {
        Some(l) => {
            // The character that holds byte `byte`.
            let before = l.char_indices().take_while(|(i, _)| *i <= byte).count();
            (before as i64) + i64::from(past)
        }
        None => i64::from(col.max(1)) + i64::from(past),
    }
}

/// `s` with its first letter upper-case.
fn capitalized(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// The text of an embedded link: `\`, `[` and `]` escaped with a backslash (SARIF §3.11.6).
fn link_text(s: &str) -> String {
    s.replace('\\', "\\\\").replace('[', "\\[").replace(']', "\\]")
}

/// A plain-text message: `{` and `}` doubled (SARIF §3.11.5: they would start placeholders).
fn message(text: &str) -> s::Message {
    s::Message::builder()
        .text(text.replace('{', "{{").replace('}', "}}"))
        .build()
}

/// A property bag of `properties`.
fn bag(properties: Map<String, Value>) -> s::PropertyBag {
    s::PropertyBag::builder()
        .additional_properties(properties.into_iter().collect::<std::collections::BTreeMap<_, _>>())
        .build()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_are_in_index_order() {
        for (i, r) in RULES.iter().enumerate() {
            assert_eq!(r.rule.index(), i, "{}", r.id);
        }
    }

    #[test]
    fn uris_are_relative_under_the_working_directory() {
        let log = SarifLog::new(PathBuf::from("/work/repo"));
        assert_eq!(log.uri("examples/a b.cu"), ("examples/a%20b.cu".into(), true));
        assert_eq!(log.uri("./examples/../k.cu"), ("k.cu".into(), true));
        assert_eq!(log.uri("/work/repo/k.cu"), ("k.cu".into(), true));
        assert_eq!(log.uri("/usr/include/x.h"), ("file:///usr/include/x.h".into(), false));
        assert_eq!(log.uri("../other/k.cu"), ("file:///work/other/k.cu".into(), false));
        assert_eq!(dir_uri(Path::new("/work/repo")), "file:///work/repo/");
    }

    #[test]
    fn columns_count_code_points() {
        // `é` is two bytes: byte column 6 (`x`) is code point column 5.
        let line = Some("  é x[i] = 1;");
        assert_eq!(code_point_col(line, 1, false), 1);
        assert_eq!(code_point_col(line, 6, false), 5);
        assert_eq!(code_point_col(line, 9, true), 9);
        assert_eq!(code_point_col(None, 7, false), 7);
        assert_eq!(code_point_col(None, 7, true), 8);
    }

    #[test]
    fn messages_escape_braces_and_link_brackets() {
        assert_eq!(link_text("a[1]"), "a\\[1\\]");
        assert_eq!(message("{x}").text.as_deref(), Some("{{x}}"));
    }
}
