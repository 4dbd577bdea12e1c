#!/usr/bin/env bash
# GPU test set for the readonly experiments (make test-gpu; skipped without a GPU).
# Every variant validates against the CPU reference; every log holds one record
# per launched warp, each ending after it starts on an SM that exists; and the
# most warps seen in flight on an SM equals resident blocks per SM x WPB, also
# when SMEM limits occupancy.
source "$(dirname "$0")/../lib.sh"
require_gpu
require_bin readonly readonly_profile bin/warplog

check_logs() { # DIR WPB: every log passes warplog check with full concurrency
    local f n=0
    for f in "$1"/readonly_*_"$2".bin; do
        n=$((n + 1))
        local info; info=$(bin/warplog info "$f") || { fail "warplog info $f"; continue; }
        local recs blocks wpb bps
        recs=$(awk -F'\t' '$1=="record_count"{print $2}' <<<"$info")
        blocks=$(awk -F'\t' '$1=="blocks"{print $2}' <<<"$info")
        wpb=$(awk -F'\t' '$1=="warps_per_block"{print $2}' <<<"$info")
        bps=$(awk -F'\t' '$1=="blocks_per_sm"{print $2}' <<<"$info")
        [ "$recs" = $((blocks * wpb)) ] || fail "$f: $recs records for $blocks blocks x $wpb warps"
        local chk; chk=$(bin/warplog check "$f" --quiet) || fail "warplog check $f: $chk"
        local conc; conc=$(awk -F'\t' '$1=="# max_concurrent_warps_per_sm"{split($2,a," "); print a[1]}' <<<"$chk")
        [ "$conc" = $((bps * wpb)) ] || fail "$f: at most $conc warps in flight on an SM, expected $bps x $wpb"
    done
    [ $n -ge 1 ] || fail "no logs in $1"
}

# all variants, default occupancy
expect_exit 0 ./readonly 1e7 0 4 --reps 3 --out "$TMP/a" -q
[ "$(grep -c $'\tok\t' <<<"$OUTTXT")" = 6 ] || fail "not all 6 variants validated: $OUTTXT"
check_logs "$TMP/a" 4
expect_exit 0 ./readonly_profile 1e7 0 4 --reps 3 -q
[ "$(grep -c $'\tok\t' <<<"$OUTTXT")" = 6 ] || fail "twin: not all 6 variants validated: $OUTTXT"

# SMEM really limits occupancy: the SMEM that gives 2 blocks per SM
smem=$(./readonly --list-occupancy 1e7 0 8 | awk -F'\t' '$1==2{print $3}')
[ -n "$smem" ] || fail "--list-occupancy gave no SMEM for 2 blocks/SM"
expect_exit 0 ./readonly 1e7 "$smem" 8 --kernel baseline,float4 --reps 2 --out "$TMP/b" -q
grep -q $'\t8\t2\t' <<<"$OUTTXT" || fail "expected blocks_per_sm 2 at SMEM $smem: $OUTTXT"
check_logs "$TMP/b" 8

# beyond the opt-in limit: a usage error naming the limit
expect_exit 2 ./readonly 1e6 300000 4 --out "$TMP/c"; expect_says "with opt-in"
[ ! -e "$TMP/c" ] || fail "a refused run created $TMP/c"
done_testing
