//! `-p BUILD_DIR`: the compilation database (issue 46). tests/cmake_project is a CMake project
//! whose kernels compile only with its `-DTILE=…`, its `include/` folder and C++17; CMake
//! (apt's, no CUDA toolkit: the `.cu` files are compiled as C++) writes its
//! compile_commands.json into a temporary build folder, and gpug verifies the kernels with it.

mod common;

use common::{gpug, root};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The kernels of tests/cmake_project, from the repository root.
const COPY: &str = "tests/cmake_project/kernels/tile_copy.cu";
const SHIFT: &str = "tests/cmake_project/kernels/tile_shift.cu";

/// Flags of every run: the kernels' launch (`blockDim.x == TILE` is their `__requires`), and
/// yices for speed.
const LAUNCH: [&str; 4] = ["--blockDim=[*,1,1]", "--gridDim=[*,1,1]", "--solver", "yices"];

/// Configures tests/cmake_project into a fresh temporary build folder with
/// `-DCMAKE_EXPORT_COMPILE_COMMANDS=ON`, and returns the folder. Panics when cmake is missing
/// (scripts/install-deps.sh installs it) or fails.
fn configure() -> tempfile::TempDir {
    let build = tempfile::Builder::new()
        .prefix("gpug-cmake-")
        .tempdir()
        .expect("temp dir");
    let out = Command::new("cmake")
        .arg("-S")
        .arg(root().join("tests/cmake_project"))
        .arg("-B")
        .arg(build.path())
        .arg("-DCMAKE_EXPORT_COMPILE_COMMANDS=ON")
        .output()
        .unwrap_or_else(|e| panic!("cannot run cmake ({e}): scripts/install-deps.sh installs it"));
    assert!(
        out.status.success(),
        "cmake failed:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    build
}

/// Runs gpug with `args`, then [`LAUNCH`].
fn run(args: &[&str]) -> Output {
    let all: Vec<String> = args.iter().chain(LAUNCH.iter()).map(|s| s.to_string()).collect();
    gpug(&all)
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The JSON objects of a `--json` run, one per line.
fn json_lines(o: &Output) -> Vec<Value> {
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .collect()
}

/// (file name, variant, verdict) of each JSON object, sorted.
fn verdicts(lines: &[Value]) -> Vec<(String, String, String)> {
    let mut out: Vec<(String, String, String)> = lines
        .iter()
        .map(|l| {
            let file = Path::new(l["file"].as_str().unwrap_or(""))
                .file_name()
                .map(|f| f.to_string_lossy().into_owned());
            (
                file.unwrap_or_default(),
                l["variant"].as_str().unwrap_or("").to_string(),
                l["kernels"][0]["verdict"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    out.sort();
    out
}

/// The test: CMake's database holds the kernels with their `-D`, `-I` and `-std`; with
/// `-p BUILD` the race-free kernel is verified (in both targets that compile it) and the racy
/// one has its race; without `-p` clang refuses both, naming the missing header, and with the
/// header's folder but no `-DTILE` naming the missing macro.
#[test]
fn cmake_project_verified_with_its_database_refused_without() {
    let build = configure();
    let db_path = build.path().join("compile_commands.json");
    let db: Value = serde_json::from_slice(&std::fs::read(&db_path).expect("cmake wrote compile_commands.json"))
        .expect("compile_commands.json is JSON");
    let entries = db.as_array().expect("an array");
    let commands: Vec<&str> = entries.iter().filter_map(|e| e["command"].as_str()).collect();
    assert_eq!(commands.len(), 3, "{db:#}");
    assert!(
        commands
            .iter()
            .all(|c| c.contains("tests/cmake_project/include") && c.contains("-std=c++17")),
        "{db:#}"
    );
    assert!(
        commands
            .iter()
            .any(|c| c.contains("-DTILE=64") && c.contains("tile_copy.cu")),
        "{db:#}"
    );
    assert!(
        commands
            .iter()
            .any(|c| c.contains("-DTILE=32") && c.contains("tile_copy.cu")),
        "{db:#}"
    );
    let p = build.path().to_str().expect("UTF-8 path");

    // tile_copy.cu: two entries (targets `tiles` and `tiles_half`), each verified.
    let o = run(&["-p", p, COPY, "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        verdicts(&json_lines(&o)),
        [
            (
                "tile_copy.cu".into(),
                "-DSHIFT_BY=1 -DTILE=64".into(),
                "verified".into()
            ),
            ("tile_copy.cu".into(), "-DTILE=32".into(), "verified".into()),
        ]
    );
    // The text table names each run by the flags that set it apart.
    let o = run(&["-p", p, COPY]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("tile_copy.cu [-DTILE=32]"), "{text}");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));

    // tile_shift.cu: one entry, a race on the tile.
    let o = run(&["-p", p, SHIFT, "--json"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let report = &json_lines(&o)[0];
    let arrays: Vec<&str> = report["kernels"][0]["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter_map(|f| f["array"].as_str())
        .collect();
    assert!(arrays.contains(&"tile"), "{report}");

    // Without the database: no include folder, no TILE, and under C++14 (gpug's default is
    // C++17, nvcc's) not the standard the project asks for.
    let o = run(&[COPY]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("'tile_config.h' file not found"), "{}", stderr(&o));
    let o = run(&["-I", "tests/cmake_project/include", COPY]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("TILE must be defined"), "{}", stderr(&o));
    let o = run(&["-I", "tests/cmake_project/include", "-DTILE=64", "--std", "c++14", COPY]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("the tiles need C++17"), "{}", stderr(&o));

    // The command line's -D comes after the database's and wins: SHIFT_BY=0 reads the
    // thread's own element, no race.
    let o = run(&["-p", p, SHIFT, "-DSHIFT_BY=0"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

/// With `-p`, a directory argument verifies the database's `.cu` files under it (once per
/// distinct flag set), and no file argument at all every `.cu` file of the database; a file
/// the database does not hold is verified with the command line's flags, with a note.
#[test]
fn directory_and_no_argument_verify_the_database_files() {
    let build = configure();
    let p = build.path().to_str().expect("UTF-8 path");
    let expected: Vec<(String, String, String)> = vec![
        (
            "tile_copy.cu".into(),
            "-DSHIFT_BY=1 -DTILE=64".into(),
            "verified".into(),
        ),
        ("tile_copy.cu".into(), "-DTILE=32".into(), "verified".into()),
        ("tile_shift.cu".into(), "".into(), "defect".into()),
    ];
    for args in [vec!["-p", p, "tests/cmake_project", "--json"], vec!["-p", p, "--json"]] {
        let o = run(&args);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {}", stderr(&o));
        assert_eq!(verdicts(&json_lines(&o)), expected, "{args:?}");
    }
    // A folder the database has no file under.
    let o = run(&["-p", p, "examples"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no .cu or .cl file of"), "{}", stderr(&o));
    // A file not in the database.
    let o = run(&["-p", p, "examples/reduce.cu"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stderr(&o).contains("has no entry in"), "{}", stderr(&o));
}

/// A hand-written database entry with the command CMake's CUDA language writes for nvcc (its
/// `-isystem=`, `--generate-code=…`, `-Xcompiler`, `--options-file` and `-x cu`): the kernel
/// gets its macro, header folder and standard, and verifies.
#[test]
fn nvcc_entry_of_a_hand_written_database() {
    let dir = tempfile::Builder::new()
        .prefix("gpug-cdb-")
        .tempdir()
        .expect("temp dir");
    let project = root().join("tests/cmake_project");
    let command = format!(
        "/usr/local/cuda/bin/nvcc -forward-unknown-to-host-compiler -DTILE=16 -DSHIFT_BY=0 \
         -isystem={inc} -Xcompiler -UTILE --generate-code=arch=compute_70,code=[compute_70,sm_70] \
         -std=c++17 -x cu -c {file} -o CMakeFiles/tiles.dir/kernels/tile_shift.cu.o \
         --options-file CMakeFiles/tiles.dir/includes_CUDA.rsp",
        inc = project.join("include").display(),
        file = project.join("kernels/tile_shift.cu").display(),
    );
    let db = serde_json::json!([{
        "directory": dir.path(),
        "command": command,
        "file": project.join("kernels/../kernels/tile_shift.cu"),
        "output": "CMakeFiles/tiles.dir/kernels/tile_shift.cu.o",
    }]);
    let json: PathBuf = dir.path().join("compile_commands.json");
    std::fs::write(&json, db.to_string()).expect("write");
    // The .json file itself, as -p's argument.
    let o = run(&["-p", json.to_str().expect("UTF-8"), SHIFT]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

/// A missing or malformed database is an input error (exit 2) naming the file.
#[test]
fn bad_database_is_exit_2_naming_the_file() {
    let dir = tempfile::Builder::new()
        .prefix("gpug-cdb-")
        .tempdir()
        .expect("temp dir");
    let d = dir.path().to_str().expect("UTF-8");
    let o = run(&["-p", d, COPY]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no compilation database at"), "{}", stderr(&o));
    assert!(stderr(&o).contains("compile_commands.json"), "{}", stderr(&o));
    std::fs::write(dir.path().join("compile_commands.json"), "[{\"file\": 3}]").expect("write");
    let o = run(&["-p", d, COPY]);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert_eq!(e.lines().count(), 1, "{e}");
    assert!(e.contains("compile_commands.json is not a compilation database"), "{e}");
}
