//! Read-only data and cache-hinted memory access: texture fetches (`tex1Dfetch`, `tex2D`, …, by
//! texture reference or by texture object) and the loads and stores with cache hints (`__ldg`,
//! `__ldcg`, `__stcg`, …).
//!
//! Texture memory cannot be written by a kernel, so a fetch is no memory access here (it
//! cannot race) and its value is an uninterpreted function of the texture and the coordinates
//! (`Expr::Opaque`, one function per fetch function, texture and field): equal coordinates
//! give equal values in both threads, any value is possible, floats stay opaque, and an integer
//! computed from a fetch keeps its exact arithmetic. A kernel that writes the array a texture
//! is bound to and fetches it in the same launch reads stale data in CUDA; gpug does not
//! relate the two. `__ldg(p)` and its siblings are ordinary reads of `*p` (they race with
//! another thread's write of the same bytes); the stores are ordinary writes.

use crate::frontend::ast::Node;
use crate::frontend::lower::{CallSite, LVal, Lower, R, Val, unsupported};
use crate::frontend::types::{CType, strip_tag};
use crate::ir::*;

impl Lower<'_, '_> {
    /// A texture fetch `name(args)`, a call `n`: by reference (`tex1Dfetch(texRef, i)`), by
    /// object (`tex1Dfetch<float>(obj, i)`) or by object into `*ptr`
    /// (`tex1Dfetch(&v, obj, i)`). The value of the call (`Void` for the last form).
    pub(in crate::frontend) fn texture_fetch(&mut self, call: &CallSite, out: &mut Vec<Stmt>) -> R<Val> {
        let (n, name, args, span) = call.parts();
        let Some((first, mut rest)) = args.split_first() else {
            return unsupported(span.clone(), format!("`{name}` without arguments"));
        };
        let mut coords = Vec::new();
        let mut dst = None;
        let texture = match self.ctype(first) {
            CType::Ptr(pointee) => {
                // `tex1Dfetch(T *ptr, cudaTextureObject_t obj, int x)`: the texel goes to `*ptr`.
                let p = self.rvalue(first, out)?;
                let p = self.expect_ptr(p, first)?;
                dst = Some(LVal::Mem {
                    array: p.array,
                    off: p.off,
                    cty: *pointee,
                });
                let Some((obj, r)) = rest.split_first() else {
                    return unsupported(span.clone(), format!("`{name}` without a texture object"));
                };
                rest = r;
                self.texture_object(obj, &mut coords, out)?
            }
            CType::Scalar(_) => self.texture_object(first, &mut coords, out)?,
            _ if is_texture_reference(first.type_str()) => self.texture_reference(first)?,
            other => {
                return unsupported(
                    span.clone(),
                    format!("`{name}` on a value of type `{}`", other.describe()),
                );
            }
        };
        for a in rest {
            match self.rvalue(a, out)? {
                Val::Scalar(e) => coords.push(e),
                Val::Struct(fs) => {
                    // Gradients (`float2 dPdx`): their components.
                    for (_, f) in fs {
                        coords.push(self.expect_scalar(f, a)?);
                    }
                }
                _ => {
                    return unsupported(
                        self.span(a),
                        format!("argument of `{name}` that is not a number (sparse-texture residency flag)"),
                    );
                }
            }
        }
        let function = format!("{name}.{}{texture}", texture.len());
        match dst {
            None => {
                let cty = self.ctype(n);
                self.texel(&function, &cty, &coords, span)
            }
            Some(lv) => {
                let cty = match &lv {
                    LVal::Mem { cty, .. } => cty.clone(),
                    LVal::Bound(_) | LVal::Cond { .. } => CType::Void,
                };
                let v = self.texel(&function, &cty, &coords, span)?;
                self.assign(&lv, v, n, span, out)?;
                Ok(Val::Void)
            }
        }
    }

    /// The identity of the texture object `obj` (`"obj"`), its value pushed first onto
    /// `coords`.
    fn texture_object(&mut self, obj: &Node, coords: &mut Vec<Expr>, out: &mut Vec<Stmt>) -> R<String> {
        let v = self.rvalue(obj, out)?;
        coords.push(self.expect_scalar(v, obj)?);
        Ok("obj".into())
    }

