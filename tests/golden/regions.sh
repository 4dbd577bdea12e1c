#!/usr/bin/env bash
# Logs of your own kernel (warplat.h): a synthetic log with two named regions
# (made by bin/mklog from tests/fixtures/regions.tsv), read by every tool per
# region: warplog info/dump/check, latency_stats (a row per region), verdict
# (against data/reference/h100), plot_latency/plot_warps --region.
source "$(dirname "$0")/../lib.sh"
require_bin bin/mklog bin/warplog bin/latency_stats bin/verdict
G=$ROOT/tests/golden/regions
cd "$TMP"
ln -s "$ROOT/data/reference/h100" h100   # a relative name in the golden output
"$ROOT/bin/mklog" regions.bin --kernel spmv --experiment user --regions gather,reduce \
    --region-bytes 6144,0 --wpb 2 --blocks-per-sm 2 --overhead-pct 1.25 \
    <"$ROOT/tests/fixtures/regions.tsv" || fail "mklog could not write the fixture log"

golden info.txt "$ROOT/bin/warplog" info regions.bin
golden dump.tsv "$ROOT/bin/warplog" dump regions.bin
golden check.txt "$ROOT/bin/warplog" check regions.bin
golden latency_stats.tsv "$ROOT/bin/latency_stats" regions.bin
golden verdict.tsv "$ROOT/bin/verdict" regions.bin --ref h100

# by hand: gather's 8 latencies are 800 825 860 885 920 945 980 1005, so p50 =
# (885 + 920) / 2 = 902.5; reduce's 100..118, p50 (108 + 110) / 2 = 109
row() { awk -F'\t' -v r="$1" '!/^#/ && $NF == r { print $8 }' latency_stats.tsv; }
"$ROOT/bin/latency_stats" regions.bin >latency_stats.tsv
[ "$(row gather)" = 902.500 ] || fail "latency_stats: gather p50 $(row gather), expected 902.500"
[ "$(row reduce)" = 109.000 ] || fail "latency_stats: reduce p50 $(row reduce), expected 109.000"

expect_exit 0 "$ROOT/bin/verdict" regions.bin --list-regions
[ "$OUTTXT" = "gather
reduce" ] || fail "verdict --list-regions said: $OUTTXT"

# overhead gate: 1.25 % passes 2, fails 1 with a sentence
expect_exit 0 "$ROOT/bin/verdict" regions.bin --max-overhead 2
expect_exit 1 "$ROOT/bin/verdict" regions.bin --max-overhead 1
expect_says "the probes cost 1.25 % (measured overhead), more than the 1.00 % allowed"
expect_exit 2 "$ROOT/bin/verdict"
expect_exit 1 "$ROOT/bin/verdict" missing.bin
expect_exit 0 "$ROOT/bin/verdict" regions.bin --out v.tsv
cmp -s v.tsv <("$ROOT/bin/verdict" regions.bin) || fail "verdict --out differs from its stdout"

# the charts, per region (gnuplot needed for the picture, not for the data)
if command -v gnuplot >/dev/null 2>&1; then
    expect_exit 0 "$ROOT/bin/plot_latency" regions.bin cdf.svg --region gather
    golden cdf_gather.dat cat cdf.dat
    expect_exit 0 "$ROOT/bin/plot_warps" regions.bin warps.svg --region reduce
    [ -s warps.svg ] || fail "plot_warps --region wrote no chart"
fi
expect_exit 1 "$ROOT/bin/plot_warps" regions.bin w2.svg --region nope
expect_says "regions.bin has no region called 'nope'"
expect_exit 1 "$ROOT/bin/plot_latency" regions.bin c2.svg --region nope
expect_says "regions.bin has no region called 'nope'"
done_testing
