#!/usr/bin/env bash
# tests/device/ncu_cost.sh - where an ncu run's time goes (issue 37): the
# copy family's quick recipe (24 profiled launches) under the sector
# tables' command, then with one metric, then without the cache flush; and
# the replay passes ncu needs for the model's metrics (its progress lines,
# which --csv hides).  Run from the repository root after make:
#
#   OUT=/some/dir bash tests/device/ncu_cost.sh [sizes]
#
# sizes: only the same 8 launches at N = 1e6, 1e7 and 1e8 under the report's
# metrics (does a replay pass cost more when the program holds more device
# memory, which ncu saves and restores between passes?).
#
# Writes $OUT/ncu_cost.txt: one line per variant, its wall seconds.
set -u
cd "$(dirname "$0")/../.." || exit 1
OUT=${OUT:-/tmp/warplat-ncu-cost}
mkdir -p "$OUT"
R=$OUT/ncu_cost.txt
W=$(mktemp -d)
export PATH=$PATH:/usr/local/cuda/bin
./copy_profile --list-kernels >"$W/have.txt"
bin/sector_model --ncu-recipe copy --quick --wpb 4 --have "$W/have.txt" --batch-file "$W/b" >"$W/recipe.tsv"
K=$(bin/tsv meta "$W/recipe.tsv" kernel_regex)
M=$(bin/sector_model --metrics copy)
timed() {   # timed NAME CMD...: its wall seconds into $R
    local name=$1 t0 t1
    shift
    t0=$(date +%s.%N)
    "$@" >"$W/$name.out" 2>&1
    local rc=$?
    t1=$(date +%s.%N)
    echo "$name: exit $rc, $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }') s" >>"$R"
}
echo "metrics: $M" >"$R"
if [ "${1:-}" = sizes ]; then
    for n in 1e6 1e7 1e8; do
        timed "size_$n" ncu --csv --log-file "$W/s$n.csv" --print-units base --clock-control none --cache-control all \
            --kernel-name "regex:$K" --metrics "$M" ./copy_profile "$n" 0 4 --kernel stride,stride16 --stride 1,2,4,32 \
            --reps 1 --warmup 0 -q --table "$W/s$n.tsv"
        echo "size_$n launches: $(grep -c '"copy_' "$W/s$n.csv")" >>"$R"
    done
    timed size_1e8_no_ncu ./copy_profile 1e8 0 4 --kernel stride,stride16 --stride 1,2,4,32 --reps 1 --warmup 0 -q \
        --table "$W/s.tsv"
    rm -rf "$W"
    cat "$R"
    exit 0
fi
timed no_ncu ./copy_profile --batch-file "$W/b" --reps 1 --warmup 0 -q --table "$W/t0.tsv"
timed as_report ncu --csv --log-file "$W/a.csv" --print-units base --clock-control none --cache-control all \
    --kernel-name "regex:$K" --metrics "$M" ./copy_profile --batch-file "$W/b" --reps 1 --warmup 0 -q --table "$W/t1.tsv"
timed one_metric ncu --csv --log-file "$W/b.csv" --print-units base --clock-control none --cache-control all \
    --kernel-name "regex:$K" --metrics gpu__time_duration.sum ./copy_profile --batch-file "$W/b" --reps 1 --warmup 0 -q --table "$W/t2.tsv"
timed no_flush ncu --csv --log-file "$W/c.csv" --print-units base --clock-control none --cache-control none \
    --kernel-name "regex:$K" --metrics "$M" ./copy_profile --batch-file "$W/b" --reps 1 --warmup 0 -q --table "$W/t3.tsv"
timed start_only ncu --csv --log-file "$W/d.csv" --kernel-name regex:nothing_matches --metrics gpu__time_duration.sum \
    ./copy_profile 1e6 0 4 --kernel stride --stride 1 --reps 1 --warmup 0 -q --table "$W/t4.tsv"
# the passes (no --csv: ncu prints "... - N passes" per profiled kernel)
ncu --clock-control none --cache-control all --kernel-name regex:copy_stride --launch-count 1 --metrics "$M" \
    ./copy_profile 1e7 0 4 --kernel stride --stride 1 --reps 1 --warmup 0 -q --table "$W/t5.tsv" >"$W/passes.out" 2>&1
echo "passes (copy's metrics): $(grep -o '[0-9]* pass[es]*' "$W/passes.out" | head -n 3 | paste -sd' ')" >>"$R"
grep -c '"copy_' "$W/a.csv" >>"$R" 2>/dev/null
rm -rf "$W"
cat "$R"