    /// The identity of the texture reference `arg` names: its variable's name, with the line
    /// of its declaration when known (textures of one name in two namespaces stay apart).
    fn texture_reference(&self, arg: &Node) -> R<String> {
        let Some(r) = decl_ref(arg) else {
            return unsupported(self.span(arg), "texture reference that is not a variable");
        };
        let Some(d) = r.referenced_decl.as_ref() else {
            return unsupported(self.span(arg), "texture reference without a declaration");
        };
        match self.g.vars.get(&d.id) {
            Some(v) => Ok(match &v.pos {
                Some(p) => format!("{}.{}", d.name, p.line),
                None => d.name.clone(),
            }),
            None if d.kind == "ParmVarDecl" => unsupported(
                self.span(arg),
                format!("texture reference `{}` passed as a function argument", d.name),
            ),
            None => unsupported(
                self.span(arg),
                format!("texture reference `{}` not declared at file scope", d.name),
            ),
        }
    }

    /// The value of a texel of C type `cty` read by `function` at `coords`: a scalar, or a
    /// vector field by field.
    fn texel(&self, function: &str, cty: &CType, coords: &[Expr], span: &Span) -> R<Val> {
        match cty {
            CType::Scalar(ty) => Ok(Val::Scalar(Expr::Opaque {
                name: function.to_string(),
                args: coords.to_vec(),
                ty: *ty,
            })),
            CType::Record(r) => {
                let Some(fields) = self.g.types.records.get(r) else {
                    return unsupported(span.clone(), format!("texel of incomplete type `{r}`"));
                };
                let mut vs = Vec::new();
                for (f, ft) in fields {
                    let v = self.texel(&format!("{function}.{f}"), ft, coords, span)?;
                    vs.push((f.clone(), v));
                }
                Ok(Val::Struct(vs))
            }
            other => unsupported(span.clone(), format!("texel of type `{}`", other.describe())),
        }
    }

    /// A surface read or write by object, a call `n` of `name`: `surf2Dwrite(v, obj, x, y)`,
    /// `surf2Dread<T>(obj, x, y)` (the value of the call) or `surf2Dread(&v, obj, x, y)` (into
    /// `*ptr`), and their 1-D, 3-D, layered and cubemap siblings; a boundary mode is ignored.
    ///
    /// Every surface is one global array (two surface objects may name the same CUDA array, so
    /// keeping them apart could hide a race), addressed by the byte offset `x + y·2^24 +
    /// z·2^44` (`z` the layer or face where there is one): the same coordinates always give
    /// the same offset, and different ones the same offset only beyond 16 MiB rows or 2^20
    /// rows, where a conflict found is a false alarm, never a missed one.
    pub(in crate::frontend) fn surface_access(&mut self, call: &CallSite, out: &mut Vec<Stmt>) -> R<Val> {
        let (n, name, args, span) = call.parts();
        let (base, write) = match (name.strip_suffix("write"), name.strip_suffix("read")) {
            (Some(b), _) => (b, true),
            (_, Some(b)) => (b, false),
            _ => return unsupported(span.clone(), format!("surface function `{name}`")),
        };
        let dims = match base {
            "surf1D" => 1,
            "surf2D" | "surf1DLayered" => 2,
            _ => 3,
        };
        let into_ptr = !write && args.first().is_some_and(|a| matches!(self.ctype(a), CType::Ptr(_)));
        let lead = usize::from(write || into_ptr);
        if args.len() < lead + 1 + dims {
            return unsupported(span.clone(), format!("`{name}` with {} arguments", args.len()));
        }
        let value = if write { Some(self.rvalue(args[0], out)?) } else { None };
        let dst = if into_ptr {
            let p = self.rvalue(args[0], out)?;
            let CType::Ptr(pointee) = self.ctype(args[0]) else {
                return unsupported(span.clone(), format!("`{name}` into a value that is not a pointer"));
            };
            Some((self.deref(p, args[0])?, *pointee))
        } else {
            None
        };
        // The object: evaluated for its effects; all surfaces are one array.
        self.rvalue(args[lead], out)?;
        let mut off: Option<Expr> = None;
        for (i, a) in args[lead + 1..lead + 1 + dims].iter().enumerate() {
            let c = self.rvalue(a, out)?;
            let c = crate::ir::build::cast(self.expect_scalar(c, a)?, Ty::I64);
            let term = match i {
                0 => c,
                _ => crate::ir::build::bin(BinOp::Mul, c, Expr::int(1i64 << [0, 24, 44][i], Ty::I64), Ty::I64),
            };
            off = Some(match off {
                None => term,
                Some(o) => crate::ir::build::bin(BinOp::Add, o, term, Ty::I64),
            });
        }
        let off = off.unwrap_or_else(|| Expr::int(0, Ty::I64));
        let array = match self.surfaces {
            Some(a) => a,
            None => {
                let byte = CType::Scalar(Ty::Int { bits: 8, signed: false });
                let a = self.new_array(
                    "surface memory",
                    Space::Global,
                    &CType::Array(Box::new(byte), None),
                    span.clone(),
                )?;
                self.surfaces = Some(a);
                let note = "surface memory: every surface object is taken as one array (two objects may name the \
                            same CUDA array), so accesses of the same coordinates of two surfaces conflict";
                if !self.k.notes.iter().any(|x| x == note) {
                    self.k.notes.push(note.to_string());
                }
                a
            }
        };
        if let Some(v) = value {
            let cty = self.ctype(args[0]);
            let lv = LVal::Mem { array, off, cty };
            self.assign(&lv, v, n, span, out)?;
            return Ok(Val::Void);
        }
        match dst {
            None => {
                let cty = self.ctype(n);
                self.read(LVal::Mem { array, off, cty }, n, out)
            }
            Some((lv, cty)) => {
                let v = self.read(LVal::Mem { array, off, cty }, n, out)?;
                self.assign(&lv, v, n, span, out)?;
                Ok(Val::Void)
            }
        }
    }

