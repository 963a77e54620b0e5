//! Launches read from host code (issue 43): whole programs (`examples/programs/`) verified at
//! the launches their `main` makes, under each of the three solvers, and what the front end's
//! evaluation of host code assumes (and does not) in small programs.
//!
//! Each `examples/programs/*.cu` starts with two comment lines:
//!
//! ```text
//! // launches: verified race        (the expected verdict of each launch, in report order)
//! // [--flags]
//! ```
//!
//! The test runs `gpug --json --solver S <flags> FILE` and checks that the report has one
//! result per expected launch, each naming a launch read from host code, with the expected
//! verdict (`race`: a defect with a race finding).

mod common;

use common::names_and_verdicts;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

const SOLVERS: [&str; 3] = ["z3", "cvc5", "yices"];

fn gpug(args: &[&str], file: &Path) -> (Option<i32>, Value, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_gpug"))
        .arg("--json")
        .args(args)
        .arg(file)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("gpug runs");
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    let json = serde_json::from_str(&stdout)
        .unwrap_or_else(|e| panic!("{}: not JSON ({e}): {stdout}\n{stderr}", file.display()));
    (out.status.code(), json, stderr)
}

fn kernels(v: &Value) -> Vec<Value> {
    v["kernels"].as_array().cloned().unwrap_or_default()
}

/// `--kernel name` verifies the dead kernel `name` of `file` for every launch: its race.
fn alone_it_is_a_defect(file: &Path, name: &str) {
    let (code, v, _) = gpug(&["--solver", "z3", "--kernel", name], file);
    assert_eq!(code, Some(1), "{v}");
    assert_eq!(kernels(&v)[0]["verdict"], "defect", "{v}");
}

fn has_race(k: &Value) -> bool {
    k["findings"]
        .as_array()
        .is_some_and(|fs| fs.iter().any(|f| f["kind"] == "race"))
}

