//! cuRAND's device API (`curand_kernel.h` and the headers it includes): generators whose
//! state lives in memory the kernel passes by pointer. Their bodies come from NVIDIA's
//! precompiled headers, so gpug sees declarations only; what a call does to memory is modelled
//! here from the library's contract, for the calls of [`Lowering::Curand`] in the built-in
//! table:
//!
//! - A per-thread state (`curandState` = XORWOW, MRG32k3a, Philox4_32_10, the Sobol
//!   generators, the test generator): the call writes every byte of `*state` with arbitrary
//!   values (in 8-byte words; what it reads of the state it also writes, so its reads add no
//!   race): two threads on one state race, a thread on its own state does not, and a local
//!   copy of a state is private. `curand_init` of a Sobol state also reads the direction
//!   vectors it is given (32 or 64 words); a draw from a Sobol state reads the state's
//!   direction vectors (which only `curand_init` writes) and writes only its counters.
//! - An MTGP32 state (`curandStateMtgp32_t`), shared by the threads of one block, at most 256
//!   of them (`curand_mtgp32_kernel.h`: thread `t` of the block writes its own word of the
//!   state's `s`, between `__syncthreads()`): modelled as thread `t` reading and writing the word
//!   `s[t mod 256]`, then a barrier, with `t` the in-block index the library computes
//!   (`(blockDim.z * blockDim.y) * threadIdx.z + blockDim.x * threadIdx.y + threadIdx.x`). So
//!   more than 256 threads of a block collide, and so do two blocks on one state, as they may
//!   in the library; a call that not all threads of a block reach is barrier divergence, as
//!   in the library. Only the calls that draw one number (`curand`, `curand_uniform`,
//!   `curand_normal`, `curand_log_normal`, `curand_poisson`, their `_double` forms,
//!   `curand_mtgp32_single`) are modelled so.
//! - The result is a fresh value at each call (a struct result field by field); floats are
//!   opaque anyway.
//!
//! Anything else is a call without a body (`opaque.rs`): a state of another type, a pointer
//! argument that is not a state (but Sobol's direction vectors), `curand_mtgp32_specific`. A
//! state pointer into one of several arrays is clobbered like a call without a body's.
//! Each function is named once in the kernel's notes.
//!
//! [`Lowering::Curand`]: crate::frontend::lower::builtin::table::Lowering::Curand

use crate::frontend::lower::{CallSite, Lower, R, Val, add_off, unsupported};
use crate::frontend::types::CType;
use crate::ir::build::cast;
use crate::ir::*;

/// The MTGP32 calls that draw one number with `curand(state)` (the others are calls without a
/// body).
const MTGP32_CALLS: &[&str] = &[
    "curand",
    "curand_uniform",
    "curand_uniform_double",
    "curand_normal",
    "curand_normal_double",
    "curand_log_normal",
    "curand_log_normal_double",
    "curand_poisson",
    "curand_mtgp32_single",
];

/// Threads of one block that one MTGP32 state serves (`curand_mtgp32_kernel.h`).
const MTGP32_THREADS: u64 = 256;

/// cuRAND's state records (`types::curand_records`) for which calls are modelled.
const STATES: &[&str] = &[
    "curandStateTest",
    "curandStateXORWOW",
    "curandStateMRG32k3a",
    "curandStatePhilox4_32_10",
    "curandStateSobol32",
    "curandStateScrambledSobol32",
    "curandStateSobol64",
    "curandStateScrambledSobol64",
    "curandStateMtgp32",
];

/// The MTGP32 state record.
const MTGP32: &str = "curandStateMtgp32";

