//! Inline assembly (`asm("…" : outputs : inputs : clobbers)`) that only computes values: the
//! half and bfloat16 conversions and arithmetic of `cuda_fp16.hpp` and `cuda_bf16.hpp` are
//! written in PTX, and so are a program's own bit tricks (`mov.u32 %0, %%laneid;`, a
//! `vabsdiff4`, a `prmt`).
//!
//! clang's JSON AST gives an asm statement's operands (outputs, then inputs) but not its text,
//! constraints or clobbers, so these are read from the header's source at the statement's
//! spelling location ([`parse_asm`]). Such a statement is modelled when it takes no pointer,
//! has no memory operand (every constraint is a register or immediate one: `h r l f d q c n i`),
//! no `"memory"` clobber, no `[…]` address in its text, no `asm goto`, names no instruction
//! that synchronizes or leaves ([`CONTROL`]) or exchanges values between threads
//! ([`COLLECTIVE`]: the half and bfloat16 shuffles are refused, as before) and has at least one
//! output. Each output is then:
//!
//! - for a plain `asm` that reads no special register (`%%laneid`): an uninterpreted function
//!   of the inputs (in-out operands' old values first), one per statement and output, named
//!   `asm FILE:LINE:COL` (with `.K` for the output `K` after the first) and listed in
//!   [`Kernel::uninterpreted`]. GCC's meaning of a non-`volatile` asm is the same (equal inputs,
//!   equal outputs: the compiler may merge two of them);
//! - otherwise (`asm volatile`, a special register): a fresh arbitrary value at each execution,
//!   different in each thread.
//!
//! Either way an output is over-approximated, so an output used as an index cannot hide a race.
//! An instruction named through a macro parameter (`__CUDA_FP16_STRINGIFY(name)` in a macro's
//! body) is read from the macro's invocation (`__BINARY_OP_HALF_MACRO(add)`, at the statement's
//! expansion position) and checked as the others. The same rules hold in a program's own code
//! (issue 42: cuda-samples' `inlinePTX` and `stereoDisparity`), macros included.

use crate::frontend::ast::{Node, Pos};
use crate::frontend::lower::{Lower, R, Val, unsupported};
use crate::frontend::types::CType;
use crate::ir::*;
use std::sync::Arc;

/// Instructions (the part of the opcode before its first `.`) that synchronize threads, order
/// memory, jump or leave the kernel: an asm naming one is refused.
pub(in crate::frontend) const CONTROL: &[&str] = &[
    "bar",
    "barrier",
    "membar",
    "fence",
    "mbarrier",
    "exit",
    "trap",
    "brkpt",
    "ret",
    "call",
    "bra",
    "brx",
    "griddepcontrol",
];

/// Instructions that exchange values between the threads of a warp: an asm naming one is
/// refused, since gpug checks the masks and lanes of these operations only for the built-in
/// functions (`__shfl_sync`, `__ballot_sync`, ...).
pub(in crate::frontend) const COLLECTIVE: &[&str] = &["shfl", "vote", "match", "redux", "activemask", "elect"];

/// Constraint letters of register and immediate operands (NVPTX: `h` 16-bit, `r` 32-bit, `l`
/// 64-bit, `q` 128-bit, `c` 8-bit, `f` and `d` floats; `n` and `i` immediates), with the
/// modifiers `=`, `+`, `&`, `%` and the digits of matching constraints.
const REGISTER_CONSTRAINTS: &str = "hrlqcfdni=+&%0123456789";

/// What the text of an asm statement says, as [`parse_asm`] reads it.
#[derive(Debug, Default, PartialEq, Eq)]
pub(in crate::frontend) struct AsmText {
    /// `asm volatile`.
    pub volatile: bool,
    /// `asm goto`.
    pub goto: bool,
    /// The instruction text: the string literals of the template, concatenated (escapes kept as
    /// written), with the argument of each `…STRINGIFY(x)` macro call as `x`.
    pub template: String,
    /// The template holds something other than string literals and `…STRINGIFY(x)` calls (a
    /// macro whose text is not known).
    pub template_unknown: bool,
    /// The output operands' constraints (`=r`, `+h`); `None` for one not written as a string
    /// literal (a macro).
    pub outputs: Vec<Option<String>>,
    /// The input operands' constraints, likewise.
    pub inputs: Vec<Option<String>>,
    /// The clobbers (`memory`, `cc`).
    pub clobbers: Vec<String>,
}

