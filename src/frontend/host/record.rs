//! The launch record: a launch found by the walk (`k<<<grid, block[, shm]>>>(…)`,
//! `cudaLaunchKernel`), its geometry and arguments matched to the kernel's parameters, as a
//! [`HostLaunch`] (see [`super`]).

use super::*;

impl<'a, 'g> Host<'a, 'g> {
    /// A launch `k<<<grid, block, …>>>(args)`.
    pub(super) fn triple_launch(&mut self, e: &'a Node, env: &mut Env) {
        let Some(decl) = e.inner.first().map(strip) else { return };
        let Some(config) = e.inner.get(1) else { return };
        let grid = config.inner.get(1);
        let block = config.inner.get(2);
        let args: Vec<&'a Node> = e.inner.iter().skip(2).collect();
        let vals: Vec<Option<Val>> = args.iter().map(|a| self.eval(a, env)).collect();
        self.record(e, decl, grid, block, vals, env);
    }

    /// A launch `cudaLaunchKernel(k, grid, block, args, …)`: the arguments are the values of
    /// the variables `args` points to.
    pub(super) fn api_launch(&mut self, e: &'a Node, env: &mut Env) {
        if matches!(launch_api(e), Some("cuLaunchKernel" | "cuLaunchCooperativeKernel")) {
            return self.driver_launch(e, env);
        }
        let Some(func) = e.inner.get(1) else { return };
        let Some(decl) = function_ref(func) else { return };
        let grid = e.inner.get(2);
        let block = e.inner.get(3);
        let slots = e
            .inner
            .get(4)
            .map(strip)
            .and_then(|a| a.referenced_decl.as_ref())
            .and_then(|d| env.arg_arrays.get(&d.id).cloned())
            .unwrap_or_default();
        let vals: Vec<Option<Val>> = slots
            .iter()
            .map(|s| {
                let id = s.as_ref()?;
                env.vals.get(id).cloned()
            })
            .collect();
        self.record(e, decl, grid, block, vals, env);
    }

    /// The driver API's launch `cuLaunchKernel(f, gx, gy, gz, bx, by, bz, shared, stream,
    /// params, extra)` of a handle `f` that `cuModuleGetFunction` gave for one of the file's
    /// kernels by name ([`Host::module_function`]); `params` a local `void *args[] = {&a, …}`
    /// (or `&args[0]`). A handle not followed (chosen at run time) is no launch read.
    fn driver_launch(&mut self, e: &'a Node, env: &mut Env) {
        let Some(Val::Function(name)) = e
            .inner
            .get(1)
            .map(strip)
            .filter(|f| f.kind == "DeclRefExpr")
            .and_then(|f| env.vals.get(&f.referenced_decl.as_ref()?.id))
            .cloned()
        else {
            return;
        };
        let Some(k) = self.kernel_named(&name) else { return };
        let mut dims = |at: usize| -> [Expr; 3] {
            std::array::from_fn(|j| match e.inner.get(at + j).and_then(|n| self.eval(n, env)) {
                Some(Val::Int(v)) => cast(v, Ty::U32),
                _ => self.unknown("?", Ty::U32),
            })
        };
        let grid = dims(2);
        let block = dims(5);
        let slots = e
            .inner
            .get(10)
            .and_then(arg_array_of)
            .and_then(|id| env.arg_arrays.get(id).cloned())
            .unwrap_or_default();
        let vals: Vec<Option<Val>> = slots.iter().map(|s| env.vals.get(s.as_ref()?).cloned()).collect();
        self.record_dims(e, k, grid, block, vals, env);
    }

    /// The kernel of the file named `name`, when one kernel has it and it is not a template's
    /// instantiation (whose name is mangled): a launch's callee by name, or what the driver API
    /// fetches by that name.
    fn kernel_named(&self, name: &str) -> Option<(usize, &'a Node, &'g Kernel)> {
        let same: Vec<usize> = (0..self.kernels.len())
            .filter(|&i| self.kernels[i].0.name.as_deref() == Some(name))
            .collect();
        match same[..] {
            [i] if !self.kernels[i].0.inner.iter().any(|c| c.kind == "TemplateArgument") => {
                Some((i, self.kernels[i].0, self.kernels[i].1))
            }
            _ => None,
        }
    }

