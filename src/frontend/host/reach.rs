//! Which code of the program runs, and what its calls reach (issue 53 item 2): the readings of
//! host code over all of the program's translation units at once, before and after the
//! interpretation of [`super`].
//!
//! - [`definitions`]: each function declaration's definition (a prototype's, another file's);
//! - [`uncalled`], [`never_called`], [`template_patterns`]: the host functions no code that
//!   runs calls, and the kernels launched only from them;
//! - [`only_in_dead_branches`]: the kernels whose every launch lies in a branch the host's
//!   values rule out;
//! - [`read_only`]: the variables no code writes;
//! - [`passed_only_to_program`]: the functions whose address only the program's own calls get.
//!
//! Must not: interpret statements (that is `walk.rs`).

use super::*;

/// Whether `funcs` (the user's host functions) define `main`: the translation unit is a whole
/// program.
pub(super) fn whole_program(funcs: &[&Node]) -> bool {
    funcs
        .iter()
        .any(|f| f.name.as_deref() == Some("main") && f.kind == "FunctionDecl")
}

/// The kernels (by index into `kernels`) that the program names only as the kernel of launches
/// in branches its values never take (`if (block_size == 16) MatrixMulCUDA<16><<<…>>>` with
/// `block_size = 32`, cuda-samples' matrixMul; issue 53 item 2): each launch is under an `if`
/// branch the walk left out ([`Host::skipped`]) and was never reached ([`Host::visited`]), and
/// the kernel is named nowhere else (no address taken, no other launch); each with a note's
/// text. By declaration, so that one instantiation of a kernel template can be dead while
/// another is launched.
pub(super) fn only_in_dead_branches(root: &Node, kernels: &[(&Node, &Kernel)], h: &Host) -> Vec<(usize, String)> {
    // Per kernel declaration: the launches naming it, and whether anything else does.
    let ids: HashMap<&str, usize> = kernels
        .iter()
        .enumerate()
        .map(|(i, (d, _))| (d.id.as_str(), i))
        .collect();
    let mut sites: Vec<Vec<&Node>> = vec![Vec::new(); kernels.len()];
    let mut elsewhere = vec![false; kernels.len()];
    let mut under_skipped = HashSet::new();
    references(
        root,
        &ids,
        &h.skipped,
        false,
        &mut sites,
        &mut elsewhere,
        &mut under_skipped,
    );
    let mut out = Vec::new();
    for i in 0..kernels.len() {
        let dead = |n: &&Node| under_skipped.contains(n.id.as_str()) && !h.visited.contains(&n.id);
        if elsewhere[i] || sites[i].is_empty() || !sites[i].iter().all(dead) {
            continue;
        }
        let lines: Vec<String> = sites[i]
            .iter()
            .filter_map(|n| {
                n.begin
                    .as_ref()
                    .or(n.pos.as_ref())
                    .map(|p| format!("{}:{}", p.file, p.line))
            })
            .collect();
        out.push((
            i,
            format!(
                "its launch{} ({}) {} in branches that the program's values never take",
                if lines.len() == 1 { "" } else { "es" },
                lines.join(", "),
                if lines.len() == 1 { "is" } else { "are" },
            ),
        ));
    }
    out
}

/// Under `n`: for each kernel of `ids` (declaration id to index), the launches naming it
/// (`sites`) and whether it is named otherwise (`elsewhere`), and which launches lie under a
/// `skipped` statement (`dead`: whether `n` does).
pub(super) fn references<'n>(
    n: &'n Node,
    ids: &HashMap<&str, usize>,
    skipped: &HashSet<String>,
    dead: bool,
    sites: &mut Vec<Vec<&'n Node>>,
    elsewhere: &mut Vec<bool>,
    under_skipped: &mut HashSet<&'n str>,
) {
    let dead = dead || skipped.contains(&n.id);
    let launch = n.kind == "CUDAKernelCallExpr";
    if launch && let Some(i) = n.inner.first().and_then(referenced).and_then(|d| ids.get(d)) {
        sites[*i].push(n);
        if dead {
            under_skipped.insert(n.id.as_str());
        }
    } else if n.kind == "DeclRefExpr"
        && let Some(i) = n.referenced_decl.as_ref().and_then(|d| ids.get(d.id.as_str()))
    {
        elsewhere[*i] = true;
    }
    // A launch's callee is its kernel's name, counted above; its other children are not.
    for (at, c) in n.inner.iter().enumerate() {
        if launch && at == 0 {
            continue;
        }
        references(c, ids, skipped, dead, sites, elsewhere, under_skipped);
    }
}