/// A token of an asm statement's text at parenthesis depth 1.
#[derive(Debug, PartialEq, Eq)]
enum Tok {
    /// A string literal's contents.
    Str(String),
    /// An identifier, with the text inside the parentheses that follow it, if any.
    Ident(String, Option<String>),
    /// A parenthesized text (an operand's expression).
    Paren(String),
    /// `[name]` of a named operand.
    Bracket,
    Colon,
    Comma,
    /// Anything else.
    Other(char),
}

/// Reads the asm statement starting at the byte offset `at` of `src` (the `asm` keyword):
/// qualifiers, then the template, output, input and clobber sections of its parentheses.
///
/// Errors: a description of what does not have an asm statement's shape.
pub(in crate::frontend) fn parse_asm(src: &str, at: usize) -> Result<AsmText, String> {
    let s = src.get(at..).ok_or("position past the end of the file")?;
    let mut cur = Cursor { s, i: 0, open: 0 };
    let kw = cur.ident().ok_or("no `asm` keyword at the statement's position")?;
    if !matches!(kw.as_str(), "asm" | "__asm__" | "__asm") {
        return Err(format!("`{kw}` where `asm` was expected"));
    }
    let mut text = AsmText::default();
    loop {
        cur.skip_space();
        match cur.peek() {
            Some('(') => break,
            Some(c) if c.is_ascii_alphabetic() || c == '_' => match cur.ident().unwrap_or_default().as_str() {
                "volatile" | "__volatile__" | "__volatile" => text.volatile = true,
                "goto" => text.goto = true,
                "inline" | "__inline" | "__inline__" => {}
                other => return Err(format!("unknown asm qualifier `{other}`")),
            },
            _ => return Err("no `(` after `asm`".into()),
        }
    }
    cur.i += 1;
    let toks = cur.tokens()?;
    let mut sections: Vec<Vec<Tok>> = vec![Vec::new()];
    for t in toks {
        match t {
            Tok::Colon => sections.push(Vec::new()),
            t => sections.last_mut().expect("one section").push(t),
        }
    }
    let mut it = sections.into_iter();
    for t in it.next().unwrap_or_default() {
        match t {
            Tok::Str(s) => text.template.push_str(&s),
            Tok::Ident(name, Some(arg)) if name.ends_with("STRINGIFY") => text.template.push_str(arg.trim()),
            _ => text.template_unknown = true,
        }
    }
    text.outputs = operands(it.next().unwrap_or_default());
    text.inputs = operands(it.next().unwrap_or_default());
    for t in it.next().unwrap_or_default() {
        match t {
            Tok::Str(s) => text.clobbers.push(s),
            Tok::Comma => {}
            _ => return Err("a clobber that is not a string literal".into()),
        }
    }
    Ok(text)
}

/// The constraints of the comma-separated operands `toks` (`[name] "c" (expr)`): `None` for an
/// operand whose constraint is not a string literal.
fn operands(toks: Vec<Tok>) -> Vec<Option<String>> {
    let mut out = Vec::new();
    let mut constraint: Option<String> = None;
    let mut any = false;
    for t in toks {
        match t {
            Tok::Comma => {
                out.push(constraint.take());
                any = false;
            }
            Tok::Str(s) => {
                constraint.get_or_insert_with(String::new).push_str(&s);
                any = true;
            }
            _ => any = true,
        }
    }
    if any {
        out.push(constraint);
    }
    out
}

/// A position in the text of an asm statement.
struct Cursor<'s> {
    s: &'s str,
    i: usize,
    /// Preprocessor conditionals opened inside the statement and not yet closed.
    open: u32,
}

