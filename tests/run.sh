#!/usr/bin/env bash
# tests/run.sh - runs every test and prints one verdict line:
#   "N passed, N failed, N skipped"
# A test is a unit-test binary build/tests/test_*, or a script tests/cli/*.sh,
# tests/golden/*.sh, tests/faults/*.sh or tests/gpu/*.sh, and a family's own src/families/NAME/test_*.c
# (built as build/tests/test_*), test_*.sh and gpu_*.sh (GPU).  Exit status 0 = pass, 77 = skipped
# (for example a GPU test on a machine without a GPU), anything else = fail.
# WARPLAT_GPU_TESTS=only runs only tests/gpu (make test-gpu).
#
# The tests without a GPU run WARPLAT_TEST_JOBS at a time (default: the
# cores), the longest first by the times of the last run
# (build/test-logs/times.tsv; in a fresh clone the committed tests/times.tsv), so that the suite takes about as long as its
# longest test; each test has its own temporary folder and log.  The GPU
# tests run one at a time after them: several of them time kernels.
set -u
cd "$(dirname "$0")/.."
failed=()
# NVIDIA's cuobjdump and nvdisasm from PyPI, where scripts/ensure_deps.sh
# fetched them (the CUDA Toolkit here lacks them): the SASS tests use them
for d in build/cuobj/x/*/*/bin build/cuobj/x/*/*/*/bin; do
    [ -d "$d" ] && PATH=$PATH:$PWD/$d
done
export PATH
logdir=build/test-logs
mkdir -p "$logdir"
results=$logdir/results.$$
: >"$results"
# what several tests read and one of them makes, once a run (tests/lib.sh,
# bundled_report): a new folder each run, so nothing of an older tree is seen
WARPLAT_TEST_SHARED=$(mktemp -d "${TMPDIR:-/tmp}/warplat-shared.XXXXXX") || exit 1
export WARPLAT_TEST_SHARED
trap 'rm -rf "$WARPLAT_TEST_SHARED"' EXIT
JOBS=${WARPLAT_TEST_JOBS:-$(nproc 2>/dev/null || echo 2)}
[ "$JOBS" -ge 1 ] 2>/dev/null || JOBS=1
t_suite=$SECONDS

log_of() { echo "$logdir/$(echo "$1" | tr '/' '_').log"; }

# One test: its log, then one line "STATUS SECONDS NAME" in $results and its
# verdict on stdout (a short line; a failure's log follows at the end).
run_one() {
    local name=$1; shift
    local log t0=$SECONDS rc
    log=$(log_of "$name")
    : >"$log.running"
    "$@" >"$log" 2>&1 </dev/null
    rc=$?
    rm -f "$log.running"
    local dt=$((SECONDS - t0))
    if [ $rc -eq 0 ]; then
        printf '  PASS  %-44s %3ds\n' "$name" "$dt"; echo "pass $dt $name" >>"$results"
    elif [ $rc -eq 77 ]; then
        printf '  SKIP  %-44s (%s)\n' "$name" "$(tail -n 1 "$log")"; echo "skip $dt $name" >>"$results"
    else
        printf '  FAIL  %-44s (log: %s)\n' "$name" "$log"; echo "fail $dt $name" >>"$results"
    fi
}

# The tests as "NAME<TAB>COMMAND...", the longest of the last run first.
list_tests() {
    local t
    for t in build/tests/test_*; do [ -x "$t" ] && printf 'unit/%s\t%s\n' "$(basename "$t")" "$t"; done
    for t in tests/cli/*.sh tests/golden/*.sh tests/faults/*.sh; do
        [ -f "$t" ] && printf '%s\tbash\t%s\n' "${t#tests/}" "$t"
    done
    for t in src/families/*/test_*.sh; do [ -f "$t" ] && printf '%s\tbash\t%s\n' "${t#src/}" "$t"; done
}
by_last_time() { # sort NAME<TAB>... lines by the last run's seconds, longest first
    local -A last=()
    local name secs line
    # a fresh clone has no last run: the committed times of one (tests/times.tsv,
    # from build/test-logs/times.tsv) order it, so that its long tests start first
    local times=$logdir/times.tsv
    [ -f "$times" ] || times=tests/times.tsv
    if [ -f "$times" ]; then
        while IFS=$'\t' read -r name secs; do
            case $name in '#'*|'') continue ;; esac
            last[$name]=$secs
        done <"$times"
    fi
    while IFS= read -r line; do
        printf '%s\t%s\n' "${last[${line%%$'\t'*}]:-0}" "$line"
    done | sort -t$'\t' -k1,1nr -s | cut -f2-
}

if [ "${WARPLAT_GPU_TESTS:-}" != only ]; then
    rm -f "$logdir"/*.running
    ( while sleep 20; do   # what runs now, so that the run is never silent for long
          printf '  ...   %3ds, running: %s\n' $((SECONDS - t_suite)) \
              "$(cd "$logdir" && ls -- *.running 2>/dev/null | sed 's/\.log\.running$//' | tr '\n' ' ')"
      done ) &
    ticker=$!
    while IFS=$'\t' read -r -a cmd; do
        while [ "$(jobs -rp | wc -l)" -gt "$JOBS" ]; do wait -n; done   # the ticker is one of them
        run_one "${cmd[@]}" &
    done < <(list_tests | by_last_time)
    kill "$ticker" 2>/dev/null
    wait
fi
for t in tests/gpu/*.sh src/families/*/gpu_*.sh; do
    [ -f "$t" ] && run_one "${t#tests/}" bash "$t"
done

# the times for the next run's order
while read -r status dt name; do printf '%s\t%s\n' "$name" "$dt"; done <"$results" >"$logdir/times.tsv"
while read -r status dt name; do
    [ "$status" = fail ] || continue
    failed+=("$name")
    echo "--- $name ($(log_of "$name")):"
    sed 's/^/        | /' "$(log_of "$name")" | tail -n 25
done <"$results"
pass=$(grep -c '^pass ' "$results")
fail=$(grep -c '^fail ' "$results")
skip=$(grep -c '^skip ' "$results")
rm -f "$results"
echo
echo "suite: $((SECONDS - t_suite)) s, $JOBS at a time"
[ ${#failed[@]} -gt 0 ] && echo "failed: ${failed[*]}"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