    /// `cuModuleGetFunction(&f, module, "name")` (the driver API's, not a function of the
    /// program): the variable `f` and the kernel's name.
    pub(super) fn module_function(&self, e: &Node) -> Option<(String, String)> {
        let callee = strip(e.inner.first()?);
        if callee_name(callee)? != "cuModuleGetFunction"
            || callee
                .referenced_decl
                .as_ref()
                .is_some_and(|d| self.defs.contains_key(&d.id))
        {
            return None;
        }
        let id = address_through_casts(e.inner.get(1)?)?.to_string();
        let lit = strip(e.inner.get(3)?);
        if lit.kind != "StringLiteral" {
            return None;
        }
        let text = lit.value.as_ref()?.as_str()?;
        let name = text.strip_prefix('"')?.strip_suffix('"')?;
        (!name.contains('\\')).then(|| (id, name.to_string()))
    }

    /// Records the launch `e` of the kernel `decl` names.
    pub(super) fn record(
        &mut self,
        e: &'a Node,
        decl: &Node,
        grid: Option<&'a Node>,
        block: Option<&'a Node>,
        args: Vec<Option<Val>>,
        env: &mut Env,
    ) {
        let Some(k) = self.kernel_of(decl) else {
            return;
        };
        let grid = self.launch_dims(grid, env);
        let block = self.launch_dims(block, env);
        // A value that is one of a few constants (an element of `block_sizes[]` at an index
        // not known): one launch per constant, each with its values, as for a loop unrolled.
        let mut used = HashSet::new();
        for x in grid.iter().chain(&block) {
            terms::vars(x, &mut |u| {
                used.insert(u);
            });
        }
        for a in args.iter().flatten() {
            for x in val_terms(a) {
                terms::vars(x, &mut |u| {
                    used.insert(u);
                });
            }
        }
        let mut split: Vec<VarId> = used.into_iter().filter(|u| self.sets.contains_key(u)).collect();
        split.sort();
        let Some(u) = split.first().copied().filter(|u| self.sets[u].1.len() <= MAX_SPLIT) else {
            return self.record_dims(e, k, grid, block, args, env);
        };
        let (ty, values) = self.sets[&u].clone();
        for value in values {
            let c = Expr::int(value, ty);
            let at = |x: &Expr| terms::replace(x, u, &c);
            let grid = grid.clone().map(|x| at(&x));
            let block = block.clone().map(|x| at(&x));
            let args = args
                .iter()
                .map(|a| {
                    a.as_ref().map(|v| match v {
                        Val::Int(x) => Val::Int(at(x)),
                        Val::Dim3(d) => Val::Dim3(d.clone().map(|x| at(&x))),
                        other => other.clone(),
                    })
                })
                .collect();
            let mut here = env.clone();
            here.facts = env.facts.iter().map(at).collect();
            self.record_dims(e, k, grid, block, args, &mut here);
        }
    }