#[test]
fn whole_programs_are_verified_at_their_launches_under_every_solver() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/programs");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("examples/programs")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "cu"))
        .collect();
    files.sort();
    assert!(
        files.len() >= 9,
        "expected the whole-program examples, found {}",
        files.len()
    );
    let mut failures = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).expect("readable");
        let mut lines = text.lines();
        let expected: Vec<&str> = lines
            .next()
            .and_then(|l| l.strip_prefix("// launches:"))
            .unwrap_or_else(|| panic!("{}: line 1 must be `// launches: …`", file.display()))
            .split_whitespace()
            .collect();
        let flags: Vec<&str> = lines
            .next()
            .and_then(|l| l.strip_prefix("//"))
            .unwrap_or_else(|| panic!("{}: line 2 must be a `// --flags` comment", file.display()))
            .split_whitespace()
            .collect();
        for solver in SOLVERS {
            let mut args = vec!["--solver", solver];
            args.extend(&flags);
            let (code, json, stderr) = gpug(&args, file);
            let ks = kernels(&json);
            let got: Vec<String> = ks
                .iter()
                .map(|k| match (k["verdict"].as_str(), has_race(k)) {
                    (Some("defect"), true) => "race".to_string(),
                    (Some(v), _) => v.to_string(),
                    (None, _) => "?".to_string(),
                })
                .collect();
            let all_launches = ks.iter().all(|k| k["launch"]["site"].is_string());
            let want_code = if expected.iter().all(|e| *e == "verified") {
                0
            } else {
                1
            };
            if got != expected || !all_launches || code != Some(want_code) {
                failures.push(format!(
                    "{} under {solver}: expected {expected:?} (exit {want_code}), got {got:?} (exit {code:?}, every result at a host launch: {all_launches})\n{stderr}",
                    file.display()
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The issue's case: a kernel reading only `threadIdx.x` launched with `dim3 block(32, 8)`.
/// Ignoring the host code, the launch contract verifies it for launches where blockDim.y = 1;
/// at the launch the program makes, it is a race.
#[test]
fn the_launch_contract_does_not_hide_the_launch_the_program_makes() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/programs/block_32x8.cu");
    let (code, json, _) = gpug(&["--solver", "z3", "--launch", "symbolic"], &file);
    let k = &kernels(&json)[0];
    assert_eq!(code, Some(0), "{json}");
    assert_eq!(k["verdict"], "verified");
    assert!(k["launch"].is_null());
    assert!(
        k["contract"]
            .as_array()
            .is_some_and(|c| c.iter().any(|c| c == "blockDim.y = 1")),
        "{k}"
    );
    let (code, json, _) = gpug(&["--solver", "z3"], &file);
    let k = &kernels(&json)[0];
    assert_eq!(code, Some(1), "{json}");
    assert!(has_race(k), "{k}");
    let assuming: Vec<&str> = k["launch"]["assuming"]
        .as_array()
        .expect("assuming")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(assuming.contains(&"blockDim = (32, 8, 1)"), "{assuming:?}");
}

/// A program in a temporary directory.
fn program(text: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("prog.cu");
    std::fs::write(&path, text).expect("write");
    (dir, path)
}

/// The `assuming` list of each result, in order.
fn assuming(args: &[&str], text: &str) -> Vec<Vec<String>> {
    let (_d, path) = program(text);
    let mut all = vec!["--solver", "z3"];
    all.extend(args);
    let (_, json, stderr) = gpug(&all, &path);
    kernels(&json)
        .iter()
        .map(|k| {
            k["launch"]["assuming"]
                .as_array()
                .unwrap_or_else(|| panic!("no launch in {k}\n{stderr}"))
                .iter()
                .filter_map(|a| a.as_str().map(str::to_string))
                .collect()
        })
        .collect()
}

const KERNEL: &str = "
__global__ void k(int *d, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) d[i] = i;
}
";

#[test]
fn a_size_read_at_run_time_relates_the_grid_to_the_argument() {
    let text = format!(
        "{KERNEL}
#include <cstdlib>
int main(int argc, char **argv) {{
    int n = atoi(argv[1]);
    int *d;
    k<<<(n + 255) / 256, 256>>>(d, n);
    return 0;
}}"
    );
    let a = assuming(&[], &text);
    assert_eq!(
        a,
        vec![vec![
            "blockDim = (256, 1, 1)".to_string(),
            "gridDim.y = 1".into(),
            "gridDim.z = 1".into(),
            "gridDim.x = (n + 255) / 256".into(),
        ]]
    );
}

/// An `unsigned` size passed to an `int` parameter (cuda-samples' matrixMul: `dimsB.x` as
/// `wB`, `grid.x = dimsB.x / 32`): the conversion is a bijection, so the grid keeps its
/// relation to the argument, as `(unsigned) n`.
#[test]
fn an_unsigned_size_passed_as_int_relates_the_grid_to_the_argument() {
    let text = format!(
        "{KERNEL}
#include <cstdlib>
int main(int argc, char **argv) {{
    unsigned n = atoi(argv[1]);
    int *d;
    k<<<n / 256, 256>>>(d, n);
    return 0;
}}"
    );
    let a = assuming(&[], &text);
    assert_eq!(
        a,
        vec![vec![
            "blockDim = (256, 1, 1)".to_string(),
            "gridDim.y = 1".into(),
            "gridDim.z = 1".into(),
            "gridDim.x = n / 256".into(),
        ]]
    );
}

/// (The loop's trip count is read at run time: a loop of a known one is unrolled, see
/// `a_loop_over_a_constant_array_is_a_set_of_launches`.)
#[test]
fn values_the_host_changes_in_a_loop_a_branch_or_through_a_pointer_stay_symbolic() {
    let text = format!(
        "{KERNEL}
#include <cstdio>
int main(int argc, char **argv) {{
    int *d;
    int t = 32;
    for (int r = 0; r < argc; r++) t *= 2;
    k<<<1, t>>>(d, 100);
    int u = 64;
    if (argc > 1) u = 128;
    k<<<2, u>>>(d, 200);
    int n = 300;
    scanf(\"%d\", &n);
    k<<<3, 64>>>(d, n);
    return 0;
}}"
    );
    let a = assuming(&[], &text);
    assert_eq!(a.len(), 3, "{a:?}");
    let block_x = |s: &String| s.starts_with("blockDim.x") || s.starts_with("blockDim =");
    assert!(
        a[0].contains(&"n = 100".to_string()) && !a[0].iter().any(block_x),
        "{a:?}"
    );
    assert!(
        a[1].contains(&"n = 200".to_string()) && !a[1].iter().any(block_x),
        "{a:?}"
    );
    assert!(a[2].contains(&"blockDim = (64, 1, 1)".to_string()), "{a:?}");
    assert!(!a[2].iter().any(|s| s.starts_with("n =")), "{a:?}");
}

#[test]
fn helpers_constants_and_the_launch_api_are_evaluated() {
    let text = format!(
        "{KERNEL}
#include <cuda_runtime.h>
static const int THREADS = 128;
constexpr int ELEMS = 1000;
int div_up(int a, int b) {{ return (a + b - 1) / b; }}
void launch(int *d, int n) {{ k<<<div_up(n, THREADS), THREADS>>>(d, n); }}
int main() {{
    int *d;
    launch(d, ELEMS);
    int n = 77;
    void *args[] = {{&d, &n}};
    cudaLaunchKernel((void *)k, dim3(1), dim3(96), args, 0, 0);
    return 0;
}}"
    );
    let a = assuming(&[], &text);
    assert_eq!(
        a,
        vec![
            vec![
                "blockDim = (128, 1, 1)".to_string(),
                "gridDim = (8, 1, 1)".into(),
                "n = 1000".into()
            ],
            vec![
                "blockDim = (96, 1, 1)".to_string(),
                "gridDim = (1, 1, 1)".into(),
                "n = 77".into()
            ],
        ]
    );
}

#[test]
fn launch_symbolic_and_a_launch_on_the_command_line_ignore_host_code() {
    let text = format!("{KERNEL}\nint main() {{ int *d; k<<<4, 256>>>(d, 1024); return 0; }}");
    let (_d, path) = program(&text);
    for args in [vec!["--launch", "symbolic"], vec!["--blockDim=64", "--gridDim=2"]] {
        let mut all = vec!["--solver", "z3"];
        all.extend(args.iter().copied());
        let (_, json, _) = gpug(&all, &path);
        let ks = kernels(&json);
        assert_eq!(ks.len(), 1, "{json}");
        assert!(ks[0]["launch"].is_null(), "{args:?}: {json}");
    }
}

#[test]
fn a_reference_or_a_lambda_may_change_a_value() {
    let text = format!(
        "{KERNEL}
int main() {{
    int *d;
    int n = 10;
    int &r = n;
    r = 20;
    k<<<1, 32>>>(d, n);
    int m = 30;
    auto set = [&]() {{ m = 40; }};
    set();
    k<<<1, 64>>>(d, m);
    return 0;
}}"
    );
    let a = assuming(&[], &text);
    assert_eq!(a.len(), 2, "{a:?}");
    assert!(!a.iter().flatten().any(|s| s.starts_with("n =")), "{a:?}");
}

/// A global that the host code sets at run time, read twice with no write between (one
/// unknown), in a function that is called only through a pointer (`glutDisplayFunc`): the grid
/// is related to the kernel's parameter; the kernel's own race (every x of a row writes img[y]) is still
/// found. The call through the pointer is followed: the launch is reached from `main`.
#[test]
fn a_global_read_twice_is_one_value_in_a_function_called_through_a_pointer() {
    let text = "
__global__ void shade(int *img, int w) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < w) img[y] = x;
}
#include <cstdio>
int width;
int *image;
void display() {
    dim3 block(16, 16);
    dim3 grid(width / block.x, width / block.y);
    shade<<<grid, block>>>(image, width);
}
void on_display(void (*f)()) { f(); }
int main() {
    scanf(\"%d\", &width);
    on_display(display);
    return 0;
}";
    let (_d, path) = program(text);
    let (code, json, stderr) = gpug(&["--solver", "z3"], &path);
    let k = &kernels(&json)[0];
    let assuming: Vec<&str> = k["launch"]["assuming"]
        .as_array()
        .unwrap_or_else(|| panic!("{json}\n{stderr}"))
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(assuming.contains(&"gridDim.x = w / 16"), "{assuming:?}");
    assert!(assuming.contains(&"gridDim.y = w / 16"), "{assuming:?}");
    assert_eq!(
        k["launch"]["callers"],
        serde_json::json!(["main (line 18)", "on_display (line 15)", "display"])
    );
    assert_eq!((code, k["verdict"].as_str()), (Some(1), Some("defect")), "{k}");
}

/// One kernel launched twice: text, JSON and SARIF name each launch, with the call that
/// reaches it.
#[test]
fn each_report_form_names_the_launch() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/programs/two_block_sizes.cu");
    let text = Command::new(env!("CARGO_BIN_EXE_gpug"))
        .args(["--solver", "z3"])
        .arg(&file)
        .output()
        .expect("gpug runs");
    let text = String::from_utf8_lossy(&text.stdout);
    let heads: Vec<&str> = text.lines().filter(|l| l.starts_with("fill ")).collect();
    assert_eq!(heads.len(), 2, "{text}");
    assert!(
        heads[0].starts_with("fill at the launch in main (line 25) → run, "),
        "{text}"
    );
    assert!(
        heads[0].ends_with("two_block_sizes.cu:18: <<<n / TILE, threads>>>: verified"),
        "{text}"
    );
    assert!(
        heads[1].starts_with("fill at the launch in main (line 26) → run, "),
        "{text}"
    );
    assert!(heads[1].ends_with(": 1 defect"), "{text}");
    assert!(text.contains("  assuming the launch's blockDim = (256, 1, 1), gridDim = (512, 1, 1), value = 7\n"));
    let sarif = Command::new(env!("CARGO_BIN_EXE_gpug"))
        .args(["--solver", "z3", "--format", "sarif"])
        .arg(&file)
        .output()
        .expect("gpug runs");
    let sarif: Value = serde_json::from_slice(&sarif.stdout).expect("SARIF is JSON");
    let results = sarif["runs"][0]["results"].as_array().expect("results");
    assert_eq!(results.len(), 1, "{sarif}");
    let message = results[0]["message"]["text"].as_str().expect("message");
    assert!(
        message.contains("in kernel fill at the launch in main (line 26) → run"),
        "{message}"
    );
}

/// A `dim3` whose x a loop halves keeps its y and z (1 by default), and an `if` that changes
/// only x keeps them too.
#[test]
fn a_loop_or_branch_changing_one_dim3_component_keeps_the_others() {
    let text = format!(
        "{KERNEL}
int main(int argc, char **argv) {{
    int *d;
    dim3 block;
    dim3 grid;
    block.x = 128;
    grid.x = 4096;
    while (grid.x > 64) grid.x >>= 1;
    if (argc > 2) block.x = 256;
    k<<<grid, block>>>(d, 5);
    return 0;
}}"
    );
    let a = assuming(&[], &text);
    assert_eq!(
        a,
        vec![vec![
            "blockDim.y = 1".to_string(),
            "blockDim.z = 1".into(),
            "gridDim.y = 1".into(),
            "gridDim.z = 1".into(),
            "n = 5".into(),
        ]]
    );
}

/// A launch under `if (gy == 1)` has gridDim.y = 1 (llm.c's `matmul_backward_bias8`): the
/// kernel, which races across blockIdx.y, is verified there; a launch after an early
/// `return` keeps the negated condition over its argument.
#[test]
fn a_launch_under_a_host_condition_keeps_it() {
    let text = "
__global__ void row(int *d, int n) { d[blockIdx.x] = threadIdx.x + blockIdx.y; }
__global__ void k(int *d, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) d[i] = i;
}
#include <cstdlib>
int sms;
int main(int argc, char **argv) {
    int n = atoi(argv[1]);
    int *d;
    int gy = sms / 256;
    if (gy == 1) {
        row<<<dim3(8, gy), 1>>>(d, 5);
    }
    if (n > 1000) return 1;
    k<<<4, 256>>>(d, n);
    return 0;
}";
    let (_d, path) = program(text);
    let (code, json, stderr) = gpug(&["--solver", "z3"], &path);
    let ks = kernels(&json);
    assert_eq!(code, Some(0), "{json}\n{stderr}");
    assert_eq!(ks.len(), 2, "{json}");
    assert!(ks.iter().all(|k| k["verdict"] == "verified"), "{json}");
    let a = assuming(&[], text);
    assert_eq!(a[0], vec!["blockDim = (1, 1, 1)", "gridDim = (8, 1, 1)", "n = 5"]);
    assert_eq!(a[1], vec!["blockDim = (256, 1, 1)", "gridDim = (4, 1, 1)", "n <= 1000"]);
}

