#!/usr/bin/env bash
# The report of your own kernel: scripts/report.sh --log FILE on a synthetic
# two-region log (bin/mklog, the regions golden test's fixture), no GPU:
# the verdict table and one section per region with its statistics and its
# two charts; --ref-root finds the bundled folder of the log's GPU; usage
# errors exit 2; an unreadable log stops with exit 1 and no report.
source "$(dirname "$0")/../lib.sh"
require_bin bin/mklog bin/verdict bin/report bin/latency_stats
L=$TMP/regions.bin
bin/mklog "$L" --kernel spmv --experiment user --regions gather,reduce --region-bytes 6144,0 --wpb 2 \
    --blocks-per-sm 2 --overhead-pct 1.25 <tests/fixtures/regions.tsv || fail "mklog could not write the log"

# the reference: the first folder of the log's GPU under the roots, in order
expect_exit 0 bin/verdict "$L" --ref-root "$TMP/none:data/reference"
expect_says "# ref	data/reference/h100"
expect_exit 0 bin/verdict "$L" --ref-root "$TMP/none"
expect_says "no results of a NVIDIA H100 80GB HBM3 under $TMP/none: no reference"
expect_exit 2 bin/verdict "$L" --ref data/reference/h100 --ref-root data/reference

charts=()
command -v gnuplot >/dev/null 2>&1 && gnuplot -d -e exit >/dev/null 2>&1 || charts=(--no-charts)
expect_exit 0 bash scripts/report.sh --log "$L" --out "$TMP/k" "${charts[@]}"
expect_says "failed parts: none"
M=$TMP/k/index.md
[ -s "$M" ] && [ -s "$TMP/k/index.html" ] || fail "no report of the kernel"
grep -q '^# warplat report: your kernel spmv' "$M" || fail "the title does not name the kernel"
grep -q 'the probes cost 1.25 % of the clean launch' "$M" || fail "the measured overhead is not at the top"
for r in gather reduce; do
    grep -q "^## Region $r" "$M" || fail "no section for region $r"
    if [ ${#charts[@]} -eq 0 ]; then
        [ -s "$TMP/k/charts/latency_$r.svg" ] && [ -s "$TMP/k/charts/warps_$r.svg" ] || fail "charts of $r missing"
    fi
done
# the verdict in numbers, from bin/verdict against the bundled H100 folder
grep -q '^> region gather: p50 902 cycles (1.5x the DRAM latency), 8.8 KB in flight per SM of the 8.3 KB the ceiling needs' "$M" ||
    fail "the gather verdict is not in the report: $(grep -m1 'region gather' "$M")"
grep -q 'from data/reference/h100' "$M" || fail "the report does not say which reference it used"
grep -q '^| gather | 8 | 902.5 | 996.2 |' "$M" || fail "the verdict table's gather row: $(grep -m1 '^| gather' "$M")"
grep -q 'p50 902.500' "$M" || fail "the region's statistics are missing"

# usage and failures
expect_exit 2 bash scripts/report.sh --log "$L" --quick;        expect_says "goes with neither --data nor --quick"
expect_exit 2 bash scripts/report.sh --ref data/reference/h100; expect_says "--ref goes with --log"
expect_exit 2 bash scripts/report.sh --log "$TMP/nope.bin";     expect_says "is not a file"
printf 'not a log' >"$TMP/bad.bin"
expect_exit 1 bash scripts/report.sh --log "$TMP/bad.bin" --out "$TMP/bad" "${charts[@]}"
expect_says "could not be read: nothing to report"
[ -e "$TMP/bad" ] && fail "a report folder was left for an unreadable log"
ls -d "$TMP"/bad.new.* 2>/dev/null && fail "a staging folder was left"
done_testing
