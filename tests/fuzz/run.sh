#!/usr/bin/env bash
# tests/fuzz/run.sh SECONDS [HARNESS...] - run each libFuzzer harness for
# SECONDS (make fuzz: FUZZ_SECONDS, default 60) from the committed seeds.
# New inputs go to build-fuzz/corpus/NAME (the committed corpus is left as
# it is), findings to build-fuzz/findings/NAME/.  Exit 1 when any harness
# found something: its report is printed and the input kept there.
set -u
cd "$(dirname "$0")/../.."
secs=${1:-60}; shift || true
FB=build-fuzz
names=("$@")
[ ${#names[@]} -gt 0 ] || names=($(ls tests/fuzz/fuzz_*.c | sed 's|.*/fuzz_||; s|\.c$||'))
bad=()
for n in "${names[@]}"; do
    h=$FB/fuzz_$n
    [ -x "$h" ] || { echo "fuzz: $h is not built (make fuzz builds it)" >&2; exit 2; }
    work=$FB/corpus/$n findings=$FB/findings/$n
    mkdir -p "$work" "$findings"
    log=$FB/fuzz_$n.log
    printf '  FUZZ  %-20s %ss ... ' "$n" "$secs"
    # -malloc_limit_mb: no input may make a parser allocate 256 MB at once
    # (what a header or a file promises must not size memory); -timeout: no
    # input may take 10 s.
    "$h" -max_total_time="$secs" -timeout=10 -rss_limit_mb=1024 -malloc_limit_mb=256 \
        -max_len=16384 -print_final_stats=1 -artifact_prefix="$findings/" \
        "$work" "tests/fuzz/corpus/$n" >"$log" 2>&1
    rc=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    if [ $rc -eq 0 ]; then
        echo "clean (${runs:-?} runs)"
    else
        echo "FOUND SOMETHING (exit $rc; log $log)"
        grep -E "^==[0-9]+==|ERROR|SUMMARY|runtime error|Test unit written" "$log" | head -20 | sed 's/^/        | /'
        bad+=("$n")
    fi
done
[ ${#bad[@]} -eq 0 ] || { echo "fuzz: findings in: ${bad[*]}" >&2; exit 1; }
echo "fuzz: ${#names[@]} harnesses, ${secs}s each, no finding"
