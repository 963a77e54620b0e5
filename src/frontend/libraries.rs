//! The headers of the libraries real CUDA programs include (issue 42 item 1): where gpug finds
//! them without a flag, and, for one still missing, which package provides it.
//!
//! NVIDIA's library headers (cuBLAS, cuBLASLt, cuFFT, cuSPARSE, cuSOLVER, cuRAND, NPP,
//! nvJPEG, NVTX 3, the profiler API, CUPTI, NVRTC, NCCL and CCCL's thrust, CUB and libcu++)
//! are unpacked by `scripts/install-deps.sh` into the CUDA folder's `include/` beside the
//! runtime's, as a CUDA installation has them, so clang's `--cuda-path` finds them. OpenMP's
//! `omp.h` comes with clang (Debian's `libomp-19-dev`, for clang 19). An MPI's `mpi.h` lives in a folder of
//! its own ([`SYSTEM_DIRS`]), which gpug adds after the system's (`-idirafter`) when it exists.
//!
//! Owns the table of headers and packages; does not run clang ([`super::clang`]).

use std::path::Path;

/// Folders searched after the system's include folders (`-idirafter`) when they exist:
/// Debian's Open MPI and MPICH headers.
pub const SYSTEM_DIRS: &[&str] = &[
    "/usr/lib/x86_64-linux-gnu/openmpi/include",
    "/usr/include/x86_64-linux-gnu/mpich",
    "/usr/lib/aarch64-linux-gnu/openmpi/include",
    "/usr/include/aarch64-linux-gnu/mpich",
];

/// The folders of [`SYSTEM_DIRS`] that exist on this machine.
pub fn system_dirs() -> impl Iterator<Item = &'static Path> {
    SYSTEM_DIRS.iter().map(Path::new).filter(|p| p.is_dir())
}

/// (header name or folder prefix, what provides it). A prefix ends with `/`.
const PROVIDERS: &[(&str, &str)] = &[
    ("cublas_v2.h", "NVIDIA's cuBLAS (PyPI nvidia-cublas-cu11)"),
    ("cublas.h", "NVIDIA's cuBLAS (PyPI nvidia-cublas-cu11)"),
    ("cublas_api.h", "NVIDIA's cuBLAS (PyPI nvidia-cublas-cu11)"),
    ("cublasLt.h", "NVIDIA's cuBLASLt (PyPI nvidia-cublas-cu11)"),
    ("cublasXt.h", "NVIDIA's cuBLAS (PyPI nvidia-cublas-cu11)"),
    ("cufft.h", "NVIDIA's cuFFT (PyPI nvidia-cufft-cu11)"),
    ("cufftXt.h", "NVIDIA's cuFFT (PyPI nvidia-cufft-cu11)"),
    ("cusparse.h", "NVIDIA's cuSPARSE (PyPI nvidia-cusparse-cu11)"),
    ("cusolverDn.h", "NVIDIA's cuSOLVER (PyPI nvidia-cusolver-cu11)"),
    ("cusolverSp.h", "NVIDIA's cuSOLVER (PyPI nvidia-cusolver-cu11)"),
    ("nvjpeg.h", "NVIDIA's nvJPEG (PyPI nvidia-nvjpeg-cu11)"),
    ("npp.h", "NVIDIA's NPP (PyPI nvidia-npp-cu11)"),
    ("nvToolsExt.h", "NVIDIA's NVTX (PyPI nvidia-nvtx-cu11)"),
    ("nvtx3/", "NVIDIA's NVTX 3 (PyPI nvidia-nvtx-cu11)"),
    (
        "cuda_profiler_api.h",
        "NVIDIA's profiler API (PyPI nvidia-cuda-profiler-api-cu11)",
    ),
    ("cupti.h", "NVIDIA's CUPTI (PyPI nvidia-cuda-cupti-cu11)"),
    ("nvrtc.h", "NVIDIA's NVRTC (PyPI nvidia-cuda-nvrtc-cu11)"),
    ("nccl.h", "NVIDIA's NCCL (PyPI nvidia-nccl-cu11)"),
    ("thrust/", "NVIDIA's CCCL: thrust (PyPI nvidia-cuda-cccl-cu11)"),
    ("cub/", "NVIDIA's CCCL: CUB (PyPI nvidia-cuda-cccl-cu11)"),
    ("cuda/", "NVIDIA's CCCL: libcu++ (PyPI nvidia-cuda-cccl-cu11)"),
    ("nv/", "NVIDIA's CCCL (PyPI nvidia-cuda-cccl-cu11)"),
    (
        "omp.h",
        "OpenMP (Debian libomp-19-dev, for clang 19; libomp-dev for clang 14)",
    ),
    ("mpi.h", "an MPI (Debian libopenmpi-dev)"),
    (
        "helper_cuda.h",
        "NVIDIA cuda-samples' Common/ folder (-I <cuda-samples>/Common)",
    ),
    (
        "helper_functions.h",
        "NVIDIA cuda-samples' Common/ folder (-I <cuda-samples>/Common)",
    ),
    (
        "helper_math.h",
        "NVIDIA cuda-samples' Common/ folder (-I <cuda-samples>/Common)",
    ),
    ("GL/", "OpenGL's headers (Debian libgl-dev, freeglut3-dev, libglew-dev)"),
    ("boost/", "Boost (Debian libboost-dev)"),
];