/// The declaration id a callee expression names, through casts and parentheses.
pub(super) fn referenced(callee: &Node) -> Option<&str> {
    let e = strip(callee);
    (e.kind == "DeclRefExpr").then_some(())?;
    e.referenced_decl.as_ref().map(|d| d.id.as_str())
}

/// In a whole program (the translation units read define `main`), the ids of the user's host
/// functions that no execution calls, and the kernels launched only from them (issue 53 item
/// 2: "a launch in a function that cannot be called is not a launch"), by index into
/// `kernels`, each with a note's text naming those functions.
///
/// A function is called when its name is used (called, its address taken, named in a
/// template) in code that runs: outside the user's host functions (a global's initialiser, a
/// class, a header's inline function, device code), or in `main`, or in a function called so.
/// Names count whatever they refer to (every overload of a name used is called), and only
/// plain functions can be uncalled: not members, templates' instantiations, or functions
/// with an attribute other than `__host__` (a constructor, `used`). A function template's
/// pattern never runs (its instantiations do, with the template's arguments and the values
/// their callers pass): it is never read as a function of its own, whose parameters would all
/// be unknown. Code the preprocessor
/// removed is not in the AST: `#if !defined(ENABLE_BF16)` around the only call of
/// `layernorm_backward1` (llm.c) leaves it uncalled.
///
/// Soundness: another translation unit linked with this one could call a function with
/// external linkage; files that define `main` are taken to be the whole program, as a kernel
/// named nowhere else is (`driver::pipeline`), and the note says which launches were left out
/// (`--kernel` verifies a kernel for every launch).
pub(super) fn uncalled(
    roots: &[&Node],
    funcs: &[&Node],
    kernels: &[(&Node, &Kernel)],
) -> (HashSet<String>, Vec<(usize, String)>) {
    if !funcs
        .iter()
        .any(|f| f.name.as_deref() == Some("main") && f.kind == "FunctionDecl")
    {
        return Default::default();
    }
    let ids: HashSet<&str> = funcs.iter().map(|f| f.id.as_str()).collect();
    let mut patterns = HashSet::new();
    let mut outside = HashSet::new();
    let mut inside: HashMap<&str, HashSet<String>> = HashMap::new();
    for root in roots {
        template_patterns(root, &mut patterns);
        names_by_function(root, &ids, &mut outside, &mut inside);
    }
    let may_be_uncalled = |f: &Node| {
        f.kind == "FunctionDecl"
            && f.name.as_deref() != Some("main")
            && !f
                .inner
                .iter()
                .any(|c| c.kind == "TemplateArgument" || (c.kind.ends_with("Attr") && c.kind != "CUDAHostAttr"))
    };
    // Names used by code that runs, grown from `main` and the code outside the functions.
    let mut used = outside;
    let mut called: HashSet<&str> = HashSet::new();
    loop {
        let before = called.len();
        for f in funcs {
            let name = f.name.as_deref().unwrap_or("");
            if patterns.contains(f.id.as_str()) {
                continue;
            }
            if !called.contains(f.id.as_str()) && (!may_be_uncalled(f) || used.contains(name)) {
                called.insert(&f.id);
                used.extend(inside.get(f.id.as_str()).into_iter().flatten().cloned());
            }
        }
        if called.len() == before {
            break;
        }
    }
    let dead: Vec<&Node> = funcs
        .iter()
        .copied()
        .filter(|f| !called.contains(f.id.as_str()))
        .collect();
    let mut unlaunched = Vec::new();
    for (i, (decl, _)) in kernels.iter().enumerate() {
        let Some(name) = decl.name.as_deref() else { continue };
        if used.contains(name) {
            continue;
        }
        let launchers: Vec<String> = dead
            .iter()
            .filter(|f| inside.get(f.id.as_str()).is_some_and(|n| n.contains(name)))
            .map(|f| {
                let at = f
                    .pos
                    .as_ref()
                    .map(|p| format!(" ({}:{})", p.file, p.line))
                    .unwrap_or_default();
                format!("`{}`{at}", f.name.as_deref().unwrap_or("?"))
            })
            .collect();
        if !launchers.is_empty() {
            unlaunched.push((
                i,
                format!(
                    "launched only from {}, which nothing in the program calls (the program defines `main`: a whole program)",
                    launchers.join(", ")
                ),
            ));
        }
    }
    (dead.iter().map(|f| f.id.clone()).collect(), unlaunched)
}

