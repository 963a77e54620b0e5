//! Tests of the offsets' lemmas (`nonlinear/lemmas.rs`): mixed-radix, common-scale, row-major
//! and rows' lemmas, each checked valid by z3 and shown to need its premises.

use super::radix_script;
use crate::encode::nonlinear;
use crate::encode::tests::{parse_sexp, script_text, z3_says};
use crate::solver::{Command, Sexp};
use num_bigint::BigUint;

#[test]
fn radix_lemma_is_derived_only_without_wrapping_and_is_valid() {
    let x = |t: &str| Sexp::atom(format!("{t}.g"));
    // gridDim 4: g <= 3*8 + 7 cannot wrap 8 bits, so g1 = g2 forces equal coordinates.
    let cmds = radix_script(Some(4), 0);
    let mut lemmas = Vec::new();
    nonlinear::Facts::new(&cmds).pair_lemmas(&x("t1"), &x("t2"), &mut lemmas);
    assert_eq!(lemmas.len(), 1, "{lemmas:?}");
    assert_eq!(
        lemmas[0].to_string(),
        "(=> (= t1.g t2.g) (and (= t1.tx t2.tx) (= t1.bx t2.bx)))"
    );
    // Valid: its negation is unsatisfiable over the exact (multiplying) script.
    let neg = Sexp::app("not", vec![lemmas[0].clone()]);
    assert_eq!(z3_says(&script_text(&cmds, &[neg])), "unsat");
    // A symbolic grid of up to 100 blocks: 99*8 + 7 wraps 8 bits, and the lemma as it stands
    // would be false (its negation is satisfiable). It is derived only under the condition
    // that no block index past 255/8 - 1 = 31 takes part, and is then valid.
    let cmds = radix_script(None, 100);
    let mut lemmas = Vec::new();
    nonlinear::Facts::new(&cmds).pair_lemmas(&x("t1"), &x("t2"), &mut lemmas);
    assert_eq!(lemmas.len(), 1, "{lemmas:?}");
    assert_eq!(
        lemmas[0].to_string(),
        "(=> (and (= t1.g t2.g) (bvule t1.bx #x1f) (bvule t2.bx #x1f)) (and (= t1.tx t2.tx) (= t1.bx t2.bx)))"
    );
    let neg = Sexp::app("not", vec![lemmas[0].clone()]);
    assert_eq!(z3_says(&script_text(&cmds, &[neg])), "unsat");
    let would_be = parse_sexp("(not (=> (= t1.g t2.g) (and (= t1.tx t2.tx) (= t1.bx t2.bx))))");
    assert_eq!(z3_says(&script_text(&cmds, &[would_be])), "sat");
    // A condition one bound looser (block indices up to 32) would make it false.
    let looser = parse_sexp(
        "(not (=> (and (= t1.g t2.g) (bvule t1.bx #x20) (bvule t2.bx #x20)) (and (= t1.tx t2.tx) (= t1.bx t2.bx))))",
    );
    assert_eq!(z3_says(&script_text(&cmds, &[looser])), "sat");
    // Up to 31 blocks: 30*8 + 7 < 256, derived again.
    let cmds = radix_script(None, 31);
    let mut lemmas = Vec::new();
    nonlinear::Facts::new(&cmds).pair_lemmas(&x("t1"), &x("t2"), &mut lemmas);
    assert_eq!(lemmas.len(), 1, "{lemmas:?}");
}

#[test]
fn a_radix_lemma_takes_the_bound_the_path_condition_gives_as_its_premise() {
    // `x = b*10 + e`: a row of 10 elements, its column `e` bounded only by what a thread's
    // path condition says (a loop guard), not by the script's top level.
    let mut cmds = radix_script(Some(4), 0);
    for t in ["t1", "t2"] {
        cmds.push(Command::DeclareConst {
            name: format!("{t}.e"),
            sort: Sexp::bv_sort(8),
        });
        cmds.push(Command::DefineConst {
            name: format!("{t}.x"),
            sort: Sexp::bv_sort(8),
            value: parse_sexp(&format!("(bvadd (bvmul {t}.bx #x0a) {t}.e)")),
        });
    }
    let x = |t: &str| Sexp::atom(format!("{t}.x"));
    let mut lemmas = Vec::new();
    nonlinear::Facts::new(&cmds).pair_lemmas(&x("t1"), &x("t2"), &mut lemmas);
    assert_eq!(lemmas.len(), 1, "{lemmas:?}");
    assert_eq!(
        lemmas[0].to_string(),
        "(=> (and (= t1.x t2.x) (bvult t1.e #x0a) (bvult t2.e #x0a)) (and (= t1.e t2.e) (= t1.bx t2.bx)))"
    );
    let neg = Sexp::app("not", vec![lemmas[0].clone()]);
    assert_eq!(z3_says(&script_text(&cmds, &[neg])), "unsat");
    // Without the premise it would be false: a column of 10 is the next row's first.
    let would_be = parse_sexp("(not (=> (= t1.x t2.x) (and (= t1.e t2.e) (= t1.bx t2.bx))))");
    assert_eq!(z3_says(&script_text(&cmds, &[would_be])), "sat");
}

