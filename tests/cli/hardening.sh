#!/usr/bin/env bash
# Readers that a hostile file cannot hurt (issue 12): crafted logs are
# refused with a sentence that names the problem, memory stays under 64 MB
# whatever a small log's header promises, every output is checked (a full
# device is a failure, and no partial file is left), and every number on a
# command line goes through the one parser.
source "$(dirname "$0")/../lib.sh"
B=$ROOT/bin
for t in warplog mklog latency_stats plot_warps plot_latency plot_ladder ncu_extract tsv names; do
    [ -x "$B/$t" ] || make -s -C "$ROOT" tools >/dev/null || skip "make tools failed"
done
cd "$TMP"
FIX=$ROOT/tests/fixtures
"$B/mklog" known.bin --wpb 2 --sm-count 3 --clock-mhz 2000 <"$FIX/post/known.tsv" || fail "mklog known"

# patch FILE OFFSET HEX: overwrite bytes of FILE (little-endian values as hex).
patch() { printf "$(sed 's/../\\x&/g' <<<"$3")" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none; }
# crafted NAME OFFSET HEX: known.bin's decompressed payload with one header
# field replaced, compressed again (offsets: instrument/warplog.h).
crafted() { zcat known.bin >"$1.raw" && patch "$1.raw" "$2" "$3" && gzip -n -c "$1.raw" >"$1" && rm -f "$1.raw"; }

# --- header values the format allows but no run writes ---------------------
#            name        offset  bytes              the sentence
while read -r name off hex says; do
    crafted "$name.bin" "$off" "$hex"
    for cmd in "warplog info" "warplog dump" "warplog check" "latency_stats"; do
        expect_exit 1 $B/$cmd "$name.bin"
        expect_says "$name.bin is corrupt: its header's $says"
    done
done <<'EOF'
smzero    276 00000000         sm_count is 0; it must be between 1 and 256
smneg     276 ffffffff         sm_count is -1
smhuge    276 00000100         sm_count is 65536
wpbzero   128 00000000         warps_per_block is 0; it must be between 1 and 32
clocknan  328 000000000000f87f sm_clock_measured_MHz is not a number (NaN)
clockinf  328 000000000000f07f sm_clock_measured_MHz is infinite
clockden  328 0100000000000000 sm_clock_measured_MHz is 4.94066e-324, a denormal
peakneg   320 00000000000000c0 peak_dram_GBps is -2
chunkbig  20  00000001         chunk_records is 16777216; it must be between 1 and 131072
escape    64  1b5b324a         kernel holds the control character 0x1b at byte 0
newline   32  72650a64         experiment holds the control character 0x0a at byte 2
EOF
# control characters never reach the terminal or split a TSV line
bin_out=$("$B/warplog" info escape.bin 2>&1)
case "$bin_out" in *$'\033'*) fail "warplog info printed a raw escape character";; esac

# sampled logs (one block in K recorded) pass check when their blocks are the
# sampled ones, and fail it when not
awk 'BEGIN { for (i = 0; i < 12; i++) { b = 8 * int(i / 4) + 3; print 1000 + i * 10, 1500 + i * 10, i, b, i % 4, b % 3 } }' |
    "$B/mklog" sampled.bin --wpb 4 --sm-count 3 --blocks 24 || fail "mklog sampled"
zcat sampled.bin >s.raw && patch s.raw 464 08000000 && patch s.raw 616 03000000 && gzip -n -c s.raw >k8.bin
expect_exit 0 "$B/warplog" check k8.bin
expect_says "# sampled	one block in 8 recorded"
expect_says "# check	ok"
patch s.raw 616 02000000 && gzip -n -c s.raw >k8off2.bin
expect_exit 1 "$B/warplog" check k8off2.bin
expect_says "12 records are of blocks that sampling 1 in 8 does not record"

# --- the gzip stream and the file ---------------------------------------------
mkdir adir
expect_exit 1 "$B/warplog" info adir
expect_says "adir is a directory, not a warp log"
cp known.bin junk.bin && printf 'JUNK' >>junk.bin
expect_exit 1 "$B/latency_stats" junk.bin
expect_says "junk.bin has data after the end of its gzip stream"
cat known.bin known.bin >twice.bin
expect_exit 1 "$B/warplog" check twice.bin
expect_says "twice.bin holds a second gzip stream after the log (were two files concatenated?)"
: >empty.bin
expect_exit 1 "$B/warplog" info empty.bin
expect_says "empty.bin is not a warp log: the file is empty"

