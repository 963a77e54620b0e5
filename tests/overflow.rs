//! Signed overflow is undefined behaviour (issue 43, item 4): a finding that exists only when a
//! signed `int` `+`, `-`, `*` of the source overflows is excluded under the standard
//! assumptions, named with that operation; `--strict` reports it; unsigned arithmetic wraps as
//! C++ defines it; `--check-overflow` reports each signed overflow a thread can reach, with a
//! witness. Each kernel is written to a temporary file and checked by the binary.

mod common;

use serde_json::Value;

/// A race on `a` between thread `i` and thread `i + 2^20`: `i * 4096` wraps 32 bits.
const MUL: &str = "#define NJ 4096
__global__ void scale(int *a) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    a[i * NJ] = i;
}
";

/// `row * w + col` with `w` and `h` parameters, guarded only by the bounds.
const ROW_COL: &str = "__global__ void fill(float *out, int w, int h) {
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < h && col < w)
        out[row * w + col] = 0.0f;
}
";

/// `row * W + col` guarded so that it stays below 2^20 (`W` a literal: the product is linear).
const ROW_COL_GUARDED: &str = "#define W 1024
__global__ void fill(float *out, int h) {
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= 0 && row < h && h <= 1024 && col >= 0 && col < W)
        out[row * W + col] = 0.0f;
}
";

/// `row * w + col` with the parameter `w` guarded so that it stays below 2^20.
const ROW_COL_GUARDED_PARAM: &str = "__global__ void fill(float *out, int w, int h) {
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= 0 && col >= 0 && row < h && col < w && h <= 1024 && w <= 1024)
        out[row * w + col] = 0.0f;
}
";

/// Runs gpug with `args` on `source` written as `name` in a temporary directory: the exit code
/// and the `--json` report.
fn run(name: &str, source: &str, args: &[&str]) -> (Option<i32>, Value) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    std::fs::write(&path, source).unwrap();
    let mut all: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    all.extend(["--json".to_string(), path.display().to_string()]);
    let out = common::gpug(&all);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let json: Value = serde_json::from_str(&stdout).unwrap_or_else(|e| {
        panic!(
            "{name} {args:?}: not JSON ({e}): {stdout}\nstderr: {}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (out.status.code(), json)
}

/// The one kernel of a report.
fn kernel(json: &Value) -> &Value {
    &json["kernels"][0]
}

/// The entries of `list` (`findings`, `excluded`) of the kernel, as an array.
fn entries<'a>(json: &'a Value, list: &str) -> Vec<&'a Value> {
    kernel(json)[list]
        .as_array()
        .map(|a| a.iter().collect())
        .unwrap_or_default()
}

fn kinds(json: &Value, list: &str) -> Vec<String> {
    entries(json, list)
        .iter()
        .map(|f| f["kind"].as_str().unwrap_or("").to_string())
        .collect()
}

/// `value` of the witness's `geometry` or `params` entry `name`.
fn witness_value(f: &Value, map: &str, name: &str) -> Option<i64> {
    let v = &f[map][name];
    v.as_i64().or_else(|| v.as_str().and_then(|s| s.parse().ok()))
}