#[test]
fn offset_lemma_needs_a_common_scale_covering_the_widths() {
    let cmds = radix_script(Some(4), 0);
    let facts = nonlinear::Facts::new(&cmds);
    let o = |t: &str, c: &str| parse_sexp(&format!("(bvmul ((_ zero_extend 56) {t}.g) {c})"));
    let mut out = Vec::new();
    facts.offset_lemmas(
        &o("t1", "#x0000000000000004"),
        4,
        &o("t2", "#x0000000000000004"),
        4,
        &mut out,
    );
    // Overlap => equal indices, then the radix lemma of the indices.
    assert_eq!(out.len(), 2, "{out:?}");
    let valid = Sexp::app("and", out.clone());
    assert_eq!(z3_says(&script_text(&cmds, &[Sexp::app("not", vec![valid])])), "unsat");
    // An 8-byte access at a 4-byte scale may overlap the next element: nothing derived.
    let mut out = Vec::new();
    facts.offset_lemmas(
        &o("t1", "#x0000000000000004"),
        8,
        &o("t2", "#x0000000000000004"),
        4,
        &mut out,
    );
    assert!(out.is_empty(), "{out:?}");
    // Scales 4 and 8: their common scale 4 covers both 4-byte accesses, so overlap means
    // `g1 = 2*g2` (the second offset as the common scale's multiple).
    let mut out = Vec::new();
    facts.offset_lemmas(
        &o("t1", "#x0000000000000004"),
        4,
        &o("t2", "#x0000000000000008"),
        4,
        &mut out,
    );
    assert!(!out.is_empty(), "{out:?}");
    assert!(
        out[0]
            .to_string()
            .ends_with("(= ((_ zero_extend 56) t1.g) (bvmul ((_ zero_extend 56) t2.g) #x0000000000000002)))")
    );
    let valid = Sexp::app("and", out.clone());
    assert_eq!(z3_says(&script_text(&cmds, &[Sexp::app("not", vec![valid])])), "unsat");
    // Scales 2 and 4: the common scale 2 is narrower than a 4-byte access: nothing derived.
    let mut out = Vec::new();
    facts.offset_lemmas(
        &o("t1", "#x0000000000000002"),
        4,
        &o("t2", "#x0000000000000004"),
        4,
        &mut out,
    );
    assert!(out.is_empty(), "{out:?}");
}