/// A helper that returns early under a condition not known gives no value (not the final
/// `return`'s).
#[test]
fn a_return_under_an_unknown_condition_leaves_the_value_unknown() {
    let text = format!(
        "{KERNEL}
#include <cstdlib>
int pick(int n) {{ if (n > 1000) return 512; return 256; }}
int main(int argc, char **argv) {{
    int *d;
    k<<<1, pick(atoi(argv[1]))>>>(d, 5);
    return 0;
}}"
    );
    let a = assuming(&[], &text);
    assert!(
        !a[0]
            .iter()
            .any(|s| s.starts_with("blockDim =") || s.starts_with("blockDim.x")),
        "{a:?}"
    );
}

/// A loop over a constant array of block sizes (llm.c's `dev/cuda` mains) is one launch per
/// size, each with its grid; a second identical loop merges with the first. A loop of an
/// unknown trip count, or one that breaks, is not unrolled.
#[test]
fn a_loop_over_a_constant_array_is_a_set_of_launches() {
    let text = format!(
        "{KERNEL}
#include <cstdlib>
int ceil_div(int a, int b) {{ return (a + b - 1) / b; }}
void run(int *d, int n, int block_size) {{ k<<<ceil_div(n, block_size), block_size>>>(d, n); }}
int main(int argc, char **argv) {{
    int *d;
    int block_sizes[] = {{32, 256, 1024}};
    for (int j = 0; j < sizeof(block_sizes) / sizeof(int); j++) {{
        int block_size = block_sizes[j];
        run(d, 1000, block_size);
    }}
    for (int j = 0; j < sizeof(block_sizes) / sizeof(int); j++) {{
        run(d, 1000, block_sizes[j]);
    }}
    int t = 16;
    for (int j = 0; j < 4; j++) {{
        if (argc > j) break;
        t *= 2;
    }}
    k<<<1, t>>>(d, 7);
    return 0;
}}"
    );
    let a = assuming(&[], &text);
    assert_eq!(
        a[..3],
        vec![
            vec!["blockDim = (32, 1, 1)", "gridDim = (32, 1, 1)", "n = 1000"],
            vec!["blockDim = (256, 1, 1)", "gridDim = (4, 1, 1)", "n = 1000"],
            vec!["blockDim = (1024, 1, 1)", "gridDim = (1, 1, 1)", "n = 1000"],
        ]
    );
    assert_eq!(a.len(), 4, "{a:?}");
    assert!(
        !a[3]
            .iter()
            .any(|s| s.starts_with("blockDim =") || s.starts_with("blockDim.x")),
        "{a:?}"
    );
}

/// A host loop counter not unrolled (100 iterations) keeps its range at the launch: the
/// kernel races only for `s >= 100`.
#[test]
fn a_host_loop_counter_keeps_its_range() {
    let text = "
__global__ void step(int *d, int s) {
    if (s >= 100) d[0] = threadIdx.x; else d[threadIdx.x] = s;
}
int main() {
    int *d;
    for (int s = 0; s < 100; s++) step<<<1, 64>>>(d, s);
    return 0;
}";
    let (_d, path) = program(text);
    let (code, json, stderr) = gpug(&["--solver", "z3"], &path);
    assert_eq!(code, Some(0), "{json}\n{stderr}");
    assert_eq!(kernels(&json)[0]["verdict"], "verified", "{json}");
    let a = assuming(&[], text);
    assert_eq!(
        a,
        vec![vec![
            "blockDim = (64, 1, 1)",
            "gridDim = (1, 1, 1)",
            "s < 100",
            "s >= 0"
        ]]
    );
}

/// Floating point arithmetic on known values is evaluated as C does (flash attention's
/// `Tc = ceil((float) N / Bc)`); a float read at run time stays unknown.
#[test]
fn float_arithmetic_on_known_values_is_evaluated() {
    let text = format!(
        "{KERNEL}
#include <cmath>
#include <cstdlib>
int main(int argc, char **argv) {{
    int *d;
    const int N = 1000;
    const int Bc = 32;
    const int Tc = ceil((float) N / Bc);
    float scale = 1.0 / sqrt(64);
    int s = (int)(scale * 80);
    double h = 2.5;
    int w = (int)floor(h * 3);
    k<<<Tc, 32>>>(d, N);
    k<<<s, w>>>(d, 3);
    float f = atof(argv[1]);
    k<<<1, (int)f>>>(d, 4);
    return 0;
}}"
    );
    let a = assuming(&[], &text);
    assert_eq!(a[0], vec!["blockDim = (32, 1, 1)", "gridDim = (32, 1, 1)", "n = 1000"]);
    assert_eq!(a[1], vec!["blockDim = (7, 1, 1)", "gridDim = (10, 1, 1)", "n = 3"]);
    assert!(
        !a[2]
            .iter()
            .any(|s| s.starts_with("blockDim =") || s.starts_with("blockDim.x")),
        "{a:?}"
    );
}