# dump on a damaged log: the rows before the damage come out, then the error
# says they are partial, with and without --limit (--limit hid the error)
awk 'BEGIN { for (i = 0; i < 4000; i++) print 1000 + i * 7, 1400 + i * 7 + (i * 31) % 97, i, int(i / 4), i % 4, int(i / 4) % 132 }' |
    "$B/mklog" many.bin --chunk-records 64 || fail "mklog many"
head -c $(($(wc -c <many.bin) / 2)) many.bin >cut.bin
"$B/warplog" dump cut.bin >cut.out 2>cut.err
[ $? -eq 1 ] || fail "dump of a cut log should exit 1"
[ "$(wc -l <cut.out)" -gt 64 ] || fail "dump printed no rows before the damage"
grep -q "rows printed before this error come from a damaged log" cut.err || fail "dump did not say its rows are partial: $(cat cut.err)"
expect_exit 1 "$B/warplog" dump cut.bin --limit 100000
expect_says "cut.bin is truncated"
expect_exit 0 "$B/warplog" dump cut.bin --limit 3

# --- memory: under 64 MB whatever a small log says ------------------------------
if grep -q fsanitize "$ROOT/build/flags.stamp" 2>/dev/null; then
    echo "note: sanitizer build (ASan reserves terabytes of address space): ulimit -v checks skipped"
else
    # A fake gnuplot that draws something, so that the chart tools run to the end.
    mkdir fakebin
    printf '#!/bin/sh\necho "<svg>chart</svg>" >"$4"\n' >fakebin/gnuplot
    chmod +x fakebin/gnuplot
    limited() { (ulimit -v 65536; PATH="$TMP/fakebin:$PATH" "$@"); }
    # the worst a valid small log can do: records on all 256 SMs, latencies
    # inside and beyond the histograms
    awk 'BEGIN { for (i = 0; i < 256; i++) print 1000 + i, 1001 + i + (i % 2 ? 16384 + i * 977 : i * 31), i, i, 0, i }' |
        "$B/mklog" wide.bin --wpb 1 --sm-count 256 || fail "mklog wide"
    echo "wide.bin: $(wc -c <wide.bin) bytes"
    for cmd in "warplog info" "warplog dump" "warplog check" "latency_stats --per-sm"; do
        OUTTXT=$(limited $B/$cmd wide.bin 2>&1 >/dev/null); rc=$?
        [ $rc -eq 0 ] || fail "$cmd wide.bin under 64 MB exited $rc: $OUTTXT"
    done
    OUTTXT=$(limited "$B/plot_latency" wide.bin wide_l.svg 2>&1); [ $? -eq 0 ] || fail "plot_latency under 64 MB: $OUTTXT"
    OUTTXT=$(limited "$B/plot_warps" wide.bin wide_w.svg 2>&1); [ $? -eq 0 ] || fail "plot_warps under 64 MB: $OUTTXT"
    # a header that promises one chunk of 2^24 records (it took 1.2 GB)
    for cmd in "warplog info" "warplog dump" "warplog check" "latency_stats" "plot_warps" "plot_latency"; do
        extra=; case $cmd in plot_*) extra=x.svg;; esac
        expect_exit 1 limited $B/$cmd chunkbig.bin $extra
        expect_says "chunk_records is 16777216"
        case "$OUTTXT" in *"out of memory"*) fail "$cmd ran out of memory on chunkbig.bin";; esac
    done
    # 2048 SM ids in a log of 256 SMs: 128 KiB each took 256 MB
    awk 'BEGIN { for (i = 0; i < 2048; i++) print 1000 + i, 1500 + i, i, i, 0, i }' |
        "$B/mklog" smids.bin --wpb 1 --sm-count 256 || fail "mklog smids"
    for cmd in "latency_stats" "plot_latency"; do
        extra=; case $cmd in plot_*) extra=x.svg;; esac
        expect_exit 1 limited $B/$cmd smids.bin $extra
        expect_says "smids.bin: record 256 is of SM 256, but the header says the GPU has 256 SMs"
    done
    expect_exit 1 limited "$B/warplog" check smids.bin
    expect_says "1792 records have smid >= sm_count (256)"
    # two million records: check held 32 B each (64 MB)
    awk 'BEGIN { for (i = 0; i < 2000000; i++) { b = int(i / 4); s = 1000 + b * 50 + i % 4; print s, s + 400, i, b, i % 4, b % 132 } }' |
        "$B/mklog" big.bin --wpb 4 --blocks-per-sm 16 || fail "mklog big"
    expect_exit 0 limited "$B/warplog" check big.bin --quiet
    expect_says "# max_concurrent_warps_per_sm	4 (blocks_per_sm 16 x warps_per_block 4 = 64)"
    expect_exit 0 limited "$B/latency_stats" big.bin
fi

