//! Lambdas in host code (issue 53 item 2): a lambda that launches a kernel with the values it
//! captures, called from another function (llm.c's `attention_backward.cu`:
//! `auto launch = [&](auto c) { k<c.value><<<dim3(T, B * NH), c.value>>>(…); };
//! dispatch_launch(launch, block_size);`, where `dispatch_launch` switches on the block size and
//! calls `launch(std::integral_constant<int, 32>{})`). The lambda is a value ([`Closure`]): the
//! captured variables' values, read where it is passed or called, and run with them
//! ([`Host::call`]).
//!
//! Soundness: a captured variable's value is the one its function holds when the lambda is
//! evaluated there (passed or called). A lambda captures its variables by reference or by
//! copy; a value kept is one that is the same both ways: the variable has the value it had
//! when the lambda was made. Past that point, anything that may change a variable through
//! another name ([`Host::clobber`]: a call, a write through a pointer or reference) ends the
//! values' validity ([`Closure::stamp`]), and a variable the lambda's own body may write is
//! never taken.

use super::*;

/// A lambda's value: what it captures, valid while [`Host::generation`] is `stamp`.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Closure {
    /// The captured variables' values, by declaration id, sorted by id.
    pub(super) captures: Vec<(String, Val)>,
    /// The [`Host::generation`] the values hold in.
    pub(super) stamp: u64,
}

impl<'a> Host<'a, '_> {
    /// The lambda `e` evaluates to: a `LambdaExpr` (its captures' values here), or a variable
    /// holding one (its values checked against this function's).
    pub(super) fn closure(&mut self, e: &'a Node, env: &Env) -> Option<Val> {
        let mut n = strip(e);
        // A copy of a lambda (`auto l2 = l;`).
        while n.kind == "CXXConstructExpr" && n.inner.len() == 1 {
            n = strip(&n.inner[0]);
        }
        match n.kind.as_str() {
            "LambdaExpr" => {
                let mut ids = HashSet::new();
                named(n, &mut ids);
                let mut captures: Vec<(String, Val)> = ids
                    .into_iter()
                    .filter_map(|id| Some((id.clone(), env.vals.get(&id)?.clone())))
                    .collect();
                captures.sort_by(|a, b| a.0.cmp(&b.0));
                Some(Val::Lambda(Closure {
                    captures,
                    stamp: self.generation,
                }))
            }
            "DeclRefExpr" => {
                let Some(Val::Lambda(c)) = env.vals.get(&n.referenced_decl.as_ref()?.id) else {
                    return None;
                };
                Some(Val::Lambda(self.refresh(c, env)))
            }
            _ => None,
        }
    }

    /// `c` as this point of the walk sees it, valid now: each capture of a variable of `env`
    /// kept while the variable still has the captured value; the others only while nothing has
    /// changed since the values were read ([`Closure::stamp`]).
    fn refresh(&self, c: &Closure, env: &Env) -> Closure {
        let valid = c.stamp == self.generation;
        let captures = c
            .captures
            .iter()
            .filter(|(id, v)| env.vals.get(id).map_or(valid, |now| now == v))
            .cloned()
            .collect();
        Closure {
            captures,
            stamp: self.generation,
        }
    }

    /// The captured values a call of the lambda operator `f` (`operator()`) on the object
    /// `object` runs with: those still valid here ([`Host::closure`]), none when the object is
    /// not a lambda known here; never a variable the body may write.
    pub(super) fn captured(&mut self, f: &'a Node, object: &'a Node, env: &Env) -> Vec<(String, Val)> {
        let (Some(Val::Lambda(c)), Some(body)) = (self.closure(object, env), body_of(f)) else {
            return Vec::new();
        };
        let mut written = HashSet::new();
        self.assigned(body, &mut written);
        c.captures.into_iter().filter(|(id, _)| !written.contains(id)).collect()
    }

    /// A generation none has had: what a write through another name moves to
    /// ([`Host::clobber`]).
    pub(super) fn new_generation(&mut self) {
        self.newest += 1;
        self.generation = self.newest;
    }

    /// At the start of a branch that leaves from the state of generation `from` (a `case` of a
    /// `switch`): a new generation, in which the lambdas of `env` valid at `from` stay valid
    /// (the state is the one they were valid in).
    pub(super) fn branch_from(&mut self, from: u64, env: &mut Env) {
        self.new_generation();
        restamp(env, from, self.generation);
    }
}

/// The lambdas of `env` valid at generation `from` made valid at `to` (the same state).
pub(super) fn restamp(env: &mut Env, from: u64, to: u64) {
    for v in env.vals.values_mut() {
        if let Val::Lambda(c) = v
            && c.stamp == from
        {
            c.stamp = to;
        }
    }
}