impl Lower<'_, '_> {
    /// A call `n` to the cuRAND function `name` with the argument nodes `args`: the state read
    /// and written as the module docs say, the result fresh. `None` when the call is not one
    /// that is modelled (no state argument, another pointer argument, an MTGP32 call not in
    /// [`MTGP32_CALLS`]): it is then a call without a body.
    ///
    /// Errors: the address of a variable that is not in memory as the state, a result that is
    /// not a scalar or a struct of scalars.
    pub(in crate::frontend) fn curand_call(&mut self, call: &CallSite, out: &mut Vec<Stmt>) -> R<Option<Val>> {
        let (n, name, args, span) = call.parts();
        // Pointer arguments: the state, and (`curand_init` of Sobol) the direction vectors.
        let mut state = None;
        let mut others = Vec::new();
        for (i, a) in args.iter().enumerate() {
            if let CType::Ptr(p) = self.g.types.parse(a.type_str()) {
                match &*p {
                    CType::Record(r) if STATES.contains(&r.as_str()) && state.is_none() => {
                        state = Some((i, r.clone()));
                    }
                    _ => others.push(i),
                }
            }
        }
        let Some((si, record)) = state else {
            return Ok(None);
        };
        let vectors = match (record.as_str(), others.as_slice()) {
            (_, []) => None,
            ("curandStateSobol32" | "curandStateScrambledSobol32", [0]) if name == "curand_init" => Some(128),
            ("curandStateSobol64" | "curandStateScrambledSobol64", [0]) if name == "curand_init" => Some(512),
            _ => return Ok(None),
        };
        let mtgp = record == MTGP32;
        if mtgp && !MTGP32_CALLS.contains(&name) {
            return Ok(None);
        }
        let Some((size, _)) = self.g.types.layout(&CType::Record(record.clone())) else {
            return unsupported(span.clone(), format!("cuRAND state `{record}` without a known layout"));
        };
        let mut vals = Vec::new();
        for a in args {
            vals.push(self.rvalue(a, out)?);
        }
        if let (Some(bytes), Some(Val::Ptr(p))) = (vectors, vals.first()) {
            self.curand_read(p.array, &p.off, bytes, span, out);
        }
        match vals.swap_remove(si) {
            Val::Ptr(p) if mtgp => self.mtgp32_draw(p.array, &p.off, span, out),
            // A Sobol draw reads the direction vectors and writes the counters before them.
            Val::Ptr(p) => match sobol_counters(&record).filter(|_| name != "curand_init") {
                Some(h) => {
                    let at = add_off(p.off.clone(), Expr::int(h, Ty::I64));
                    self.curand_read(p.array, &at, size - h, span, out);
                    self.curand_write(p.array, &p.off, &words(h), span, out);
                }
                None => self.curand_write(p.array, &p.off, &words(size), span, out),
            },
            // A state held in registers (a local copy, `curandState s = states[i]`, passed by
            // reference): the thread's own, so no access; its fields become arbitrary.
            Val::Addr(lv) => {
                let v = self.curand_fresh(&CType::Record(record.clone()), name, span, out)?;
                self.assign(&lv, v, n, span, out)?;
            }
            v => self.curand_clobber(v, name, span, out)?,
        }
        let what = if mtgp {
            format!(
                "treated as cuRAND's MTGP32 generator, one state per block: modelled as thread t of \
                 the block (t = blockDim.x*blockDim.y*threadIdx.z + blockDim.x*threadIdx.y + \
                 threadIdx.x, as the library computes it) reading and writing the word s[t mod \
                 {MTGP32_THREADS}] of the state, then __syncthreads(); its result is a fresh value"
            )
        } else {
            format!(
                "treated as cuRAND's generator: {}; its result is a fresh value",
                match (vectors, sobol_counters(&record)) {
                    (Some(_), _) => format!(
                        "it reads the direction vectors given and writes the whole state (the \
                         {size} bytes of `{record}`)"
                    ),
                    (None, Some(h)) if name != "curand_init" => format!(
                        "it reads the state's direction vectors and writes its {h} bytes of counters \
                         (`{record}`)"
                    ),
                    _ => format!("it writes (and reads) the whole state (the {size} bytes of `{record}`)"),
                }
            )
        };
        let key = if mtgp {
            format!("{name}(curandStateMtgp32_t *)")
        } else {
            name.to_string()
        };
        self.note_once(&key, span, &what);
        let ret = self.ctype(n);
        self.curand_fresh(&ret, name, span, out).map(Some)
    }

    /// Loads of `bytes` bytes of `array` from `off`, in [`words`]; the words.
    fn curand_read(
        &mut self,
        array: ArrayId,
        off: &Expr,
        bytes: u64,
        span: &Span,
        out: &mut Vec<Stmt>,
    ) -> Vec<(u64, Ty)> {
        let words = words(bytes);
        for &(at, ty) in &words {
            let dst = self.temp(ty);
            out.push(Stmt {
                kind: StmtKind::Load {
                    dst,
                    array,
                    offset: add_off(off.clone(), Expr::int(at, Ty::I64)),
                    ty,
                },
                span: span.clone(),
            });
        }
        words
    }

    /// Stores of arbitrary values to the `words` (offset from `off`, type) of `array`.
    fn curand_write(&mut self, array: ArrayId, off: &Expr, words: &[(u64, Ty)], span: &Span, out: &mut Vec<Stmt>) {
        for &(at, ty) in words {
            let v = self.temp(ty);
            out.push(Stmt {
                kind: StmtKind::Havoc { var: v },
                span: span.clone(),
            });
            out.push(Stmt {
                kind: StmtKind::Store {
                    array,
                    offset: add_off(off.clone(), Expr::int(at, Ty::I64)),
                    value: Expr::Var { id: v, ty },
                    ty,
                },
                span: span.clone(),
            });
        }
    }

