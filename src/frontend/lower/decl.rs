//! Declarations: kernel parameters (scalars, pointers as arrays, structs field by field), local
//! variables, `__shared__`, `__constant__` and file-scope arrays, initializers, and name lookup.
//!
//! Decides what a declaration denotes ([`Binding`]); statements and expressions are lowered
//! elsewhere.

use super::globals::const_value;
use super::{Binding, LVal, Lower, PtrBind, PtrOff, R, Val, add_off, pos_span, set, unsupported};
use crate::frontend::ast::{Node, strip_parens};
use crate::frontend::cuda::texture::is_texture_reference;
use crate::frontend::types::{CType, FN_PTR};
use crate::ir::*;
use num_bigint::BigInt;

/// The largest array of pointers in a by-value struct parameter that is modelled, one pointer
/// parameter per element.
const MAX_POINTER_MEMBERS: u64 = 64;

/// Most values of an OpenCL `__constant` variable's initializer assumed (`static_binding`);
/// the rest of a larger table stays unknown.
const MAX_CONSTANT_VALUES: usize = 1024;

/// A marker [`crate::frontend::opencl`] puts on an OpenCL parameter pointing to private memory
/// (unqualified in OpenCL C 1.2), for [`param_space`] (and so `Lower::arbitrary_arg`).
pub(in crate::frontend) const PRIVATE_ATTR: &str = "GpugPrivatePointeeAttr";

/// The memory a pointer parameter `p` points into, as `opencl/mod.rs` marks it: OpenCL's
/// `__local T *` and `__constant T *` parameters are a work-group array and a read-only one, each
/// of symbolic size; a device function's unqualified (private) pointer is per-thread memory
/// ([`PRIVATE_ATTR`]); anything else (CUDA's pointers, `__global`) global memory.
pub(in crate::frontend) fn param_space(p: &Node) -> Space {
    if p.has_attr("CUDASharedAttr") {
        Space::Shared
    } else if p.has_attr("CUDAConstantAttr") {
        Space::Constant
    } else if p.has_attr(PRIVATE_ATTR) {
        Space::Local
    } else {
        Space::Global
    }
}

impl Lower<'_, '_> {
    pub(in crate::frontend) fn kernel_param(&mut self, p: &Node, out: &mut Vec<Stmt>) -> R<()> {
        let name = p.name.clone().unwrap_or_else(|| format!("$arg{}", self.k.params.len()));
        // A misprinted pointer to an array is read back by `ctype`.
        let cty = self.ctype(p);
        let span = p.pos.as_ref().map(pos_span).unwrap_or_else(|| self.kspan.clone());
        // An unnamed parameter (a tag type chosen by overloading, llm.c's
        // `std::bool_constant<Atomic>`) cannot be read: nothing to model, whatever its type.
        if p.name.is_none() && !matches!(cty, CType::Scalar(_) | CType::Ptr(_) | CType::Record(_)) {
            return Ok(());
        }
        if self.kernel_lambda_param(p, &span, out)? {
            return Ok(());
        }
        let b = self.param_binding(&name, &cty, (&p.id, param_space(p)), &span, out)?;
        self.frame_mut().env.insert(p.id.clone(), b);
        Ok(())
    }

