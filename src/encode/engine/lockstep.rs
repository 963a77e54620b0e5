//! What uniformity says of the two threads in an abstracted loop (`pair::uniform`; ARCHITECTURE.md
//! "Loops"): uniform havocked variables agree at equal iteration and exit counts, a uniform
//! loop is left by both together, and a loop whose barriers all run under block-uniform control
//! is passed in lock step by two threads of a block that enter it together (no divergence at
//! its barriers, related barrier counts).
//!
//! Does not encode the loop itself (`loops`).

use super::{Encoder, TState};
use crate::encode::pair::uniform::{Level, LoopUniformity};
use crate::encode::terms::{and, app, atom, bvn, equal};
use crate::ir::{AbstractLoop, VarId};
use crate::solver::Sexp;

/// What the uniformity analysis says of a loop at both levels.
pub(super) struct Uniformities {
    pub(super) grid: LoopUniformity,
    pub(super) block: LoopUniformity,
    /// The block-uniform havocked variables that are not grid-uniform.
    block_havocked: Vec<VarId>,
}

/// The states [`Encoder::uniform_counts`] relates, per thread of the pair: on entry, the
/// iteration count and the barrier count at the head, at the next head (`next`), the exit
/// count and the state after the loop.
pub(super) struct UniformCounts<'a> {
    pub(super) entry: &'a [TState],
    pub(super) its: &'a [Sexp],
    pub(super) head: &'a [Sexp],
    pub(super) next: &'a [TState],
    pub(super) exits: &'a [Sexp],
    pub(super) post: &'a [TState],
}

impl Encoder<'_> {
    /// [`Encoder::loop_uniformity`] of `l` at both levels.
    pub(super) fn uniformities(&self, l: &AbstractLoop) -> Uniformities {
        let grid = self.loop_uniformity(l, Level::Grid);
        let block = self.loop_uniformity(l, Level::Block);
        let block_havocked = (block.havocked.iter())
            .filter(|v| !grid.havocked.contains(v))
            .copied()
            .collect();
        Uniformities {
            grid,
            block,
            block_havocked,
        }
    }

    /// The uniform havocked variables of the two threads' states `st` agree where `same` (equal
    /// counts of the loop) and the uniform values they read agreed on `entry`: the grid-uniform
    /// ones in any two threads, the block-uniform ones in two threads of one block.
    pub(super) fn agree_uniform(&mut self, u: &Uniformities, entry: &[TState], same: Sexp, st: &mut [TState]) {
        let (grid, block) = (&u.grid, &u.block);
        self.uniform_agree(&grid.havocked, &grid.entry, &mut entry.to_vec(), same.clone(), st);
        let in_block = and(atom("same_block"), same);
        self.uniform_agree(&u.block_havocked, &block.entry, &mut entry.to_vec(), in_block, st);
    }

    /// A loop whose test and exits are uniform is left together (`same`: equal exit counts and
    /// places) by two threads that enter it with the same uniform values it reads before
    /// assigning them; a block-uniform one by two such threads of one block.
    pub(super) fn leave_together(&mut self, u: &Uniformities, entry: &[TState], same: Sexp) {
        if u.grid.control {
            let agree = self.entry_agrees(&u.grid.exposed, &mut entry.to_vec());
            self.assert(app("=>", vec![agree, same]));
        } else if u.block.control {
            let agree = self.entry_agrees(&u.block.exposed, &mut entry.to_vec());
            self.assert(app("=>", vec![and(atom("same_block"), agree), same]));
        }
    }

    /// Whether the two threads enter a loop together (`entry`: their states on entry): both
    /// reach it, in one block, with the same barrier count and the same values of the
    /// block-uniform variables `exposed` that its iterations read before they assign them.
    /// When every barrier of the loop runs under block-uniform control
    /// ([`crate::encode::pair::uniform`], `LoopUniformity::barriers`), such threads pass the
    /// same barriers in each iteration: none diverges from the other at a barrier of the loop
    /// (`Encoder::entered_together`), and their counts are related (`uniform_counts`).
    pub(super) fn entered_together(&mut self, exposed: &[VarId], entry: &[TState]) -> Sexp {
        let agree = self.entry_agrees(exposed, &mut entry.to_vec());
        let premise = and(
            and(atom("same_block"), and(entry[0].pc.clone(), entry[1].pc.clone())),
            and(agree, equal(&entry[0].bc, &entry[1].bc)),
        );
        self.define("together", atom("Bool"), premise)
    }

    /// The barrier counts of two threads of one block in a loop whose barriers per iteration
    /// are not a fixed number (a loop around a loop with barriers) but run under block-uniform
    /// control ([`crate::encode::pair::uniform`], `LoopUniformity::barriers`): such threads
    /// that enter it together (`premise`, [`Encoder::entered_together`]) run the same barriers in
    /// each iteration, so
    /// - at equal iteration counts their counts at the head are equal;
    /// - one that finishes iteration `i` (its count `next`) has not passed more barriers than
    ///   the other at the head of an iteration after `i`, nor after the loop;
    /// - at equal exit counts their counts after the loop are equal;
    ///
    /// and, per thread, the count at the head is the entry count at iteration 0, and the counts
    /// at the head and after the loop are the entry count plus less than 2^56 (the loop runs
    /// fewer iterations than 2^48, as every abstracted loop is assumed to: `iteration_state`).
    /// Each holds in every execution; without
    /// them each thread's count at the head is fresh, and two threads of a block in one
    /// iteration seem to be between different barriers: false divergence and races.
    pub(super) fn uniform_counts(&mut self, premise: Sexp, c: &UniformCounts<'_>) {
        for th in 0..2 {
            let (bc0, head, post) = (&c.entry[th].bc, &c.head[th], &c.post[th].bc);
            let first = app("=", vec![c.its[th].clone(), bvn(0, 64)]);
            self.assert(app("=>", vec![first, app("=", vec![head.clone(), bc0.clone()])]));
            for later in [head, post] {
                // At most 2^56 barriers (counted as the engine counts them) in the loop.
                let run = app("bvsub", vec![later.clone(), bc0.clone()]);
                self.assert(app("bvule", vec![bc0.clone(), later.clone()]));
                self.assert(app("bvult", vec![run, bvn(1 << 56, 64)]));
            }
        }
        let same_it = app("=", vec![c.its[0].clone(), c.its[1].clone()]);
        let same_head = app("=", vec![c.head[0].clone(), c.head[1].clone()]);
        self.assert(app("=>", vec![and(premise.clone(), same_it), same_head]));
        let same_exit = app("=", vec![c.exits[0].clone(), c.exits[1].clone()]);
        let same_post = app("=", vec![c.post[0].bc.clone(), c.post[1].bc.clone()]);
        self.assert(app("=>", vec![and(premise.clone(), same_exit), same_post]));
        for (a, b) in [(0, 1), (1, 0)] {
            // (The path condition, not `reach`: an assumption of a nested loop's exit that
            // fails must not hide that the iteration ends after its barriers.)
            let done = and(premise.clone(), c.next[a].pc.clone());
            let later = app("bvult", vec![c.its[a].clone(), c.its[b].clone()]);
            let not_past_head = app("bvule", vec![c.next[a].bc.clone(), c.head[b].clone()]);
            self.assert(app("=>", vec![and(done.clone(), later), not_past_head]));
            let not_past_post = app("bvule", vec![c.next[a].bc.clone(), c.post[b].bc.clone()]);
            self.assert(app("=>", vec![done, not_past_post]));
        }
    }
}
