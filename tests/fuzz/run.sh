#!/usr/bin/env bash
# tests/fuzz/run.sh SECONDS [HARNESS...] - run each libFuzzer harness for
# SECONDS (make fuzz: FUZZ_SECONDS, default 60) from the committed seeds.
# New inputs go to build-fuzz/corpus/NAME (the committed corpus is left as
# it is), findings to build-fuzz/findings/NAME/.  Exit 1 when any harness
# found something: its report is printed and the input kept there.
# FUZZ_JOBS harnesses run at once (default: the number of cores), each on
# one core for its SECONDS, so the whole set takes SECONDS x harnesses / jobs.
set -u
cd "$(dirname "$0")/../.."
secs=${1:-60}; shift || true
FB=build-fuzz
names=("$@")
[ ${#names[@]} -gt 0 ] || names=($(ls tests/fuzz/fuzz_*.c | sed 's|.*/fuzz_||; s|\.c$||'))
jobs=${FUZZ_JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)}
case $jobs in ''|*[!0-9]*|0) jobs=1 ;; esac
for n in "${names[@]}"; do
    [ -x "$FB/fuzz_$n" ] || { echo "fuzz: $FB/fuzz_$n is not built (make fuzz builds it)" >&2; exit 2; }
done
# one harness: its verdict line (and its report) into $FB/fuzz_NAME.verdict
run_one() {
    local n=$1 h=$FB/fuzz_$1 work=$FB/corpus/$1 findings=$FB/findings/$1 log=$FB/fuzz_$1.log rc runs
    mkdir -p "$work" "$findings"
    # -malloc_limit_mb: no input may make a parser allocate 256 MB at once
    # (what a header or a file promises must not size memory); -timeout: no
    # input may take 10 s.
    "$h" -max_total_time="$secs" -timeout=10 -rss_limit_mb=1024 -malloc_limit_mb=256 \
        -max_len=16384 -print_final_stats=1 -artifact_prefix="$findings/" \
        "$work" "tests/fuzz/corpus/$n" >"$log" 2>&1
    rc=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    {
        printf '  FUZZ  %-20s %ss ... ' "$n" "$secs"
        if [ $rc -eq 0 ]; then
            echo "clean (${runs:-?} runs)"
        else
            echo "FOUND SOMETHING (exit $rc; log $log)"
            grep -E "^==[0-9]+==|ERROR|SUMMARY|runtime error|Test unit written" "$log" | head -20 | sed 's/^/        | /'
        fi
    } >"$FB/fuzz_$n.verdict"
    return $rc
}
bad=() running=0
for n in "${names[@]}"; do
    if [ $running -ge "$jobs" ]; then wait -n; running=$((running - 1)); fi
    run_one "$n" &
    running=$((running + 1))
done
wait
for n in "${names[@]}"; do
    cat "$FB/fuzz_$n.verdict"
    grep -q 'FOUND SOMETHING' "$FB/fuzz_$n.verdict" && bad+=("$n")
done
[ ${#bad[@]} -eq 0 ] || { echo "fuzz: findings in: ${bad[*]}" >&2; exit 1; }
echo "fuzz: ${#names[@]} harnesses, ${secs}s each, $jobs at a time, no finding"