    pub(in crate::frontend) fn param_binding(
        &mut self,
        name: &str,
        cty: &CType,
        (id, space): (&str, Space),
        span: &Span,
        out: &mut Vec<Stmt>,
    ) -> R<Binding> {
        match cty {
            CType::Scalar(ty) => {
                let v = self.k.new_var(name, *ty);
                self.k.params.push(Param {
                    name: name.to_string(),
                    kind: ParamKind::Scalar(v),
                });
                Ok(Binding::Scalar(v, *ty))
            }
            // An array of pointers member of a by-value struct parameter (`float *p[42]`):
            // each element is a pointer parameter of its own (`q.p[4]`, a distinct array like
            // every pointer parameter), flattened like a struct with fields `[0]`, `[1]`, ...
            // and reached by constant subscripts only (`place.rs`).
            CType::Array(elem, Some(n)) if id.is_empty() && matches!(**elem, CType::Ptr(_)) => {
                if *n > MAX_POINTER_MEMBERS {
                    return unsupported(
                        span.clone(),
                        format!("array of {n} pointers `{name}` (at most {MAX_POINTER_MEMBERS} are modelled)"),
                    );
                }
                let mut bs = Vec::new();
                for i in 0..*n {
                    let b = self.param_binding(&format!("{name}[{i}]"), elem, ("", Space::Global), span, out)?;
                    bs.push((format!("[{i}]"), b));
                }
                Ok(Binding::Struct(bs))
            }
            // An array member of a by-value struct parameter: the same for every thread and
            // read-only to them, so a constant array.
            CType::Array(..) if id.is_empty() => {
                let a = self.new_array(name, Space::Constant, cty, span.clone())?;
                Ok(Binding::Mem(a, cty.clone()))
            }
            CType::Ptr(pointee) => {
                // A pointer to pointers (`float **arrays`): an array of 64-bit slots, each
                // pointer loaded from it pointing into an array of its own (`ptr_table.rs`).
                let arr_ty = match &**pointee {
                    CType::Ptr(_) => CType::Array(Box::new(CType::Scalar(super::ptr_table::SLOT)), None),
                    _ => CType::Array(pointee.clone(), None),
                };
                let a = self.new_array(name, space, &arr_ty, span.clone())?;
                self.k.params.push(Param {
                    name: name.to_string(),
                    kind: ParamKind::Array(a),
                });
                let off = if self.frame().modified.contains(id) {
                    let v = self.k.new_var(format!("{name}$off"), Ty::I64);
                    out.push(set(v, Expr::int(0, Ty::I64), span.clone()));
                    PtrOff::Var(v)
                } else {
                    PtrOff::Fixed(Expr::int(0, Ty::I64))
                };
                let i = self.push_ptr(PtrBind::new(name, vec![a], off, (**pointee).clone()));
                if let Some(Expr::Var { id, .. }) = self.ptrs[i].tag {
                    // It may later point elsewhere: its own array is the first.
                    out.push(set(id, Expr::int(0, Ty::I32), span.clone()));
                }
                Ok(Binding::Ptr(i))
            }
            CType::Record(r) if self.g.types.unions.contains(r) => {
                unsupported(span.clone(), format!("kernel parameter `{name}` of union type `{r}`"))
            }
            CType::Record(r) => {
                let fields = self.g.types.records.get(r).cloned().unwrap_or_default();
                let mut bs = Vec::new();
                for (f, ft) in fields {
                    let b = self.param_binding(&format!("{name}.{f}"), &ft, ("", Space::Global), span, out)?;
                    bs.push((f, b));
                }
                Ok(Binding::Struct(bs))
            }
            other => unsupported(
                span.clone(),
                format!("kernel parameter `{name}` of type `{}`", other.describe()),
            ),
        }
    }

    /// A fresh local binding for a declaration of type `cty` (no initialisation).
    pub(in crate::frontend) fn local_binding(&mut self, name: &str, cty: &CType, id: &str, span: &Span) -> R<Binding> {
        let addr = self.frame().addr_taken.contains(id);
        match cty {
            CType::Scalar(ty) if addr => {
                let a = self.new_array(
                    name,
                    Space::Local,
                    &CType::Array(Box::new(cty.clone()), Some(1)),
                    span.clone(),
                )?;
                let _ = ty;
                Ok(Binding::Mem(a, cty.clone()))
            }
            CType::Scalar(ty) => Ok(Binding::Scalar(self.k.new_var(name, *ty), *ty)),
            // A local array of pointers whose address is not taken (marchingCubes' `float3
            // *v[3]`): a pointer variable per element, flattened like a struct with fields
            // `[0]`, `[1]`, ... and reached by constant subscripts only (`place.rs`).
            CType::Array(elem, Some(n)) if !addr && matches!(**elem, CType::Ptr(_)) && *n <= MAX_POINTER_MEMBERS => {
                let mut bs = Vec::new();
                for i in 0..*n {
                    bs.push((
                        format!("[{i}]"),
                        self.local_binding(&format!("{name}[{i}]"), elem, "", span)?,
                    ));
                }
                Ok(Binding::Struct(bs))
            }
            CType::Array(..) => {
                let a = self.new_array(name, Space::Local, cty, span.clone())?;
                Ok(Binding::Mem(a, cty.clone()))
            }
            // A pointer variable whose address is taken is still a variable: `&q` is the
            // pointer to pointer `Val::Addr` (`cxx.rs`).
            CType::Ptr(pointee) => {
                let v = self.k.new_var(format!("{name}$off"), Ty::I64);
                let i = self.push_ptr(PtrBind::new(name, Vec::new(), PtrOff::Var(v), (**pointee).clone()));
                Ok(Binding::Ptr(i))
            }
            CType::Record(r) if addr || self.g.types.unions.contains(r) => {
                let a = self.new_array(
                    name,
                    Space::Local,
                    &CType::Array(Box::new(CType::Record(r.clone())), Some(1)),
                    span.clone(),
                )?;
                Ok(Binding::Mem(a, cty.clone()))
            }
            CType::Record(r) => {
                let Some(fields) = self.g.types.records.get(r).cloned() else {
                    return unsupported(span.clone(), format!("local `{name}` of incomplete type `{r}`"));
                };
                let mut bs = Vec::new();
                for (f, ft) in fields {
                    let b = self.local_binding(&format!("{name}.{f}"), &ft, "", span)?;
                    bs.push((f, b));
                }
                Ok(Binding::Struct(bs))
            }
            CType::Ref(_) => unsupported(span.clone(), format!("reference variable `{name}`")),
            other => unsupported(span.clone(), format!("local `{name}` of type `{}`", other.describe())),
        }
    }