#[test]
fn race_needing_i_times_nj_to_overflow_is_excluded_under_the_standard_assumptions() {
    for solver in ["z3", "cvc5", "yices"] {
        let (code, json) = run("mul.cu", MUL, &["--solver", solver]);
        assert_eq!(code, Some(0), "{solver}: {json}");
        let k = kernel(&json);
        assert_eq!(k["verdict"], "verified", "{solver}: {json}");
        assert!(entries(&json, "findings").is_empty(), "{solver}: {json}");
        let contract: Vec<&str> = k["contract"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(Value::as_str)
            .collect();
        assert!(
            contract.contains(&"no signed +, -, * overflows (undefined behaviour)"),
            "{solver}: {contract:?}"
        );
        let excluded = entries(&json, "excluded");
        assert_eq!(excluded.len(), 1, "{solver}: {json}");
        assert_eq!(excluded[0]["kind"], "race");
        assert_eq!(excluded[0]["array"], "a");
        let condition = excluded[0]["condition"].as_str().unwrap();
        assert!(
            condition.starts_with("only when `i * NJ` (")
                && condition.ends_with("mul.cu:4:7) overflows int: undefined behaviour"),
            "{solver}: {condition}"
        );
    }
}

#[test]
fn race_needing_a_signed_overflow_is_a_defect_under_strict() {
    let (code, json) = run("mul.cu", MUL, &["--solver", "z3", "--strict"]);
    assert_eq!(code, Some(1), "{json}");
    assert_eq!(kinds(&json, "findings"), ["race"], "{json}");
    assert!(entries(&json, "excluded").is_empty(), "{json}");
    assert!(kernel(&json)["contract"].as_array().unwrap().is_empty(), "{json}");
}

/// A race that only an index computed past its type allows (issue 53 item 4), in `src`
/// written to `file`: the kernel verified with the race listed apart under a condition that
/// starts and ends as given, its contract naming each of `names` and none of `not`; a defect
/// under `--strict`; and no `--check-overflow` finding but the race (the operation is defined).
fn assert_listed_apart(file: &str, src: &str, names: &[&str], not: &[&str], (starts, ends): (&str, &str)) {
    let (code, json) = run(file, src, &["--solver", "z3"]);
    assert_eq!(code, Some(0), "{json}");
    assert!(kinds(&json, "findings").is_empty(), "{json}");
    let contract: Vec<&str> = kernel(&json)["contract"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(
        names.iter().all(|n| contract.contains(n)) && !not.iter().any(|n| contract.contains(n)),
        "{contract:?}"
    );
    let excluded = entries(&json, "excluded");
    assert_eq!(excluded.len(), 1, "{json}");
    assert_eq!(excluded[0]["kind"], "race");
    let condition = excluded[0]["condition"].as_str().unwrap();
    assert!(
        condition.starts_with(starts) && condition.ends_with(ends),
        "{condition}"
    );
    let (code, json) = run(file, src, &["--solver", "z3", "--strict"]);
    assert_eq!(code, Some(1), "{json}");
    assert_eq!(kinds(&json, "findings"), ["race"], "{json}");
    let (_, json) = run(file, src, &["--solver", "z3", "--check-overflow"]);
    assert!(!kinds(&json, "findings").iter().any(|k| k != "race"), "{json}");
}

/// Unsigned wrap is defined, but `a[i * NJ]` wrapping indexes an array of 2^32 elements or
/// more (issue 53 item 4: an index computed past its type). The race is listed apart with that
/// condition, as one needing a signed overflow is, and `--strict` reports it; it is never a
/// `--check-overflow` finding (no undefined behaviour, and no signed operation in the source).
#[test]
fn a_race_needing_an_unsigned_index_to_wrap_is_listed_apart() {
    let unsigned = MUL.replace("int i =", "unsigned i =");
    assert_listed_apart(
        "umul.cu",
        &unsigned,
        &["no unsigned +, * computing an index wraps"],
        &[],
        (
            "only when `i * NJ` (",
            "umul.cu:4:7) wraps past 2^32 (unsigned index arithmetic): an index computed past its type",
        ),
    );
}

/// `int i = (… + threadIdx.x) * 8ul` stores a `size_t` product into an `int` (llm.c's
/// `gelu_forward_kernel2`): past `INT_MAX` the value changes, and threads `l` and `l + 2^29`
/// (both below 2^31, so no launch bound excludes them; each its own block's index) write one
/// element only then. The race is an index computed past its type (issue 53 item 4): listed
/// apart with the conversion named and no other kind of operation in the contract.
#[test]
fn a_race_needing_a_narrowing_conversion_is_listed_apart() {
    let src = "__global__ void scale(int *a) {
    int i = (blockIdx.x * blockDim.x + threadIdx.x) * 8ul;
    a[i] = blockIdx.x;
}
";
    assert_listed_apart(
        "conv.cu",
        src,
        &["no conversion to a signed type changes a value"],
        &[
            "no unsigned +, * computing an index wraps",
            "no signed +, -, * overflows (undefined behaviour)",
        ],
        (
            "only when `(blockIdx.x * blockDim.x + threadIdx.x) * 8ul` (",
            "conv.cu:2:13) does not fit in the int it is converted to: an index computed past its type",
        ),
    );
}

/// Under a concrete launch of 2^20 threads, `i * 8192` wraps for `i >= 2^18`: threads `i` and
/// `i + 2^19` write one element only then. The signed assumption is the one left open.
#[test]
fn concrete_launch_race_needing_an_overflow_is_excluded() {
    let src = MUL.replace("NJ 4096", "NJ 8192");
    let args = ["--solver", "z3", "--blockDim=256", "--gridDim=4096"];
    let (code, json) = run("mul8192.cu", &src, &args);
    assert_eq!(code, Some(0), "{json}");
    let k = kernel(&json);
    assert_eq!(k["verdict"], "verified", "{json}");
    assert_eq!(
        k["contract"],
        serde_json::json!(["no signed +, -, * overflows (undefined behaviour)"]),
        "{json}"
    );
    let excluded = entries(&json, "excluded");
    assert_eq!(excluded.len(), 1, "{json}");
    assert!(excluded[0]["condition"].as_str().unwrap().contains("`i * NJ` ("));
    let (code, json) = run("mul8192.cu", &src, &[&args[..], &["--strict"]].concat());
    assert_eq!(code, Some(1), "{json}");
}

/// `--no-overflow` already assumes every `+ - *` not to wrap: the race is not found at all, and
/// no contract names the signed assumption.
#[test]
fn no_overflow_flag_leaves_nothing_for_the_signed_assumption() {
    let (code, json) = run("mul.cu", MUL, &["--solver", "z3", "--no-overflow"]);
    assert_eq!(code, Some(0), "{json}");
    assert!(entries(&json, "findings").is_empty(), "{json}");
    assert!(
        entries(&json, "excluded").is_empty(),
        "the race needs a wrap that --no-overflow rules out: {json}"
    );
}

/// `row * w` (and `row * w + col`) can overflow: each is a `signed_overflow` finding whose
/// witness really overflows: the row its thread computes times the parameter `w` does not fit
/// an `int`. Neither the unsigned `blockIdx.y * blockDim.y` nor the byte offset is reported.
#[test]
fn check_overflow_finds_row_times_w_with_a_witness() {
    // (cvc5 takes 27 s over the product's queries: z3 and yices only.)
    for solver in ["z3", "yices"] {
        let (code, json) = run("rowcol.cu", ROW_COL, &["--solver", solver, "--check-overflow"]);
        assert_eq!(code, Some(1), "{solver}: {json}");
        let overflows: Vec<&Value> = entries(&json, "findings")
            .into_iter()
            .filter(|f| f["kind"] == "signed_overflow")
            .collect();
        let mut reasons: Vec<&str> = overflows.iter().filter_map(|f| f["reason"].as_str()).collect();
        reasons.sort();
        assert_eq!(
            reasons,
            [
                "`row * w + col` overflows int: undefined behaviour",
                "`row * w` overflows int: undefined behaviour"
            ],
            "{solver}: {json}"
        );
        let product = overflows
            .iter()
            .find(|f| f["reason"] == "`row * w` overflows int: undefined behaviour")
            .unwrap();
        let a = &product["accesses"][0];
        assert_eq!(
            (a["line"].as_u64(), a["col"].as_u64()),
            (Some(5), Some(13)),
            "{solver}: {product}"
        );
        let coord = |key: &str, i: usize| a[key][i].as_u64().unwrap();
        let block_dim_y = witness_value(product, "geometry", "blockDim.y").unwrap_or(1) as u64;
        // `int row = blockIdx.y * blockDim.y + threadIdx.y`: unsigned arithmetic, then int.
        let row = (coord("block", 1)
            .wrapping_mul(block_dim_y)
            .wrapping_add(coord("thread", 1)) as u32) as i32;
        let w = witness_value(product, "params", "w").expect("w in the witness") as i32;
        let h = witness_value(product, "params", "h").expect("h in the witness") as i32;
        assert!(row < h, "{solver}: the witness must reach the store: {product}");
        assert!(
            row.checked_mul(w).is_none(),
            "{solver}: row {row} * w {w} must overflow: {product}"
        );
    }
}

/// At `w = 4194304` (2^22), every row from 512 on overflows `row * w`.
#[test]
fn check_overflow_finds_row_times_w_at_w_4194304() {
    let args = ["--solver", "z3", "--check-overflow", "--assume", "w == 4194304"];
    let (code, json) = run("rowcol.cu", ROW_COL, &args);
    assert_eq!(code, Some(1), "{json}");
    let product = entries(&json, "findings")
        .into_iter()
        .find(|f| f["reason"] == "`row * w` overflows int: undefined behaviour")
        .unwrap_or_else(|| panic!("{json}"));
    assert_eq!(witness_value(product, "params", "w"), Some(4194304), "{product}");
}

#[test]
fn check_overflow_reports_nothing_for_a_guarded_kernel() {
    for solver in ["z3", "cvc5", "yices"] {
        let (code, json) = run("guarded.cu", ROW_COL_GUARDED, &["--solver", solver, "--check-overflow"]);
        assert_eq!(code, Some(0), "{solver}: {json}");
        assert!(entries(&json, "findings").is_empty(), "{solver}: {json}");
    }
}

/// The product of two symbolic values bounded by the guard: its unsatisfiable overflow query
/// is nonlinear, which the linear relaxation does not settle; yices answers it exactly in about
/// a second (z3 4.8 takes over a minute, cvc5 about 10 s).
#[test]
fn check_overflow_reports_nothing_for_a_kernel_guarding_a_parameter_product() {
    let args = ["--solver", "yices", "--check-overflow"];
    let (code, json) = run("guarded.cu", ROW_COL_GUARDED_PARAM, &args);
    assert_eq!(code, Some(0), "{json}");
    assert!(entries(&json, "findings").is_empty(), "{json}");
}

/// A compound assignment is a source operation too, reported with its own text.
#[test]
fn check_overflow_covers_compound_assignment() {
    let src = "__global__ void add(int *a, int n) {
    int x = threadIdx.x;
    x += n;
    a[threadIdx.x] = x;
}
";
    let (code, json) = run("add.cu", src, &["--solver", "z3", "--check-overflow"]);
    assert_eq!(code, Some(1), "{json}");
    let f = entries(&json, "findings")[0];
    assert_eq!(f["kind"], "signed_overflow", "{json}");
    assert_eq!(f["reason"], "`x += n` overflows int: undefined behaviour", "{json}");
    let n = witness_value(f, "params", "n").unwrap();
    let x = f["accesses"][0]["thread"][0].as_i64().unwrap();
    assert!(i32::try_from(x + n).is_err(), "x {x} + n {n} must overflow: {f}");
}