    /// `__ldg(p)` and its siblings: the value of `*p`, read from memory.
    pub(in crate::frontend) fn cached_load(&mut self, call: &CallSite, out: &mut Vec<Stmt>) -> R<Val> {
        let (_, name, args, span) = call.parts();
        let [p] = args else {
            return unsupported(span.clone(), format!("`{name}` needs one pointer argument"));
        };
        let v = self.rvalue(p, out)?;
        let pv = self.expect_ptr(v, p)?;
        let lv = LVal::Mem {
            array: pv.array,
            off: pv.off,
            cty: pv.pointee,
        };
        self.read(lv, p, out)
    }

    /// `__stcg(p, v)` and its siblings: the write `*p = v`.
    pub(in crate::frontend) fn cached_store(&mut self, call: &CallSite, out: &mut Vec<Stmt>) -> R<Val> {
        let (_, name, args, span) = call.parts();
        let [p, x] = args else {
            return unsupported(span.clone(), format!("`{name}` needs a pointer and a value"));
        };
        let v = self.rvalue(p, out)?;
        let pv = self.expect_ptr(v, p)?;
        let value = self.rvalue(x, out)?;
        let lv = LVal::Mem {
            array: pv.array,
            off: pv.off,
            cty: pv.pointee,
        };
        self.assign(&lv, value, p, span, out)?;
        Ok(Val::Void)
    }
}

/// Whether a type spelling names a texture reference (`texture<float, 1,
/// cudaReadModeElementType>`, `const struct texture<…>`).
pub(in crate::frontend) fn is_texture_reference(t: &str) -> bool {
    strip_tag(t).starts_with("texture<")
}

/// The variable reference under the copies and casts clang wraps around a texture argument.
fn decl_ref(n: &Node) -> Option<&Node> {
    match n.kind.as_str() {
        "DeclRefExpr" => Some(n),
        "ImplicitCastExpr"
        | "ParenExpr"
        | "MaterializeTemporaryExpr"
        | "ExprWithCleanups"
        | "CXXBindTemporaryExpr"
        | "CXXConstructExpr"
        | "CXXFunctionalCastExpr"
        | "CStyleCastExpr" => {
            let mut code = n.code_children();
            match (code.next(), code.next()) {
                (Some(c), None) => decl_ref(c),
                _ => None,
            }
        }
        _ => None,
    }
}