    pub(in crate::frontend) fn var_decl(&mut self, d: &Node, out: &mut Vec<Stmt>) -> R<()> {
        let name = d.name.clone().unwrap_or_default();
        let span = self.span(d);
        if self.lambda_local(d, out)? {
            return Ok(());
        }
        let cty = self.ctype(d);
        if self.thread_pipeline_decl(d, &span)?
            || self.atomic_ref_decl(d, &span, out)?
            || self.cub_decl(d, &span, out)?
        {
            return Ok(());
        }
        if crate::frontend::cuda::groups::node_group(d, &self.g.group_aliases).is_some() {
            // A cooperative group handle: no storage, its initializer (`this_thread_block()`)
            // is pure (`groups.rs`); a generic `thread_group` is the group it is made from.
            self.bind_group(d, d.code_children().last().filter(|_| d.init.is_some()));
            return Ok(());
        }
        let is_const = d.constexpr || d.ty.as_ref().is_some_and(|t| t.qual_type.starts_with("const "));
        if d.has_attr("CUDASharedAttr") {
            self.static_binding(d)?;
            return Ok(());
        }
        // A `static` local: a `const` one (a table, a constant) is read-only, so each
        // thread's own copy initialised here is the same value, and it is lowered as a local;
        // a mutable one is one variable of the whole grid, in global memory, whose initial
        // value (set once, at load) is not modelled.
        if d.storage_class.as_deref() == Some("static") && !is_const {
            self.static_global(d)?;
            return Ok(());
        }
        if d.storage_class.as_deref() == Some("extern") {
            return unsupported(span, format!("extern local variable `{name}`"));
        }
        if let CType::Ref(to) = &cty {
            return self.ref_local(d, to, out);
        }
        if let CType::Ptr(pointee) = &cty
            && matches!(**pointee, CType::Ptr(_))
            && let Some(b) = self.ptr_to_ptr_local(d, out)?
        {
            self.frame_mut().env.insert(d.id.clone(), b);
            return Ok(());
        }
        let init = d.code_children().last().filter(|_| d.init.is_some());
        // A data pointer initialised with a function pointer (`void *x = (void *)f`) holds a
        // function's code ([`crate::frontend::lower::calls::fnptr`]), like a function pointer.
        if matches!(cty, CType::Ptr(_)) && init.is_some_and(|e| self.casts_fn_ptr(e)) {
            let v = self.k.new_var(&name, FN_PTR);
            let b = Binding::Scalar(v, FN_PTR);
            self.frame_mut().env.insert(d.id.clone(), b.clone());
            if let Some(e) = init {
                let val = self.rvalue(e, out)?;
                self.assign(&LVal::Bound(b), val, e, &span, out)?;
            }
            return Ok(());
        }
        let b = self.local_binding(&name, &cty, &d.id, &span)?;
        // A never-reassigned pointer with a constant offset keeps it fixed (clearer IR).
        if let (Binding::Ptr(i), Some(e)) = (&b, init)
            && !self.frame().modified.contains(&d.id)
        {
            let v = self.rvalue(e, out)?;
            // A null pointer constant (OpenCL: a pointer into `NULL`, `null.rs`).
            let v = match v {
                v @ Val::Scalar(_) => Val::Ptr(self.expect_ptr(v, e)?),
                v => v,
            };
            // Not when an earlier pass found it pointing into several arrays (`target.rs`).
            if let Val::Ptr(pv) = &v
                && matches!(pv.off, Expr::Const { .. })
                && self.ptrs[*i].tag.is_none()
            {
                self.ptrs[*i].arrays = vec![pv.array];
                self.ptrs[*i].off = PtrOff::Fixed(pv.off.clone());
                self.frame_mut().env.insert(d.id.clone(), b);
                return Ok(());
            }
            if !matches!(v, Val::Ptr(_) | Val::PtrCond(..)) {
                self.expect_ptr(v, e)?;
                return Ok(());
            }
            self.frame_mut().env.insert(d.id.clone(), b.clone());
            self.assign(&LVal::Bound(b), v, e, &span, out)?;
            return Ok(());
        }
        self.frame_mut().env.insert(d.id.clone(), b.clone());
        // An integer holding a pointer's value (`uintptr_t v = (uintptr_t)p`), for a cast back
        // to a pointer (`addr.rs`).
        if let (Binding::Scalar(..), Some(e)) = (&b, init) {
            match self.addr_provenance(e)? {
                Some(a) if !self.frame().modified.contains(&d.id) => {
                    self.int_addrs.insert(d.id.clone(), a);
                }
                _ => {
                    self.int_addrs.remove(&d.id);
                }
            }
        }
        match init {
            None => self.havoc(&b, &span, out),
            Some(e) => self.init(LVal::Bound(b), &cty, e, &span, out),
        }
    }

