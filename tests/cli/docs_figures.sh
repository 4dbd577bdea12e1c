#!/usr/bin/env bash
# tests/cli/docs_figures.sh - every figure quoted in README.md and docs/*.md
# against the file under data/reference/ that its annotation names
# (bin/docfigs; the rules: docs/report.md, "Docs that run, figures that are
# checked").  Then bin/docfigs itself: a wrong figure, a figure without an
# annotation, a bad expression and a missing file must each fail.
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
require_bin bin/docfigs
ls -d data/reference/h100 >/dev/null 2>&1 || skip "no bundled reference data in data/reference/"

# docs/sectors.md is written by the sector model's own work (issue 10); it is
# checked as soon as its figures carry annotations.  Every other page is.
docs=(README.md)
for d in docs/*.md; do [ "$d" = docs/sectors.md ] || docs+=("$d"); done
expect_exit 0 bin/docfigs "${docs[@]}"
n=$(sed -n 's/^docfigs: \([0-9]*\) figure.*/\1/p' <<<"$OUTTXT")
[ "${n:-0}" -ge 100 ] || fail "only ${n:-0} figures are annotated in the docs"

# the checker can fail: each of these is a problem
f=$TMP/t.md
check_fails() {   # check_fails WHAT LINE: the line must be refused
    printf '%s\n' "$2" >"$f"
    expect_exit 1 bin/docfigs "$f"
    expect_says "$f:1:"
}
check_fails "a wrong figure" 'L1 takes 33 cycles<!-- fig h100/latency_ca.tsv@levels:cycles[level=L1] -->.'
expect_says "but h100/latency_ca.tsv@levels:cycles[level=L1] is 32"
check_fails "no annotation" 'The kernel reaches 838 GB/s at 4 warps per block.'
expect_says "has no annotation"
check_fails "a ratio without one" 'It takes 7.6x the time.'
check_fails "a missing file" 'It reaches 25%<!-- fig h100/nosuch.tsv:pct_peak[kernel=baseline] -->.'
check_fails "two rows" 'It reaches 25%<!-- fig h100/readonly_1e8_wpb4.tsv:pct_peak -->.'
expect_says "6 rows"
check_fails "a bad expression" 'It reaches 25%<!-- fig h100/readonly_1e8_wpb4.tsv:pct_peak[kernel=baseline] * -->.'
check_fails "a wrong rounding" 'p50 1864.4 cycles<!-- fig h100/logs_1e6/readonly_random_access_2.bin@stats:p50_cycles -->'
# and these pass: the median of a log, metadata, a ratio, a count, a tolerance, not measured
printf '%s\n' 'p50 1864 cycles<!-- fig h100/logs_1e6/readonly_random_access_2.bin@stats:p50_cycles --> and' \
    'peak 3352 GB/s<!-- fig h100/readonly_1e8_wpb4.tsv#peak_dram_GBps -->, x1.52<!-- fig h100/logs_1e6/readonly_random_access_16.bin@stats:p50_cycles / h100/logs_1e6/readonly_random_access_2.bin@stats:p50_cycles -->' \
    'in 20<!-- fig count(h100/sectors_readonly.tsv:pattern) --> rows, about 2830 cycles<!-- fig h100/logs_1e6/readonly_random_access_16.bin@stats:p50_cycles ~1% -->,' \
    'within 5%<!-- not measured -->, and `838 GB/s` in code is not prose.' >"$f"
expect_exit 0 bin/docfigs "$f"
expect_says "5 figure(s) checked"
# an annotation that goes on over the next lines: checked as its first line
printf '%s\n' 'p50 1864 cycles<!-- fig' '  h100/logs_1e6/readonly_random_access_2.bin@stats:p50_cycles' '  * 2 / 2 --> and' >"$f"
expect_exit 0 bin/docfigs "$f"
expect_says "1 figure(s) checked"
printf '%s\n' 'p50 1870 cycles<!-- fig' '  h100/logs_1e6/readonly_random_access_2.bin@stats:p50_cycles -->' >"$f"
expect_exit 1 bin/docfigs "$f"
expect_says "$f:1: figure 1870"
printf '%s\n' 'p50 1864 cycles<!-- fig h100/logs_1e6/readonly_random_access_2.bin@stats:p50_cycles' 'a' 'b' 'c' 'd' 'e' 'f' 'g' 'h' 'i' >"$f"
expect_exit 1 bin/docfigs "$f"
expect_says "must end"
expect_exit 2 bin/docfigs
expect_exit 1 bin/docfigs "$TMP/nosuch.md"
done_testing
