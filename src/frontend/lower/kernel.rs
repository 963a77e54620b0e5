//! The lowering's entry points: a translation unit's kernels lowered one by one
//! ([`lower_program`]), each as often as its pointer variables learn arrays (`target.rs`), with
//! the launches its host code makes ([`crate::frontend::host`]); where each kernel's body starts
//! ([`kernel_body_offsets`], for `--assume`); the instantiation `--kernel NAME<ARGS>` asks for
//! ([`template_instantiation`]).
//!
//! Also the checks on a kernel as a whole: its static `__shared__` memory, the access logs'
//! instrumentation, null pointer accesses.

use crate::frontend::FrontendError;
use crate::frontend::ast::Node;
use crate::frontend::lower::annotations::access_log;
use crate::frontend::lower::calls::memory_calls::U8;
use crate::frontend::lower::calls::modular;
use crate::frontend::lower::collect::collect;
use crate::frontend::lower::globals::{self, Globals, body_of, select_kernels};
use crate::frontend::lower::{Frame, Lower, R, names, null, pos_span, scan, span_of, target, unsupported};
use crate::frontend::types::CType;
use crate::ir::*;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

/// The file (as clang names it) and byte offset in it of the `{` opening the body of each
/// kernel `only` selects (once per body: template instantiations share their pattern's), for
/// `--assume` (see [`super::load`]): a kernel may be defined in a header the file includes.
///
/// Errors: no kernel, `--kernel` names none, a body that starts inside a macro.
pub fn kernel_body_offsets(root: &Node, file: &str, prelude: &str, only: Option<&str>) -> R<Vec<(Arc<str>, u64)>> {
    let mut g = Globals::default();
    names::collect_names(root, &mut g);
    add_vector_types(&mut g);
    collect(root, &mut g, prelude);
    let mut out = Vec::new();
    for (_, k) in select_kernels(&g, file, only)? {
        let body = k.inner.iter().find(|c| c.kind == "CompoundStmt");
        let begin = body.and_then(|b| b.range.as_ref()).map(|r| &r.begin);
        let in_file = body.and_then(|b| b.begin.as_ref()).map(|p| p.file.clone());
        match begin
            .and_then(|b| if b.expansion.is_some() { None } else { b.bare.offset })
            .zip(in_file)
        {
            Some((o, f)) if !out.contains(&(f.clone(), o)) => out.push((f, o)),
            Some(_) => {}
            None => {
                let fallback = Span::point(Arc::from(file), 0, 0);
                return unsupported(
                    span_of(k, &fallback),
                    "--assume into a kernel whose body is written by a macro",
                );
            }
        }
    }
    Ok(out)
}

/// The explicit instantiation to append to the file for `--kernel NAME<ARGS>` when the file
/// declares the `__global__` template `NAME` but does not instantiate it with `ARGS` (see
/// [`super::load`]); `None` when nothing is to be added.
pub fn template_instantiation(root: &Node, file: &str, prelude: &str, want: &str) -> Option<String> {
    let mut g = Globals::default();
    names::collect_names(root, &mut g);
    collect(root, &mut g, prelude);
    globals::template_instantiation(&g, root, file, prelude, want)
}