#[test]
fn offsets_of_several_scales_and_a_chosen_literal_are_divided_by_their_common_scale() {
    // `b*(4*10) + i*4 + k` with `k` chosen among 4, 8, 12 (a vector's members): four times
    // `b*10 + (i + k/4)`, whose row `b` the radix lemma then gives under the condition that
    // the column `i + k/4` stays below 10.
    let mut cmds = radix_script(Some(4), 0);
    for t in ["t1", "t2"] {
        cmds.push(Command::DeclareConst {
            name: format!("{t}.i"),
            sort: Sexp::bv_sort(64),
        });
        cmds.push(Command::DeclareConst {
            name: format!("{t}.k"),
            sort: Sexp::bv_sort(64),
        });
        cmds.push(Command::Assert(parse_sexp(&format!(
            "(or (= {t}.k (_ bv4 64)) (= {t}.k (_ bv8 64)) (= {t}.k (_ bv12 64)))"
        ))));
    }
    let mut facts = nonlinear::Facts::new(&cmds);
    for t in ["t1", "t2"] {
        facts.bound(
            &format!("{t}.k"),
            64,
            (BigUint::from(4u8), BigUint::from(12u8)),
            BigUint::from(4u8),
        );
    }
    let o = |t: &str| {
        parse_sexp(&format!(
            "(bvadd (bvadd (bvmul ((_ zero_extend 56) {t}.bx) (_ bv40 64)) (bvmul {t}.i (_ bv4 64))) {t}.k)"
        ))
    };
    let mut out = Vec::new();
    facts.offset_lemmas(&o("t1"), 4, &o("t2"), 4, &mut out);
    let text: Vec<String> = out.iter().map(|l| l.to_string()).collect();
    assert!(
        text[0].ends_with(
            "(= (bvadd (bvmul ((_ zero_extend 56) t1.bx) #x000000000000000a) (bvadd t1.i (bvudiv t1.k #x0000000000000004))) \
             (bvadd (bvmul ((_ zero_extend 56) t2.bx) #x000000000000000a) (bvadd t2.i (bvudiv t2.k #x0000000000000004)))))"
        ),
        "{text:?}"
    );
    assert!(
        text.iter().any(
            |l| l.contains("(bvult (bvadd t1.i (bvudiv t1.k #x0000000000000004)) #x000000000000000a)")
                && l.ends_with("(= ((_ zero_extend 56) t1.bx) ((_ zero_extend 56) t2.bx))))")
        ),
        "{text:?}"
    );
    let valid = Sexp::app("and", out.clone());
    assert_eq!(z3_says(&script_text(&cmds, &[Sexp::app("not", vec![valid])])), "unsat");
    // A chosen literal not known to be a multiple of 4 (no step given): nothing derived.
    let facts = nonlinear::Facts::new(&cmds);
    let mut out = Vec::new();
    facts.offset_lemmas(&o("t1"), 4, &o("t2"), 4, &mut out);
    assert!(out.is_empty(), "{out:?}");
}

/// A row-major element offset `(sext(i*C) + sext(j)) * 4` (written as the sum of the row's and
/// the element's byte offsets): overlapping accesses have equal sums, and then, with `i` and
/// `j` in range, equal rows and columns. The lemma is made for llm.c's row length (50257, `K`
/// = 42730), and is valid (z3) for a row length of 7 (`K` = 306783378), where z3 proves it in
/// seconds (for 50257 it takes z3 about 40 s: why the lemma helps).
#[test]
fn row_major_offsets_give_equal_rows_and_columns() {
    let bv32 = Sexp::bv_sort(32);
    let cmds: Vec<Command> = ["t1.i", "t1.j", "t2.i", "t2.j"]
        .iter()
        .map(|n| Command::DeclareConst {
            name: (*n).into(),
            sort: bv32.clone(),
        })
        .collect();
    let facts = nonlinear::Facts::new(&cmds);
    let o = |t: &str, c: &str| {
        parse_sexp(&format!(
            "(bvadd (bvmul ((_ sign_extend 32) (bvmul {t}.i {c})) #x0000000000000004) \
             (bvmul ((_ sign_extend 32) {t}.j) #x0000000000000004))"
        ))
    };
    let row_lemma = |out: &[Sexp], k: &str| out.iter().find(|l| format!("{l:?}").contains(k)).cloned();
    let mut out = Vec::new();
    facts.offset_lemmas(&o("t1", "#x0000c451"), 4, &o("t2", "#x0000c451"), 4, &mut out);
    assert!(row_lemma(&out, "#x0000a6ea").is_some(), "no row-major lemma: {out:?}");
    let mut out = Vec::new();
    facts.offset_lemmas(&o("t1", "#x00000007"), 4, &o("t2", "#x00000007"), 4, &mut out);
    let row = row_lemma(&out, "#x12492492").unwrap_or_else(|| panic!("no row-major lemma: {out:?}"));
    let negated = Sexp::app("not", vec![row.clone()]);
    assert_eq!(z3_says(&script_text(&cmds, &[negated])), "unsat", "not valid: {row:?}");
    // Another row length on one side: no row-major lemma.
    let mut out = Vec::new();
    facts.offset_lemmas(&o("t1", "#x0000c451"), 4, &o("t2", "#x0000c452"), 4, &mut out);
    assert!(row_lemma(&out, "#x0000a6ea").is_none(), "{out:?}");
    // The sum taken in 32 bits, then extended (`out[i * C + j]`): the same lemma, valid too.
    let summed = |t: &str, c: &str| {
        parse_sexp(&format!(
            "(bvmul ((_ sign_extend 32) (bvadd (bvmul {t}.i {c}) {t}.j)) #x0000000000000004)"
        ))
    };
    let mut out = Vec::new();
    facts.offset_lemmas(&summed("t1", "#x00000007"), 4, &summed("t2", "#x00000007"), 4, &mut out);
    let row = row_lemma(&out, "#x12492492").unwrap_or_else(|| panic!("no row-major lemma: {out:?}"));
    let negated = Sexp::app("not", vec![row.clone()]);
    assert_eq!(z3_says(&script_text(&cmds, &[negated])), "unsat", "not valid: {row:?}");
    // An unsigned column, zero-extended (llm.c's `y[min(C - 1, i + u*blockDim.x)]`): the same
    // lemma, still valid, since its premises keep the column non-negative.
    let unsigned = |t: &str, c: &str| {
        parse_sexp(&format!(
            "(bvadd (bvmul ((_ sign_extend 32) (bvmul {t}.i {c})) #x0000000000000004) \
             (bvmul ((_ zero_extend 32) {t}.j) #x0000000000000004))"
        ))
    };
    let mut out = Vec::new();
    facts.offset_lemmas(
        &unsigned("t1", "#x00000007"),
        4,
        &unsigned("t2", "#x00000007"),
        4,
        &mut out,
    );
    let row = row_lemma(&out, "#x12492492").unwrap_or_else(|| panic!("no row-major lemma: {out:?}"));
    let negated = Sexp::app("not", vec![row.clone()]);
    assert_eq!(z3_says(&script_text(&cmds, &[negated])), "unsat", "not valid: {row:?}");
}

