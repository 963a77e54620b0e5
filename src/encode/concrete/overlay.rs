//! The concrete model's memory overlay. Memory of shared and global arrays is kept as a base
//! array plus an overlay of bytes written at literal offsets: a load at a literal offset reads
//! the overlay byte (an `ite` over the path conditions of the writes to that byte) or
//! `select`s the base; an access at a symbolic offset first writes the overlay into the base
//! with `store`s. This is the same memory as the plain `store` chain, with the array reasoning
//! done here instead of in the solver (the offsets are literals once terms are folded,
//! `engine/fold.rs`).

use crate::encode::engine::fold::{fold, lit, mk};
use crate::encode::engine::{Encoder, MemKey, TState};
use crate::encode::terms::{app, mem_sort, sym};
use crate::ir::ArrayId;
use crate::solver::Sexp;

impl Encoder<'_> {
    /// Whether the overlay of memory `key` has an entry overlapping `[o, o + w)` other than
    /// exactly `(o, w)`.
    fn overlaps_other(&self, key: MemKey, o: u128, w: u32) -> bool {
        self.concrete.overlay.get(&key).is_some_and(|m| {
            m.range(o.saturating_sub(8)..o + w as u128)
                .any(|(&eo, (ew, _))| eo < o + w as u128 && o < eo + *ew as u128 && !(eo == o && *ew == w))
        })
    }

    /// The value of `width` bytes at literal offset `o` of memory `key`: the overlay's word, or
    /// the base's bytes.
    fn overlay_word(&self, key: MemKey, o: u128, width: u32) -> Sexp {
        if let Some((w, v)) = self.concrete.overlay.get(&key).and_then(|m| m.get(&o))
            && *w == width
        {
            return v.clone();
        }
        let base = self.global[&key].clone();
        Self::load_bytes(&base, &mk(o, 64), width)
    }

    /// Reads `width` bytes of `array` at `off` as the thread `ts` sees it.
    pub(in crate::encode) fn mem_load(&mut self, ts: &TState, array: ArrayId, off: &Sexp, width: u32) -> Sexp {
        let key = self.mem_key(ts, array);
        if self.fold && self.global.contains_key(&key) {
            match lit(off) {
                Some((o, _)) if !self.overlaps_other(key, o, width) => {
                    return fold(&self.overlay_word(key, o, width));
                }
                _ => self.materialize(key),
            }
        }
        Self::load_bytes(&self.mem_get(ts, array), off, width)
    }

    /// Writes at a literal offset into the overlay (one word per offset); `false` when the
    /// access must use the base array (after the overlay has been written into it).
    pub(in crate::encode) fn overlay_store(
        &mut self,
        ts: &TState,
        array: ArrayId,
        off: &Sexp,
        bits: &Sexp,
        width: u32,
    ) -> bool {
        let key = self.mem_key(ts, array);
        if !(self.fold && self.global.contains_key(&key)) {
            return false;
        }
        let o = match lit(off) {
            Some((o, _)) if !self.overlaps_other(key, o, width) => o,
            _ => {
                self.materialize(key);
                return false;
            }
        };
        let cur = self.overlay_word(key, o, width);
        let v = fold(&app("ite", vec![ts.pc.clone(), bits.clone(), cur]));
        let name = format!("{}.at{o}", self.mem_name(key));
        let v = self.define(&name, Sexp::bv_sort(8 * width), v);
        self.concrete.overlay.entry(key).or_default().insert(o, (width, v));
        true
    }

    /// The base name of serialized memory `key`: `mem.NAME`, with `.bB` for a block `B > 0`.
    pub(in crate::encode) fn mem_name(&self, key: MemKey) -> String {
        let name = sym(&self.k.array(key.0).name);
        match key.1 {
            0 => format!("mem.{name}"),
            b => format!("mem.{name}.b{b}"),
        }
    }

    /// Writes the overlay of memory `key` into its base array.
    pub(in crate::encode) fn materialize(&mut self, key: MemKey) {
        let Some(m) = self.concrete.overlay.remove(&key) else {
            return;
        };
        if m.is_empty() {
            return;
        }
        let mut base = self.global[&key].clone();
        for (o, (w, v)) in m {
            base = Self::store_bytes(base, &mk(o, 64), &v, w);
        }
        let name = self.mem_name(key);
        let d = self.define(&name, mem_sort(), base);
        self.global.insert(key, d);
    }

    /// Writes every overlay into its base array.
    pub(in crate::encode) fn materialize_all(&mut self) {
        let ids: Vec<MemKey> = self.concrete.overlay.keys().copied().collect();
        for a in ids {
            self.materialize(a);
        }
    }
}