    /// Records the launch `e` of the kernel `(index, declaration, lowered)` with the grid and
    /// block dimensions given, and the arguments' values.
    fn record_dims(
        &mut self,
        e: &'a Node,
        (index, kdecl, kernel): (usize, &'a Node, &'g Kernel),
        grid: [Expr; 3],
        block: [Expr; 3],
        args: Vec<Option<Val>>,
        env: &mut Env,
    ) {
        let Arguments {
            mut map,
            mut pending,
            mut described,
            mut assumptions,
            all_known,
        } = arguments(kdecl, kernel, &args);
        let (block_dim, grid_dim, mut geometry) = launch_geometry(&grid, &block, &mut pending);
        // A host unknown that is a dimension of the launch (`k<<<g, n>>>`) is that dimension,
        // when the conversion to `unsigned` keeps every value.
        pending.retain(|(_, lhs, v)| match geometry_unknown(v) {
            Some((u, uty)) if !map.contains_key(&u) && matches!(lhs, Expr::Builtin(_)) => {
                map.insert(u, cast(lhs.clone(), uty));
                false
            }
            _ => true,
        });
        let ghosts = self.ghosts(&pending, &mut map, kernel);
        let names_of = |id: VarId| -> String {
            kernel
                .params
                .iter()
                .find(|p| matches!(p.kind, ParamKind::Scalar(v) if v == id))
                .map(|p| p.name.clone())
                .or_else(|| Some(ghosts.get(id.0.checked_sub(kernel.vars.len())?)?.name.clone()))
                .unwrap_or_else(|| "?".into())
        };
        for (label, lhs, v) in pending {
            let Some(rhs) = substitute(&v, &map) else {
                // A value over host values no argument passes and no ghost stands for
                // (`numSms * numBlocksPerSm` blocks, `CEIL_DIV(N, 4096)` with `N` read from a
                // file): the bounds their ranges, or their C types, give it.
                if let Some((text, f)) = self.bounds_of(&label, &lhs, &v) {
                    described.push(text);
                    assumptions.push(f);
                }
                continue;
            };
            described.push(format!("{label} = {}", c_text(&rhs, &names_of)));
            assumptions.push(eq(lhs, rhs));
        }
        // The conditions the launch is made under, over the values it passes.
        for f in &env.facts {
            let Some(f) = substitute(f, &map) else { continue };
            if matches!(fold(f.clone()), Expr::Const { .. }) || assumptions.contains(&f) {
                continue;
            }
            described.push(c_text(&f, &names_of));
            assumptions.push(f);
        }
        // A value passed that is one of a few constants (an element of `block_sizes[]`).
        let mut sets: Vec<(&VarId, &Vec<BigInt>)> = self
            .sets
            .iter()
            .filter(|(u, _)| map.contains_key(u))
            .map(|(u, (_, values))| (u, values))
            .collect();
        sets.sort();
        for (u, values) in sets {
            let v = map[u].clone();
            let Some(f) = values
                .iter()
                .map(|c| eq(v.clone(), Expr::int(c.clone(), v.ty())))
                .reduce(|a, b| Expr::Binary {
                    op: BinOp::LOr,
                    lhs: Box::new(a),
                    rhs: Box::new(b),
                    ty: Ty::Bool,
                })
            else {
                continue;
            };
            let name = c_text(&v, &names_of);
            let text: Vec<String> = values.iter().map(|c| format!("{name} == {c}")).collect();
            described.push(text.join(" || "));
            assumptions.push(f);
        }
        for (text, f) in self.device_ranges(&map, &names_of) {
            described.push(text);
            assumptions.push(f);
        }
        geometry.extend(described);
        let callers = self.callers();
        let site = crate::frontend::lower::span_of(e, &crate::ir::Span::point(kernel.span.file.clone(), 0, 0));
        let config = self.config_text(e);
        self.found.push(Found {
            launch: HostLaunch {
                kernel: index,
                site,
                callers,
                config,
                block_dim,
                grid_dim,
                assumptions,
                described: geometry,
                same: Vec::new(),
                ghosts,
                in_loop: env.in_loop && !(all_known && block_dim.iter().chain(&grid_dim).all(Option::is_some)),
            },
        });
    }