/// Lower every kernel of the translation unit `root` defined outside the prelude. `others` are
/// the program's other translation units (`frontend/program.rs`, their ids prefixed): their
/// host code is read for the launches it makes of `root`'s functions, never lowered.
///
/// A kernel that cannot be read while others of the file can (it reaches a device function
/// holding clang's errors, `broken`, or a construct gpug does not model) is not verified: it
/// stays in the program as [`refused_kernel`], inconclusive with the reason, and the others
/// are verified. When no kernel is left, the first reason is the error (clang's stderr, or the
/// construct's `file:line:col`), as for a file of one kernel.
///
/// # Errors
/// As said; and the lowering's other errors.
pub fn lower_program<'a>(
    root: &'a Node,
    file: &str,
    prelude: &str,
    only: Option<&str>,
    opts: &crate::frontend::FrontendOptions,
    others: &'a [Node],
    broken: &crate::frontend::host::rejected::BrokenParse,
) -> R<Program> {
    let mut g = Globals {
        language: opts.language.unwrap_or_default(),
        global_offset: opts.global_offset,
        work_dim: opts.work_dim,
        ..Globals::default()
    };
    names::collect_names(root, &mut g);
    add_vector_types(&mut g);
    collect(root, &mut g, prelude);
    globals::group_aliases(root, &mut g.group_aliases);
    g.device_null = g.language == Language::Cuda && null::names_null(root);
    // A kernel holding clang's errors that is asked for by name: clang's errors.
    if let Some(want) = only
        && broken
            .functions
            .iter()
            .any(|b| b.kernel && want.split('<').next() == Some(b.name.as_str()))
    {
        return Err(FrontendError::ClangFailed {
            stderr: broken.stderr.clone(),
        });
    }
    let selected = select_kernels(&g, file, only)?;
    let mut kernels = lower_selected(&g, root, &selected, only, broken)?;
    if opts.modular && only.is_none() {
        let roots: Vec<&Node> = selected.iter().map(|(_, k)| *k).collect();
        for f in modular::functions(&g, &roots) {
            let name = f.name.clone().unwrap_or_default();
            match lower_kernel(&g, f, &name, Entry::Function) {
                Ok(k) => kernels.push(k),
                // A function we cannot model on its own leaves the run inconclusive (a kernel
                // we cannot model is an error, but this one is checked only on request).
                Err(FrontendError::Unsupported { span, what }) => {
                    if let Some(k) = kernels.first_mut() {
                        k.unchecked.push((
                            span,
                            format!("device function `{name}` not checked on its own (--modular): {what}"),
                        ));
                    }
                }
                Err(e) => return Err(e),
            }
        }
    }
    // The launches the host code makes (CUDA only: OpenCL's host code is another program).
    let (launches, unlaunched, main) = match g.language {
        Language::Cuda => {
            let decls: Vec<(&Node, &Kernel)> = selected.iter().map(|(_, n)| *n).zip(&kernels).collect();
            // The other files' host declarations join the tables the host interpretation
            // reads (their ids are disjoint from this file's); the kernels are lowered already.
            for other in others {
                let mut o = Globals {
                    language: g.language,
                    ..Globals::default()
                };
                names::collect_names(other, &mut o);
                collect(other, &mut o, prelude);
                g.funcs_by_id.extend(o.funcs_by_id);
                g.vars.extend(o.vars);
                g.enum_consts.extend(o.enum_consts);
                for (k, v) in o.types.records {
                    g.types.records.entry(k).or_insert(v);
                }
            }
            let roots: Vec<&Node> = std::iter::once(root).chain(others).collect();
            crate::frontend::host::read(&roots, &g, &decls, &|f: &str| f != prelude && !globals::in_library(f))
        }
        Language::OpenCl => Default::default(),
    };
    // A kernel that device code launches (dynamic parallelism) has launches the host code does
    // not make: it is verified for every launch (`cuda/device_launch.rs`).
    let from_device = crate::frontend::cuda::device_launch::device_launched(root);
    let mut notes: Vec<String> = library_note(&g.library_kernels).into_iter().collect();
    let mut launches = launches;
    let mut unlaunched = unlaunched;
    for (i, (_, decl)) in selected.iter().enumerate() {
        if decl.name.as_deref().is_some_and(|n| from_device.contains(n)) {
            let had = launches.iter().any(|l| l.kernel == i);
            launches.retain(|l| l.kernel != i);
            unlaunched.retain(|(j, _)| *j != i);
            notes.push(format!(
                "note: `{}` is launched from device code (dynamic parallelism), with values gpug does not follow: it is verified for every launch{}",
                kernels[i].name,
                if had { ", not only at its host code's launches" } else { "" }
            ));
        }
    }
    Ok(Program {
        file: file.to_string(),
        kernels,
        notes,
        includes: Vec::new(),
        other_files: Vec::new(),
        launches,
        unlaunched,
        main,
    })
}

