#!/usr/bin/env bash
# tests/run.sh - runs every test and prints one verdict line:
#   "N passed, N failed, N skipped"
# A test is a unit-test binary build/tests/test_*, or a script tests/cli/*.sh,
# tests/golden/*.sh, tests/faults/*.sh or tests/gpu/*.sh, and a family's own src/families/NAME/test_*.c
# (built as build/tests/test_*), test_*.sh and gpu_*.sh (GPU).  Exit status 0 = pass, 77 = skipped
# (for example a GPU test on a machine without a GPU), anything else = fail.
# WARPLAT_GPU_TESTS=only runs only tests/gpu (make test-gpu).
set -u
cd "$(dirname "$0")/.."
pass=0 fail=0 skip=0 failed=()
# NVIDIA's cuobjdump and nvdisasm from PyPI, where scripts/ensure_deps.sh
# fetched them (the CUDA Toolkit here lacks them): the SASS tests use them
for d in build/cuobj/x/*/*/bin build/cuobj/x/*/*/*/bin; do
    [ -d "$d" ] && PATH=$PATH:$PWD/$d
done
export PATH
logdir=build/test-logs
mkdir -p "$logdir"

run_one() {
    local name=$1; shift
    local log="$logdir/$(echo "$name" | tr '/' '_').log"
    local t0=$SECONDS
    # a test that runs long says so every 10 s, with its last line of
    # progress, so that the run is never silent for long
    ( while sleep 10; do
          printf '  ...   %-44s %3ds  %s\n' "$name" $((SECONDS - t0)) "$(tail -n 1 "$log" 2>/dev/null | cut -c1-60)"
      done ) &
    local ticker=$!
    "$@" >"$log" 2>&1
    local rc=$?
    kill "$ticker" 2>/dev/null
    wait "$ticker" 2>/dev/null
    local dt=$((SECONDS - t0))
    if [ $rc -eq 0 ]; then
        pass=$((pass + 1)); printf '  PASS  %-44s %3ds\n' "$name" "$dt"
    elif [ $rc -eq 77 ]; then
        skip=$((skip + 1)); printf '  SKIP  %-44s (%s)\n' "$name" "$(tail -n 1 "$log")"
    else
        fail=$((fail + 1)); failed+=("$name"); printf '  FAIL  %-44s (log: %s)\n' "$name" "$log"
        sed 's/^/        | /' "$log" | tail -n 25
    fi
}

if [ "${WARPLAT_GPU_TESTS:-}" != only ]; then
    for t in build/tests/test_*; do
        [ -x "$t" ] && run_one "unit/$(basename "$t")" "$t"
    done
    for t in tests/cli/*.sh tests/golden/*.sh; do
        [ -f "$t" ] && run_one "${t#tests/}" bash "$t"
    done
    for t in tests/faults/*.sh; do
        [ -f "$t" ] && run_one "${t#tests/}" bash "$t"
    done
    # a family's own script tests (src/families/NAME/test_*.sh)
    for t in src/families/*/test_*.sh; do
        [ -f "$t" ] && run_one "${t#src/}" bash "$t"
    done
fi
for t in tests/gpu/*.sh src/families/*/gpu_*.sh; do
    [ -f "$t" ] && run_one "${t#tests/}" bash "$t"
done

echo
[ ${#failed[@]} -gt 0 ] && echo "failed: ${failed[*]}"
echo "$pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
