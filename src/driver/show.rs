//! `--show`: the text of a pipeline stage for each kernel (Faial's `--show-…`, rustc's
//! `-Zdump-mir`), handed to a sink that the command line supplies.
//!
//! Owns: which stages are shown ([`ShowStage`]), the sink ([`Show`]), and the text of each:
//! the kernel after lowering and after each pass in the IR's text form ([`crate::ir::print`]),
//! the encoder's SSA (the script's declarations, SSA definitions and path conditions, as
//! SMT-LIB), and each query's property and size.
//! Must not: print (the sink does), or change what the pipeline does: a kernel is verified the
//! same with and without `--show`.

use crate::ir::Kernel;
use crate::solver::{Query, Script, Sexp};
use std::fmt;
use std::sync::Arc;

/// A stage `--show` can print.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ShowStage {
    /// The kernel as the front end lowered it.
    Lowered,
    /// The kernel after each pass (`bounds`, `sync`, `loops`).
    Passes,
    /// The encoder's SSA: the transition formula every query of the kernel shares.
    Ssa,
    /// Each query: its name (which names its property), its property, and its size.
    Queries,
}

/// Where the text of the stages goes: whole lines, each ending in a newline.
pub type Sink = Arc<dyn Fn(&str) + Send + Sync>;

/// The stages to show and where their text goes. The default shows nothing.
#[derive(Clone, Default)]
pub struct Show {
    stages: Vec<ShowStage>,
    sink: Option<Sink>,
}

impl fmt::Debug for Show {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Show")
            .field("stages", &self.stages)
            .finish_non_exhaustive()
    }
}

impl Show {
    /// Shows `stages`, each text handed to `sink` (whole lines, each ending in a newline).
    pub fn new(stages: Vec<ShowStage>, sink: Sink) -> Show {
        Show {
            stages,
            sink: Some(sink),
        }
    }

    /// Whether `stage` is shown.
    pub fn wants(&self, stage: ShowStage) -> bool {
        self.sink.is_some() && self.stages.contains(&stage)
    }

    fn emit(&self, text: &str) {
        if let Some(sink) = &self.sink {
            sink(text);
        }
    }

    /// The kernel as lowered.
    pub fn lowered(&self, k: &Kernel) {
        if self.wants(ShowStage::Lowered) {
            self.emit(&format!("// ===== {}: after lowering\n{k}\n", k.name));
        }
    }

    /// The kernel after the pass `pass`.
    pub fn pass(&self, pass: &str, k: &Kernel) {
        if self.wants(ShowStage::Passes) {
            self.emit(&format!("// ===== {}: after pass {pass}\n{k}\n", k.name));
        }
    }

    /// The encoding's SSA: `script`'s commands, one per line.
    pub fn ssa(&self, kernel: &str, model: &str, script: &Script) {
        if !self.wants(ShowStage::Ssa) {
            return;
        }
        let mut text = format!("; ===== {kernel}: SSA of the {model} model ({})\n", script.logic);
        for c in &script.commands {
            text.push_str(&c.to_string());
            text.push('\n');
        }
        text.push('\n');
        self.emit(&text);
    }

    /// Each of `queries` (property, query): one line with its name, property and size.
    pub fn queries<'q>(&self, kernel: &str, queries: impl IntoIterator<Item = (String, &'q Query)>) {
        if !self.wants(ShowStage::Queries) {
            return;
        }
        let mut text = format!("; ===== {kernel}: queries\n");
        for (property, q) in queries {
            let nodes: usize = q.assertions.iter().map(size).sum();
            text.push_str(&format!(
                "query {}: {property}; {} assertion(s), {nodes} term nodes, {} value(s) read back\n",
                q.name,
                q.assertions.len(),
                q.get_values.len()
            ));
        }
        text.push('\n');
        self.emit(&text);
    }
}

/// The number of atoms and lists in `e`.
fn size(e: &Sexp) -> usize {
    match e {
        Sexp::Atom(_) => 1,
        Sexp::List(items) => 1 + items.iter().map(size).sum::<usize>(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    #[test]
    fn queries_are_shown_with_their_size_and_nothing_unasked_is_shown() {
        let out = Arc::new(Mutex::new(String::new()));
        let sink = {
            let out = out.clone();
            Arc::new(move |t: &str| out.lock().expect("lock").push_str(t))
        };
        let show = Show::new(vec![ShowStage::Queries], sink);
        let q = Query {
            unpinned: 0,
            name: "k.race.s.seg0".into(),
            assertions: vec![Sexp::app("bvult", vec![Sexp::atom("a"), Sexp::atom("b")])],
            get_values: vec![Sexp::atom("a")],
        };
        show.ssa(
            "k",
            "pair",
            &Script {
                probes: Vec::new(),
                logic: "QF_AUFBV".into(),
                commands: Vec::new(),
            },
        );
        show.queries("k", [("race on s".to_string(), &q)]);
        let text = out.lock().expect("lock").clone();
        assert_eq!(
            text,
            "; ===== k: queries\nquery k.race.s.seg0: race on s; 1 assertion(s), 4 term nodes, 1 value(s) read back\n\n"
        );
    }
}