/// Lower the kernels `selected` (and name those `broken` leaves out of the AST): a kernel that
/// cannot be read becomes [`refused_kernel`] at its index, so the list stays aligned with
/// `selected`; when none is left, the first reason is the error (see [`lower_program`]).
fn lower_selected(
    g: &Globals,
    root: &Node,
    selected: &[(String, &Node)],
    only: Option<&str>,
    broken: &crate::frontend::host::rejected::BrokenParse,
) -> R<Vec<Kernel>> {
    let broken_kernels: Vec<&crate::frontend::host::rejected::Broken> =
        broken.functions.iter().filter(|b| b.kernel).collect();
    let mut kernels = Vec::new();
    // The kernels not read (by index), each with its reason: `None` for clang's errors.
    let mut refused: Vec<(usize, Option<FrontendError>)> = Vec::new();
    for (i, (display, k)) in selected.iter().enumerate() {
        if let Some(b) = crate::frontend::host::rejected::reaches_broken(root, k, &broken.functions) {
            let span = Span::point(Arc::from(b.error.file.as_str()), b.error.line, b.error.col);
            let why = format!(
                "not read: clang's error in `{}`, which it may call: {}",
                b.name, b.error.text
            );
            kernels.push(refused_kernel(g, kernel_span(k), display, span, why));
            refused.push((i, None));
            continue;
        }
        match lower_kernel(g, k, display, Entry::Kernel) {
            Ok(lk) => kernels.push(lk),
            Err(FrontendError::Unsupported { span, what }) => {
                let why = format!("not read: unsupported: {what}");
                kernels.push(refused_kernel(g, kernel_span(k), display, span.clone(), why));
                refused.push((i, Some(FrontendError::Unsupported { span, what })));
            }
            Err(e) => return Err(e),
        }
    }
    // A kernel holding clang's errors that is not among them (a template whose instantiation
    // failed is not in the AST): not read either, reported by its name after the others
    // (it has no declaration for the host code's launches).
    if only.is_none() {
        for b in broken_kernels {
            if selected.iter().any(|(_, k)| b.is(k)) {
                continue;
            }
            let span = Span::point(Arc::from(b.error.file.as_str()), b.error.line, b.error.col);
            let kspan = Span::point(Arc::from(b.file.as_str()), b.range.0.0, b.range.0.1);
            let why = format!("not read: clang's error: {}", b.error.text);
            refused.push((kernels.len(), None));
            kernels.push(refused_kernel(g, kspan, &b.name, span, why));
        }
    }
    if !refused.is_empty() && refused.len() == kernels.len() {
        return Err(match refused.swap_remove(0).1 {
            Some(e) => e,
            None => FrontendError::ClangFailed {
                stderr: broken.stderr.clone(),
            },
        });
    }
    Ok(kernels)
}

/// Where the kernel `f` is declared.
fn kernel_span(f: &Node) -> Span {
    f.pos
        .as_ref()
        .map(pos_span)
        .unwrap_or_else(|| Span::point(Arc::from(""), 0, 0))
}

/// The kernel (declared at `kspan`, shown as `display`) that cannot be read, for the reason `why` at `span`:
/// no parameter and no statement, and the reason as an unchecked part
/// ([`Kernel::unchecked`]), so it is reported inconclusive with the reason's
/// `file:line:col`, never verified.
fn refused_kernel(g: &Globals, kspan: Span, display: &str, span: Span, why: String) -> Kernel {
    Kernel {
        name: display.to_string(),
        span: kspan,
        params: Vec::new(),
        vars: Vec::new(),
        arrays: Vec::new(),
        body: Vec::new(),
        next_block: 0,
        unchecked: vec![(span, why)],
        uninterpreted: Vec::new(),
        impure: Vec::new(),
        notes: Vec::new(),
        language: g.language,
        signed_ops: Vec::new(),
    }
}

/// The note naming the kernels of library headers that were not verified (thrust's and CUB's,
/// instantiated by the host code), if any.
fn library_note(skipped: &[(String, String)]) -> Option<String> {
    let (_, first_file) = skipped.first()?;
    let names: Vec<&str> = skipped.iter().take(3).map(|(n, _)| n.as_str()).collect();
    Some(format!(
        "note: {} kernel{} defined in library headers ({}{}, in {first_file}{}) not verified: the library's, not the program's",
        skipped.len(),
        if skipped.len() == 1 { "" } else { "s" },
        names.join(", "),
        if skipped.len() > 3 { ", …" } else { "" },
        if skipped.len() > 1 { " and others" } else { "" },
    ))
}

