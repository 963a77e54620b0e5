//! Floating point host values known exactly (issue 53): `ceil((float) N / Bc)`, a cast between
//! an integer and `float`/`double`, `sqrt`/`ceil`/`floor` of constants, computed as C does
//! (IEEE single or double precision, round to nearest, a conversion to an integer truncating).
//! Only constants: a floating value over anything not known is not followed, and a conversion
//! to an integer out of its range (undefined) gives nothing.

use super::*;

/// A known floating value: in `f64` (exactly, for a `float`), and whether it is a `float`.
pub(super) type Float = (f64, bool);

impl<'a, 'g> Host<'a, 'g> {
    /// Whether the type `ty` is `float` (`Some(true)`) or `double` (`Some(false)`).
    pub(super) fn float_ty(&self, ty: &str) -> Option<bool> {
        match self.g.types.parse(bare(ty)).scalar()? {
            Ty::Float { bits: 32 } => Some(true),
            Ty::Float { bits: 64 } => Some(false),
            _ => None,
        }
    }

    /// The value of the floating expression `e`, when known.
    pub(super) fn eval_float(&mut self, e: &'a Node, env: &Env) -> Option<Float> {
        let single = self.float_ty(e.type_str())?;
        let round = |v: f64| if single { f64::from(v as f32) } else { v };
        match e.kind.as_str() {
            "FloatingLiteral" => {
                let text = match e.value.as_ref()? {
                    serde_json::Value::String(s) => s.clone(),
                    v => v.to_string(),
                };
                let v = if single {
                    f64::from(text.parse::<f32>().ok()?)
                } else {
                    text.parse::<f64>().ok()?
                };
                Some((v, single))
            }
            "ParenExpr" | "ExprWithCleanups" | "MaterializeTemporaryExpr" | "ConstantExpr" => {
                self.eval_float(e.inner.last()?, env)
            }
            "ImplicitCastExpr" | "CStyleCastExpr" | "CXXStaticCastExpr" | "CXXFunctionalCastExpr" => {
                let inner = e.inner.first()?;
                match e.cast_kind.as_deref() {
                    Some("IntegralToFloating") => {
                        let Some(Val::Int(Expr::Const { value, .. })) = self.eval(inner, env) else {
                            return None;
                        };
                        let v = i128::try_from(&value).ok()?;
                        Some((if single { f64::from(v as f32) } else { v as f64 }, single))
                    }
                    Some("FloatingCast" | "LValueToRValue" | "NoOp") => {
                        let (v, _) = self.eval_float(inner, env)?;
                        Some((round(v), single))
                    }
                    _ => None,
                }
            }
            "DeclRefExpr" => {
                let d = e.referenced_decl.as_ref()?;
                match env.vals.get(&d.id) {
                    Some(Val::Float(bits, single)) => Some((f64::from_bits(*bits), *single)),
                    Some(_) => None,
                    None => {
                        let v = *self.g.vars.get(&d.id)?;
                        let init = v.inner.iter().find(|c| !c.kind.ends_with("Attr"))?;
                        if !self.constant(v) {
                            return None;
                        }
                        let (x, _) = self.eval_float(init, &Env::default())?;
                        Some((round(x), single))
                    }
                }
            }
            "UnaryOperator" => {
                let (v, _) = self.eval_float(e.inner.first()?, env)?;
                match e.opcode.as_deref()? {
                    "-" => Some((-v, single)),
                    "+" => Some((v, single)),
                    _ => None,
                }
            }
            "BinaryOperator" => {
                let (a, _) = self.eval_float(e.inner.first()?, env)?;
                let (b, _) = self.eval_float(e.inner.get(1)?, env)?;
                let v = if single {
                    let (a, b) = (a as f32, b as f32);
                    f64::from(match e.opcode.as_deref()? {
                        "+" => a + b,
                        "-" => a - b,
                        "*" => a * b,
                        "/" => a / b,
                        _ => return None,
                    })
                } else {
                    match e.opcode.as_deref()? {
                        "+" => a + b,
                        "-" => a - b,
                        "*" => a * b,
                        "/" => a / b,
                        _ => return None,
                    }
                };
                Some((v, single))
            }
            "CallExpr" if e.inner.len() == 2 => {
                let name = callee_name(e.inner.first()?)?;
                let name = name.rsplit("::").next().unwrap_or(name);
                let (x, _) = self.eval_float(&e.inner[1], env)?;
                // `ceilf` and its siblings for single precision. In double precision each is
                // exact for an `f32` input, or (`sqrt`) correctly rounded twice, which equals
                // `f32`'s own correctly rounded result: one table serves both.
                let base = if single { name.trim_end_matches('f') } else { name };
                let x = if single { f64::from(x as f32) } else { x };
                let v = match base {
                    "ceil" => x.ceil(),
                    "floor" => x.floor(),
                    "sqrt" => x.sqrt(),
                    "fabs" => x.abs(),
                    "trunc" => x.trunc(),
                    "round" => x.round(),
                    _ => return None,
                };
                let v = if single { f64::from(v as f32) } else { v };
                Some((v, single))
            }
            _ => None,
        }
    }

    /// `e`, a floating expression, converted to the integer type `ty` (truncating), when
    /// known and in range.
    pub(super) fn float_to_int(&mut self, e: &'a Node, env: &Env, ty: Ty) -> Option<Expr> {
        let (v, _) = self.eval_float(e, env)?;
        if !v.is_finite() {
            return None;
        }
        let t = v.trunc();
        if t.abs() >= 1e30 {
            return None;
        }
        let n = BigInt::from(t as i128);
        if let Ty::Int { bits, signed } = ty
            && crate::ir::query::wrap(n.clone(), bits, signed) != n
        {
            return None;
        }
        Some(Expr::int(n, ty))
    }

    /// A comparison of two floating values, when both are known.
    pub(super) fn float_compare(&mut self, e: &'a Node, env: &Env) -> Option<Expr> {
        let (a, _) = self.eval_float(e.inner.first()?, env)?;
        let (b, _) = self.eval_float(e.inner.get(1)?, env)?;
        let r = match e.opcode.as_deref()? {
            "==" => a == b,
            "!=" => a != b,
            "<" => a < b,
            "<=" => a <= b,
            ">" => a > b,
            ">=" => a >= b,
            _ => return None,
        };
        Some(Expr::int(u8::from(r), Ty::Bool))
    }
}
