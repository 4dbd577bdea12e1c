#!/usr/bin/env bash
# tests/faults/tiny_inputs.sh - a few bytes of input must not buy unbounded
# work (issue 24): each number or size that comes from a file or argv has a
# documented limit, answered with one sentence and exit 1 (2 for argv).
# Every command runs under `timeout` and a memory limit, so a regression
# fails here instead of hanging the suite.
. "$(dirname "$0")/../lib.sh"
require_bin bin/plot_throughput bin/sector_compare bin/ncu_extract bin/sector_model bin/tsv_scale \
    bin/mklog bin/fleet
cd "$TMP" || exit 1
B=$ROOT/bin
FIX=$ROOT/tests/fixtures

# bounded CMD...: at most 20 s and 2 GiB of address space (ASan reserves far
# more virtual memory: no limit under SANITIZE=1 builds, only the time)
bounded() {
    if nm "$B/tsv" 2>/dev/null | grep -q __asan_init; then
        timeout 20 "$@"
    else
        (ulimit -v 2097152; timeout 20 "$@")
    fi
}
one_sentence() {
    [ "$(printf '%s\n' "$OUTTXT" | grep -c .)" -eq 1 ] || fail "expected one sentence, got: $OUTTXT"
}

# plot_throughput: a sweep whose warps_per_sm is 3e38 (the bound's drawing
# loop never ended); --script-only needs no gnuplot
SW=$ROOT/data/reference/h100/sweep_readonly_baseline_4.tsv
awk -F'\t' 'BEGIN { OFS = "\t" } /^#/ { print; next }
    !c { for (i = 1; i <= NF; i++) if ($i == "warps_per_sm") c = i; print; next }
    { if (!done) { $c = "3e38"; done = 1 } print }' "$SW" >huge_wps.tsv
grep -q 3e38 huge_wps.tsv || fail "could not build the 3e38 sweep from $SW"
expect_exit 1 bounded "$B/plot_throughput" huge_wps.tsv t.svg
expect_says "warps_per_sm 3e+38 is more than 2048"; one_sentence
[ ! -e t.svg ] && [ ! -e t.dat ] || fail "plot_throughput left a file"

# sector_compare: "# n 4294967296" in a 177-byte table
{ printf '# n\t4294967296\n'; grep -v '^# n	' "$ROOT/data/reference/h100/sectors_readonly.tsv"; } >bign.tsv
expect_exit 1 bounded "$B/sector_compare" bign.tsv
expect_says "n 4294967296 is not 1..268435456"; one_sentence

# ncu_extract: a regex whose repetitions multiply to 1e9 states
CSV=$(ls "$FIX"/ncu/*.csv | head -n 1)
expect_exit 2 bounded "$B/ncu_extract" "$CSV" --metrics dram__bytes_read.sum --kernel 'a{1000}{1000}{1000}'
expect_says "--kernel: a regex of at most 8192 characters"
expect_exit 2 bounded "$B/ncu_extract" "$CSV" --metrics dram__bytes_read.sum --kernel "$(printf 'x%.0s' $(seq 9000))"
expect_says "--kernel: a regex of at most 8192 characters"
# ... while the regex scripts/ncu_profile.sh builds for the largest family
# (every variant of patterns, as on the GPU) is no usage error
V=$("$B/tsv" get <("$B/sector_model" --list patterns) variant | paste -sd'|')
bounded "$B/ncu_extract" "$CSV" --metrics dram__bytes_read.sum --kernel "^patterns_($V)(_b[0-9]+)?\$" >/dev/null 2>"$TMP/re.err"
[ $? != 2 ] || fail "ncu_extract refused the patterns family's regex: $(cat "$TMP/re.err")"

# whole-file and line readers fed a device that never ends: a FIFO fed by
# an endless writer stands in for /dev/zero (no real /dev node as input
# either: the limit is what is tested, not the device)
endless() { rm -f z.fifo; mkfifo z.fifo; (head -c 200000000 /dev/zero >z.fifo 2>/dev/null &); }
endless
expect_exit 1 bounded "$B/sector_model" --metrics readonly --ncu-query z.fifo
expect_says "is larger than 64 MiB"; one_sentence
endless
expect_exit 1 bounded "$B/tsv_scale" z.fifo --columns a --factor 2 --out s.tsv
expect_says "a line longer than 1 MiB"; one_sentence
[ ! -e s.tsv ] || fail "tsv_scale left s.tsv"
endless
expect_exit 1 bounded bash -c '"$0" m.bin <z.fifo' "$B/mklog"
expect_says "longer than 4096 bytes"; one_sentence
[ ! -e m.bin ] || fail "mklog left m.bin"
rm -f z.fifo

# fleet collect: symbolic links to folders are not followed (three links to
# "." grew as 3^depth), and a root over 1023 characters is refused rather
# than cut to another folder
mkdir -p loop/a
ln -s . loop/l1; ln -s . loop/l2; ln -s . loop/l3; ln -s .. loop/a/up
cp -r "$ROOT/data/reference/h100" loop/a/gpu
t0=$SECONDS
expect_exit 0 bounded "$B/fleet" collect loop --list
[ $((SECONDS - t0)) -lt 10 ] || fail "fleet collect took $((SECONDS - t0)) s over a symlink cycle"
[ "$(printf '%s\n' "$OUTTXT" | grep -c 'loop/a/gpu')" -le 1 ] || fail "fleet collect listed a folder twice: $OUTTXT"
long=$(printf 'd%.0s' $(seq 1100))
expect_exit 1 bounded "$B/fleet" collect "$long" --list
expect_says "longer than 1023 characters"; one_sentence

done_testing
