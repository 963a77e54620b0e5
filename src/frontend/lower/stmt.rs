//! Statements: blocks, declarations, `if`, `for`/`while`/`do` loops, `break`/`continue`, a
//! `switch` of non-falling-through cases (as an if-chain), `return` (also out of an inlined
//! function), and expressions evaluated for their effects.
//!
//! Emits statements in evaluation order; the values of expressions come from `expr.rs` and
//! `place.rs`.

use super::globals::const_value;
use super::{LVal, Lower, R, branch, set, unsupported};
use crate::frontend::ast::{Node, strip_parens};
use crate::ir::build::{cast, to_bool};
use crate::ir::*;
use num_bigint::BigInt;

impl Lower<'_, '_> {
    pub(in crate::frontend) fn block(&mut self, n: &Node, out: &mut Vec<Stmt>) -> R<()> {
        let items: Vec<&Node> = n.inner.iter().collect();
        self.stmt_list(&items, out)
    }

    pub(in crate::frontend) fn stmt(&mut self, n: &Node, out: &mut Vec<Stmt>) -> R<()> {
        // Inlined device functions make the kernel grow with every call: stop at the bound.
        crate::memory::check(|| crate::memory::Activity::Lowering)?;
        let span = self.span(n);
        match n.kind.as_str() {
            "" | "NullStmt" => Ok(()),
            "CompoundStmt" => self.block(n, out),
            "DeclStmt" => self.decl_stmt(n, out),
            "IfStmt" => self.if_stmt(n, span, out),
            "ForStmt" | "WhileStmt" | "DoStmt" => self.loop_stmt(n, span, out),
            "BreakStmt" => {
                out.push(Stmt {
                    kind: StmtKind::Break,
                    span,
                });
                Ok(())
            }
            "ContinueStmt" => {
                out.push(Stmt {
                    kind: StmtKind::Continue,
                    span,
                });
                Ok(())
            }
            "ReturnStmt" => self.ret(n, span, out),
            "AttributedStmt" => {
                for c in n.code_children() {
                    self.stmt(c, out)?;
                }
                Ok(())
            }
            "SwitchStmt" => self.switch(n, out),
            "GotoStmt" => self.goto_stmt(n, span, out),
            "IndirectGotoStmt" => unsupported(span, "computed goto (`goto *p`)"),
            "LabelStmt" => self.label_stmt(n, out),
            "CaseStmt" | "DefaultStmt" => unsupported(span, "case label outside a simple switch"),
            "GCCAsmStmt" => self.asm_stmt(n, span, out),
            "MSAsmStmt" => unsupported(span, "inline assembly"),
            "CXXTryStmt" => unsupported(span, "try statement"),
            "CXXForRangeStmt" => unsupported(span, "range-based for"),
            _ => self.effect(n, out),
        }
    }

    /// A declaration statement: variables are lowered, type, `using` and namespace alias
    /// declarations ignored (clang has resolved the names they introduce).
    fn decl_stmt(&mut self, n: &Node, out: &mut Vec<Stmt>) -> R<()> {
        for d in &n.inner {
            match d.kind.as_str() {
                "VarDecl" => self.var_decl(d, out)?,
                "TypedefDecl" | "TypeAliasDecl" | "CXXRecordDecl" | "RecordDecl" | "EnumDecl" | "StaticAssertDecl"
                | "UsingDecl" | "UsingDirectiveDecl" | "UsingShadowDecl" | "NamespaceAliasDecl" => {}
                other => {
                    return unsupported(self.span(d), format!("declaration `{other}`"));
                }
            }
        }
        Ok(())
    }

    /// `if`, with an optional init statement and condition variable lowered before it.
    fn if_stmt(&mut self, n: &Node, span: Span, out: &mut Vec<Stmt>) -> R<()> {
        let mut kids: Vec<&Node> = n.inner.iter().collect();
        if n.has_init {
            let init = kids.remove(0);
            self.stmt(init, out)?;
        }
        if n.has_var {
            let var = kids.remove(0);
            self.stmt(var, out)?;
        }
        let (Some(c), Some(t)) = (kids.first(), kids.get(1)) else {
            return unsupported(span, "malformed if statement");
        };
        let cond = self.cond(c, out)?;
        let mut then = Vec::new();
        self.stmt(t, &mut then)?;
        let mut els = Vec::new();
        if let Some(e) = kids.get(2) {
            self.stmt(e, &mut els)?;
        }
        out.push(branch(cond, then, els, span));
        Ok(())
    }

