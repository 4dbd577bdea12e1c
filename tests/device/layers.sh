#!/usr/bin/env bash
# tests/device/layers.sh - issue 39's check on a real GPU, end to end on a
# bare machine with the CUDA toolkit (run from the repository root):
#
#   OUT=/some/dir bash tests/device/layers.sh
#
# Issue 39 moved code (the engine's fail.c, main.c, variant.c; ENG_TRY in the
# families' hooks; probe.cuh on warplat.cuh; src/report, src/sector,
# src/ladder; the lean installed library) without meaning to change what
# runs.  This builds everything, then runs the GPU tests that drive those
# paths, each holding real values: every family and variant validated and
# timed with a log bin/warplog accepts (families.sh), the engine's sweep,
# batch and injected-CUDA-error paths (gpu_readonly.sh), the ladder (latency.sh),
# copy (gpu_copy.sh), the atomics (gpu_atomics.sh), the installed API and its
# examples outside the tree (examples.sh, api_hostile.sh), and last the
# README's main job in a fresh clone (report_e2e.sh: make report --quick).
# Results under $OUT (at most 8 files): summary.txt (one line per step:
# PASS/FAIL/SKIP, seconds), build.log, and tests.tar.gz (every test's log).
# Exit status: 0 when every step passed, 1 otherwise.
set -u
cd "$(dirname "$0")/../.." || exit 1
OUT=${OUT:-/tmp/warplat-layers}
mkdir -p "$OUT"
S=$OUT/summary.txt
L=$(mktemp -d)
: >"$S"
fail=0
note() { printf '%s\n' "$*" | tee -a "$S"; }

note "date: $(date -u +%FT%TZ)  host: $(hostname)"
note "gpu: $(nvidia-smi -L 2>&1 | head -n 4 | tr '\n' ';')"
note "nvcc: $(command -v nvcc || echo /usr/local/cuda/bin/nvcc)"
export PATH=$PATH:/usr/local/cuda/bin

t0=$SECONDS
if make -j"$(nproc)" all tools >"$OUT/build.log" 2>&1 && [ -x ./readonly ] && [ -x ./latency ]; then
    note "PASS build $((SECONDS - t0))s"
else
    note "FAIL build $((SECONDS - t0))s (build.log)"
    tail -n 30 "$OUT/build.log" >>"$S"
    exit 1
fi
# the unit tests the build makes, as make test builds them (no GPU needed)
T=$(ls tests/unit/test_*.c src/families/*/test_*.c | sed 's|.*/\(test_[a-z_0-9]*\)\.c|build/tests/\1|')
make -j"$(nproc)" $T >>"$OUT/build.log" 2>&1 || note "FAIL unit-test build (build.log)"

run() {   # one test: its verdict line; its log into the tarball
    local t=$1 lim=$2 t1=$SECONDS rc name
    name=$(echo "$t" | tr '/' '_')
    timeout "$lim" bash "$t" >"$L/$name.log" 2>&1 </dev/null
    rc=$?
    case $rc in
        0) note "PASS $t $((SECONDS - t1))s" ;;
        77) note "SKIP $t: $(tail -n 1 "$L/$name.log")" ;;
        *) note "FAIL $t rc=$rc $((SECONDS - t1))s"; tail -n 15 "$L/$name.log" | sed 's/^/    /' >>"$S"; fail=1 ;;
    esac
}
run tests/gpu/families.sh 120
run src/families/readonly/gpu_readonly.sh 120
run tests/gpu/latency.sh 120
run src/families/copy/gpu_copy.sh 120
run src/families/atomics/gpu_atomics.sh 120
run tests/gpu/api_hostile.sh 120
run tests/gpu/examples.sh 180
# the structure checks that need no GPU but do need the build (SASS, install)
run tests/cli/sass.sh 120
run tests/cli/install.sh 120
run tests/gpu/report_e2e.sh 330
tar -czf "$OUT/tests.tar.gz" -C "$L" . 2>/dev/null
rm -rf "$L"
note "done in $SECONDS s: $([ $fail = 0 ] && echo 'every step passed' || echo 'FAILED')"
exit $fail
