//! What the host code reads of the device it runs on (issue 53 item 4, issue 56): a field of
//! the toolkit's `cudaDeviceProp` (`prop.multiProcessorCount`), and a global that the program
//! only ever sets to one (llm.c's `cuda_num_SMs = deviceProp.multiProcessorCount`). Each read
//! is a host unknown with the range that every CUDA device has ([`PROPERTIES`]); a launch
//! passing it assumes that range, and the report says so (`1 <= gridDim.x <= 1024 (the
//! device's multiProcessorCount)`).
//!
//! Why: a launch of `deviceProp.multiProcessorCount` blocks (cudaTensorCoreGemm's persistent
//! kernel) is otherwise verified for every grid, and its witnesses have 2^30 blocks whose
//! indices wrap: a size no program can have.
//!
//! Soundness: each range holds on every device the toolkit runs on (the limits of CUDA C++
//! Programming Guide, "Features and Technical Specifications", table 21, for compute
//! capabilities 5.0 to 12.x), with margin where a newer device may grow (SMs, L2). The range
//! is an assumption of the launch, named in the report like every host value.

use super::*;
use num_traits::ToPrimitive;

/// The fields of `cudaDeviceProp` read as a range: name, least value, greatest value, all in
/// the field's own unit (SMs, threads, bytes, registers).
///
/// - `multiProcessorCount`: 1 to 1024 (the largest device so far has 160 SMs).
/// - `maxThreadsPerMultiProcessor`: at most 2048 (table 21: 2048 at most, every capability).
/// - `maxThreadsPerBlock`, `maxThreadsDim` x and y: 1024; `warpSize`: 32.
/// - `maxBlocksPerMultiProcessor`: at most 32.
/// - `sharedMemPerBlock`: at most 48 KiB; `sharedMemPerBlockOptin`,
///   `sharedMemPerMultiprocessor`: at most 256 KiB (228 KiB on 9.0).
/// - `regsPerBlock`, `regsPerMultiprocessor`: at most 64 Ki registers.
/// - `l2CacheSize`: at most 1 GiB (the largest so far is 126 MiB).
/// - `asyncEngineCount`: at most 8.
const PROPERTIES: &[(&str, i64, i64)] = &[
    ("multiProcessorCount", 1, 1024),
    ("maxThreadsPerMultiProcessor", 1, 2048),
    ("maxThreadsPerBlock", 1, 1024),
    ("warpSize", 32, 32),
    ("maxBlocksPerMultiProcessor", 1, 32),
    ("sharedMemPerBlock", 1, 48 * 1024),
    ("sharedMemPerBlockOptin", 1, 256 * 1024),
    ("sharedMemPerMultiprocessor", 1, 256 * 1024),
    ("regsPerBlock", 1, 64 * 1024),
    ("regsPerMultiprocessor", 1, 64 * 1024),
    ("l2CacheSize", 1, 1 << 30),
    ("asyncEngineCount", 0, 8),
];

/// The range of the device property `e` reads, when `e` is a field of [`PROPERTIES`] of the
/// toolkit's `cudaDeviceProp` (through `.` or `->`): `(field, least, greatest)`.
pub(super) fn property(e: &Node) -> Option<(&'static str, i64, i64)> {
    if e.kind != "MemberExpr" {
        return None;
    }
    let name = e.name.as_deref()?;
    let base = strip_parens(e.inner.first()?);
    let ty = bare(base.type_str()).trim_end_matches('*').trim_end_matches('&').trim();
    let ty = bare(ty);
    if !matches!(ty, "cudaDeviceProp" | "struct cudaDeviceProp") {
        return None;
    }
    range_of(name)
}

/// The entry of [`PROPERTIES`] for `field`.
fn range_of(field: &str) -> Option<(&'static str, i64, i64)> {
    PROPERTIES.iter().copied().find(|(f, _, _)| *f == field)
}

/// The fields of [`PROPERTIES`] that the program writes itself somewhere in `roots`
/// (`prop.multiProcessorCount = 5000;`, `&prop.warpSize`, `++`): any use of such a field that is
/// not a plain read. Those fields are not given a range anywhere: the value may be the
/// program's, not the device's.
pub(super) fn written_fields(roots: &[&Node]) -> HashSet<&'static str> {
    fn walk(n: &Node, read: bool, out: &mut HashSet<&'static str>) {
        if !read && let Some((field, _, _)) = property(n) {
            out.insert(field);
        }
        let reads = n.kind == "ImplicitCastExpr" && n.cast_kind.as_deref() == Some("LValueToRValue");
        for c in &n.inner {
            walk(c, reads || (n.kind == "ParenExpr" && read), out);
        }
    }
    let mut out = HashSet::new();
    for r in roots {
        walk(r, false, &mut out);
    }
    out
}