/// The text report names the finding and the operation; SARIF has its own rule.
#[test]
fn check_overflow_in_text_and_sarif() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("rowcol.cu");
    std::fs::write(&path, ROW_COL).unwrap();
    let file = path.display().to_string();
    let text = common::gpug(&["--solver".into(), "z3".into(), "--check-overflow".into(), file.clone()]);
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(
        text.contains("  signed integer overflow\n    `row * w` overflows int: undefined behaviour\n"),
        "{text}"
    );
    assert!(text.contains("rowcol.cu:5:13: overflows by thread ("), "{text}");
    let sarif = common::gpug(&[
        "--solver".into(),
        "z3".into(),
        "--check-overflow".into(),
        "--format".into(),
        "sarif".into(),
        file,
    ]);
    let log: Value = serde_json::from_slice(&sarif.stdout).expect("SARIF is JSON");
    let results = log["runs"][0]["results"].as_array().unwrap();
    assert!(
        results.iter().any(|r| r["ruleId"] == "signed-integer-overflow"),
        "{log}"
    );
}

/// Of three signed operations (`j + 1`, `i - k`, `i * NJ`), the condition names the one whose
/// overflow the race needs, found by asking each alone.
#[test]
fn condition_names_the_one_operation_the_race_needs() {
    let src = "#define NJ 4096
__global__ void scale(int *a, int j) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int k = j + 1;
    a[i * NJ] = i - k;
}
";
    let (code, json) = run("multi.cu", src, &["--solver", "z3"]);
    assert_eq!(code, Some(0), "{json}");
    let excluded = entries(&json, "excluded");
    assert_eq!(excluded.len(), 1, "{json}");
    let condition = excluded[0]["condition"].as_str().unwrap();
    assert!(
        condition.starts_with("only when `i * NJ` (")
            && condition.ends_with("multi.cu:5:7) overflows int: undefined behaviour"),
        "{condition}"
    );
}