/// A launch in a `static` function nothing names is not made; one declared before and
/// defined after `main` is.
#[test]
fn a_launch_in_a_function_never_called_is_not_a_launch() {
    let text = format!(
        "{KERNEL}
static void later(int *d);
static void unused(int *d) {{ k<<<2, 17>>>(d, 1 << 30); }}
int main() {{
    int *d;
    later(d);
    return 0;
}}
static void later(int *d) {{ k<<<3, 32>>>(d, 96); }}"
    );
    let a = assuming(&[], &text);
    assert_eq!(a, vec![vec!["blockDim = (32, 1, 1)", "gridDim = (3, 1, 1)", "n = 96"]]);
}

/// nvcc gives host code `min` and `max` (crt/math_functions.hpp), which clang's CUDA wrapper
/// declares for the device only: a host function that calls them is read, not skipped, so the
/// launch it makes keeps its sizes.
#[test]
fn host_min_and_max_keep_the_launch() {
    let text = format!(
        "{KERNEL}
int main() {{
    int n = 4096;
    float scale = max(0.5f, 2.0f);
    int block = min(1024, max(64, 256));
    int *d;
    k<<<n / block, block>>>(d, n);
    return (int)scale;
}}"
    );
    let (_d, path) = program(&text);
    let (_, json, stderr) = gpug(&["--solver", "z3"], &path);
    assert!(!stderr.contains("skipped the host function"), "{stderr}");
    let launches: Vec<Vec<String>> = kernels(&json)
        .iter()
        .map(|k| {
            k["launch"]["assuming"]
                .as_array()
                .unwrap_or_else(|| panic!("no launch in {k}\n{stderr}"))
                .iter()
                .filter_map(|a| a.as_str().map(str::to_string))
                .collect()
        })
        .collect();
    assert_eq!(launches.len(), 1, "{json}");
    assert!(
        launches[0].iter().any(|a| a.starts_with("blockDim = (256, 1, 1)")),
        "{launches:?}"
    );
}

/// Dead kernels of a whole program (issue 53 item 2): a kernel that `main`'s host code never
/// launches and that nothing in the program names is not verified (a note says so, with the
/// `--kernel` that verifies it); one whose name occurs elsewhere (a launch gpug may not read)
/// is still verified for every launch, and its race reported; `--kernel` verifies the dead one.
#[test]
fn a_kernel_the_program_never_names_is_dead_code() {
    let file = Path::new("tests/kernels/programs/dead/dead_kernel.cu");
    let (code, v, err) = gpug(&["--solver", "z3"], file);
    let names = names_and_verdicts(&v);
    assert_eq!(names, ["scale verified", "named_racy defect"], "{v}\n{err}");
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("dead_kernel.cu:12:17: `unused_racy` is never launched")
            && err.contains("host code (main)")
            && err.contains("--kernel unused_racy"),
        "{err}"
    );
    alone_it_is_a_defect(file, "unused_racy");
}

/// A whole program whose `main` makes no launch itself (issue 53 item 2; cuda-samples'
/// boxFilter, whose launches are in a GLUT display callback): `main.cpp` defines `main`, so a
/// kernel of `filter.cu` that no file of the program names is dead code, not verified; the
/// note says where `main` is. The launched kernel is verified at the callback's values.
#[test]
fn a_kernel_named_nowhere_is_dead_code_when_main_launches_nothing_itself() {
    let file = Path::new("tests/kernels/programs/callback/filter.cu");
    let (code, v, err) = gpug(&["--solver", "z3"], file);
    assert_eq!(names_and_verdicts(&v), ["filter_rows verified"], "{v}\n{err}");
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(kernels(&v)[0]["launch"]["callers"][0], "display (main.cpp:8)", "{v}");
    assert!(
        err.contains("filter.cu:13:17: `unused_racy` is never launched: the program defines `main` (")
            && err.contains("callback/main.cpp:10)")
            && err.contains("--kernel unused_racy"),
        "{err}"
    );
    alone_it_is_a_defect(file, "unused_racy");
}

/// A host loop bounded by `extern "C" const` globals that the calling file only declares
/// (cuda-samples' scan, issue 53 item 2): their values come from the one definition in the
/// program's files read, so the loop runs with widths 64, 128 and 256 and the kernel is
/// verified at each; a width left unknown (as it was) lets a block's rows overlap.
#[test]
fn an_extern_const_takes_the_value_another_file_defines() {
    let file = Path::new("tests/kernels/programs/extern_const/sizes.cu");
    let (code, v, err) = gpug(&["--solver", "z3"], file);
    assert_eq!(
        names_and_verdicts(&v),
        ["rows verified", "rows verified", "rows verified"],
        "{v}\n{err}"
    );
    assert_eq!(code, Some(0), "{err}");
    for (k, width) in kernels(&v).iter().zip([64, 128, 256]) {
        let launch = &k["launch"];
        assert_eq!(
            launch["assuming"],
            serde_json::json!([
                "blockDim = (64, 1, 1)",
                "gridDim = (16, 1, 1)",
                format!("width = {width}")
            ]),
            "{v}"
        );
        assert_eq!(launch["in_loop"], false, "{v}");
    }
}

/// Launches in host functions a whole program never calls (issue 53 item 2): a launcher whose
/// only call the preprocessor removed (llm.c's `#if !defined(ENABLE_BF16)` around `case 1`),
/// and one called only by such a function, make no launch: their kernels are not verified, and
/// a note names the launcher. A launcher whose address is taken may be called: its kernel is
/// verified and its race reported, for every launch (its address is held in a local, which
/// may go anywhere) and at `main`'s values (the call through that local, followed); `--kernel` verifies a dead one for every launch. A function
/// template's pattern is not read as a launcher of its own (its parameters unknown): only its
/// instantiation, with main's values. A kernel instantiation launched only in a branch main's
/// values never take (`if (block == 16)` with 32) is not verified.
#[test]
fn a_launch_in_a_function_nothing_calls_is_not_a_launch() {
    let file = Path::new("tests/kernels/programs/dead/uncalled_launcher.cu");
    let (code, v, err) = gpug(&["--solver", "z3"], file);
    let names = names_and_verdicts(&v);
    assert_eq!(
        names,
        [
            "scale verified",
            "racy_by_pointer defect",
            "racy_by_pointer defect",
            "guarded verified",
            "tiled<32> verified"
        ],
        "{v}\n{err}"
    );
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("`racy` is never launched: launched only from `launch_racy`")
            && err.contains("`also_racy` is never launched: launched only from `launch_also_racy`")
            && err.contains("--kernel racy")
            && err.contains("`tiled<16>` is never launched: its launch (")
            && err.contains("uncalled_launcher.cu:49) is in branches that the program's values never take"),
        "{err}"
    );
    let (code, v, _) = gpug(&["--solver", "z3", "--kernel", "racy"], file);
    assert_eq!(code, Some(1), "{v}");
    assert_eq!(kernels(&v)[0]["verdict"], "defect", "{v}");
}