impl Cursor<'_> {
    fn peek(&self) -> Option<char> {
        self.s[self.i..].chars().next()
    }

    /// Skips white space, comments and line continuations (the statement may be in a macro).
    fn skip_space(&mut self) {
        loop {
            let rest = &self.s[self.i..];
            if rest.starts_with("\\\n") {
                self.i += 2;
            } else if rest.starts_with("\\\r\n") {
                self.i += 3;
            } else if rest.starts_with("/*") {
                self.i += rest.find("*/").map_or(rest.len(), |e| e + 2);
            } else if rest.starts_with('#') && self.at_line_start() {
                self.directive();
            } else if rest.starts_with("//") {
                self.i += rest.find('\n').unwrap_or(rest.len());
            } else if let Some(c) = rest.chars().next().filter(|c| c.is_whitespace()) {
                self.i += c.len_utf8();
            } else {
                return;
            }
        }
    }

    /// Skips the preprocessor directive at the cursor. The statement is read from its `asm`
    /// keyword, which clang compiled: an `#else` or `#elif` of a conditional opened before it
    /// starts a branch not compiled, skipped to its `#endif`. The branches of a conditional
    /// opened inside the statement are all read (so all are checked).
    fn directive(&mut self) {
        let line_end = |s: &str, from: usize| {
            let mut k = from;
            loop {
                match s[k..].find('\n') {
                    Some(e) if s[..k + e].ends_with('\\') => k += e + 1,
                    Some(e) => return k + e,
                    None => return s.len(),
                }
            }
        };
        let name = |s: &str, at: usize| -> String {
            s[at..]
                .trim_start_matches(['#', ' ', '\t'])
                .chars()
                .take_while(|c| c.is_ascii_alphabetic())
                .collect()
        };
        let d = name(self.s, self.i);
        self.i = line_end(self.s, self.i);
        match d.as_str() {
            "if" | "ifdef" | "ifndef" => self.open += 1,
            "endif" => self.open = self.open.saturating_sub(1),
            "else" | "elif" if self.open == 0 => {
                // Past the inactive branches, to the `#endif` that closes the conditional.
                let mut depth = 0u32;
                while self.i < self.s.len() {
                    let start = self.i + 1;
                    self.i = line_end(self.s, start.min(self.s.len()));
                    let line = self.s[start.min(self.s.len())..self.i].trim_start();
                    if !line.starts_with('#') {
                        continue;
                    }
                    match name(line, 0).as_str() {
                        "if" | "ifdef" | "ifndef" => depth += 1,
                        "endif" if depth == 0 => return,
                        "endif" => depth -= 1,
                        _ => {}
                    }
                }
            }
            _ => {}
        }
    }

    /// Whether only white space precedes the cursor on its line.
    fn at_line_start(&self) -> bool {
        let before = &self.s[..self.i];
        before[before.rfind('\n').map_or(0, |k| k + 1)..].trim().is_empty()
    }

    fn ident(&mut self) -> Option<String> {
        self.skip_space();
        let rest = &self.s[self.i..];
        let n = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        if n == 0 || rest.starts_with(|c: char| c.is_ascii_digit()) {
            return None;
        }
        self.i += n;
        Some(rest[..n].to_string())
    }

    /// A string literal's contents (after the opening quote, escapes kept).
    fn string(&mut self) -> Result<String, String> {
        let mut out = String::new();
        let mut chars = self.s[self.i..].char_indices();
        while let Some((k, c)) = chars.next() {
            match c {
                '"' => {
                    self.i += k + 1;
                    return Ok(out);
                }
                '\\' => match chars.next() {
                    Some((_, '\n')) => {}
                    Some((_, e)) => {
                        out.push('\\');
                        out.push(e);
                    }
                    None => break,
                },
                '\n' => return Err("a string literal that does not end on its line".into()),
                c => out.push(c),
            }
        }
        Err("an unterminated string literal".into())
    }

    /// The text up to the `close` matching an opening bracket just read, strings skipped.
    fn balanced(&mut self, open: char, close: char) -> Result<String, String> {
        let start = self.i;
        let mut depth = 1;
        while let Some(c) = self.peek() {
            self.i += c.len_utf8();
            match c {
                '"' => {
                    self.string()?;
                }
                '\'' => {
                    let rest = &self.s[self.i..];
                    let end = rest.find('\'').ok_or("an unterminated character literal")?;
                    self.i += end + 1;
                }
                c if c == open => depth += 1,
                c if c == close => {
                    depth -= 1;
                    if depth == 0 {
                        return Ok(self.s[start..self.i - 1].to_string());
                    }
                }
                _ => {}
            }
        }
        Err(format!("no `{close}` closing a `{open}`"))
    }

    /// The tokens up to the `)` closing the statement's parentheses.
    fn tokens(&mut self) -> Result<Vec<Tok>, String> {
        let mut out = Vec::new();
        loop {
            self.skip_space();
            let Some(c) = self.peek() else {
                return Err("no `)` closing the asm statement".into());
            };
            if c.is_ascii_alphabetic() || c == '_' {
                let name = self.ident().unwrap_or_default();
                self.skip_space();
                let arg = if self.peek() == Some('(') {
                    self.i += 1;
                    Some(self.balanced('(', ')')?)
                } else {
                    None
                };
                out.push(Tok::Ident(name, arg));
                continue;
            }
            self.i += c.len_utf8();
            out.push(match c {
                ')' => return Ok(out),
                '"' => Tok::Str(self.string()?),
                '(' => Tok::Paren(self.balanced('(', ')')?),
                '[' => {
                    self.balanced('[', ']')?;
                    Tok::Bracket
                }
                ':' => Tok::Colon,
                ',' => Tok::Comma,
                c => Tok::Other(c),
            });
        }
    }
}

