//! The standard assumptions open for a launch ([`Vocabulary`]): which dimensions may be
//! pinned, which indices may wrap, and the launches and conditions of each (the module docs of
//! [`super`]).

use super::*;

/// The standard assumptions open for a launch.
pub(super) struct Vocabulary {
    /// The geometry as given.
    pub(super) geometry: Geometry,
    /// The unused dimensions left symbolic: (`blockDim.y`, block?, dimension index).
    pub(super) unused: Vec<(String, bool, usize)>,
    /// The dimensions whose linear index may wrap (read by the kernel, not fully concrete).
    pub(super) wrap: [bool; 3],
    /// Whether the kernel reads the thread or block index of two dimensions or more, so that an
    /// index may combine them (`blockIdx.y * gridDim.x + blockIdx.x`) and wrap although each
    /// dimension's does not: then the whole launch's thread count is bounded too, when the
    /// per-dimension bounds do not exclude every finding.
    pub(super) combined: bool,
    /// The checks re-verifications ask ([`Launch::only`]).
    pub(super) only: Option<Vec<Finding>>,
    /// The checks the kernel's own verification refuted ([`Launch::refuted`]), not asked
    /// again by re-verifications of the geometry as given.
    pub(super) refuted: BTreeSet<String>,
    /// The source-level signed operations that may overflow (indices into
    /// [`Kernel::signed_ops`]): all of them, none under `--no-overflow` (which assumes it).
    pub(super) signed: Vec<usize>,
    /// The signed assumption excluded a finding ([`signed`]): the launches of later
    /// re-verifications (the parameter relations') assume it too.
    pub(super) signed_assumed: bool,
}

impl Vocabulary {
    /// Under `--no-overflow` no index wraps, so that assumption is never open.
    pub(super) fn of(k: &Kernel, geometry: Geometry, no_overflow: bool) -> Vocabulary {
        let reads = builtins_read(&k.body);
        let read = |b: Builtin| reads.contains(&b);
        // x is pinned only when a y or z dimension the kernel reads keeps more than one
        // thread or block (symbolic, or given above 1): then the narrowed launches still have
        // pairs of distinct threads that the kernel tells apart. Pinning x otherwise could
        // leave a launch of one thread, which has no pair of threads, and the pair model would
        // verify it vacuously (an assertion that fails in every thread included).
        let wide = |g: &Option<u32>| g.is_none_or(|n| n > 1);
        let pairs_beyond_x = [Dim::Y, Dim::Z].into_iter().any(|d| {
            let i = d.index();
            (read(Builtin::ThreadIdx(d)) && wide(&geometry.block_dim[i]))
                || (read(Builtin::BlockIdx(d)) && wide(&geometry.grid_dim[i]))
        });
        let mut unused = Vec::new();
        let mut wrap = [false; 3];
        for d in Dim::ALL {
            let i = d.index();
            let name = DIMS[i];
            let pinnable = i > 0 || pairs_beyond_x;
            if pinnable && geometry.block_dim[i].is_none() && !read(Builtin::ThreadIdx(d)) {
                unused.push((format!("blockDim.{name}"), true, i));
            }
            if pinnable && geometry.grid_dim[i].is_none() && !read(Builtin::BlockIdx(d)) {
                unused.push((format!("gridDim.{name}"), false, i));
            }
            let symbolic = geometry.block_dim[i].is_none() || geometry.grid_dim[i].is_none();
            wrap[i] = !no_overflow && symbolic && (read(Builtin::ThreadIdx(d)) || read(Builtin::BlockIdx(d)));
        }
        let combined = wrap.contains(&true)
            && Dim::ALL
                .into_iter()
                .filter(|d| read(Builtin::ThreadIdx(*d)) || read(Builtin::BlockIdx(*d)))
                .count()
                >= 2;
        Vocabulary {
            geometry,
            unused,
            wrap,
            combined,
            only: None,
            refuted: BTreeSet::new(),
            signed: if no_overflow {
                Vec::new()
            } else {
                k.signed_representatives()
            },
            signed_assumed: false,
        }
    }

    /// Whether some standard assumption is open.
    pub(super) fn open(&self) -> bool {
        !self.unused.is_empty() || self.wraps()
    }

    pub(super) fn wraps(&self) -> bool {
        self.wrap.contains(&true)
    }

    /// The bits of the strongest no-wrap bound (`None`: no dimension to bound).
    pub(super) fn strongest(&self) -> Option<u32> {
        self.wraps().then_some(31)
    }

    /// The geometry with the unused dimensions pinned to 1.
    pub(super) fn flat(&self) -> Geometry {
        let mut flat = self.geometry.clone();
        for (_, block, i) in &self.unused {
            let slot = if *block {
                &mut flat.block_dim[*i]
            } else {
                &mut flat.grid_dim[*i]
            };
            *slot = Some(1);
        }
        flat
    }

    /// The launches of every standard assumption, the index bounded at 2^`bits` (and the
    /// whole launch's thread count when `total`).
    pub(super) fn launch(&self, bits: Option<u32>, total: bool) -> Launch {
        Launch {
            geometry: self.flat(),
            index_fits: bits.map(|b| self.fits(b, total)),
            signed: if self.signed_assumed {
                self.signed.clone()
            } else {
                Vec::new()
            },
            only: self.only.clone(),
            // A re-verification's witness is used only to skip later re-verifications.
            prefer: Vec::new(),
            // Pinned dimensions change the prepared kernel (its unrolled loops, its barrier
            // intervals and so its checks' names): then every check is asked.
            refuted: if self.unused.is_empty() {
                self.refuted.clone()
            } else {
                BTreeSet::new()
            },
        }
    }