/// A file without `main` is read with the program's other files in its folder (issue 53 item
/// 2): `main.cpp` calls `tiles.cu`'s `extern "C"` wrapper (through a helper of its own) with
/// the sizes, so `tile` is verified at that launch (width 256, 16 blocks of 64) and `racy`,
/// whose wrapper main.cpp declares but no file calls, is never launched. `--single-file`
/// reads `tiles.cu` alone: `width` is unknown, `tile`'s rows may overlap, and `racy` is
/// verified (and racy) at its wrapper's launch.
#[test]
fn a_wrapper_called_from_another_file_is_launched_with_its_values() {
    let file = Path::new("tests/kernels/programs/wrappers/tiles.cu");
    let (code, v, err) = gpug(&["--solver", "z3"], file);
    assert_eq!(names_and_verdicts(&v), ["tile verified"], "{v}\n{err}");
    assert_eq!(code, Some(0), "{err}");
    let launch = &kernels(&v)[0]["launch"];
    assert_eq!(
        launch["assuming"],
        serde_json::json!(["blockDim = (64, 1, 1)", "gridDim = (16, 1, 1)", "width = 256"]),
        "{v}"
    );
    assert_eq!(launch["callers"][0], "main (main.cpp:14)", "{v}");
    assert!(
        err.contains("launches read from the program's other file")
            && err.contains("wrappers/main.cpp, which defines `main`")
            && err.contains("`racy` is never launched: launched only from `run_racy`"),
        "{err}"
    );
    let (code, v, err) = gpug(&["--solver", "z3", "--single-file"], file);
    assert_eq!(names_and_verdicts(&v), ["tile defect", "racy defect"], "{v}\n{err}");
    assert_eq!(code, Some(1), "{err}");
    assert!(!err.contains("other file"), "{err}");
}

/// The driver API (issue 53 item 2): `driver.cpp` fetches `rows` by name with
/// `cuModuleGetFunction` and launches it with `cuLaunchKernel` and a `void *args[]`, so `rows`
/// is verified at that launch (16 blocks of 64, width 256). `columns` is fetched only in a
/// branch the host's values rule out, but its name is in the program's text (the other file
/// counts): it is verified for every launch, not dropped as dead code, and races for some.
#[test]
fn a_driver_api_launch_is_read_from_the_other_file() {
    let file = Path::new("tests/kernels/programs/driver/rows.cu");
    let (code, v, err) = gpug(&["--solver", "z3"], file);
    assert_eq!(
        names_and_verdicts(&v),
        ["rows verified", "columns defect"],
        "{v}\n{err}"
    );
    assert_eq!(code, Some(1), "{err}");
    let launch = &kernels(&v)[0]["launch"];
    assert_eq!(
        launch["assuming"],
        serde_json::json!(["blockDim = (64, 1, 1)", "gridDim = (16, 1, 1)", "width = 256"]),
        "{v}"
    );
    assert!(kernels(&v)[1]["launch"].is_null(), "{v}");
    let (_, v, err) = gpug(&["--solver", "z3", "--single-file"], file);
    assert_eq!(names_and_verdicts(&v), ["rows defect", "columns defect"], "{v}\n{err}");
}

/// A caller that clang cannot fully read (a call whose width is undeclared, which clang keeps
/// as a `RecoveryExpr`) could make a launch the readable calls do not: the program's other
/// files are then not used at all, the note says why, and `tile` is verified as the file
/// alone, where its race (a width below the block's 64 threads) is reported.
#[test]
fn a_caller_clang_cannot_read_leaves_the_file_alone() {
    let file = Path::new("tests/kernels/programs/unreadable_caller/tiles.cu");
    let (code, v, err) = gpug(&["--solver", "z3"], file);
    assert_eq!(names_and_verdicts(&v), ["tile defect"], "{v}\n{err}");
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("the program's other files were not read, since one could not be")
            && err.contains("unreadable_caller/main.cpp"),
        "{err}"
    );
    assert!(!err.contains("launches read from"), "{err}");
}

/// A call through a prototype declared before `main`, of a function defined after it, is
/// followed into the definition: the launch has main's block of 256 threads, where each of
/// the 256 threads writes its own element. Before, the call was not followed, `n` stayed
/// unknown, and a grid of more than 256 threads raced on `d[i % 256]`.
#[test]
fn a_call_through_a_prototype_is_followed() {
    let (code, v, err) = gpug(&["--solver", "z3"], Path::new("tests/kernels/programs/prototype.cu"));
    assert_eq!(names_and_verdicts(&v), ["k verified"], "{v}\n{err}");
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(kernels(&v)[0]["launch"]["assuming"][0], "blockDim = (256, 1, 1)", "{v}");
}

/// In a whole program, a global no code writes keeps its initializer's value (`width = 512`:
/// cuda-samples' display callbacks read their image size so); one that a function writes
/// (`pitch`, from the command line) stays unknown, and the launch that reads it races for a
/// pitch below the block's 256 threads.
#[test]
fn a_global_no_code_writes_keeps_its_initial_value() {
    let (code, v, err) = gpug(
        &["--solver", "z3"],
        Path::new("tests/kernels/programs/read_only_global.cu"),
    );
    assert_eq!(names_and_verdicts(&v), ["row verified", "row defect"], "{v}\n{err}");
    assert_eq!(code, Some(1), "{err}");
    let ks = kernels(&v);
    assert_eq!(ks[0]["launch"]["assuming"][2], "w = 512", "{v}");
    assert!(has_race(&ks[1]), "{v}");
}

/// A local whose address is passed to a call is that call's out-parameter: unknown after it,
/// but one value until its next write, so the grid computed from the image's width and the
/// width passed after a `cudaMalloc` agree (`gridDim.x = width / 8`), and the kernel is
/// verified. Before, each later call made the width a new unknown and the kernel raced.
#[test]
fn an_out_parameter_is_one_value_after_the_call() {
    let (code, v, err) = gpug(&["--solver", "z3"], Path::new("tests/kernels/programs/out_params.cu"));
    assert_eq!(names_and_verdicts(&v), ["invert verified"], "{v}\n{err}");
    assert_eq!(code, Some(0), "{err}");
    let assuming = kernels(&v)[0]["launch"]["assuming"].to_string();
    assert!(assuming.contains("gridDim.x = width / 8"), "{v}");
}

/// A caller's local passed to a non-`const` reference parameter is an out-parameter whose
/// value at the callee's end is written back (cuda-samples' `computeGridSize(n, 256,
/// numBlocks, numThreads)`): the launch has 4 blocks of 256 threads.
#[test]
fn a_reference_parameter_writes_back_its_value() {
    let (code, v, err) = gpug(
        &["--solver", "z3"],
        Path::new("tests/kernels/programs/reference_out.cu"),
    );
    assert_eq!(names_and_verdicts(&v), ["wrap verified"], "{v}\n{err}");
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(
        kernels(&v)[0]["launch"]["assuming"],
        serde_json::json!(["blockDim = (256, 1, 1)", "gridDim = (4, 1, 1)", "n = 1024"]),
        "{v}"
    );
}