#[test]
fn an_offset_of_three_terms_gets_a_lemma_only_with_a_radix_after_it() {
    // `4*a + 4*b + 4*c` of three unrelated 64-bit values: no mixed-radix reading, so no
    // lemma (alone it slowed yices on llm.c's `b*T*V + t*V + v` past 60 s); two terms
    // (`4*a + 4*b`) keep theirs, as before offsets of more terms were read.
    let mut cmds = radix_script(Some(4), 0);
    for t in ["t1", "t2"] {
        for v in ["a", "b", "c"] {
            cmds.push(Command::DeclareConst {
                name: format!("{t}.{v}"),
                sort: Sexp::bv_sort(64),
            });
        }
    }
    let facts = nonlinear::Facts::new(&cmds);
    let three = |t: &str| {
        parse_sexp(&format!(
            "(bvadd (bvadd (bvmul {t}.a #x0000000000000004) (bvmul {t}.b #x0000000000000004)) (bvmul {t}.c #x0000000000000004))"
        ))
    };
    let mut out = Vec::new();
    facts.offset_lemmas(&three("t1"), 4, &three("t2"), 4, &mut out);
    assert!(out.is_empty(), "{out:?}");
    let two = |t: &str| {
        parse_sexp(&format!(
            "(bvadd (bvmul {t}.a #x0000000000000004) (bvmul {t}.b #x0000000000000004))"
        ))
    };
    facts.offset_lemmas(&two("t1"), 4, &two("t2"), 4, &mut out);
    assert_eq!(out.len(), 1, "{out:?}");
    let valid = Sexp::app("and", out.clone());
    assert_eq!(z3_says(&script_text(&cmds, &[Sexp::app("not", vec![valid])])), "unsat");
}