/// How the report names the property `e` reads (`prop.multiProcessorCount`).
pub(super) fn property_text(e: &Node, field: &str) -> String {
    match strip_parens(e.inner.first().map_or(e, |b| b)) {
        b if b.kind == "DeclRefExpr" => match b.referenced_decl.as_ref() {
            Some(d) => format!("{}{}{field}", d.name, if e.is_arrow { "->" } else { "." }),
            None => field.to_string(),
        },
        _ => field.to_string(),
    }
}

/// The range of a global that the program writes only as `g = prop.field` with `field` of
/// [`PROPERTIES`] (one field for every write), by the global's name: the field's range
/// widened to hold the global's constant initializer (`int cuda_num_SMs = 0;`: 0 to 1024),
/// or zero when it has none (static storage starts zeroed). Every other use must be a plain
/// read ([`super::reach::read_only`]'s sense), and the program must not write the field
/// itself (`written`, [`written_fields`]). Only for a whole program, where no other
/// translation unit can write it.
pub(super) fn property_globals(
    roots: &[&Node],
    written: &HashSet<&'static str>,
) -> HashMap<String, (&'static str, BigInt, BigInt)> {
    /// Per name: `Some(field)` while every write seen sets it to that field, `None` once one
    /// does not.
    fn walk(n: &Node, read: bool, uses: &mut HashMap<String, Option<&'static str>>) {
        if n.kind == "BinaryOperator"
            && n.opcode.as_deref() == Some("=")
            && n.inner.len() == 2
            && let lhs = strip_parens(&n.inner[0])
            && lhs.kind == "DeclRefExpr"
            && let Some(d) = &lhs.referenced_decl
            && d.kind == "VarDecl"
        {
            let field = property(strip(&n.inner[1])).map(|(f, _, _)| f);
            let entry = uses.entry(d.name.clone()).or_insert(field);
            if *entry != field {
                *entry = None;
            }
            walk(&n.inner[1], false, uses);
            return;
        }
        if n.kind == "DeclRefExpr"
            && let Some(d) = &n.referenced_decl
            && d.kind == "VarDecl"
            && !read
        {
            uses.insert(d.name.clone(), None);
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
    let mut out = HashMap::new();
    for r in roots {
        for v in r.inner.iter().filter(|v| v.kind == "VarDecl") {
            let Some(name) = v.name.as_deref() else { continue };
            let Some(Some(field)) = uses.get(name) else { continue };
            if written.contains(field) {
                continue;
            }
            if v.storage_class.as_deref() == Some("extern") {
                continue;
            }
            let init = match v.inner.iter().find(|c| !c.kind.ends_with("Attr")) {
                Some(i) => match const_value(i) {
                    Some(c) => c,
                    None => continue,
                },
                None => BigInt::from(0),
            };
            let Some((_, lo, hi)) = range_of(field) else { continue };
            let lo = BigInt::from(lo).min(init.clone());
            let hi = BigInt::from(hi).max(init);
            out.insert(name.to_string(), (*field, lo, hi));
        }
    }
    out
}

/// The attributes of `cudaDeviceGetAttribute` (runtime API) and `cuDeviceGetAttribute`
/// (driver API) read as the field of [`PROPERTIES`] they equal.
const ATTRIBUTES: &[(&str, &str)] = &[
    ("cudaDevAttrMultiProcessorCount", "multiProcessorCount"),
    ("cudaDevAttrMaxThreadsPerMultiProcessor", "maxThreadsPerMultiProcessor"),
    ("cudaDevAttrMaxThreadsPerBlock", "maxThreadsPerBlock"),
    ("cudaDevAttrWarpSize", "warpSize"),
    ("cudaDevAttrMaxBlocksPerMultiprocessor", "maxBlocksPerMultiProcessor"),
    ("cudaDevAttrMaxSharedMemoryPerBlock", "sharedMemPerBlock"),
    ("cudaDevAttrMaxSharedMemoryPerBlockOptin", "sharedMemPerBlockOptin"),
    (
        "cudaDevAttrMaxSharedMemoryPerMultiprocessor",
        "sharedMemPerMultiprocessor",
    ),
    ("cudaDevAttrMaxRegistersPerBlock", "regsPerBlock"),
    ("cudaDevAttrMaxRegistersPerMultiprocessor", "regsPerMultiprocessor"),
    ("cudaDevAttrL2CacheSize", "l2CacheSize"),
    ("cudaDevAttrAsyncEngineCount", "asyncEngineCount"),
    ("CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT", "multiProcessorCount"),
    (
        "CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR",
        "maxThreadsPerMultiProcessor",
    ),
    ("CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK", "maxThreadsPerBlock"),
    ("CU_DEVICE_ATTRIBUTE_WARP_SIZE", "warpSize"),
    (
        "CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR",
        "maxBlocksPerMultiProcessor",
    ),
    ("CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK", "sharedMemPerBlock"),
    (
        "CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN",
        "sharedMemPerBlockOptin",
    ),
    (
        "CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR",
        "sharedMemPerMultiprocessor",
    ),
    ("CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE", "l2CacheSize"),
];

impl<'a> Host<'a, '_> {
    /// The locals a call of the toolkit's (a function declared only, or defined in a library
    /// header) sets to a device property, each with its value, a new unknown in the range:
    /// - `cudaDeviceGetAttribute(&v, cudaDevAttrMultiProcessorCount, dev)` and the driver
    ///   API's `cuDeviceGetAttribute`, with an attribute of [`ATTRIBUTES`];
    /// - `cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, kernel, block, smem)`: `n` is at
    ///   most the device's `maxBlocksPerMultiProcessor` (0 when the kernel cannot run);
    /// - `cudaOccupancyMaxPotentialBlockSize(&grid, &block, kernel, …)`: `block` is a block
    ///   size (1 to 1024), `grid` at most 1024 SMs times 32 blocks;
    /// - `cudaMallocPitch(&p, &pitch, width, height)` with `width` and `height` known: `pitch`
    ///   is at least `width` (CUDA Runtime API, `cudaMallocPitch`), and `pitch * height` bytes
    ///   fit in the device's memory, at most 2^41 bytes (the largest device so far has less
    ///   than 2^38).
    pub(super) fn device_outputs(&mut self, call: &'a Node, env: &Env) -> Vec<(String, Val)> {
        let Some(callee) = call.inner.first().map(strip) else {
            return Vec::new();
        };
        let Some(decl) = callee.referenced_decl.as_ref() else {
            return Vec::new();
        };
        // The toolkit's: declared only, or defined in a library header (the C++ wrappers of
        // `cuda_runtime.h`), never a function of the program's.
        let toolkit = match self.definition(&decl.id).filter(|d| body_of(d).is_some()) {
            None => true,
            Some(d) => d
                .pos
                .as_ref()
                .or(d.begin.as_ref())
                .is_some_and(|p| crate::frontend::lower::globals::in_library(&p.file)),
        };
        if !toolkit {
            return Vec::new();
        }
        let arg = |i: usize| call.inner.get(i + 1);
        let mut outs: Vec<(usize, &'static str, i64, i64)> = Vec::new();
        match decl.name.as_str() {
            "cudaDeviceGetAttribute" | "cuDeviceGetAttribute" if call.inner.len() == 4 => {
                let attr = arg(1).map(strip).and_then(|a| a.referenced_decl.as_ref());
                let field = attr
                    .filter(|d| d.kind == "EnumConstantDecl")
                    .and_then(|d| ATTRIBUTES.iter().find(|(a, _)| *a == d.name))
                    .and_then(|(_, f)| range_of(f));
                if let Some((field, lo, hi)) = field {
                    outs.push((0, field, lo, hi));
                }
            }
            "cudaOccupancyMaxActiveBlocksPerMultiprocessor"
            | "cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags"
            | "cuOccupancyMaxActiveBlocksPerMultiprocessor"
            | "cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags" => {
                outs.push((0, "maxBlocksPerMultiProcessor", 0, 32));
            }
            "cudaOccupancyMaxPotentialBlockSize"
            | "cudaOccupancyMaxPotentialBlockSizeVariableSMem"
            | "cudaOccupancyMaxPotentialBlockSizeWithFlags"
            | "cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags" => {
                outs.push((0, "the occupancy API's grid size", 0, 1024 * 32));
                outs.push((1, "maxThreadsPerBlock", 1, 1024));
            }
            "cudaMallocPitch" if call.inner.len() == 5 => {
                let known = |h: &mut Self, n: &'a Node| match h.eval(n, env) {
                    Some(Val::Int(e)) => match fold(e) {
                        Expr::Const { value, .. } => value.to_i64(),
                        _ => None,
                    },
                    _ => None,
                };
                if let (Some(width), Some(height)) = (known(self, &call.inner[3]), known(self, &call.inner[4]))
                    && width > 0
                    && height > 0
                {
                    let most = (1i64 << 41) / height;
                    if most >= width {
                        outs.push((1, "cudaMallocPitch's pitch", width, most));
                    }
                }
            }
            _ => {}
        }
        let mut vals = Vec::new();
        for (i, field, lo, hi) in outs {
            let Some(a) = arg(i) else { continue };
            let Some(id) = address_of(a) else { continue };
            let Some(target) = strip(a).inner.first().map(strip) else {
                continue;
            };
            let Some(ty) = self.int_ty(target.type_str()) else {
                continue;
            };
            let name = target
                .referenced_decl
                .as_ref()
                .map_or(field, |d| d.name.as_str())
                .to_string();
            let v = self.property_unknown(&name, field, lo.into(), hi.into(), ty);
            vals.push((id.to_string(), Val::Int(v)));
        }
        vals
    }

    /// A new host unknown of type `ty` named `name` (as the report shows it) for a read of the
    /// device property `field`, in `lo ..= hi` ([`Host::ranges`]).
    pub(super) fn property_unknown(&mut self, name: &str, field: &'static str, lo: BigInt, hi: BigInt, ty: Ty) -> Expr {
        let u = self.unknown(name, ty);
        if let Expr::Var { id, .. } = &u {
            self.ranges.insert(*id, (field, lo, hi));
        }
        u
    }
}