/// The text report merges a host loop's launches of one kernel at one site that verify alike
/// (issue 53 item 2): one report, then the other launches' values on one line; the JSON keeps
/// one result per launch. A launch with another verdict is reported on its own.
#[test]
fn launches_that_verify_alike_are_one_report() {
    let text = "__global__ void k(int *d, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) d[i] = i;
    if (blockDim.x == 64 && threadIdx.x == 1) d[0] = 1;
}
int main() {
    int *d;
    int block_sizes[] = {32, 64, 128, 256};
    for (int j = 0; j < 4; j++) {
        int b = block_sizes[j];
        k<<<(1000 + b - 1) / b, b>>>(d, 1000);
    }
    return 0;
}";
    let (_d, path) = program(text);
    let out = Command::new(env!("CARGO_BIN_EXE_gpug"))
        .args(["--solver", "z3"])
        .arg(&path)
        .output()
        .expect("gpug runs");
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    let heads: Vec<&str> = stdout.lines().filter(|l| l.starts_with("k at the launch")).collect();
    assert_eq!(heads.len(), 3, "{stdout}");
    assert!(
        heads[0].ends_with(": verified") && heads[1].ends_with(": 1 defect") && heads[2].ends_with(": verified"),
        "{stdout}"
    );
    assert!(
        stdout.contains("  verified alike at 1 more launch from here: blockDim = (256, 1, 1), gridDim = (4, 1, 1)\n"),
        "{stdout}"
    );
    assert!(
        !stdout.contains("verified alike at 1 more launch from here: blockDim = (64"),
        "{stdout}"
    );
    let (_, json, _) = gpug(&["--solver", "z3"], &path);
    assert_eq!(kernels(&json).len(), 4, "{json}");
}

/// A launch made only through a function pointer (llm.c's `attention_backward1(…,
/// launch_softmax_4, block_size)`) is read at the values of the call that passes the pointer,
/// after host reference loops that reach no launch: `n = 1024`, so the 1,024 threads write
/// distinct elements. Before, the launcher was read as a root with `n` unknown, and the kernel
/// raced for `n < 1024`; with the reference loops' full budget, the calls of `main` were no
/// longer followed. The variadic template's call through the pointer (`benchmark_kernel`'s), in
/// a loop of unknown trip count, has `n = 2048`: `m` goes to the template by forwarding
/// reference and is only passed on, so the loop does not make it unknown (it did while any
/// argument passed by reference counted as written; then `repeat`'s call was not followed).
#[test]
fn a_launch_through_a_function_pointer_has_the_callers_values() {
    let (code, v, err) = gpug(
        &["--solver", "z3"],
        Path::new("tests/kernels/programs/launcher_pointer.cu"),
    );
    assert_eq!(names_and_verdicts(&v), ["fill verified", "fill verified"], "{v}\n{err}");
    assert_eq!(code, Some(0), "{err}");
    let ks = kernels(&v);
    assert_eq!(ks[0]["launch"]["assuming"][2], "n = 1024", "{v}");
    assert_eq!(ks[1]["launch"]["assuming"][2], "n = 2048", "{v}");
    assert_eq!(ks[1]["launch"]["callers"][1], "repeat (line 28)", "{v}");
}

/// A lambda that launches with the values it captures, called from a function that switches on
/// the block size (llm.c's `attention_backward.cu`: `auto launch = [&](auto c) { k<c.value>
/// <<<…, c.value>>>(…); }; dispatch_launch(launch, block_size);`). Each case of the `switch`
/// runs the lambda with its `std::integral_constant` and the captured `n`. Before, the captured
/// `n` and `c.value` were unknown: the grid was free, and the index wrapped.
#[test]
fn a_lambda_runs_with_the_values_it_captures() {
    let text = format!(
        "{KERNEL}
#include <type_traits>
template<class Launcher>
void dispatch(Launcher&& launch, int bs) {{
    switch (bs) {{
        case 32: return launch(std::integral_constant<int, 32>{{}});
        case 64: return launch(std::integral_constant<int, 64>{{}});
        default: break;
    }}
}}
void run(int *d, int n, int bs) {{
    auto launch = [&](auto c) {{ k<<<n / c.value, c.value>>>(d, n); }};
    dispatch(launch, bs);
}}
int main(int argc, char **argv) {{
    int *d;
    run(d, 1024, argc);
    return 0;
}}"
    );
    let a = assuming(&[], &text);
    assert_eq!(
        a,
        [
            ["blockDim = (32, 1, 1)", "gridDim = (32, 1, 1)", "n = 1024"],
            ["blockDim = (64, 1, 1)", "gridDim = (16, 1, 1)", "n = 1024"]
        ],
        "{a:?}"
    );
}

/// A lambda's call operator takes the object first: `launch(1024, 2048)` gives `m = 2048`, and
/// the 2,048 threads race on `d[i % 1024]`. Before, the arguments were taken one place early
/// (`m = 1024`, no thread past the guard) and the race was verified away.
#[test]
fn a_lambdas_arguments_are_its_own() {
    let (_d, path) = program(
        "
__global__ void k(int *d, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) d[i % 1024] = blockIdx.x;
}
int main() {
    int *d;
    auto launch = [&](int n, int m) { k<<<8, 256>>>(d, m); };
    launch(1024, 2048);
    return 0;
}",
    );
    let (_, v, err) = gpug(&["--solver", "z3"], &path);
    let ks = kernels(&v);
    assert_eq!(ks.len(), 1, "{v}\n{err}");
    assert_eq!(ks[0]["launch"]["assuming"][2], "n = 2048", "{v}");
    assert!(has_race(&ks[0]), "{v}");
}

/// A captured variable changed after the lambda was made, by reference or by copy, is not
/// taken at its first value: the lambda by reference sees 20, the copy 10, and gpug, not
/// telling them apart, leaves both unknown.
#[test]
fn a_capture_changed_after_the_lambda_is_made_is_unknown() {
    let text = format!(
        "{KERNEL}
int main() {{
    int *d;
    int n = 10;
    auto by_ref = [&]() {{ k<<<1, 32>>>(d, n); }};
    auto by_copy = [=]() {{ k<<<1, 64>>>(d, n); }};
    n = 20;
    by_ref();
    by_copy();
    return 0;
}}"
    );
    let a = assuming(&[], &text);
    assert_eq!(a.len(), 2, "{a:?}");
    assert!(!a.iter().flatten().any(|s| s.starts_with("n =")), "{a:?}");
}