    pub(in crate::frontend) fn havoc(&mut self, b: &Binding, span: &Span, out: &mut Vec<Stmt>) -> R<()> {
        match b {
            Binding::Scalar(v, _) => out.push(Stmt {
                kind: StmtKind::Havoc { var: *v },
                span: span.clone(),
            }),
            Binding::Struct(fs) => {
                for (_, f) in fs {
                    self.havoc(f, span, out)?;
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// Initialise `lv` (of type `cty`) from the initializer `e`.
    pub(in crate::frontend) fn init(
        &mut self,
        lv: LVal,
        cty: &CType,
        e: &Node,
        span: &Span,
        out: &mut Vec<Stmt>,
    ) -> R<()> {
        let e = strip_parens(e);
        // A local array (or address-taken local) is initialised in its memory.
        let lv = match lv {
            LVal::Bound(Binding::Mem(array, cty)) => LVal::Mem {
                array,
                off: Expr::int(0, Ty::I64),
                cty,
            },
            lv => lv,
        };
        match e.kind.as_str() {
            // An OpenCL vector literal, whose items may be vectors (`{v.xy, 0, 1}`).
            "InitListExpr" if self.vector_type(cty).is_some() => {
                let v = self.vector_literal(e, out)?;
                self.assign(&lv, v, e, span, out)
            }
            "InitListExpr" => {
                let items: Vec<&Node> = e.code_children().collect();
                match cty {
                    CType::Array(elem, _) => {
                        let LVal::Mem { array, off, .. } = lv else {
                            return unsupported(self.span(e), "initializer list for this variable");
                        };
                        let size = self.size_of(elem, span)?;
                        for (i, it) in items.iter().enumerate() {
                            if it.kind == "ImplicitValueInitExpr" || it.kind == "ArrayInitLoopExpr" {
                                continue;
                            }
                            let sub = LVal::Mem {
                                array,
                                off: add_off(off.clone(), Expr::int(i as u64 * size, Ty::I64)),
                                cty: (**elem).clone(),
                            };
                            self.init(sub, elem, it, span, out)?;
                        }
                        Ok(())
                    }
                    CType::Record(r) => {
                        let fields = self.g.types.records.get(r).cloned().unwrap_or_default();
                        for ((fname, ft), it) in fields.iter().zip(items.iter()) {
                            if it.kind == "ImplicitValueInitExpr" {
                                continue;
                            }
                            let sub = self.member_of(lv.clone(), fname, span)?;
                            self.init(sub, ft, it, span, out)?;
                        }
                        Ok(())
                    }
                    _ => match items.first() {
                        Some(it) => self.init(lv, cty, it, span, out),
                        None => {
                            let v = self.zero(cty, span)?;
                            self.assign(&lv, v, e, span, out)
                        }
                    },
                }
            }
            "CXXConstructExpr" if let Some(ctor) = self.user_constructor(e) => self.construct_into(ctor, e, lv, out),
            "CXXConstructExpr" => {
                let args: Vec<&Node> = e.code_children().collect();
                if let Some(v) = self.construct_call(e, &args, out)? {
                    return self.assign(&lv, v, e, span, out);
                }
                match args.as_slice() {
                    [] => Ok(()),
                    [a] => {
                        let v = self.rvalue(a, out)?;
                        self.assign(&lv, v, e, span, out)
                    }
                    _ => {
                        let v = self.construct(e, &args, out)?;
                        self.assign(&lv, v, e, span, out)
                    }
                }
            }
            "ImplicitValueInitExpr" => {
                let v = self.zero(cty, span)?;
                self.assign(&lv, v, e, span, out)
            }
            _ => {
                let v = self.rvalue(e, out)?;
                self.assign(&lv, v, e, span, out)
            }
        }
    }

    pub(in crate::frontend) fn zero(&self, cty: &CType, span: &Span) -> R<Val> {
        match cty {
            CType::Scalar(t) => Ok(Val::Scalar(Expr::int(0, *t))),
            other => unsupported(span.clone(), format!("zero initialisation of `{}`", other.describe())),
        }
    }

    /// Binding of a mutable `static` local variable: one array in global memory per
    /// declaration per kernel, with unknown initial content.
    fn static_global(&mut self, d: &Node) -> R<Binding> {
        if let Some(b) = self.static_arrays.get(&d.id) {
            return Ok(b.clone());
        }
        let name = d.name.clone().unwrap_or_default();
        let span = self.span(d);
        let cty = self.ctype(d);
        let arr = match &cty {
            CType::Array(..) => cty.clone(),
            CType::Scalar(_) | CType::Record(_) => CType::Array(Box::new(cty.clone()), Some(1)),
            other => {
                return unsupported(
                    span,
                    format!("static local variable `{name}` of type `{}`", other.describe()),
                );
            }
        };
        let b = Binding::Mem(self.new_array(&name, Space::Global, &arr, span)?, cty);
        self.static_arrays.insert(d.id.clone(), b.clone());
        Ok(b)
    }

    /// The integer values the initializer `init` of an object of type `cty` at byte offset
    /// `base` gives, as (byte offset, type, value); elements an initializer list leaves out
    /// are 0, and a value that is not an integer constant is left out (nothing is assumed of
    /// it).
    fn constant_values(&self, cty: &CType, init: &Node, base: u64, out: &mut Vec<(u64, Ty, BigInt)>) {
        let items: Vec<&Node> = match init.kind.as_str() {
            "InitListExpr" => init.code_children().collect(),
            _ => vec![init],
        };
        match cty {
            CType::Scalar(ty @ Ty::Int { .. }) => {
                if let Some(v) = items.first().and_then(|i| super::globals::const_value(i)) {
                    out.push((base, *ty, v));
                }
            }
            CType::Array(elem, Some(n)) => {
                let Some((size, _)) = self.g.types.layout(elem) else {
                    return;
                };
                for i in 0..*n {
                    let at = base + i * size;
                    match items.get(i as usize) {
                        Some(it) if it.kind != "ImplicitValueInitExpr" => self.constant_values(elem, it, at, out),
                        _ => self.zero_values(elem, at, out),
                    }
                }
            }
            CType::Record(r) => {
                let Some(fields) = self.g.types.fields(r) else { return };
                for (k, (_, off, ft)) in fields.iter().enumerate() {
                    match items.get(k) {
                        Some(it) if it.kind != "ImplicitValueInitExpr" => self.constant_values(ft, it, base + off, out),
                        _ => self.zero_values(ft, base + off, out),
                    }
                }
            }
            _ => {}
        }
    }

    /// The zeros of an object of type `cty` at byte offset `base` ([`Self::constant_values`]).
    fn zero_values(&self, cty: &CType, base: u64, out: &mut Vec<(u64, Ty, BigInt)>) {
        match cty {
            CType::Scalar(ty @ Ty::Int { .. }) => out.push((base, *ty, BigInt::from(0))),
            CType::Array(elem, Some(n)) => {
                if let Some((size, _)) = self.g.types.layout(elem) {
                    for i in 0..*n {
                        self.zero_values(elem, base + i * size, out);
                    }
                }
            }
            CType::Record(r) => {
                for (_, off, ft) in self.g.types.fields(r).unwrap_or_default() {
                    self.zero_values(&ft, base + off, out);
                }
            }
            _ => {}
        }
    }

    /// Binding of a `__shared__`/file-scope declaration (one array per declaration per kernel).
    pub(in crate::frontend) fn static_binding(&mut self, d: &Node) -> R<Binding> {
        if let Some(b) = self.static_arrays.get(&d.id) {
            return Ok(b.clone());
        }
        let name = d.name.clone().unwrap_or_default();
        let span = d.pos.as_ref().map(pos_span).unwrap_or_else(|| self.kspan.clone());
        let cty = self.ctype(d);
        let space = if d.has_attr("CUDASharedAttr") {
            Space::Shared
        } else if d.has_attr("CUDAConstantAttr") {
            Space::Constant
        } else if d.has_attr("CUDADeviceAttr") {
            Space::Global
        } else if is_texture_reference(d.type_str()) {
            return unsupported(
                span,
                format!("texture reference `{name}` used other than as the texture of a fetch"),
            );
        } else {
            return unsupported(span, format!("host variable `{name}` used in device code"));
        };
        let b = match &cty {
            // CUB's `TempStorage` (`cuda/cub.rs`): words standing for the whole storage.
            _ if space == Space::Shared && crate::frontend::cuda::cub::is_temp_storage(d.type_str()) => {
                let word = CType::Scalar(Ty::U32);
                let slots = Some(u64::from(crate::frontend::cuda::cub::SLOTS));
                let a = self.new_array(&name, space, &CType::Array(Box::new(word.clone()), slots), span)?;
                Binding::Mem(a, word)
            }
            CType::Array(..) => Binding::Mem(self.new_array(&name, space, &cty, span)?, cty.clone()),
            CType::Scalar(_) | CType::Record(_) => {
                let a = self.new_array(&name, space, &CType::Array(Box::new(cty.clone()), Some(1)), span)?;
                Binding::Mem(a, cty.clone())
            }
            other => {
                return unsupported(
                    span,
                    format!(
                        "`{name}` of type `{}` in {} memory (values of that type stored in memory are not modelled)",
                        other.describe(),
                        match space {
                            Space::Shared => "__shared__",
                            Space::Constant => "__constant__",
                            Space::Global => "__device__",
                            Space::Local => "local",
                        }
                    ),
                );
            }
        };
        self.static_arrays.insert(d.id.clone(), b.clone());
        // OpenCL's program-scope `__constant` variables take their initializer's values (the
        // host cannot change them, unlike CUDA's `__constant__`, set by cudaMemcpyToSymbol).
        if self.g.language == Language::OpenCl
            && space == Space::Constant
            && let Binding::Mem(array, _) = &b
            && let Some(init) = d.code_children().last().filter(|_| d.init.is_some())
        {
            let mut values = Vec::new();
            self.constant_values(&cty, init, 0, &mut values);
            let span = self.span(d);
            for (off, ty, v) in values.into_iter().take(MAX_CONSTANT_VALUES) {
                let t = self.temp(ty);
                let load = StmtKind::Load {
                    dst: t,
                    array: *array,
                    offset: Expr::int(off as i64, Ty::I64),
                    ty,
                };
                let cond = Expr::Binary {
                    op: BinOp::Eq,
                    lhs: Box::new(Expr::Var { id: t, ty }),
                    rhs: Box::new(Expr::Const { value: v, ty }),
                    ty: Ty::Bool,
                };
                for kind in [load, StmtKind::Assume { cond }] {
                    self.prologue.push(Stmt {
                        kind,
                        span: span.clone(),
                    });
                }
            }
        }
        Ok(b)
    }

    /// A file-scope or static-member `const` scalar with an initializer, as a constant: an
    /// integer folded from literals, else the initializer's value when it is pure (no loads,
    /// no calls: lowering it emits no statement). A variable the user declared `__constant__`
    /// is not one: the host may set it (`cudaMemcpyToSymbol`), so its initializer is not
    /// trusted. `None`: not such a constant.
    fn const_global(&mut self, decl: &Node) -> R<Option<Binding>> {
        let cty = self.ctype(decl);
        let CType::Scalar(ty) = cty else {
            return Ok(None);
        };
        let is_const = decl.constexpr || decl.ty.as_ref().is_some_and(|t| t.qual_type.starts_with("const "));
        let user_constant = decl.inner.iter().any(|a| a.kind == "CUDAConstantAttr" && !a.implicit);
        let Some(init) = decl.code_children().last().filter(|_| decl.init.is_some()) else {
            return Ok(None);
        };
        if !is_const {
            return Ok(None);
        }
        if let (Ty::Int { .. }, Some(v)) = (ty, const_value(init)) {
            return Ok(Some(Binding::Const(Expr::int(v, ty))));
        }
        if user_constant {
            return Ok(None);
        }
        let mut stmts = Vec::new();
        match self.rvalue(init, &mut stmts) {
            Ok(Val::Scalar(e)) if stmts.is_empty() => Ok(Some(Binding::Const(crate::ir::build::cast(e, ty)))),
            _ => Ok(None),
        }
    }

    /// What a file-scope variable or static data member `decl` denotes: a constant, or its
    /// array.
    pub(in crate::frontend) fn global_binding(&mut self, decl: &Node) -> R<Binding> {
        if let Some(b) = self.const_global(decl)? {
            return Ok(b);
        }
        self.static_binding(decl)
    }

    pub(in crate::frontend) fn lookup(&mut self, n: &Node) -> R<Binding> {
        let Some(d) = &n.referenced_decl else {
            return unsupported(self.span(n), "reference without a declaration");
        };
        if let Some(b) = self.frame().env.get(&d.id) {
            return Ok(b.clone());
        }
        if d.name == "warpSize" && d.kind == "VarDecl" {
            return Ok(Binding::Const(Expr::Builtin(Builtin::WarpSize)));
        }
        if let Some(b) = self.static_arrays.get(&d.id) {
            return Ok(b.clone());
        }
        if let Some(v) = self.g.enum_consts.get(&d.id) {
            let ty = self.scalar_ty(n).unwrap_or(Ty::I32);
            return Ok(Binding::Const(Expr::int(v.clone(), ty)));
        }
        if let Some(decl) = self.g.vars.get(&d.id).copied() {
            return self.global_binding(decl);
        }
        if self.closures.contains_key(&d.id) {
            return unsupported(
                self.span(n),
                format!("lambda `{}` used other than by calling it", d.name),
            );
        }
        match d.kind.as_str() {
            "FunctionDecl" => Ok(Binding::Const(self.fn_code(d))),
            "CXXMethodDecl" => unsupported(self.span(n), format!("pointer to member function `{}`", d.name)),
            "NonTypeTemplateParmDecl" => {
                unsupported(self.span(n), format!("dependent template parameter `{}`", d.name))
            }
            "VarDecl" if d.name == "warpSize" => Ok(Binding::Const(Expr::Builtin(Builtin::WarpSize))),
            _ => unsupported(self.span(n), format!("reference to `{}` ({})", d.name, d.kind)),
        }
    }
}

impl Lower<'_, '_> {
    /// Whether `e` is a cast of a function pointer to a data pointer (through parentheses and
    /// further casts).
    fn casts_fn_ptr(&self, e: &Node) -> bool {
        let mut e = e;
        loop {
            match e.kind.as_str() {
                "ParenExpr" => {}
                k if k.ends_with("CastExpr") => {
                    if let Some(c) = e.inner.first()
                        && self.g.types.is_fn_ptr(c.type_str())
                        && !self.g.types.is_fn_ptr(e.type_str())
                    {
                        return true;
                    }
                }
                _ => return false,
            }
            match e.inner.first() {
                Some(c) => e = c,
                None => return false,
            }
        }
    }
}