/// The ids of the function templates' patterns under `n` (the `FunctionDecl` a
/// `FunctionTemplateDecl` holds beside its instantiations, which have `TemplateArgument`s): a
/// pattern never runs, its instantiations do.
pub(super) fn template_patterns(n: &Node, out: &mut HashSet<String>) {
    if n.kind == "FunctionTemplateDecl" {
        for c in &n.inner {
            if matches!(c.kind.as_str(), "FunctionDecl" | "CXXMethodDecl")
                && !c.inner.iter().any(|a| a.kind == "TemplateArgument")
            {
                out.insert(c.id.clone());
            }
        }
    }
    for c in &n.inner {
        template_patterns(c, out);
    }
}

/// [`names_used`] split by where the names are used: in the body of one of the functions
/// `ids` (`inside`, by function id), or anywhere else (`outside`).
pub(super) fn names_by_function<'n>(
    n: &'n Node,
    ids: &HashSet<&str>,
    outside: &mut HashSet<String>,
    inside: &mut HashMap<&'n str, HashSet<String>>,
) {
    if ids.contains(n.id.as_str()) {
        names_used(n, inside.entry(n.id.as_str()).or_default());
        return;
    }
    match n.kind.as_str() {
        "DeclRefExpr" => outside.extend(n.referenced_decl.as_ref().map(|d| d.name.clone())),
        "UnresolvedLookupExpr" | "MemberExpr" | "UnresolvedMemberExpr" => outside.extend(n.name.clone()),
        _ => {}
    }
    for c in &n.inner {
        names_by_function(c, ids, outside, inside);
    }
}

/// The names of the variables that the code of `roots` only reads: every expression naming
/// one (by name, whatever it declares, so that a local of the same name counts) is its value
/// read (an lvalue-to-rvalue conversion) or an operand of `sizeof`. An assignment, `++`, `&x`,
/// a reference bound to it, a member or element access, an array's decay: none of these is a
/// plain read, and the name is left out. A host interpretation takes such a global's
/// initializer as its value throughout.
pub(super) fn read_only(roots: &[&Node]) -> HashSet<String> {
    fn walk(n: &Node, read: bool, uses: &mut HashMap<String, bool>) {
        if n.kind == "DeclRefExpr"
            && let Some(d) = &n.referenced_decl
            && d.kind == "VarDecl"
        {
            *uses.entry(d.name.clone()).or_insert(true) &= read;
        }
        let reads = (n.kind == "ImplicitCastExpr" && n.cast_kind.as_deref() == Some("LValueToRValue"))
            || n.kind == "UnaryExprOrTypeTraitExpr";
        for c in &n.inner {
            walk(c, reads, uses);
        }
    }
    let mut uses = HashMap::new();
    for r in roots {
        walk(r, false, &mut uses);
    }
    uses.into_iter().filter(|(_, r)| *r).map(|(n, _)| n).collect()
}