/// A call chain deeper than the host interpretation follows (here nine calls) still launches:
/// the callee it cut is read again on its own, its parameters unknown, and the race at
/// `n = 2048` is found. Before, the launch of the same function from `main` (`n = 1024`, no
/// race) was the only one, and the kernel was verified.
#[test]
fn a_call_too_deep_to_follow_still_launches() {
    let mut chain = String::new();
    for i in (1..9).rev() {
        chain.push_str(&format!("void l{i}(int *d, int n) {{ l{}(d, n); }}\n", i + 1));
    }
    let (_d, path) = program(&format!(
        "
__global__ void k(int *d, int n) {{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) d[i % 1024] = i;
}}
void l9(int *d, int n) {{ k<<<8, 256>>>(d, n); }}
{chain}
int main() {{
    int *d;
    l9(d, 1024);
    l1(d, 2048);
    return 0;
}}"
    ));
    let (code, v, err) = gpug(&["--solver", "z3"], &path);
    let ks = kernels(&v);
    assert_eq!(ks.len(), 2, "{v}\n{err}");
    assert_eq!(ks[0]["launch"]["assuming"][2], "n = 1024", "{v}");
    assert!(!has_race(&ks[0]), "{v}");
    assert!(has_race(&ks[1]), "{v}");
    assert_eq!(code, Some(1), "{err}");
}

/// A `switch` on an unknown value: each case is read knowing its value (`bs = 128`), a case of
/// several labels or `default` as it is written; a known value takes its case only.
#[test]
fn each_case_of_a_switch_knows_its_value() {
    let text = format!(
        "{KERNEL}
int main(int argc, char **argv) {{
    int *d;
    int n = 4096;
    int bs = argc;
    switch (bs) {{
        case 128:
            k<<<n / bs, bs>>>(d, n);
            break;
        case 512:
        case 1024:
            k<<<n / 512, 512>>>(d, n);
            break;
        default:
            k<<<n / 256, 256>>>(d, n);
    }}
    int known = 2;
    switch (known) {{
        case 1: k<<<1, 32>>>(d, n); break;
        case 2: k<<<2, 32>>>(d, n); break;
    }}
    return 0;
}}"
    );
    let a = assuming(&[], &text);
    assert_eq!(
        a,
        [
            ["blockDim = (128, 1, 1)", "gridDim = (32, 1, 1)", "n = 4096"],
            ["blockDim = (512, 1, 1)", "gridDim = (8, 1, 1)", "n = 4096"],
            ["blockDim = (256, 1, 1)", "gridDim = (16, 1, 1)", "n = 4096"],
            ["blockDim = (32, 1, 1)", "gridDim = (2, 1, 1)", "n = 4096"]
        ],
        "{a:?}"
    );
}

/// A loop over a constant array that cannot be unrolled (its trip count is not known): the
/// element read at the unknown index is one of the array's values, and the launch is verified
/// once per value, each with its grid. Before, the block size was free (a grid of 2^30 blocks
/// in the witnesses).
#[test]
fn an_element_at_an_unknown_index_is_one_of_the_arrays_values() {
    let text = format!(
        "{KERNEL}
int main(int argc, char **argv) {{
    int *d;
    int n = 4096;
    int sizes[] = {{64, 128, 256}};
    for (int j = 0; j < argc; j++) {{
        int bs = sizes[j];
        k<<<(n + bs - 1) / bs, bs>>>(d, n);
    }}
    return 0;
}}"
    );
    let a = assuming(&[], &text);
    assert_eq!(
        a,
        [
            ["blockDim = (64, 1, 1)", "gridDim = (64, 1, 1)", "n = 4096"],
            ["blockDim = (128, 1, 1)", "gridDim = (32, 1, 1)", "n = 4096"],
            ["blockDim = (256, 1, 1)", "gridDim = (16, 1, 1)", "n = 4096"]
        ],
        "{a:?}"
    );
}

/// Each branch of an `if` starts from the state before it, whatever the other branch's calls
/// changed: an `if`-chain dispatching on the block size runs the lambda with its captured `n` in
/// every branch. After the chain, where a branch's call may have changed what the lambda
/// captures, `n` is unknown. Before, only the first branch had `n`.
#[test]
fn each_branch_of_an_if_runs_a_lambda_with_its_captures() {
    let text = format!(
        "{KERNEL}
#include <type_traits>
template<class Launcher>
void dispatch(Launcher&& launch, int bs) {{
    if (bs == 32) {{
        launch(std::integral_constant<int, 32>{{}});
    }} else if (bs == 64) {{
        launch(std::integral_constant<int, 64>{{}});
    }} else {{
        launch(std::integral_constant<int, 128>{{}});
    }}
    launch(std::integral_constant<int, 256>{{}});
}}
void run(int *d, int n, int bs) {{
    auto launch = [&](auto c) {{ k<<<n / c.value, c.value>>>(d, n); }};
    dispatch(launch, bs);
}}
int main(int argc, char **argv) {{
    int *d;
    run(d, 1024, argc);
    return 0;
}}"
    );
    let a = assuming(&[], &text);
    assert_eq!(a.len(), 4, "{a:?}");
    assert_eq!(
        a[0],
        ["blockDim = (32, 1, 1)", "gridDim = (32, 1, 1)", "n = 1024"],
        "{a:?}"
    );
    assert_eq!(
        a[1],
        ["blockDim = (64, 1, 1)", "gridDim = (16, 1, 1)", "n = 1024"],
        "{a:?}"
    );
    assert_eq!(
        a[2],
        ["blockDim = (128, 1, 1)", "gridDim = (8, 1, 1)", "n = 1024"],
        "{a:?}"
    );
    assert!(!a[3].iter().any(|s| s.starts_with("n =")), "{a:?}");
}

/// A device property (`prop.multiProcessorCount`, `prop->maxThreadsPerBlock`,
/// `cudaDeviceGetAttribute`, the occupancy API's outputs, a global the program only sets to
/// one) has the range every CUDA device has, assumed at the launch and named in the report:
/// each kernel races only in a grid of more than 2048 blocks (32768 for `occupancy.cu` and
/// `grid_product.cu`, whose product of two device values keeps only its bounds, 512 for
/// `occupancy_per_sm.cu`), which the ranges rule out. `cudaMallocPitch`'s pitch is at least the row's width (`pitch.cu`:
/// rows apart, its race needing `y * pitch` to overflow listed apart), and rows half a pitch
/// apart still race. A value the program may also take from elsewhere, a field of the
/// program's own struct, or a device property the program writes itself, stays free; a race
/// within the range is still reported. Before, each verified launch here was a defect with
/// 2^30 blocks or a pitch of 0.
#[test]
fn a_device_property_has_the_range_of_every_device() {
    let dir = Path::new("tests/kernels/device_props");
    for (file, verdict, assumed) in [
        (
            "sm_count.cu",
            "verified",
            Some("1 <= gridDim.x <= 1024 (the device's multiProcessorCount)"),
        ),
        (
            "sm_global.cu",
            "verified",
            Some("0 <= num_sms <= 1024 (the device's multiProcessorCount)"),
        ),
        (
            "attribute.cu",
            "verified",
            Some("1 <= gridDim.x <= 1024 (the device's multiProcessorCount)"),
        ),
        (
            "occupancy.cu",
            "verified",
            Some("0 <= gridDim.x <= 32768 (the occupancy API's grid size)"),
        ),
        (
            "occupancy_per_sm.cu",
            "verified",
            Some("0 <= perSm <= 32 (the device's maxBlocksPerMultiProcessor)"),
        ),
        (
            "grid_product.cu",
            "verified",
            Some("0 <= gridDim.x <= 32768 (from prop.multiProcessorCount * perSm, by the device's ranges)"),
        ),
        (
            "sm_global_race.cu",
            "defect",
            Some("0 <= num_sms <= 1024 (the device's multiProcessorCount)"),
        ),
        (
            "pitch.cu",
            "verified",
            Some("4000 <= pitchBytes <= 4294967296 (cudaMallocPitch's pitch)"),
        ),
        (
            "pitch_race.cu",
            "defect",
            Some("4000 <= pitchBytes <= 4294967296 (cudaMallocPitch's pitch)"),
        ),
        ("sm_global_other_write.cu", "defect", None),
        ("own_struct.cu", "defect", None),
        ("written_field.cu", "defect", None),
    ] {
        for solver in SOLVERS {
            let (code, v, err) = gpug(&["--solver", solver], &dir.join(file));
            let ks = kernels(&v);
            assert_eq!(ks.len(), 1, "{file} {solver}: {v}\n{err}");
            assert_eq!(ks[0]["verdict"], verdict, "{file} {solver}: {v}\n{err}");
            assert_eq!(
                code,
                Some(if verdict == "verified" { 0 } else { 1 }),
                "{file} {solver}: {err}"
            );
            let assuming: Vec<String> = ks[0]["launch"]["assuming"]
                .as_array()
                .map(|a| a.iter().filter_map(|s| s.as_str().map(String::from)).collect())
                .unwrap_or_default();
            match assumed {
                Some(a) => assert!(assuming.iter().any(|s| s == a), "{file} {solver}: {assuming:?}"),
                None => assert!(
                    !assuming.iter().any(|s| s.contains("the device's")),
                    "{file}: {assuming:?}"
                ),
            }
            if verdict == "defect" {
                assert!(has_race(&ks[0]), "{file} {solver}: {v}");
            }
        }
    }
}