    /// The device values (host unknowns with a range, [`Host::ranges`]) that a launch value in
    /// `pending` uses but no argument passes (`2 * num_sms` blocks): each a ghost variable of
    /// `kernel`, `VarId(kernel.vars.len() + i)`, added to `map` ([`HostLaunch::ghosts`]).
    fn ghosts(
        &self,
        pending: &[(String, Expr, Expr)],
        map: &mut HashMap<VarId, Expr>,
        kernel: &Kernel,
    ) -> Vec<crate::ir::VarDecl> {
        let mut ghosts: Vec<crate::ir::VarDecl> = Vec::new();
        for (_, _, v) in pending {
            let mut unmapped = Vec::new();
            terms::vars(v, &mut |u| {
                if !map.contains_key(&u) && !unmapped.contains(&u) {
                    unmapped.push(u);
                }
            });
            // Only into a relation linear in the host's values (`2 * num_sms`): a product or
            // quotient of two of them (`threads_per_SM * num_SMs / block`) makes every query
            // of the launch nonlinear, slower to decide than the free dimension was (llm.c's
            // matmul_backward_bias: 9.7 s to 37 s a file).
            if unmapped.is_empty() || !unmapped.iter().all(|u| self.ranges.contains_key(u)) || nonlinear(v) {
                continue;
            }
            for u in unmapped {
                let ty = match v_type(v, u) {
                    Some(t) => t,
                    None => continue,
                };
                let id = VarId(kernel.vars.len() + ghosts.len());
                ghosts.push(crate::ir::VarDecl {
                    name: self.unknowns[u.0].clone(),
                    ty,
                });
                map.insert(u, Expr::Var { id, ty });
            }
        }
        ghosts
    }

    /// For the launch value `lhs` (named `label`) computed on the host as `v`: when every host
    /// unknown of `v` is a device value with a range ([`Host::ranges`]), the interval those
    /// ranges give `v` ([`interval`]), as the report's text and the assumption
    /// `lo <= lhs && lhs <= hi`. A relation too nonlinear for a ghost keeps its bounds
    /// (`0 <= gridDim.x <= 32768` for `numSms * numBlocksPerSm`).
    fn bounds_of(&self, label: &str, lhs: &Expr, v: &Expr) -> Option<(String, Expr)> {
        let mut typed = false;
        let (lo, hi) = interval(v, &self.ranges, &mut typed)?;
        // Within the dimension's own type: a bound it has anyway says nothing.
        let (tlo, thi) = type_range(lhs.ty())?;
        let (lo, hi) = (lo.max(tlo.clone()), hi.min(thi.clone()));
        if lo > hi || (lo == tlo && hi == thi) {
            return None;
        }
        let f = in_range(lhs, &lo, &hi)?;
        let name = |u: VarId| self.unknowns.get(u.0).cloned().unwrap_or_else(|| "?".into());
        let by = match (typed, self.uses_range(v)) {
            (true, true) => "by the device's ranges and the C types of its other host values",
            (true, false) => "by the C types of its host values",
            _ => "by the device's ranges",
        };
        // A value with no name of its own (`(unsigned char)atoi(…)`) is not shown.
        let from = c_text(v, &name);
        let from = match from.contains('?') {
            true => String::new(),
            false => format!("from {from}, "),
        };
        Some((format!("{lo} <= {label} <= {hi} ({from}{by})"), f))
    }

    /// Whether the host term `v` reads a device value with a range ([`Host::ranges`]).
    fn uses_range(&self, v: &Expr) -> bool {
        let mut found = false;
        terms::vars(v, &mut |u| found |= self.ranges.contains_key(&u));
        found
    }