/// What provides the header `name` (as `#include` spells it), when gpug knows.
pub fn provider(name: &str) -> Option<&'static str> {
    PROVIDERS
        .iter()
        .find(|(h, _)| {
            if h.ends_with('/') {
                name.starts_with(h)
            } else {
                name == *h
            }
        })
        .map(|(_, p)| *p)
}

/// The headers clang could not find: NAME of each `fatal error: 'NAME' file not found` of its
/// `stderr`, in order, without repeats.
pub fn missing_headers(stderr: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for line in stderr.lines() {
        let Some(rest) = line.split_once("fatal error: '").map(|(_, r)| r) else {
            continue;
        };
        if let Some(name) = rest.strip_suffix("' file not found")
            && !out.iter().any(|n| n == name)
        {
            out.push(name.to_string());
        }
    }
    out
}

/// For each `fatal error: 'NAME' file not found` of clang's `stderr`, a note naming what
/// provides NAME and how gpug gets it; empty when none is known.
pub fn missing_header_notes(stderr: &str) -> String {
    let mut out = String::new();
    for name in missing_headers(stderr) {
        if let Some(p) = provider(&name) {
            let how = if p.starts_with("NVIDIA's") && p.contains("PyPI") {
                "scripts/install-deps.sh unpacks it into gpug's CUDA folder; or --cuda-path DIR, or -I DIR"
            } else if p.contains("libomp") || p.contains("libopenmpi") {
                "scripts/install-deps.sh installs it; or -I DIR"
            } else if p.contains("Debian") {
                "install it (apt-get install), or give its folder with -I DIR"
            } else {
                "add its folder with -I DIR"
            };
            out.push_str(&format!("note: '{name}' comes with {p}: {how}\n"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_each_missing_header_once_in_order() {
        let stderr = "a.cu:4:10: fatal error: 'cudla.h' file not found\n#include \"cudla.h\"\n\
                      b.h:2:10: fatal error: 'GLFW/glfw3.h' file not found\n\
                      a.cu:9:10: fatal error: 'cudla.h' file not found\n\
                      a.cu:3:1: error: unknown type name 'X'\n";
        assert_eq!(missing_headers(stderr), vec!["cudla.h", "GLFW/glfw3.h"]);
        assert!(missing_headers("a.cu:3:1: error: unknown type name 'X'\n").is_empty());
    }

    #[test]
    fn names_the_package_of_a_missing_header() {
        assert_eq!(
            provider("cublas_v2.h"),
            Some("NVIDIA's cuBLAS (PyPI nvidia-cublas-cu11)")
        );
        assert_eq!(
            provider("nvtx3/nvToolsExt.h"),
            Some("NVIDIA's NVTX 3 (PyPI nvidia-nvtx-cu11)")
        );
        assert_eq!(
            provider("thrust/device_vector.h").map(|p| p.contains("cccl")),
            Some(true)
        );
        assert_eq!(provider("my_kernels.h"), None);
        let notes = missing_header_notes("a.cu:4:10: fatal error: 'cublas_v2.h' file not found\n");
        assert!(
            notes.starts_with("note: 'cublas_v2.h' comes with NVIDIA's cuBLAS"),
            "{notes}"
        );
        assert_eq!(
            missing_header_notes("a.cu:4:10: fatal error: 'mine.h' file not found\n"),
            ""
        );
    }
}
