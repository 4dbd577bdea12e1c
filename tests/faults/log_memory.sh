#!/usr/bin/env bash
# tests/faults/log_memory.sh - a log from a stranger cannot make a reader
# take more than about 256 MB (issue 35).  The regions of one log share one
# population's bound on distinct large latencies (regions.h): 16 regions of
# 4 Mi distinct latencies each took bin/verdict 2.5 GB.  Here region a alone
# passes its share (4194304 / 16 = 262144): verdict and latency_stats refuse
# with a sentence, under a 512 MB address-space limit, where they accepted it.
. "$(dirname "$0")/../lib.sh"
require_bin bin/mklog bin/verdict bin/latency_stats
B=$ROOT/bin
cd "$TMP" || exit 1
R16=a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p

# mk16 N OUT: one record in region b, N distinct latencies of 16384 cycles
# or more in region a
mk16() {
    awk -v n="$1" 'BEGIN { print 1000, 1001, 0, 0, 0, 0, 1
        for (i = 0; i < n; i++) print 1000, 1000 + 16384 + i, i, int(i / 4), i % 4, i % 132, 0 }' |
        "$B/mklog" "$2" --wpb 4 --sm-count 132 --regions $R16 || fail "mklog $2"
}
limited() { (ulimit -v 524288; "$@"); }
sanitized=; grep -q fsanitize "$ROOT/build/flags.stamp" 2>/dev/null && sanitized=1

mk16 262144 fits.bin
mk16 262145 over.bin
for t in verdict latency_stats; do
    if [ -n "$sanitized" ]; then expect_exit 0 "$B/$t" fits.bin
    else expect_exit 0 limited "$B/$t" fits.bin; fi
    if [ -n "$sanitized" ]; then expect_exit 1 "$B/$t" over.bin
    else expect_exit 1 limited "$B/$t" over.bin; fi
    expect_says "over.bin: region 0: more than 262144 distinct latencies of 16384 cycles or more"
    case $OUTTXT in *"out of memory"*) fail "$t ran out of memory on over.bin: $OUTTXT" ;; esac
done
# the accepted log's numbers are exact: region a's p50 of 0..262143 + 16384
expect_exit 0 "$B/verdict" fits.bin
row=$(printf '%s\n' "$OUTTXT" | awk -F'\t' '$1 == "region" { for (i = 1; i <= NF; i++) c[$i] = i } $1 == "a" { print $c["records"], $c["p50_cycles"] }')
[ "$row" = "262144 147455.5" ] || fail "verdict fits.bin: region a's records and p50 are '$row', expected '262144 147455.5'"
done_testing