/// A launch value over host values gpug cannot know (`atoi(argv[1])`) keeps the bounds of their
/// C types: `typed_grid.cu`'s grid of `nb + 1` blocks, `nb` an `unsigned char`, has at most 256
/// blocks, so its index `i * 65536u` never wraps and the kernel is verified with no contract.
/// Before, the grid was free and the race of threads 2^16 apart was listed apart, the kernel
/// verified only for launches where no unsigned index computation wraps.
#[test]
fn a_host_value_of_unknown_value_keeps_the_range_of_its_type() {
    let file = Path::new("tests/kernels/device_props/typed_grid.cu");
    let (code, v, err) = gpug(&["--solver", "z3"], file);
    assert_eq!(code, Some(0), "{v}\n{err}");
    let ks = kernels(&v);
    assert_eq!(ks.len(), 1, "{v}");
    assert_eq!(ks[0]["verdict"], "verified", "{v}");
    assert_eq!(ks[0]["contract"], serde_json::json!([]), "{v}");
    assert!(ks[0]["excluded"].as_array().is_none_or(Vec::is_empty), "{v}");
    let assuming: Vec<&str> = ks[0]["launch"]["assuming"]
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    assert!(
        assuming.contains(&"1 <= gridDim.x <= 256 (by the C types of its host values)"),
        "{assuming:?}"
    );
}

/// The launch contracts' no-wrap bounds are not asked again where the launch itself bounds the
/// thread count: `sm_loop_race.cu`'s grid of `4 * prop.multiProcessorCount` blocks of 128
/// threads has at most 2^19 threads, which one small query shows from the launch's
/// assumptions, so its possible race (in a loop abstracted by an arbitrary iteration) costs one
/// re-verification (no signed overflow), not three. Its twin with a grid from the command line
/// (`argv_loop_race.cu`) is still verified again under `linear index < 2^31`. Both races stay
/// reported, as possible. A check the kernel's own verification refuted is not asked again by
/// the contract's re-verification (which only adds assumptions to the same prepared kernel).
/// A kernel's `--explain` answers (its JSON `answers`), one line each.
fn answers_of(k: &Value) -> Vec<&str> {
    k["answers"]
        .as_array()
        .expect("answers")
        .iter()
        .filter_map(Value::as_str)
        .collect()
}

/// A parameter the host passes as a literal gets no parameter relation: with `n = 1000` at the
/// launch, `n % blockDim.x == 0` and its kin are facts of the launch, so the contracts ask no
/// re-verification under them and suggest none (`rounds`, read from `argv`, still gets them:
/// `a_launch_that_bounds_its_threads_needs_no_no_wrap_contract`).
#[test]
fn a_parameter_the_launch_fixes_gets_no_relation() {
    let file = Path::new("tests/kernels/device_props/sm_literal_race.cu");
    let (code, v, err) = gpug(&["--explain"], file);
    assert_eq!(code, Some(1), "{v}\n{err}");
    let ks = kernels(&v);
    assert_eq!(ks[0]["verdict"], "defect", "{v}");
    let answers = answers_of(&ks[0]);
    assert!(!answers.iter().any(|a| a.starts_with("--assume")), "{answers:#?}");
    assert_eq!(ks[0]["suggestions"], serde_json::json!([]), "{v}");
}

#[test]
fn a_launch_that_bounds_its_threads_needs_no_no_wrap_contract() {
    let dir = Path::new("tests/kernels/device_props");
    for (file, bounded) in [("sm_loop_race.cu", true), ("argv_loop_race.cu", false)] {
        for solver in ["z3", "yices"] {
            let (code, v, err) = gpug(&["--solver", solver, "--explain"], &dir.join(file));
            assert_eq!(code, Some(1), "{file} {solver}: {v}\n{err}");
            let ks = kernels(&v);
            assert_eq!(ks[0]["verdict"], "defect", "{file} {solver}: {v}");
            let findings = ks[0]["findings"].as_array().expect("findings");
            assert!(
                findings.iter().any(|f| f["kind"] == "race" && f["possible"] == true),
                "{file} {solver}: {v}"
            );
            let answers = answers_of(&ks[0]);
            let bound_asked = answers.iter().any(|a| a.contains("linear index < 2^31"));
            let probed = answers.iter().any(|a| a.starts_with("no wrap implied by the launch"));
            assert_eq!(bound_asked, !bounded, "{file} {solver}: {answers:#?}");
            assert_eq!(probed, bounded, "{file} {solver}: {answers:#?}");
            // The race's model has no signed overflow where its threads compute (the
            // witness's probe), so the assumption of none cannot exclude it: not asked.
            assert!(
                !answers.iter().any(|a| a.contains("no signed overflow")),
                "{file} {solver}: {answers:#?}"
            );
            if bounded {
                // The first interval's check and the checks across intervals, refuted by the
                // kernel's own verification, are not asked again under the contract; a
                // relation, assumed in the kernel's body, asks every check.
                for check in ["race.slots.seg0.", "race.slots.cross."] {
                    assert!(
                        !answers.iter().any(|a| a.starts_with("contract") && a.contains(check)),
                        "{file} {solver}: {answers:#?}"
                    );
                    assert!(
                        answers.iter().any(|a| a.starts_with("--assume") && a.contains(check)),
                        "{file} {solver}: {answers:#?}"
                    );
                }
            }
        }
    }
}
