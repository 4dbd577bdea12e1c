#!/usr/bin/env bash
# tests/golden/sector_model.sh - bin/sector_model's default table (the
# readonly family) and bin/sector_compare's verdicts on readonly's measured
# tables diffed against tests/golden/sectors/, plus the exit statuses and
# messages of sector_model, sector_compare and ncu_extract.
# Regenerate a golden file only after checking the new output by eye:
#   UPDATE_GOLDEN=1 bash tests/golden/sector_model.sh
source "$(dirname "$0")/../lib.sh"
for b in bin/sector_model bin/sector_compare bin/ncu_extract; do
    [ -x "$b" ] || skip "$b was not built (make tools)"
done
G=tests/golden/sectors
F=tests/fixtures/ncu

# progress: one line per step
t0=$SECONDS
step() { echo "sector_model.sh: [$((SECONDS - t0)) s] $*"; }
step "the default table: the readonly family at N = 1e6"
golden readonly_n1e6.md bin/sector_model --n 1e6 --markdown
# Predicted vs the real H100 captures at N = 1e7 and N = 1e8 (tests/fixtures/ncu/),
# readonly's measured tables judged by the families' model: at 1e8, 2 rows disagree
# and every row is counted (random_access block by block, sf_count_loads).
golden compare_h100_1e7.tsv bin/sector_compare $F/measured_h100_1e7.tsv
golden compare_h100_1e7.md bin/sector_compare $F/measured_h100_1e7.tsv --markdown
step "the H100 captures at N = 1e8 against the model (counted, not walked)"
golden compare_h100_1e8.md bin/sector_compare $F/h100_sectors_1e8.tsv --markdown
step "exit statuses and messages"
grep -q "^| float4 | - | ld | 781252 / 781252 | 12500002 / 12500002 |" "$TMP/compare_h100_1e8.md" ||
    fail "float4 at N = 1e8: the tail's 2 clamped warps, 781252 requests and 12500002 sectors, as measured"
grep -q "^2 of 20 rows disagree; 0 not predicted.$" "$TMP/compare_h100_1e8.md" ||
    fail "N = 1e8: strided_float4 at 64 and 128 disagree (DRAM); every row is predicted"
grep -q "^| strided | stride=128 | ld | 3125000 / 3125000 | 100000000 / 100000000 |" "$TMP/compare_h100_1e8.md" ||
    fail "4 B stride 128 at N = 1e8 is counted: 3125000 requests, 100000000 sectors"
# random_access at N = 1e8: the DRAM sectors the walk gave when its limit was
# lifted in a throwaway build (docs/sectors.md), and the exact L1 counts
grep -q "^| random_access | - | ld | 6250000 / 6250000 | 112499888 / 112499888 | .* | 206350460 / 204124616 | .* | yes |$" \
    "$TMP/compare_h100_1e8.md" ||
    fail "random_access at N = 1e8 is counted: 6250000 requests, 112499888 sectors, 206350460 DRAM sectors"

# The counted tables are the walk's, byte for byte (odd N, WPB 3 and 7, strides that
# wrap, a small L2 where the sweeps outgrow it; test_sector_count compares more).
step "counted against --walk"
for w in 3 7; do
    args=(--family readonly --n 300007 --wpb $w --config 1-9,16,31,32,33,64,100,128,257 --l2-bytes 1048576)
    bin/sector_model "${args[@]}" >"$TMP/counted.tsv" || fail "sector_model (counted, WPB $w)"
    bin/sector_model "${args[@]}" --walk >"$TMP/walked.tsv" || fail "sector_model --walk (WPB $w)"
    cmp -s "$TMP/counted.tsv" "$TMP/walked.tsv" || fail "WPB $w: the counted table differs from the walk's"
done
bin/sector_compare $F/measured_h100_1e7.tsv --walk >"$TMP/walked.tsv" || fail "sector_compare --walk"
cmp -s "$TMP/walked.tsv" $G/compare_h100_1e7.tsv || fail "sector_compare --walk differs from the counted golden table"
golden ncu_extract_raw.tsv bin/ncu_extract $F/h100_real_raw.csv \
    --metrics l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,lts__t_sectors_srcunit_tex_op_read.sum,dram__sectors_read.sum,gpu__time_duration.sum