#[test]
fn row_overlap_lemma_is_valid_and_needs_its_bounds() {
    // `2*sext(768*i) + 2*sext(c)`: rows of 768 2-byte elements, 4-byte accesses at column `c`
    // (`out + C*t` indexed by a column: llm.c's store128 pieces). The common scale 2 is below
    // the width, so only the rows' lemma applies.
    let mut cmds = Vec::new();
    for t in ["t1", "t2"] {
        for v in ["i", "c"] {
            cmds.push(Command::DeclareConst {
                name: format!("{t}.{v}"),
                sort: Sexp::bv_sort(32),
            });
        }
    }
    let o = |t: &str| {
        parse_sexp(&format!(
            "(bvadd (bvmul ((_ sign_extend 32) (bvmul #x00000300 {t}.i)) #x0000000000000002) (bvmul ((_ sign_extend 32) {t}.c) #x0000000000000002))"
        ))
    };
    let mut out = Vec::new();
    nonlinear::Facts::new(&cmds).offset_lemmas(&o("t1"), 4, &o("t2"), 4, &mut out);
    assert_eq!(out.len(), 1, "{out:?}");
    let text = out[0].to_string();
    assert!(
        text.starts_with("(=> (and (and (bvsle #x00000000 t1.i) (bvsle t1.i #x002aaaaa))"),
        "{text}"
    );
    assert!(
        text.ends_with(
            "(and (= t1.i t2.i) (= (bvmul ((_ sign_extend 32) t1.c) #x0000000000000002) (bvmul ((_ sign_extend 32) t2.c) #x0000000000000002))))"
        ),
        "{text}"
    );
    let neg = Sexp::app("not", vec![out[0].clone()]);
    assert_eq!(z3_says(&script_text(&cmds, &[neg])), "unsat");
    // Without the column's bounds it would be false: column 768 is the next row's first.
    let overlap = "(and (bvslt o1 (bvadd o2 #x0000000000000004)) (bvslt o2 (bvadd o1 #x0000000000000004)))"
        .replace("o1", &o("t1").to_string())
        .replace("o2", &o("t2").to_string());
    let would_be = parse_sexp(&format!(
        "(not (=> (and (bvsle #x00000000 t1.i) (bvsle t1.i #x002aaaaa) (bvsle #x00000000 t2.i) (bvsle t2.i #x002aaaaa) {overlap}) (= t1.i t2.i)))"
    ));
    assert_eq!(z3_says(&script_text(&cmds, &[would_be])), "sat");
    // One term alone is the common scale's case: no rows' lemma beside it.
    let one = |t: &str| {
        parse_sexp(&format!(
            "(bvmul ((_ sign_extend 32) (bvmul #x00000300 {t}.i)) #x0000000000000002)"
        ))
    };
    let mut out = Vec::new();
    nonlinear::Facts::new(&cmds).offset_lemmas(&one("t1"), 4, &one("t2"), 4, &mut out);
    assert!(out.iter().all(|l| !l.to_string().contains("#x002aaaaa")), "{out:?}");
}

#[test]
fn row_overlap_lemma_reads_rows_after_literals() {
    // `128 + 4*sext(c) + 4*zext(3200*b)` and `6528 + 4*sext(c) + 4*zext(3200*b)`: two rows of
    // 1600 floats per block after a 128-byte line (llm.c's `scratch += 32`), 4-byte accesses.
    // Both rests are read from 128, so both lie within one block's 12800 bytes; the lemma is
    // valid. A lone row after a literal (a record's field) gets none.
    let mut cmds = Vec::new();
    for t in ["t1", "t2"] {
        for v in ["b", "c"] {
            cmds.push(Command::DeclareConst {
                name: format!("{t}.{v}"),
                sort: Sexp::bv_sort(32),
            });
        }
    }
    let o = |t: &str, literal: &str| {
        parse_sexp(&format!(
            "(bvadd (bvadd #x{literal} (bvmul ((_ sign_extend 32) {t}.c) #x0000000000000004)) (bvmul ((_ zero_extend 32) (bvmul #x00000c80 {t}.b)) #x0000000000000004))"
        ))
    };
    let facts = nonlinear::Facts::new(&cmds);
    let mut out = Vec::new();
    facts.offset_lemmas(
        &o("t1", "0000000000000080"),
        4,
        &o("t2", "0000000000001980"),
        4,
        &mut out,
    );
    assert_eq!(out.len(), 1, "{out:?}");
    let text = out[0].to_string();
    // The second rest is its column plus the literals' difference, 6400.
    assert!(
        text.contains("(bvadd (bvmul ((_ sign_extend 32) t2.c) #x0000000000000004) #x0000000000001900)"),
        "{text}"
    );
    assert!(text.contains("(= t1.b t2.b)"), "{text}");
    let neg = Sexp::app("not", vec![out[0].clone()]);
    assert_eq!(z3_says(&script_text(&cmds, &[neg])), "unsat");
    let lone = |t: &str| {
        parse_sexp(&format!(
            "(bvadd #x0000000000000080 (bvmul ((_ zero_extend 32) (bvmul #x00000c80 {t}.b)) #x0000000000000004))"
        ))
    };
    let mut out = Vec::new();
    facts.offset_lemmas(&lone("t1"), 4, &lone("t2"), 4, &mut out);
    assert!(out.is_empty(), "{out:?}");
}
