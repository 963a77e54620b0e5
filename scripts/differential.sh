#!/bin/sh
# Runs the differential soundness test (tests/differential.rs) on N random kernels (default
# 10000), split over its two tests, which run in parallel: gpug against a reference interpreter
# of its ir at small concrete launches. SEED (default 0) picks another set of kernels.
# Usage: scripts/differential.sh [N] [SEED]
set -eu
n=${1:-10000}
seed=${2:-0}
cd "$(dirname "$0")/.."
GPUG_DIFF_CASES=$(( (n + 1) / 2 )) GPUG_DIFF_SEED=$seed \
  cargo test --release --test differential -- --nocapture 2>&1 |
  grep -v '^warning' | grep -E 'cases, agreed|disagree|test result|^error|minimal failing' -A40