    /// `for`, `while` and `do` as one [`StmtKind::Loop`]: the condition's own statements and a
    /// `for` step are kept apart for loop normalization; a `for` init is lowered before the loop.
    fn loop_stmt(&mut self, n: &Node, span: Span, out: &mut Vec<Stmt>) -> R<()> {
        let mut cond_stmts = Vec::new();
        let mut body = Vec::new();
        let mut step = Vec::new();
        let cond = match n.kind.as_str() {
            "ForStmt" => {
                let k = &n.inner;
                if k.len() < 5 {
                    return unsupported(span, "malformed for statement");
                }
                self.stmt(&k[0], out)?;
                if !k[1].is_empty() {
                    return unsupported(span, "condition variable in a for statement");
                }
                let cond = if k[2].is_empty() {
                    Expr::bool(true)
                } else {
                    self.cond(&k[2], &mut cond_stmts)?
                };
                if !k[3].is_empty() {
                    self.effect(&k[3], &mut step)?;
                }
                self.stmt(&k[4], &mut body)?;
                cond
            }
            "WhileStmt" => {
                let k: Vec<&Node> = n.inner.iter().collect();
                let (c, b, var) = match k.as_slice() {
                    [c, b] => (*c, *b, None),
                    [v, c, b] => (*c, *b, Some(*v)),
                    _ => return unsupported(span, "malformed while statement"),
                };
                if let Some(v) = var {
                    self.stmt(v, &mut cond_stmts)?;
                }
                let cond = self.cond(c, &mut cond_stmts)?;
                self.stmt(b, &mut body)?;
                cond
            }
            _ => {
                let (Some(b), Some(c)) = (n.inner.first(), n.inner.get(1)) else {
                    return unsupported(span, "malformed do statement");
                };
                self.stmt(b, &mut body)?;
                self.cond(c, &mut cond_stmts)?
            }
        };
        out.push(Stmt {
            kind: StmtKind::Loop {
                cond_stmts,
                cond,
                body,
                step,
                do_while: n.kind == "DoStmt",
            },
            span,
        });
        Ok(())
    }

    /// `switch` whose body is a list of `case`/`default` groups each ending in `break` (or the
    /// last), lowered to an if-chain.
    pub(in crate::frontend) fn switch(&mut self, n: &Node, out: &mut Vec<Stmt>) -> R<()> {
        let span = self.span(n);
        let kids: Vec<&Node> = n.code_children().collect();
        let (c, body) = match kids.as_slice() {
            [c, b] => (*c, *b),
            _ => return unsupported(span, "switch with an init statement or condition variable"),
        };
        let scrut = self.rvalue(c, out)?;
        let scrut = self.expect_scalar(scrut, c)?;
        let t = self.temp(scrut.ty());
        out.push(set(t, scrut, self.span(c)));
        let sv = Expr::Var {
            id: t,
            ty: self.k.var(t).ty,
        };
        // Groups: (labels (None = default), statements).
        let mut groups: Vec<(Vec<Option<BigInt>>, Vec<&Node>)> = Vec::new();
        let mut open = false;
        let items: Vec<&Node> = if body.kind == "CompoundStmt" {
            body.inner.iter().collect()
        } else {
            vec![body]
        };
        for it in items {
            let mut it = it;
            let mut labels = Vec::new();
            loop {
                match it.kind.as_str() {
                    "CaseStmt" => {
                        let Some(v) = it.inner.first().and_then(const_value) else {
                            return unsupported(self.span(it), "non-constant case label");
                        };
                        if it.inner.len() > 2 {
                            return unsupported(self.span(it), "case range");
                        }
                        labels.push(Some(v));
                        match it.inner.last() {
                            Some(x) if it.inner.len() == 2 => it = x,
                            _ => return unsupported(self.span(it), "malformed case"),
                        }
                    }
                    "DefaultStmt" => {
                        labels.push(None);
                        match it.inner.first() {
                            Some(x) => it = x,
                            None => return unsupported(self.span(it), "malformed default"),
                        }
                    }
                    _ => break,
                }
            }
            if !labels.is_empty() {
                if open {
                    return unsupported(self.span(it), "switch case falling through to the next case");
                }
                groups.push((labels, Vec::new()));
                open = true;
            }
            let Some(g) = groups.last_mut() else {
                return unsupported(self.span(it), "statement before the first case label");
            };
            if !open {
                return unsupported(self.span(it), "unreachable statement in switch");
            }
            if it.kind == "BreakStmt" {
                open = false;
            } else {
                g.1.push(it);
                if matches!(it.kind.as_str(), "ReturnStmt" | "ContinueStmt") {
                    open = false;
                }
            }
        }
        // Build the chain from the last group backwards; `default` goes last.
        let mut default: Vec<Stmt> = Vec::new();
        let mut cases: Vec<(Expr, Vec<Stmt>)> = Vec::new();
        for (labels, stmts) in &groups {
            let mut body = Vec::new();
            for s in stmts {
                if contains_break(s) {
                    return unsupported(self.span(s), "break nested inside a switch case");
                }
            }
            self.stmt_list(stmts, &mut body)?;
            let conds: Vec<Expr> = labels
                .iter()
                .flatten()
                .map(|v| Expr::Binary {
                    op: BinOp::Eq,
                    lhs: Box::new(sv.clone()),
                    rhs: Box::new(cast(Expr::int(v.clone(), Ty::I64), sv.ty())),
                    ty: Ty::Bool,
                })
                .collect();
            if labels.iter().any(|l| l.is_none()) {
                default = body;
            } else if let Some(c) = conds.into_iter().reduce(|a, b| Expr::Binary {
                op: BinOp::LOr,
                lhs: Box::new(a),
                rhs: Box::new(b),
                ty: Ty::Bool,
            }) {
                cases.push((c, body));
            }
        }
        let mut acc = default;
        for (c, body) in cases.into_iter().rev() {
            acc = vec![branch(c, body, acc, span.clone())];
        }
        out.extend(acc);
        Ok(())
    }