/// The opcodes of the instructions in an asm template (`cvt.rn.bf16.f32`, `mov.b32`): the first
/// word of each `;`-separated instruction, past braces, labels and predicates (`@p`).
fn opcodes(template: &str) -> Vec<String> {
    let text = template.replace("\\n", "\n").replace("\\t", " ");
    let mut out = Vec::new();
    for ins in text.split([';', '\n']) {
        let ins = ins.trim_start_matches(|c: char| c == '{' || c == '}' || c.is_whitespace());
        let mut words = ins.split_whitespace().peekable();
        while let Some(w) = words.peek() {
            if w.starts_with('@') || w.ends_with(':') || w.starts_with(".reg") || w.starts_with("//") {
                if w.starts_with(".reg") || w.starts_with("//") {
                    words.by_ref().for_each(drop);
                    break;
                }
                words.next();
            } else {
                break;
            }
        }
        if let Some(w) = words.next() {
            out.push(w.to_string());
        }
    }
    out
}

/// Whether `text` holds an asm statement: the word `asm` (or `__asm__`, `__asm`) followed,
/// after qualifiers, by `(`.
fn has_asm_statement(text: &str) -> bool {
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    text.match_indices("asm").any(|(i, _)| {
        let start = text[..i].trim_end_matches('_');
        let before_ok = start.chars().next_back().is_none_or(|c| !ident(c));
        let rest = text[i + 3..].trim_start_matches('_');
        let after_ok = rest.chars().next().is_none_or(|c| !ident(c));
        let mut tail = rest.trim_start();
        for q in ["volatile", "__volatile__", "inline", "goto"] {
            tail = tail.strip_prefix(q).unwrap_or(tail).trim_start();
        }
        before_ok && after_ok && tail.starts_with('(')
    })
}

/// Why the asm `t` is not one gpug models (see the module documentation), or `None`.
pub(in crate::frontend) fn refusal(t: &AsmText) -> Option<String> {
    if t.goto {
        return Some("inline assembly that jumps (`asm goto`)".into());
    }
    if t.clobbers.iter().any(|c| c.trim() == "memory") {
        return Some("inline assembly that accesses memory (a \"memory\" clobber)".into());
    }
    for c in t.outputs.iter().chain(&t.inputs) {
        match c {
            None => return Some("inline assembly with an operand whose constraint is a macro".into()),
            Some(c) if !c.chars().all(|x| REGISTER_CONSTRAINTS.contains(x)) => {
                return Some(format!("inline assembly with a memory operand (constraint \"{c}\")"));
            }
            Some(_) => {}
        }
    }
    if t.template_unknown {
        return Some("inline assembly whose instructions a macro writes".into());
    }
    if t.template.contains('[') {
        return Some("inline assembly that accesses memory (an address `[…]`)".into());
    }
    if let Some(op) = opcodes(&t.template)
        .into_iter()
        .find(|op| CONTROL.contains(&op.split('.').next().unwrap_or("")))
    {
        return Some(format!("inline assembly that synchronizes or jumps (`{op}`)"));
    }
    if let Some(op) = opcodes(&t.template)
        .into_iter()
        .find(|op| COLLECTIVE.contains(&op.split('.').next().unwrap_or("")))
    {
        return Some(format!(
            "inline assembly that exchanges values between threads (`{op}`)"
        ));
    }
    if t.outputs.is_empty() {
        return Some("inline assembly without outputs (an effect gpug cannot model)".into());
    }
    None
}