# Spot checks that do not depend on the golden files.
grep -q "^| strided | stride=8 | ld | 31252 | 1000002 | 32.00 |" "$TMP/readonly_n1e6.md" ||
    fail "4 B stride 8 at N = 1e6: 31252 requests (2 clamped warps of the last block), 1000002 sectors"

# Exit statuses and messages.
expect_exit 0 bin/sector_model --help;   expect_says "usage: sector_model"
expect_exit 2 bin/sector_model --bogus;  expect_says "unknown option"
expect_exit 2 bin/sector_model --dram-granularity 48; expect_says "32, 64 or 128"
expect_exit 2 bin/sector_model --elem 16;  expect_says "unknown option '--elem'"
expect_exit 2 bin/sector_model --n;      expect_says "needs a value"
expect_exit 0 bin/sector_compare -h;     expect_says "usage: sector_compare"
expect_exit 2 bin/sector_compare;        expect_says "no MEASURED.tsv"
expect_exit 1 bin/sector_compare "$TMP/nope.tsv"; expect_says "cannot open"
expect_exit 1 bin/sector_compare $F/measured_h100_1e7.tsv --strict
expect_says "2 of 3 rows disagree"
expect_exit 0 bin/sector_compare $F/measured_h100_1e7.tsv
printf 'pattern\tstride\n' >"$TMP/bad.tsv"
expect_exit 1 bin/sector_compare "$TMP/bad.tsv"; expect_says "header lacks l1_sectors"
printf 'pattern\tstride\tl1_sectors\tl2_sectors\tdram_sectors\ncopy\t1\t1\t1\t1\n' >"$TMP/bad.tsv"
expect_exit 1 bin/sector_compare "$TMP/bad.tsv"; expect_says "unknown pattern 'copy'"
printf 'pattern\telem_bytes\tstride\tl1_sectors\tl2_sectors\tdram_sectors\nfloat4\t4\t1\t1\t1\t1\n' >"$TMP/bad.tsv"
expect_exit 1 bin/sector_compare "$TMP/bad.tsv"; expect_says "float4 reads 16 B elements, the row says 4"

M=l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,dram__sectors_read.sum
expect_exit 0 bin/ncu_extract --help;    expect_says "usage: ncu_extract"
expect_exit 2 bin/ncu_extract $F/h100_real_default.csv; expect_says "need a CSV file and --metrics"
expect_exit 1 bin/ncu_extract $F/perm_denied.csv --metrics $M
expect_says "ncu has no permission to read the GPU counters (ERR_NVGPUCTRPERM): run as root or enable access for all users, see https://developer.nvidia.com/ERR_NVGPUCTRPERM"
expect_exit 1 bin/ncu_extract "$TMP/missing.csv" --metrics $M; expect_says "cannot open"
expect_exit 1 bin/ncu_extract $F/h100_real_default.csv --metrics $M,no__such_metric.sum
expect_says "metric no__such_metric.sum is not in the file"
expect_exit 1 bin/ncu_extract $F/no_kernels.csv --metrics $M; expect_says "no Nsight Compute CSV table"
expect_exit 0 bin/ncu_extract $F/long_v2025.csv --metrics $M,gpu__time_duration.sum --kernel 'random_access$'
expect_says "readonly_random_access	2	112499897	189297020	21490000"
case $OUTTXT in *readonly_fill*) fail "--kernel did not filter out readonly_fill";; esac
expect_exit 1 bin/ncu_extract $F/long_v2025.csv --metrics $M --kernel nothing_matches
expect_says "no kernel launch matches"

# The chart: an SVG through gnuplot, its .gp and .dat beside it, no .tmp left.
if command -v gnuplot >/dev/null 2>&1; then
    expect_exit 0 bin/sector_compare $F/measured_h100_1e7.tsv --chart "$TMP/c.svg"
    [ -s "$TMP/c.svg" ] && grep -q "<svg" "$TMP/c.svg" || fail "no SVG written by --chart"
    [ -f "$TMP/c.gp" ] && [ -f "$TMP/c.dat" ] || fail "--chart did not keep c.gp and c.dat"
    ! compgen -G "$TMP/c.svg*.tmp" >/dev/null || fail "--chart left c.svg.tmp behind"
fi
done_testing