    pub(in crate::frontend) fn ret(&mut self, n: &Node, span: Span, out: &mut Vec<Stmt>) -> R<()> {
        let value = n.code_children().next();
        let (block, ret) = {
            let f = self.frame();
            (f.block, f.ret.clone())
        };
        match block {
            None => {
                if let Some(e) = value {
                    self.effect(e, out)?;
                }
                out.push(Stmt {
                    kind: StmtKind::Return,
                    span,
                });
            }
            Some(b) => {
                if let Some(e) = value
                    && self.frame().returns_ref
                {
                    self.return_place(e, out)?;
                } else if let Some(e) = value {
                    match ret {
                        Some(r) => {
                            let v = self.rvalue(e, out)?;
                            self.assign(&LVal::Bound(r), v, e, &span, out)?;
                        }
                        None => self.effect(e, out)?,
                    }
                }
                out.push(Stmt {
                    kind: StmtKind::Exit(b),
                    span,
                });
            }
        }
        Ok(())
    }

    pub(in crate::frontend) fn cond(&mut self, n: &Node, out: &mut Vec<Stmt>) -> R<Expr> {
        let v = self.rvalue(n, out)?;
        let e = self.expect_scalar(v, n)?;
        Ok(to_bool(e))
    }

    /// Evaluate for side effects only.
    pub(in crate::frontend) fn effect(&mut self, n: &Node, out: &mut Vec<Stmt>) -> R<()> {
        let n = strip_parens(n);
        match n.kind.as_str() {
            "BinaryOperator" if n.opcode.as_deref() == Some(",") => {
                if let (Some(a), Some(b)) = (n.inner.first(), n.inner.get(1)) {
                    self.effect(a, out)?;
                    self.effect(b, out)?;
                }
                Ok(())
            }
            "ImplicitCastExpr" | "CStyleCastExpr" if n.cast_kind.as_deref() == Some("ToVoid") => {
                match n.inner.first() {
                    Some(c) => self.effect(c, out),
                    None => Ok(()),
                }
            }
            "UnaryOperator" if matches!(n.opcode.as_deref(), Some("++") | Some("--")) => {
                // Prefix form needs no temporary for the old value.
                self.incdec(n, false, out).map(|_| ())
            }
            // An assignment is a prvalue in C (OpenCL C), a glvalue in C++: either way, as a
            // statement, only its store.
            "BinaryOperator" if n.opcode.as_deref() == Some("=") => self.lvalue(n, out).map(|_| ()),
            "CompoundAssignOperator" => self.lvalue(n, out).map(|_| ()),
            _ if n.is_glvalue() => self.lvalue(n, out).map(|_| ()),
            _ => self.rvalue(n, out).map(|_| ()),
        }
    }
}

fn contains_break(n: &Node) -> bool {
    match n.kind.as_str() {
        "BreakStmt" => true,
        "ForStmt" | "WhileStmt" | "DoStmt" | "SwitchStmt" => false,
        _ => n.inner.iter().any(contains_break),
    }
}