impl Lower<'_, '_> {
    /// The asm statement `n` at `span`: its outputs assigned as the module documentation says,
    /// or an error where it is refused.
    pub(in crate::frontend) fn asm_stmt(&mut self, n: &Node, span: Span, out: &mut Vec<Stmt>) -> R<()> {
        let Some(at) = n.spelled.as_ref().or(n.begin.as_ref()) else {
            return unsupported(span, "inline assembly without a source position");
        };
        let mut text = match self.source_of(at).map(|(src, off)| parse_asm(&src, off)) {
            Some(Ok(t)) => t,
            Some(Err(why)) => return unsupported(span, format!("inline assembly gpug cannot read: {why}")),
            None => return unsupported(span, "inline assembly whose source gpug cannot read"),
        };
        // Written by a macro of the headers: the arguments of its invocation (an instruction
        // the body names through `…STRINGIFY(name)`) are checked as instructions too, unless
        // the asm statement is itself one of them (CUDA 12's `NV_IF_ELSE_TARGET(NV_IS_DEVICE,
        // asm(…);, ret = a.x;)`: its text was read above, and the other arguments are C).
        if n.spelled.is_some()
            && let Some(args) = n
                .begin
                .as_ref()
                .and_then(|b| self.source_of(b))
                .and_then(|(src, off)| macro_args(&src, off))
                .filter(|args| !has_asm_statement(args))
        {
            text.template.push('\n');
            text.template.push_str(&args.replace(',', "\n"));
        }
        if let Some(why) = refusal(&text) {
            return unsupported(span, why);
        }
        let operands: Vec<&Node> = n.code_children().collect();
        if operands.len() != text.outputs.len() + text.inputs.len() {
            return unsupported(
                span,
                format!(
                    "inline assembly gpug cannot read: {} operands in the AST, {} in the text",
                    operands.len(),
                    text.outputs.len() + text.inputs.len()
                ),
            );
        }
        let (outs, ins) = operands.split_at(text.outputs.len());
        let mut args = Vec::new();
        let mut places = Vec::new();
        for (o, c) in outs.iter().zip(&text.outputs) {
            let ty = self.asm_operand_ty(o)?;
            let lv = self.lvalue(o, out)?;
            if c.as_deref().is_some_and(|c| c.contains('+')) {
                let old = self.read(lv.clone(), o, out)?;
                args.push(self.expect_scalar(old, o)?);
            }
            places.push((lv, ty, *o));
        }
        for i in ins {
            self.asm_operand_ty(i)?;
            let v = self.rvalue(i, out)?;
            args.push(self.expect_scalar(v, i)?);
        }
        let pure = !text.volatile && !text.template.contains("%%");
        let base = asm_name(&span);
        for (k, (lv, ty, o)) in places.into_iter().enumerate() {
            let value = if pure {
                let name = if k == 0 { base.clone() } else { format!("{base}.{k}") };
                if !self.k.uninterpreted.contains(&name) {
                    self.k.uninterpreted.push(name.clone());
                }
                Expr::Opaque {
                    name,
                    args: args.clone(),
                    ty,
                }
            } else {
                let v = self.temp(ty);
                out.push(Stmt {
                    kind: StmtKind::Havoc { var: v },
                    span: span.clone(),
                });
                Expr::Var { id: v, ty }
            };
            self.assign(&lv, Val::Scalar(value), o, &span, out)?;
        }
        self.note_once(
            "asm",
            &span,
            "inline assembly that computes values only (no memory operand, barrier, branch or shuffle): \
             each result is an uninterpreted function of its inputs (an arbitrary value for `asm volatile` \
             or a special register)",
        );
        Ok(())
    }