/// The language's vector types: CUDA's ([`add_cuda_vector_types`]) or OpenCL's
/// ([`crate::frontend::types::opencl_vector_records`]).
fn add_vector_types(g: &mut Globals) {
    match g.language {
        Language::Cuda => add_cuda_vector_types(g),
        Language::OpenCl => {
            for (name, fields, align) in crate::frontend::types::opencl_vector_records() {
                g.types.records.insert(name.clone(), fields);
                g.types.aligns.insert(name, align);
            }
        }
    }
}

/// CUDA's vector types and cuRAND's state records (with NVIDIA's
/// precompiled headers their declarations are not in the AST): see
/// [`crate::frontend::types::cuda_vector_records`] and
/// [`crate::frontend::types::curand_records`].
///
/// Added before the file's own declarations are read, so that a record of the file with a
/// vector-typed field has its layout; a file cannot redefine them (nvcc would refuse it).
fn add_cuda_vector_types(g: &mut Globals) {
    for (name, fields, align) in crate::frontend::types::cuda_vector_records() {
        g.types.records.entry(name.clone()).or_insert(fields);
        g.types.aligns.entry(name).or_insert(align);
    }
    // The 16-bit float records, likewise (CUDA 12's cooperative groups include them).
    for (name, fields, align) in crate::frontend::types::cuda_fp16_records() {
        g.types.records.entry(name.clone()).or_insert(fields);
        g.types.aligns.entry(name).or_insert(align);
    }
    // The runtime's by-value records and object handles, likewise.
    for (name, fields) in crate::frontend::types::cuda_runtime_records() {
        g.types.records.entry(name).or_insert(fields);
    }
    for (name, target) in crate::frontend::types::cuda_runtime_typedefs() {
        g.types.add_typedef(name, target);
    }
    // cuRAND's state records, likewise from the precompiled headers (`curand.rs`).
    for (name, fields) in crate::frontend::types::curand_records() {
        g.types.records.entry(name).or_insert(fields);
    }
    for (name, target) in crate::frontend::types::curand_typedefs() {
        g.types.add_typedef(name, target);
    }
}

/// What a lowering starts from.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Entry {
    /// A kernel: its parameters are the launch's arguments, the same for every thread.
    Kernel,
    /// A device function checked on its own, for every caller (`modular.rs`).
    Function,
}

/// Lower the kernel `f`, again while pointer variables learn arrays after their first use
/// (`target.rs`).
fn lower_kernel(g: &Globals, f: &Node, display: &str, entry: Entry) -> R<Kernel> {
    let mut seeds = target::Seeds::new();
    for _ in 0..target::MAX_PASSES {
        let (k, grown) = lower_kernel_pass(g, f, display, seeds, entry)?;
        match grown {
            None => {
                // OpenCL leaves the size of local memory to the device (CL_DEVICE_LOCAL_MEM_SIZE).
                if g.language == Language::Cuda {
                    static_shared_fits(&k)?;
                }
                return Ok(k);
            }
            Some(s) => seeds = s,
        }
    }
    unsupported(
        f.pos
            .as_ref()
            .map(pos_span)
            .unwrap_or_else(|| Span::point(Arc::from(""), 0, 0)),
        "pointers whose possible arrays do not settle",
    )
}

/// The most `__shared__` memory a block can have on any CUDA GPU, in bytes: 227 KiB (compute
/// capability 9.0, CUDA C++ Programming Guide, "Features and Technical Specifications").
/// nvcc already refuses more than 48 KiB of static `__shared__` arrays; gpug verifies kernels
/// up to this larger size (GPUVerify's suite has a 64 KiB one) and refuses what no launch can
/// have.
const MAX_SHARED: u128 = 227 * 1024;