    /// Each value passed (in `map`) that reads a device property: its range, as the report's
    /// text and the launch's assumption (`1 <= gridDim.x <= 1024 (the device's
    /// multiProcessorCount)`).
    fn device_ranges(&self, map: &HashMap<VarId, Expr>, names_of: &dyn Fn(VarId) -> String) -> Vec<(String, Expr)> {
        let mut out = Vec::new();
        let mut ranges: Vec<(&VarId, &(&'static str, BigInt, BigInt))> =
            self.ranges.iter().filter(|(u, _)| map.contains_key(u)).collect();
        ranges.sort_by_key(|(u, _)| **u);
        for (u, (field, lo, hi)) in ranges {
            let v = &map[u];
            let Some(f) = in_range(v, lo, hi) else { continue };
            // A field's name (`multiProcessorCount`) is the device's; other sources name
            // themselves (`cudaMallocPitch's pitch`).
            let source = if field.contains(' ') {
                field.to_string()
            } else {
                format!("the device's {field}")
            };
            out.push((format!("{lo} <= {} <= {hi} ({source})", c_text(v, names_of)), f));
        }
        out
    }

    /// A launch's grid or block dimensions: a `dim3`, an integer (`x`, with `y = z = 1`), or
    /// three fresh unknowns.
    fn launch_dims(&mut self, n: Option<&'a Node>, env: &Env) -> [Expr; 3] {
        match n.and_then(|n| self.eval(n, env)) {
            Some(Val::Dim3(d)) => d,
            Some(Val::Int(v)) => [cast(v, Ty::U32), one(), one()],
            _ => [
                self.unknown("?", Ty::U32),
                self.unknown("?", Ty::U32),
                self.unknown("?", Ty::U32),
            ],
        }
    }

    /// The functions being interpreted, outermost first: `main (line 24)` for a function that
    /// calls the next one at line 24, `main (main.cpp:24)` for a call in another of the
    /// program's files (`frontend/program.rs`).
    fn callers(&self) -> Vec<String> {
        self.stack
            .iter()
            .enumerate()
            .map(|(i, (_, n))| match self.call_lines.get(i) {
                Some((line, None)) if i + 1 < self.stack.len() => format!("{n} (line {line})"),
                Some((line, Some(file))) if i + 1 < self.stack.len() => format!("{n} ({file}:{line})"),
                _ => n.clone(),
            })
            .collect()
    }

    /// The kernel a launch's callee names: by its declaration, else by its name when one
    /// kernel has it. Its index, declaration and lowered form.
    pub(super) fn kernel_of(&self, callee: &Node) -> Option<(usize, &'a Node, &'g Kernel)> {
        let d = callee.referenced_decl.as_ref()?;
        if let Some(i) = self.kernels.iter().position(|(n, _)| n.id == d.id) {
            return Some((i, self.kernels[i].0, self.kernels[i].1));
        }
        // Another file's kernel of the same name is that file's, not this one's.
        if crate::frontend::program::is_other(&d.id) {
            return None;
        }
        self.kernel_named(&d.name)
    }

    /// The launch's configuration as written: `<<<…>>>` from the source, or the call.
    pub(super) fn config_text(&mut self, e: &Node) -> String {
        let Some(b) = &e.begin else { return String::new() };
        let lines = self
            .sources
            .entry(b.file.to_string())
            .or_insert_with(|| {
                std::fs::read_to_string(&*b.file)
                    .ok()
                    .map(|t| t.lines().map(str::to_string).collect())
            })
            .clone();
        let Some(lines) = lines else { return String::new() };
        let start = (b.line as usize).saturating_sub(1);
        let text: String = lines
            .iter()
            .skip(start)
            .take(16)
            .enumerate()
            .map(|(i, l)| {
                if i == 0 {
                    l.get((b.col as usize).saturating_sub(1)..).unwrap_or("").to_string()
                } else {
                    l.clone()
                }
            })
            .collect::<Vec<_>>()
            .join(" ");
        let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
        if e.kind == "CUDAKernelCallExpr"
            && let Some(i) = text.find("<<<")
            && let Some(j) = text[i..].find(">>>")
        {
            return text[i..i + j + 3].to_string();
        }
        // `cudaLaunchKernel(…)` up to its closing parenthesis, from the API's name (a macro such
        // as `checkCudaErrors(` may come first), without `/* … */` comments.
        let mut text = match launch_api(e).and_then(|name| text.find(name)) {
            Some(i) => text[i..].to_string(),
            None => text,
        };
        while let Some(i) = text.find("/*") {
            let Some(j) = text[i..].find("*/") else { break };
            text.replace_range(i..i + j + 2, "");
        }
        let text = text
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .replace("( ", "(")
            .replace(" ,", ",");
        let mut depth = 0;
        for (i, c) in text.char_indices() {
            match c {
                '(' => depth += 1,
                ')' => {
                    depth -= 1;
                    if depth == 0 {
                        return text[..=i].to_string();
                    }
                }
                _ => {}
            }
        }
        text
    }
}

/// What a launch's scalar arguments make known about the kernel's parameters.
struct Arguments {
    /// Host unknowns passed unchanged to a parameter: that parameter.
    map: HashMap<VarId, Expr>,
    /// Values over host unknowns, to be written over the parameters: (label, the kernel's
    /// term, the host's value).
    pending: Vec<(String, Expr, Expr)>,
    /// The values described (`n = 256`).
    described: Vec<String>,
    /// The equalities assumed at the kernel's entry.
    assumptions: Vec<Expr>,
    /// Whether every scalar argument is known (then a host loop around the launch changes
    /// nothing worth saying).
    all_known: bool,
}

/// The launch's arguments `args` matched to the scalar parameters of the kernel `kernel`
/// (declared by `kdecl`), by position.
fn arguments(kdecl: &Node, kernel: &Kernel, args: &[Option<Val>]) -> Arguments {
    // The kernel's scalar parameters by position: (name, variable, type).
    let names: Vec<String> = kdecl
        .inner
        .iter()
        .filter(|c| c.kind == "ParmVarDecl")
        .map(|p| p.name.clone().unwrap_or_default())
        .collect();
    let scalar = |name: &str| {
        kernel.params.iter().find_map(|p| match p.kind {
            ParamKind::Scalar(v) if p.name == name && !name.is_empty() => Some((v, kernel.var(v).ty)),
            _ => None,
        })
    };
    let mut a = Arguments {
        map: HashMap::new(),
        pending: Vec::new(),
        described: Vec::new(),
        assumptions: Vec::new(),
        all_known: true,
    };
    for (name, arg) in names.iter().zip(args) {
        let Some((var, pty)) = scalar(name) else { continue };
        let Some(Val::Int(v)) = arg else {
            a.all_known = false;
            continue;
        };
        let param = Expr::Var { id: var, ty: pty };
        let v = fold(cast(v.clone(), pty));
        if let Expr::Const { value, .. } = &v {
            a.described.push(format!("{name} = {value}"));
            a.assumptions.push(eq(param, v));
            continue;
        }
        a.all_known = false;
        match passed_unknown(&v) {
            Some((u, uty)) if !a.map.contains_key(&u) => {
                a.map.insert(u, cast(param, uty));
            }
            _ => a.pending.push((name.clone(), param, v)),
        }
    }
    a
}

/// The launch's block and grid dimensions where they are constants, and their description
/// (`blockDim = (256, 1, 1)`); a dimension over host unknowns goes to `pending`.
fn launch_geometry(
    grid: &[Expr; 3],
    block: &[Expr; 3],
    pending: &mut Vec<(String, Expr, Expr)>,
) -> ([Option<u32>; 3], [Option<u32>; 3], Vec<String>) {
    let mut block_dim = [None; 3];
    let mut grid_dim = [None; 3];
    let mut geometry = Vec::new();
    for (is_block, d) in [(false, grid), (true, block)] {
        for (i, v) in d.iter().enumerate() {
            let dim = Dim::ALL[i];
            let b = if is_block {
                Builtin::BlockDim(dim)
            } else {
                Builtin::GridDim(dim)
            };
            let label = format!(
                "{}.{}",
                if is_block { "blockDim" } else { "gridDim" },
                ["x", "y", "z"][i]
            );
            match fold(v.clone()) {
                Expr::Const { value, .. } => {
                    if let Ok(n) = u32::try_from(&value)
                        && n >= 1
                    {
                        if is_block {
                            block_dim[i] = Some(n);
                        } else {
                            grid_dim[i] = Some(n);
                        }
                    }
                }
                v => pending.push((label, Expr::Builtin(b), v)),
            }
        }
    }
    for (is_block, d) in [(true, block_dim), (false, grid_dim)] {
        if d.iter().all(Option::is_some) {
            let v: Vec<String> = d.iter().map(|v| v.unwrap_or(1).to_string()).collect();
            geometry.push(format!(
                "{} = ({})",
                if is_block { "blockDim" } else { "gridDim" },
                v.join(", ")
            ));
        } else {
            for (i, v) in d.iter().enumerate() {
                if let Some(v) = v {
                    let kind = if is_block { "blockDim" } else { "gridDim" };
                    geometry.push(format!("{kind}.{} = {v}", ["x", "y", "z"][i]));
                }
            }
        }
    }
    (block_dim, grid_dim, geometry)
}

/// The host unknown a launch dimension's value `v` is, when `v` is one converted to `unsigned`
/// one to one (an integer of at most 32 bits): the unknown and its type.
fn geometry_unknown(v: &Expr) -> Option<(VarId, Ty)> {
    match v {
        Expr::Var { id, ty: Ty::U32 } => Some((*id, Ty::U32)),
        Expr::Cast { arg, ty: Ty::U32 } => match &**arg {
            Expr::Var {
                id,
                ty: from @ Ty::Int { bits, .. },
            } if *bits <= 32 => Some((*id, *from)),
            _ => None,
        },
        _ => None,
    }
}

/// A launch is split into at most this many, one per value of a host unknown known to be one of
/// a few constants ([`Host::one_of`]); past it, the launch assumes the set.
const MAX_SPLIT: usize = 16;

/// `lo <= e && e <= hi` in `e`'s integer type, when both bounds are values of that type.
fn in_range(e: &Expr, lo: &BigInt, hi: &BigInt) -> Option<Expr> {
    let ty = e.ty();
    let fits = |c: &BigInt| wrap_ty(c.clone(), ty) == *c;
    if !matches!(ty, Ty::Int { .. }) || !fits(lo) || !fits(hi) {
        return None;
    }
    let le = |a: Expr, b: Expr| Expr::Binary {
        op: BinOp::Le,
        lhs: Box::new(a),
        rhs: Box::new(b),
        ty: Ty::Bool,
    };
    Some(Expr::Binary {
        op: BinOp::LAnd,
        lhs: Box::new(le(Expr::int(lo.clone(), ty), e.clone())),
        rhs: Box::new(le(e.clone(), Expr::int(hi.clone(), ty))),
        ty: Ty::Bool,
    })
}

/// Whether `e` multiplies, divides or takes the remainder of two terms that both hold host
/// unknowns.
fn nonlinear(e: &Expr) -> bool {
    match e {
        Expr::Binary { op, lhs, rhs, .. } => {
            (matches!(op, BinOp::Mul | BinOp::Div | BinOp::Rem) && terms::has_unknown(lhs) && terms::has_unknown(rhs))
                || nonlinear(lhs)
                || nonlinear(rhs)
        }
        Expr::Unary { arg, .. } | Expr::Cast { arg, .. } | Expr::Other(arg) => nonlinear(arg),
        Expr::Select { cond, then, els, .. } => nonlinear(cond) || nonlinear(then) || nonlinear(els),
        _ => false,
    }
}

/// The least and greatest value of the host term `e` when each of its unknowns is in its
/// range: a device value's (`ranges`), else every value of its C type (a value read from a
/// file into an `int` is an `int`). Interval arithmetic over `+`, `-`, `*`, `/` (by a positive
/// divisor, truncating as C does) and `?:` (either side); a signed step is clamped to its type
/// (an overflow there is undefined behaviour of the host code, which the launch's assumptions
/// set aside as the module's do), an unsigned step that may wrap, a conversion that may not
/// keep the value, and any other operator give every value of the step's type. `None` for a
/// term that is not an integer. `typed` is set when an unknown's type stood in for a range.
fn interval(
    e: &Expr,
    ranges: &HashMap<VarId, (&'static str, BigInt, BigInt)>,
    typed: &mut bool,
) -> Option<(BigInt, BigInt)> {
    let ty = e.ty();
    let full = type_range(ty)?;
    let fits = |(lo, hi): &(BigInt, BigInt)| *lo >= full.0 && *hi <= full.1;
    // A step's result in its type: signed overflow is undefined (clamped), unsigned wraps.
    let within = |r: (BigInt, BigInt)| -> Option<(BigInt, BigInt)> {
        if fits(&r) {
            return Some(r);
        }
        match ty {
            Ty::Int { signed: true, .. } => {
                let (lo, hi) = (r.0.max(full.0.clone()), r.1.min(full.1.clone()));
                (lo <= hi).then_some((lo, hi))
            }
            _ => Some(full.clone()),
        }
    };
    match e {
        Expr::Const { value, .. } => Some((value.clone(), value.clone())),
        Expr::Var { id, .. } => match ranges.get(id) {
            Some((_, lo, hi)) => Some((lo.clone(), hi.clone())),
            None => {
                *typed = true;
                Some(full)
            }
        },
        Expr::Cast { arg, .. } => match interval(arg, ranges, typed) {
            Some(r) if fits(&r) => Some(r),
            _ => Some(full),
        },
        Expr::Select { then, els, .. } => {
            let (a, b) = (interval(then, ranges, typed)?, interval(els, ranges, typed)?);
            within((a.0.min(b.0), a.1.max(b.1)))
        }
        Expr::Binary { op, lhs, rhs, .. } if matches!(op, BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div) => {
            let (Some(a), Some(b)) = (interval(lhs, ranges, typed), interval(rhs, ranges, typed)) else {
                return Some(full);
            };
            let zero = BigInt::from(0);
            let r = match op {
                BinOp::Add => (a.0 + b.0, a.1 + b.1),
                BinOp::Sub => (a.0 - b.1, a.1 - b.0),
                BinOp::Mul => {
                    let p = [&a.0 * &b.0, &a.0 * &b.1, &a.1 * &b.0, &a.1 * &b.1];
                    (p.iter().min()?.clone(), p.iter().max()?.clone())
                }
                // Truncating division by a positive divisor is monotone in the dividend: the
                // least quotient divides the least dividend by the divisor that makes it
                // smallest, and likewise the greatest.
                _ if b.0 > zero => {
                    let lo = if a.0 >= zero { &a.0 / &b.1 } else { &a.0 / &b.0 };
                    let hi = if a.1 >= zero { &a.1 / &b.0 } else { &a.1 / &b.1 };
                    (lo, hi)
                }
                _ => return Some(full),
            };
            within(r)
        }
        _ => Some(full),
    }
}

/// Every value of the integer type `ty`, `None` for another type.
fn type_range(ty: Ty) -> Option<(BigInt, BigInt)> {
    match ty {
        Ty::Int { bits, signed: true } => Some((-(BigInt::from(1) << (bits - 1)), (BigInt::from(1) << (bits - 1)) - 1)),
        Ty::Int { bits, signed: false } => Some((BigInt::from(0), (BigInt::from(1) << bits) - 1)),
        _ => None,
    }
}

/// The type of the host unknown `u` where it occurs in `e`.
fn v_type(e: &Expr, u: VarId) -> Option<Ty> {
    match e {
        Expr::Var { id, ty } if *id == u => Some(*ty),
        Expr::Unary { arg, .. } | Expr::Cast { arg, .. } | Expr::Other(arg) => v_type(arg, u),
        Expr::Binary { lhs, rhs, .. } => v_type(lhs, u).or_else(|| v_type(rhs, u)),
        Expr::Select { cond, then, els, .. } => v_type(cond, u).or_else(|| v_type(then, u)).or_else(|| v_type(els, u)),
        Expr::Opaque { args, .. } => args.iter().find_map(|a| v_type(a, u)),
        _ => None,
    }
}

/// The integer terms of a host value.
fn val_terms(v: &Val) -> Vec<&Expr> {
    match v {
        Val::Int(x) => vec![x],
        Val::Dim3(d) => d.iter().collect(),
        _ => Vec::new(),
    }
}