    /// The scalar type of the asm operand `o`; an error for a pointer or a non-scalar.
    fn asm_operand_ty(&self, o: &Node) -> R<Ty> {
        match self.ctype(o) {
            CType::Scalar(t) => Ok(t),
            CType::Ptr(_) | CType::Array(..) => unsupported(self.span(o), "inline assembly taking a pointer"),
            other => unsupported(
                self.span(o),
                format!("inline assembly operand of type `{}`", other.describe()),
            ),
        }
    }

    /// The text of the file of `at` and the byte offset of `at` in it (cached per file).
    pub(in crate::frontend) fn source_of(&mut self, at: &Pos) -> Option<(Arc<str>, usize)> {
        let src = match self.sources.get(&at.file) {
            Some(s) => s.clone(),
            None => {
                let s: Option<Arc<str>> = std::fs::read_to_string(&*at.file).ok().map(Arc::from);
                self.sources.insert(at.file.clone(), s.clone());
                s
            }
        }?;
        let line_start = if at.line <= 1 {
            0
        } else {
            src.match_indices('\n').nth(at.line as usize - 2)?.0 + 1
        };
        let off = line_start + (at.col as usize).checked_sub(1)?;
        (off <= src.len()).then_some((src, off))
    }
}

/// The text between the parentheses of the macro invocation at the byte offset `at` of `src`
/// (`__SHUFFLE_SYNC_BFLOAT162_MACRO(shfl.sync.bfly.b32)`), if there is one.
fn macro_args(src: &str, at: usize) -> Option<String> {
    let mut cur = Cursor {
        s: src.get(at..)?,
        i: 0,
        open: 0,
    };
    cur.ident()?;
    cur.skip_space();
    if cur.peek() != Some('(') {
        return None;
    }
    cur.i += 1;
    cur.balanced('(', ')').ok()
}