/// Errors with [`FrontendError::OverLimit`] at the `__shared__` array whose size takes the
/// kernel's static shared memory past [`MAX_SHARED`] (`extern __shared__` arrays have no size).
fn static_shared_fits(k: &Kernel) -> R<()> {
    let mut total: u128 = 0;
    for a in k.arrays.iter().filter(|a| a.space == Space::Shared) {
        let Some(elems) = a.elements() else { continue };
        total = total.saturating_add(elems.saturating_mul(u128::from(a.elem.bytes())));
        if total > MAX_SHARED {
            return Err(FrontendError::OverLimit {
                span: a.span.clone(),
                what: format!(
                    "the kernel's __shared__ arrays take {total} bytes with `{}`, more than any CUDA GPU gives a block ({MAX_SHARED} bytes, 227 KiB)",
                    a.name
                ),
            });
        }
    }
    Ok(())
}

/// One lowering of the kernel `f` (or of the device function `f` on its own, by `entry`) with
/// the pointer sets `seeds`; the kernel, and the sets for another pass when some pointer learnt
/// a new array.
fn lower_kernel_pass(
    g: &Globals,
    f: &Node,
    display: &str,
    seeds: target::Seeds,
    entry: Entry,
) -> R<(Kernel, Option<target::Seeds>)> {
    let fallback = Span::point(Arc::from(""), 0, 0);
    let kspan = f.pos.as_ref().map(pos_span).unwrap_or(fallback);
    let mut l = Lower {
        g,
        k: Kernel {
            name: display.to_string(),
            span: kspan.clone(),
            params: Vec::new(),
            vars: Vec::new(),
            arrays: Vec::new(),
            body: Vec::new(),
            next_block: 0,
            unchecked: Vec::new(),
            uninterpreted: Vec::new(),
            impure: Vec::new(),
            notes: Vec::new(),
            language: g.language,
            signed_ops: Vec::new(),
        },
        frames: Vec::new(),
        ptrs: Vec::new(),
        static_arrays: HashMap::new(),
        temps: 0,
        kspan,
        last_ret_ref: None,
        prologue: Vec::new(),
        int_addrs: HashMap::new(),
        addr_params: HashMap::new(),
        literals: HashMap::new(),
        copies: 0,
        pipeline: None,
        pipeline_tail: None,
        null: None,
        surfaces: None,
        null_flags: HashMap::new(),
        families: HashMap::new(),
        bulk_written: Vec::new(),
        fn_codes: Vec::new(),
        fn_taken: None,
        logs: Vec::new(),
        annotation_depth: 0,
        in_postcondition: false,
        index_depth: 0,
        seeds,
        grown: false,
        goto_targets: HashMap::new(),
        entry_depth: 1,
        sources: HashMap::new(),
        closures: HashMap::new(),
        atomic_refs: HashMap::new(),
        cub_objects: HashMap::new(),
        group_bindings: HashMap::new(),
    };
    let body = body_of(f).ok_or_else(|| FrontendError::Unsupported {
        span: l.kspan.clone(),
        what: "kernel without a body".into(),
    })?;
    let mut frame = Frame {
        env: HashMap::new(),
        block: None,
        ret: None,
        // A function checked on its own is inlined into an empty entry frame.
        func_id: if entry == Entry::Kernel {
            f.id.clone()
        } else {
            String::new()
        },
        addr_taken: HashSet::new(),
        modified: HashSet::new(),
        this_obj: None,
        returns_ref: false,
        ret_ref: None,
    };
    scan(body, &mut frame.addr_taken, &mut frame.modified);
    l.frames.push(frame);
    if g.language == Language::OpenCl || g.device_null {
        let bytes = CType::Array(Box::new(CType::Scalar(U8)), None);
        l.null = Some(l.new_array(null::NULL, Space::Local, &bytes, l.kspan.clone())?);
    }
    let mut out = Vec::new();
    match entry {
        Entry::Kernel => {
            for p in f.inner.iter().filter(|c| c.kind == "ParmVarDecl") {
                l.kernel_param(p, &mut out)?;
            }
            l.axioms(&mut out)?;
            l.block(body, &mut out)?;
        }
        Entry::Function => {
            l.axioms(&mut out)?;
            l.modular_entry(f, &mut out)?;
        }
    }
    let mut all = std::mem::take(&mut l.prologue);
    all.extend(out);
    l.tables_unwritten(&all)?;
    l.k.body = access_log::instrument(all, &l.logs);
    if let Some(null) = l.null {
        null::check_accesses(&mut l.k, null);
    }
    let again = l.grown.then(|| l.seeds_found());
    Ok((l.k, again))
}