    /// One number drawn from the MTGP32 state at `off` in `array`: the calling thread reads
    /// and writes its word of the state, then the block synchronizes (see the module docs).
    fn mtgp32_draw(&mut self, array: ArrayId, off: &Expr, span: &Span, out: &mut Vec<Stmt>) {
        let b = |x: Builtin| Expr::Builtin(x);
        let bin = |op, lhs, rhs| Expr::Binary {
            op,
            lhs: Box::new(lhs),
            rhs: Box::new(rhs),
            ty: Ty::U32,
        };
        // The library's index: (bdz * bdy) * tz + bdx * ty + tx.
        let plane = bin(BinOp::Mul, b(Builtin::BlockDim(Dim::Z)), b(Builtin::BlockDim(Dim::Y)));
        let t = bin(
            BinOp::Add,
            bin(
                BinOp::Add,
                bin(BinOp::Mul, plane, b(Builtin::ThreadIdx(Dim::Z))),
                bin(BinOp::Mul, b(Builtin::BlockDim(Dim::X)), b(Builtin::ThreadIdx(Dim::Y))),
            ),
            b(Builtin::ThreadIdx(Dim::X)),
        );
        let word = bin(BinOp::BitAnd, t, Expr::int(MTGP32_THREADS - 1, Ty::U32));
        let at = Expr::Binary {
            op: BinOp::Mul,
            lhs: Box::new(cast(word, Ty::I64)),
            rhs: Box::new(Expr::int(4, Ty::I64)),
            ty: Ty::I64,
        };
        let off = add_off(off.clone(), at);
        let words = self.curand_read(array, &off, 4, span, out);
        self.curand_write(array, &off, &words, span, out);
        out.push(Stmt {
            kind: StmtKind::Barrier(BarrierScope::Block, Fences::ALL),
            span: span.clone(),
        });
    }

    /// A state that is not one pointer into one array (`c ? p : q` into two arrays): each array
    /// it may point into is clobbered, as by a call without a body.
    fn curand_clobber(&mut self, v: Val, name: &str, span: &Span, out: &mut Vec<Stmt>) -> R<()> {
        match v {
            Val::Ptr(p) => out.push(Stmt {
                kind: StmtKind::Clobber {
                    array: p.array,
                    call: name.to_string(),
                },
                span: span.clone(),
            }),
            Val::PtrCond(_, a, b) => {
                self.curand_clobber(*a, name, span, out)?;
                self.curand_clobber(*b, name, span, out)?;
            }
            _ => {
                return unsupported(
                    span.clone(),
                    format!("`{name}` on a state that is not in memory (a pointer to a pointer?)"),
                );
            }
        }
        Ok(())
    }

    /// A fresh value of type `t`: a scalar havocked, a struct field by field, an array element
    /// by element.
    fn curand_fresh(&mut self, t: &CType, name: &str, span: &Span, out: &mut Vec<Stmt>) -> R<Val> {
        match t {
            CType::Void => Ok(Val::Void),
            CType::Scalar(ty) => {
                let v = self.temp(*ty);
                out.push(Stmt {
                    kind: StmtKind::Havoc { var: v },
                    span: span.clone(),
                });
                Ok(Val::Scalar(Expr::Var { id: v, ty: *ty }))
            }
            CType::Record(r) => {
                let Some(fields) = self.g.types.fields(r) else {
                    return unsupported(span.clone(), format!("`{name}` returning `{r}` without a known layout"));
                };
                let mut vs = Vec::new();
                for (f, _, ft) in fields {
                    vs.push((f, self.curand_fresh(&ft, name, span, out)?));
                }
                Ok(Val::Struct(vs))
            }
            // An array member (XORWOW's `v[5]`): element by element.
            CType::Array(elem, Some(len)) if *len <= 1024 => {
                let mut vs = Vec::new();
                for _ in 0..*len {
                    vs.push(self.curand_fresh(elem, name, span, out)?);
                }
                Ok(Val::Array(vs))
            }
            other => unsupported(span.clone(), format!("`{name}` returning `{}`", other.describe())),
        }
    }
}

/// The bytes of a Sobol state's counters `i`, `x`, `c`, before its direction vectors, which
/// only `curand_init` writes; `None` for the other states.
fn sobol_counters(record: &str) -> Option<u64> {
    match record {
        "curandStateSobol32" | "curandStateScrambledSobol32" => Some(12),
        "curandStateSobol64" | "curandStateScrambledSobol64" => Some(24),
        _ => None,
    }
}

/// The words (offset, type) that cover `bytes` bytes: 8 bytes each, narrower at the end.
fn words(bytes: u64) -> Vec<(u64, Ty)> {
    let mut words = Vec::new();
    let mut at = 0;
    while at < bytes {
        let w = [8, 4, 2, 1].into_iter().find(|w| bytes - at >= *w).unwrap_or(1);
        let ty = Ty::Int {
            bits: 8 * w as u32,
            signed: false,
        };
        words.push((at, ty));
        at += w;
    }
    words
}