/// The name of the uninterpreted function of the asm statement at `span`: `asm FILE:LINE:COL`
/// with the file's name only.
fn asm_name(span: &Span) -> String {
    let file = std::path::Path::new(&*span.file)
        .file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_default();
    format!("asm {file}:{}:{}", span.line, span.col)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> AsmText {
        parse_asm(s, 0).expect("parses")
    }

    #[test]
    fn asm_statements_in_macro_arguments() {
        assert!(super::has_asm_statement(
            "NV_IS_DEVICE, asm(\"mov.b16 %0, low;\" : \"=h\"(r)), ret = a.x;"
        ));
        assert!(super::has_asm_statement("x, __asm__ __volatile__ (\"bar.sync 0;\")"));
        assert!(!super::has_asm_statement("ret"));
        assert!(!super::has_asm_statement("plasma(x), asmx(y)"));
    }

    #[test]
    fn reads_sections() {
        let t = parse(r#"asm("{ mov.b32 %0, {0,%1};}\n" : "=f"(f) : "h"(h));"#);
        assert!(!t.volatile);
        assert_eq!(t.template, r"{ mov.b32 %0, {0,%1};}\n");
        assert_eq!(t.outputs, vec![Some("=f".to_string())]);
        assert_eq!(t.inputs, vec![Some("h".to_string())]);
        assert!(t.clobbers.is_empty());
        assert_eq!(refusal(&t), None);
        assert_eq!(opcodes(&t.template), vec!["mov.b32"]);
    }

    #[test]
    fn reads_macros_and_continuations() {
        let src = "asm( \"{\" __CUDA_FP16_STRINGIFY(name) \".f16 %0,%1,%2;\\n}\" \\\n  :\"=h\"(__HALF_TO_US(val)) : \"h\"(__HALF_TO_CUS(a)),\"h\"(__HALF_TO_CUS(b))); \\\n";
        let t = parse(src);
        assert_eq!(t.template, r"{name.f16 %0,%1,%2;\n}");
        assert!(!t.template_unknown);
        assert_eq!(t.outputs.len(), 1);
        assert_eq!(t.inputs.len(), 2);
        assert_eq!(refusal(&t), None);
    }

    #[test]
    fn refuses_memory_and_control() {
        let t = parse(r#"asm volatile("st.global.u32 [%0], %1;" :: "l"(p), "r"(3) : "memory");"#);
        assert!(t.volatile);
        assert!(t.outputs.is_empty());
        assert_eq!(t.inputs.len(), 2);
        assert!(refusal(&t).is_some_and(|w| w.contains("memory")));
        let t = parse(r#"asm("ld.global.nc.b16 %0, [%1];" : "=h"(r) : __LDG_PTR(ptr));"#);
        assert!(refusal(&t).is_some_and(|w| w.contains("macro")));
        let t = parse(r#"asm("add.s32 %0, %0, %1;" : "+r"(y) : "m"(*p));"#);
        assert!(refusal(&t).is_some_and(|w| w.contains("\"m\"")));
        let t = parse(r#"asm volatile("bar.red.popc.u32 %0, 0, %1;" : "=r"(n) : "r"(p));"#);
        assert!(refusal(&t).is_some_and(|w| w.contains("bar.red")));
        let t = parse(r#"__asm__ __volatile__ ("{ .reg .pred p; @p exit; }" : "=r"(x));"#);
        assert!(refusal(&t).is_some_and(|w| w.contains("exit")));
        let t =
            parse(r#"asm volatile("shfl.sync.bfly.b32 %0,%1,%2,%3,%4;" : "=r"(r) : "r"(v), "r"(d), "r"(c), "r"(m));"#);
        assert!(refusal(&t).is_some_and(|w| w.contains("between threads")));
        let mut t = parse(
            r#"asm volatile ("{" __CUDA_FP16_STRINGIFY(name) " %0,%1,%2,%3;\n}" : "=r"(r) : "r"(v), "r"(d), "r"(c));"#,
        );
        assert_eq!(refusal(&t), None);
        t.template.push_str(&format!(
            "\n{}",
            macro_args("__SHUFFLE_SYNC_HALF2_MACRO(shfl.sync.up.b32)", 0).expect("args")
        ));
        assert!(refusal(&t).is_some_and(|w| w.contains("shfl.sync.up.b32")));
        let t = parse(r#"asm("mov.u32 %0, " FOO ";" : "=r"(x));"#);
        assert!(refusal(&t).is_some_and(|w| w.contains("macro")));
        assert!(parse_asm("foo(1)", 0).is_err());
        assert!(parse_asm(r#"asm("mov"#, 0).is_err());
    }

    #[test]
    fn reads_every_branch_of_a_conditional() {
        let src = "asm( \"{ sub.bf16 %0,%1,%2; }\\n\"\n#else\n   asm( \"{.reg .b16 c;\\n\"\n        \"  fma.rn.bf16 %0,%2,c,%1;}\\n\"\n#endif\n        :\"=h\"(v) : \"h\"(a),\"h\"(b));";
        // From the `#if` branch's `asm`: the `#else` branch is not compiled.
        let t = parse(src);
        assert_eq!(opcodes(&t.template), vec!["sub.bf16"]);
        assert_eq!((t.outputs.len(), t.inputs.len()), (1, 2));
        // From the `#else` branch's `asm`.
        let t = parse(&src[src.find("#else").expect("else") + 6..]);
        assert_eq!(opcodes(&t.template), vec!["fma.rn.bf16"]);
        assert_eq!((t.outputs.len(), t.inputs.len()), (1, 2));
        let src = "asm(\n#if A\n \"{ sub.bf16 %0,%1,%2; }\\n\"\n#else\n \"{ fma.rn.bf16 %0,%2,c,%1;}\\n\"\n#endif\n :\"=h\"(v) : \"h\"(a),\"h\"(b));";
        let t = parse(src);
        assert_eq!(opcodes(&t.template), vec!["sub.bf16", "fma.rn.bf16"]);
        assert_eq!((t.outputs.len(), t.inputs.len()), (1, 2));
        assert_eq!(refusal(&t), None);
    }

    #[test]
    fn no_outputs_section() {
        let t = parse(r#"asm("mov.b32 %0, %1;" : "=r"(a) : : "cc");"#);
        assert_eq!(t.outputs.len(), 1);
        assert!(t.inputs.is_empty());
        assert_eq!(t.clobbers, vec!["cc".to_string()]);
        let t =
            parse(r#"asm("{.reg .b16 low,high;\n mov.b32 {low,high}, %1;\n mov.b16 %0, high;}" : "=h"(r) : "r"(a));"#);
        assert_eq!(opcodes(&t.template), vec!["mov.b32", "mov.b16"]);
        assert_eq!(refusal(&t), None);
    }
}