# --- write errors: exit 1 with a sentence, no partial file ----------------------
full() { # CMD...: its stdout goes to a full device
    OUTTXT=$("$@" 2>&1 >/dev/full); local rc=$?
    [ $rc -eq 1 ] || fail "'$* > /dev/full' exited $rc, expected 1"
    case "$OUTTXT" in *"cannot write to standard output"*) ;; *) fail "'$* > /dev/full' said: $OUTTXT";; esac
}
full "$B/warplog" info known.bin
full "$B/warplog" dump known.bin
full "$B/warplog" check known.bin
full "$B/latency_stats" known.bin
full "$B/plot_ladder" "$FIX/ladder/h100_ca.tsv"
full "$B/plot_ladder" "$FIX/ladder/h100_ca.tsv" --dram-latency
full "$B/ncu_extract" "$FIX/ncu/h100_real_default.csv" --metrics dram__sectors_read.sum
full "$B/tsv" columns "$FIX/ladder/h100_ca.tsv"
full "$B/tsv" get "$FIX/ladder/h100_ca.tsv" bytes
full "$B/tsv" cat "$FIX/ladder/h100_ca.tsv"
full "$B/names" summary readonly 1e8 4
full "$B/warplog" --help
# files on a disk that is full (no file may grow: ulimit -f 0, SIGXFSZ ignored)
small_disk() { (ulimit -f 0; trap '' XFSZ; "$@"); }
expect_exit 1 small_disk "$B/latency_stats" known.bin --per-sm --out ls.tsv
expect_says "cannot write ls.tsv: File too large"
expect_exit 1 small_disk "$B/plot_ladder" "$FIX/ladder/h100_ca.tsv" --levels-out lv.tsv
expect_says "cannot write lv.tsv: File too large"
expect_exit 1 small_disk "$B/plot_ladder" "$FIX/ladder/h100_ca.tsv" lad.svg --script-only
expect_says "cannot write lad.dat: File too large"
expect_exit 1 small_disk "$B/tsv" cat "$FIX/ladder/h100_ca.tsv" --out cat.tsv
expect_exit 1 small_disk "$B/mklog" rand.bin <"$FIX/post/known.tsv"
expect_says "cannot write rand.bin"
for f in ls.tsv lv.tsv lad.dat lad.gp cat.tsv rand.bin; do
    [ -e "$f" ] && fail "$f was left after a write error"
    [ -e "$f.tmp" ] && fail "$f.tmp was left after a write error"
    compgen -G "$f.*.tmp" >/dev/null && fail "a temporary $f.*.tmp was left after a write error"
done

# --- numbers on command lines: exit 2 and a sentence ----------------------------
while read -r want args; do
    expect_exit 2 $B/$args </dev/null
    expect_says "${want//_/ }"
done <<'EOF'
--wpb_is_too_large mklog x.bin --wpb 1e30
--wpb_must_be_between_1_and_32 mklog x.bin --wpb 33
--sm-count_is_too_large mklog x.bin --sm-count 1e30
--sm-count_must_be_between_1_and_256 mklog x.bin --sm-count 0
--n_is_too_large mklog x.bin --n 1e30
--n_must_not_be_negative mklog x.bin --n -1
--clock-mhz_is_not_a_number mklog x.bin --clock-mhz inf
--clock-mhz_is_not_a_number mklog x.bin --clock-mhz nan
--clock-mhz_is_too_large mklog x.bin --clock-mhz 1e400
--chunk-records_must_be_between mklog x.bin --chunk-records 16777216
option_--limit_needs_a_value warplog dump known.bin --limit
--limit_is_not_a_number warplog dump known.bin --limit abc
--max-warps_is_too_large plot_warps known.bin w.svg --max-warps 1e400
--max-warps_must_be_at_least_1 plot_warps known.bin w.svg --max-warps 0
--sms_lists_1_twice plot_warps known.bin w.svg --sms 1,1
--tol_is_not_a_number plot_ladder x.tsv --tol nan
--min-points_is_too_large plot_ladder x.tsv --min-points 1e400
LATENCY_is_too_large plot_throughput x.tsv 1e400 t.svg
EOF
expect_exit 2 "$B/warplog" dump known.bin --limit ''
expect_says "--limit is empty"
[ -e x.bin ] && fail "mklog wrote x.bin after a usage error"

# --- the ncu CSV parser ---------------------------------------------------------
printf 'ID,Kernel Name\n1e99,\n' >id.csv
[ "$(wc -c <id.csv)" -eq 21 ] || fail "id.csv should be the issue's 21 bytes"
expect_exit 1 "$B/ncu_extract" id.csv --metrics m
expect_says "id.csv: line 2: launch ID '1e99' is not a whole number from 0 to 2^53"
done_testing