    /// The no-wrap assumptions at 2^`bits`, of the whole launch too when `total`.
    pub(super) fn fits(&self, bits: u32, total: bool) -> IndexFits {
        IndexFits {
            bits,
            dims: self.wrap,
            launch: total,
        }
    }

    /// The extents of the launch's thread count under the contract, as the contract names
    /// them: the six but those pinned or given as 1.
    pub(super) fn extents(&self) -> Vec<String> {
        let mut out = Vec::new();
        for (kind, block, given) in [
            ("gridDim", false, &self.geometry.grid_dim),
            ("blockDim", true, &self.geometry.block_dim),
        ] {
            for (i, g) in given.iter().enumerate() {
                let pinned = self.unused.iter().any(|(_, b, j)| *b == block && *j == i);
                if !pinned && *g != Some(1) {
                    out.push(format!("{kind}.{}", DIMS[i]));
                }
            }
        }
        out
    }

    /// The value of geometry dimension `kind.d` (`blockDim`, 1) in `f`'s witness launch.
    pub(super) fn value(&self, f: &Finding, block: bool, i: usize) -> Option<u64> {
        dim_value(&self.geometry, f, block, i)
    }

    /// The strongest standard assumptions as uniform entry conditions: each unused dimension
    /// is 1, and `(u64)gridDim.d * (u64)blockDim.d <= 2^31` for each dimension whose index
    /// may wrap.
    pub(super) fn conditions(&self) -> Vec<Expr> {
        let mut out = Vec::new();
        for (_, block, i) in &self.unused {
            let d = Dim::ALL[*i];
            let b = if *block {
                Builtin::BlockDim(d)
            } else {
                Builtin::GridDim(d)
            };
            out.push(relations::binary(
                crate::ir::BinOp::Eq,
                Expr::Builtin(b),
                relations::int(1),
            ));
        }
        out.extend(self.no_wrap(false));
        out
    }

    /// The no-wrap assumptions at 2^31 as uniform entry conditions: `(u64)gridDim.d *
    /// (u64)blockDim.d <= 2^31` for each dimension whose index may wrap; with `total`, also the
    /// whole launch's thread count, as its running products (`gridDim.x`, then times
    /// `blockDim.x`, then times `gridDim.y`, and so on) each at most 2^31. In 64 bits each
    /// product of one within 2^31 and a dimension below 2^32 is exact, so together they say
    /// exactly that the whole count is.
    pub(super) fn no_wrap(&self, total: bool) -> Vec<Expr> {
        let wide = |b: Builtin| Expr::Cast {
            arg: Box::new(Expr::Builtin(b)),
            ty: Ty::U64,
        };
        let bound = || Expr::Const {
            value: BigInt::from(1u64 << 31),
            ty: Ty::U64,
        };
        let mul = |l, r| relations::binary(crate::ir::BinOp::Mul, l, r);
        let mut out = Vec::new();
        for d in Dim::ALL.into_iter().filter(|d| self.wrap[d.index()]) {
            let threads = mul(wide(Builtin::GridDim(d)), wide(Builtin::BlockDim(d)));
            out.push(relations::binary(crate::ir::BinOp::Le, threads, bound()));
        }
        if total {
            let mut product: Option<Expr> = None;
            for d in Dim::ALL {
                for b in [Builtin::GridDim(d), Builtin::BlockDim(d)] {
                    let next = match product.take() {
                        None => wide(b),
                        Some(p) => mul(p, wide(b)),
                    };
                    out.push(relations::binary(crate::ir::BinOp::Le, next.clone(), bound()));
                    product = Some(next);
                }
            }
        }
        out
    }

    /// Whether `f`'s witness launch has every unused dimension 1 (`None`: not known, the
    /// witness rests on an abstraction).
    pub(super) fn flat_witness(&self, f: &Finding) -> Option<bool> {
        if f.possible {
            return None;
        }
        let mut all = true;
        for (_, block, i) in &self.unused {
            all &= self.value(f, *block, *i)? == 1;
        }
        Some(all)
    }

    /// Whether `f`'s witness launch keeps every wrapping dimension's thread count within
    /// 2^`bits`, and its whole thread count too when `total` (`None`: not known).
    pub(super) fn fitting_witness(&self, f: &Finding, bits: u32, total: bool) -> Option<bool> {
        if f.possible {
            return None;
        }
        let mut all = true;
        for i in (0..3).filter(|i| self.wrap[*i]) {
            let threads = u128::from(self.value(f, false, i)?) * u128::from(self.value(f, true, i)?);
            all &= threads <= 1u128 << bits;
        }
        if total {
            let mut threads = 1u128;
            for i in 0..3 {
                threads = threads.saturating_mul(u128::from(self.value(f, false, i)?));
                threads = threads.saturating_mul(u128::from(self.value(f, true, i)?));
            }
            all &= threads <= 1u128 << bits;
        }
        Some(all)
    }

    /// Whether `f`'s witness lies in the launches of every standard assumption (bound at
    /// 2^`bits`, the whole launch too when `total`), so that no contract can exclude it.
    pub(super) fn admits(&self, f: &Finding, bits: Option<u32>, total: bool) -> bool {
        self.flat_witness(f) == Some(true) && bits.is_none_or(|b| self.fitting_witness(f, b, total) == Some(true))
    }
}