/// An operation in an arm of `?:` or on the right of `&&` is evaluated only where C evaluates
/// it: guarded there, `x * 1000000` cannot overflow. Unguarded (`||` whose left side is always
/// true), it can.
#[test]
fn check_overflow_follows_short_circuits_and_conditionals() {
    let guarded = "__global__ void pick(int *out, int x) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    out[t] = (x < 1000 && x > -1000) ? x * 1000000 : 0;
    if (x < 2000 && x > -2000 && x * 1000000 > 5)
        out[t] = 1;
}
";
    let (code, json) = run(
        "pick.cu",
        guarded,
        &["--solver", "z3", "--check-overflow", "--no-benign"],
    );
    assert!(
        !kinds(&json, "findings").contains(&"signed_overflow".to_string()),
        "{json}"
    );
    assert_eq!(code, Some(0), "{json}");
    let unguarded = guarded.replace("x < 1000 && x > -1000", "x < 1000 || x > -1000");
    let (code, json) = run("pick.cu", &unguarded, &["--solver", "z3", "--check-overflow"]);
    assert_eq!(code, Some(1), "{json}");
    let f = entries(&json, "findings")
        .into_iter()
        .find(|f| f["kind"] == "signed_overflow")
        .unwrap_or_else(|| panic!("{json}"));
    let x = witness_value(f, "params", "x").unwrap();
    assert!(x.checked_mul(1000000).is_some_and(|p| i32::try_from(p).is_err()), "{f}");
}

/// A race check asks for any pair of accesses of its array: when the re-verification under the
/// signed assumption answers it with another pair (`s[t] += s[t + 32]` against a later read),
/// the pair found first (a write of `s[t] += s[t + 32]` against the read of `s[t + 16]`, which
/// needs no overflow) must not be listed as needing one. Every racing pair of lines is listed
/// (issue 53 item 5): the warp's six steps race with one another in more than 8 pairs of
/// source locations (each step's write of `s[t]` against a later step's read of
/// `s[t + d]` by thread t - d, and each step's read against its own write), so 8 are listed,
/// none of them excluded.
#[test]
fn race_found_again_with_another_pair_is_not_excluded() {
    let out = common::run_example("warp_sync_tail.cu", &["--json"]);
    assert_eq!(out.status.code(), Some(1));
    let json: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(kinds(&json, "findings"), ["race"; 8], "{json}");
    assert!(entries(&json, "excluded").is_empty(), "{json}");
    assert!(
        json.to_string().contains("more racing pairs on `s` than the 8 listed"),
        "{json}"
    );
}