/// Each function declaration's definition, by the declaration's id: within a translation unit,
/// every declaration of a function (a prototype before `main`, the definition after it, linked
/// by clang's `previousDecl`) to the one with a body; across the translation units `roots`, a
/// function that one only declares, with external linkage, to the definition of that name in
/// another (the one, or the one with as many parameters). C's and C++'s linkage by name: no
/// two definitions of a name with external linkage are in one program.
pub(super) fn definitions<'a>(roots: &[&'a Node]) -> HashMap<String, &'a Node> {
    fn all<'a>(n: &'a Node, out: &mut Vec<&'a Node>) {
        for c in &n.inner {
            match c.kind.as_str() {
                "FunctionDecl" | "CXXMethodDecl" => out.push(c),
                "NamespaceDecl" | "LinkageSpecDecl" | "CXXRecordDecl" | "ClassTemplateSpecializationDecl" => {
                    all(c, out)
                }
                _ => {}
            }
        }
    }
    let params = |f: &Node| f.inner.iter().filter(|c| c.kind == "ParmVarDecl").count();
    // Per translation unit: each declaration's first declaration, and the definitions by it.
    let mut groups: Vec<Vec<(&'a Node, String)>> = Vec::new();
    let mut out: HashMap<String, &'a Node> = HashMap::new();
    let mut external: HashMap<String, Vec<(usize, &'a Node)>> = HashMap::new();
    for (t, root) in roots.iter().enumerate() {
        let mut decls = Vec::new();
        all(root, &mut decls);
        let prev: HashMap<&str, &str> = decls
            .iter()
            .filter_map(|d| Some((d.id.as_str(), d.previous_decl.as_deref()?)))
            .collect();
        let first = |mut id: &'a str| {
            let mut steps = 0;
            while let Some(p) = prev.get(id) {
                id = p;
                steps += 1;
                if steps > decls.len() {
                    break;
                }
            }
            id.to_string()
        };
        let group: Vec<(&'a Node, String)> = decls.iter().map(|d| (*d, first(&d.id))).collect();
        let mut def_of: HashMap<&str, &'a Node> = HashMap::new();
        for (d, f) in &group {
            if body_of(d).is_some() {
                def_of.entry(f.as_str()).or_insert(d);
            }
        }
        for (d, f) in &group {
            if let Some(def) = def_of.get(f.as_str()) {
                out.insert(d.id.clone(), def);
            }
        }
        for (d, f) in &group {
            let is_def = def_of.get(f.as_str()).is_some_and(|x| x.id == d.id);
            if is_def
                && d.kind == "FunctionDecl"
                && d.storage_class.as_deref() != Some("static")
                && let Some(name) = &d.name
            {
                external.entry(name.clone()).or_default().push((t, d));
            }
        }
        groups.push(group);
    }
    if roots.len() > 1 {
        for (t, group) in groups.iter().enumerate() {
            for (d, _) in group {
                if out.contains_key(&d.id) || d.kind != "FunctionDecl" || d.storage_class.as_deref() == Some("static") {
                    continue;
                }
                let Some(name) = &d.name else { continue };
                let elsewhere: Vec<&'a Node> = external
                    .get(name)
                    .into_iter()
                    .flatten()
                    .filter(|(u, _)| *u != t)
                    .map(|(_, f)| *f)
                    .collect();
                let pick = match elsewhere[..] {
                    [f] => Some(f),
                    _ => {
                        let same: Vec<&'a Node> =
                            elsewhere.iter().copied().filter(|f| params(f) == params(d)).collect();
                        (same.len() == 1).then(|| same[0])
                    }
                };
                if let Some(f) = pick {
                    out.insert(d.id.clone(), f);
                }
            }
        }
    }
    out
}

/// The ids of the functions called under `n` (a function whose address is only taken, as
/// `glutDisplayFunc(display)`, is called from elsewhere: a root).
pub(super) fn callees(n: &Node, out: &mut HashSet<String>) {
    if matches!(n.kind.as_str(), "CallExpr" | "CXXMemberCallExpr")
        && let Some(callee) = n.inner.first().map(strip)
    {
        match callee.kind.as_str() {
            "DeclRefExpr" => out.extend(callee.referenced_decl.as_ref().map(|d| d.id.clone())),
            "MemberExpr" => out.extend(callee.referenced_member_decl.clone()),
            _ => {}
        }
    }
    for c in &n.inner {
        callees(c, out);
    }
}

/// The names of the declarations named anywhere under `n` (called, referred to, looked up in
/// a template).
pub(super) fn names_used(n: &Node, out: &mut HashSet<String>) {
    match n.kind.as_str() {
        "DeclRefExpr" => out.extend(n.referenced_decl.as_ref().map(|d| d.name.clone())),
        "UnresolvedLookupExpr" | "MemberExpr" | "UnresolvedMemberExpr" => out.extend(n.name.clone()),
        _ => {}
    }
    for c in &n.inner {
        names_used(c, out);
    }
}

/// Whether the function `f` has internal linkage (`static`, not a member or a template's) and
/// nothing in the translation unit names it (`names`, by name, so that every declaration of
/// it counts), nor an attribute calls it (a constructor, `used`): no execution calls it.
pub(super) fn never_called(f: &Node, names: &HashSet<String>) -> bool {
    let Some(name) = f.name.as_deref() else { return false };
    f.kind == "FunctionDecl"
        && f.storage_class.as_deref() == Some("static")
        && !f
            .inner
            .iter()
            .any(|c| c.kind == "TemplateArgument" || (c.kind.ends_with("Attr") && c.kind != "CUDAHostAttr"))
        && !names.contains(name)
}

/// The ids (of the definitions, `defs`) of the program's host functions `funcs` whose address
/// is taken only to be passed to one of `funcs` (`run(out, T, launch_row)`, llm.c's
/// `attention_backward1(…, launch_softmax_4, block_size)`): the interpretation follows the calls
/// through such a pointer with their values ([`Host::call`]), so such a function is not a root
/// whose parameters are all unknown. A function named anywhere else (called through a table, its
/// address given to a library such as `glutDisplayFunc(display)`, stored) stays a root. The
/// callee is taken to call the pointer only itself (or pass it on), not to keep it for a later
/// call, as for the addresses of locals (docs/modelling.md, "Limits").
pub(super) fn passed_only_to_program(
    roots: &[&Node],
    defs: &HashMap<String, &Node>,
    funcs: &[&Node],
) -> HashSet<String> {
    let program: HashSet<&str> = funcs.iter().map(|f| f.id.as_str()).collect();
    let def = |id: &str| defs.get(id).map_or(id.to_string(), |d| d.id.clone());
    let function = |n: &Node| -> Option<String> {
        let d = named_function(n)?;
        Some(def(&d.id)).filter(|id| program.contains(id.as_str()))
    };
    fn visit(
        n: &Node,
        function: &dyn Fn(&Node) -> Option<String>,
        program: &HashSet<&str>,
        def: &dyn Fn(&str) -> String,
        passed: &mut HashSet<String>,
        other: &mut HashSet<String>,
    ) {
        if matches!(n.kind.as_str(), "CallExpr" | "CXXMemberCallExpr") && !n.inner.is_empty() {
            let into_program = referenced(&n.inner[0]).is_some_and(|id| program.contains(def(id).as_str()));
            for (at, c) in n.inner.iter().enumerate() {
                match function(c) {
                    // The callee itself: a direct call.
                    Some(_) if at == 0 => {}
                    Some(f) if into_program => {
                        passed.insert(f);
                    }
                    Some(f) => {
                        other.insert(f);
                    }
                    None => visit(c, function, program, def, passed, other),
                }
            }
            return;
        }
        if let Some(f) = function(n) {
            other.insert(f);
            return;
        }
        for c in &n.inner {
            visit(c, function, program, def, passed, other);
        }
    }
    let (mut passed, mut other) = (HashSet::new(), HashSet::new());
    for r in roots {
        visit(r, &function, &program, &def, &mut passed, &mut other);
    }
    passed.retain(|f| !other.contains(f));
    passed
}
