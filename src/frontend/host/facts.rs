//! What the host code's conditions make known (issue 53): inside `if (c)` the condition `c`
//! holds (outside its `else`, its negation), at the start of a loop's body its condition holds,
//! and a loop counter stepped by one from a known start keeps its range. Each is a fact (a
//! boolean host term) of the [`Env`]; a launch keeps the facts over the values it passes
//! ([`super::record`]). A variable compared for equality with a constant has that value.
//!
//! Soundness: a fact is only taken from a condition without side effects (no call, no
//! assignment), evaluated in the state that the branch or the loop's body starts in.

use super::*;

impl<'a, 'g> Host<'a, 'g> {
    /// The branch reached when `cond` is `holds`: its facts, and the values it fixes.
    pub(super) fn assume(&mut self, cond: &'a Node, env: &mut Env, holds: bool) {
        let c = strip(cond);
        match (c.kind.as_str(), c.opcode.as_deref()) {
            ("BinaryOperator", Some("&&")) if holds && c.inner.len() == 2 => {
                self.assume(&c.inner[0], env, true);
                self.assume(&c.inner[1], env, true);
                return;
            }
            ("BinaryOperator", Some("||")) if !holds && c.inner.len() == 2 => {
                self.assume(&c.inner[0], env, false);
                self.assume(&c.inner[1], env, false);
                return;
            }
            ("UnaryOperator", Some("!")) if c.inner.len() == 1 => {
                self.assume(&c.inner[0], env, !holds);
                return;
            }
            _ => {}
        }
        if !pure(c) {
            return;
        }
        if let Some(Val::Int(e)) = self.eval(c, env) {
            let b = cast(e, Ty::Bool);
            let f = if holds { b } else { negate(b) };
            if !matches!(fold(f.clone()), Expr::Const { .. }) {
                env.facts.push(f);
            }
        }
        let eq = match (c.kind.as_str(), c.opcode.as_deref()) {
            ("BinaryOperator", Some("==")) => holds,
            ("BinaryOperator", Some("!=")) => !holds,
            _ => false,
        };
        if eq && c.inner.len() == 2 && !self.bind(&c.inner[0], &c.inner[1], env) {
            self.bind(&c.inner[1], &c.inner[0], env);
        }
    }

    /// Where `side == other` holds, `side` a local integer variable (under conversions that
    /// keep every value) and `other` a constant: the variable has that constant's value.
    pub(super) fn bind(&mut self, side: &'a Node, other: &'a Node, env: &mut Env) -> bool {
        let Some(Val::Int(Expr::Const { value, .. })) = self.eval(other, env) else {
            return false;
        };
        let Some(compare) = self.int_ty(side.type_str()) else {
            return false;
        };
        // Down to the variable through value-keeping conversions.
        let mut n = strip_parens(side);
        loop {
            match n.kind.as_str() {
                "ImplicitCastExpr" | "ParenExpr" if !n.inner.is_empty() => n = strip_parens(&n.inner[0]),
                _ => break,
            }
        }
        if n.kind != "DeclRefExpr" {
            return false;
        }
        let Some(id) = n.referenced_decl.as_ref().map(|d| d.id.clone()) else {
            return false;
        };
        let Some(var_ty) = self.int_ty(n.type_str()) else {
            return false;
        };
        let (Ty::Int { bits: vb, .. }, Ty::Int { bits: cb, .. }) = (var_ty, compare) else {
            return false;
        };
        // The conversion from the variable's type to the comparison's is one to one.
        if cb < vb || !matches!(env.vals.get(&id), Some(Val::Int(_))) || env.escaped.contains(&id) {
            return false;
        }
        let v = wrap_ty(value.clone(), var_ty);
        if wrap_ty(v.clone(), compare) != value {
            return false;
        }
        env.vals.insert(id, Val::Int(Expr::int(v, var_ty)));
        true
    }
}

/// Whether evaluating `n` has no side effect (no call, assignment or increment).
pub(in crate::frontend) fn pure(n: &Node) -> bool {
    let effect = matches!(
        (n.kind.as_str(), n.opcode.as_deref()),
        (
            "CallExpr" | "CXXMemberCallExpr" | "CXXOperatorCallExpr" | "LambdaExpr" | "CUDAKernelCallExpr",
            _
        ) | ("CompoundAssignOperator", _)
            | ("BinaryOperator", Some("="))
            | ("UnaryOperator", Some("++" | "--"))
    );
    !effect && n.inner.iter().all(pure)
}

/// `!b`, a comparison's by its opposite operator (`n >= 64` for `!(n < 64)`).
fn negate(b: Expr) -> Expr {
    if let Expr::Binary { op, lhs, rhs, ty } = &b {
        let opposite = match op {
            BinOp::Eq => Some(BinOp::Ne),
            BinOp::Ne => Some(BinOp::Eq),
            BinOp::Lt => Some(BinOp::Ge),
            BinOp::Le => Some(BinOp::Gt),
            BinOp::Gt => Some(BinOp::Le),
            BinOp::Ge => Some(BinOp::Lt),
            _ => None,
        };
        if let Some(op) = opposite {
            return Expr::Binary {
                op,
                lhs: lhs.clone(),
                rhs: rhs.clone(),
                ty: *ty,
            };
        }
    }
    Expr::Unary {
        op: UnOp::Not,
        arg: Box::new(b),
        ty: Ty::Bool,
    }
}

impl<'a, 'g> Host<'a, 'g> {
    /// A `for` loop's counter stepped by one (`k++`, `k--`, `k += 1`) and changed nowhere else,
    /// of a signed type (whose overflow is undefined) or, counting up under `k < e`, of an
    /// unsigned one: its id, its value before the loop, and how each iteration's value compares
    /// with it (`>=` counting up, `<=` counting down). `ids`: what the loop changes.
    pub(super) fn counter(&mut self, s: &'a Node, env: &Env, ids: &HashSet<String>) -> Option<(String, Expr, BinOp)> {
        if s.kind != "ForStmt" || s.inner.len() != 5 {
            return None;
        }
        let (cond, inc, body) = (&s.inner[2], strip(&s.inner[3]), &s.inner[4]);
        let target = strip_parens(inc.inner.first()?);
        if target.kind != "DeclRefExpr" {
            return None;
        }
        let id = target.referenced_decl.as_ref()?.id.clone();
        let up = match (inc.kind.as_str(), inc.opcode.as_deref()) {
            ("UnaryOperator", Some("++")) => true,
            ("UnaryOperator", Some("--")) => false,
            ("CompoundAssignOperator", Some(op @ ("+=" | "-="))) => {
                let one = const_value(inc.inner.get(1)?)?;
                if one != BigInt::from(1) {
                    return None;
                }
                op == "+="
            }
            _ => return None,
        };
        let mut changed = HashSet::new();
        self.assigned(body, &mut changed);
        self.assigned(cond, &mut changed);
        if changed.contains(&id) || env.escaped.contains(&id) || !ids.contains(&id) || !pure(cond) {
            return None;
        }
        let Some(Val::Int(start)) = env.vals.get(&id) else {
            return None;
        };
        let Ty::Int { signed, .. } = start.ty() else {
            return None;
        };
        if !signed {
            // Unsigned: counting up under `k < e` in its own type, which stops before it wraps.
            let c = strip(cond);
            let lhs = c.inner.first().map(strip);
            let own = lhs
                .is_some_and(|l| l.kind == "DeclRefExpr" && l.referenced_decl.as_ref().is_some_and(|d| d.id == id))
                && self.int_ty(c.inner[0].type_str()) == Some(start.ty());
            if !(up && c.opcode.as_deref() == Some("<") && own) {
                return None;
            }
        }
        Some((id, start.clone(), if up { BinOp::Ge } else { BinOp::Le }))
    }
}

/// The condition a loop's body starts under (`for`, `while`), when the loop has one.
pub(super) fn loop_condition(s: &Node) -> Option<&Node> {
    let cond = match (s.kind.as_str(), s.inner.len()) {
        ("ForStmt", 5) if s.inner[1].is_empty() => &s.inner[2],
        ("WhileStmt", 2) => &s.inner[0],
        _ => return None,
    };
    (!cond.is_empty()).then_some(cond)
}
