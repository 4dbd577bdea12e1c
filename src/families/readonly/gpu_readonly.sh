#!/usr/bin/env bash
# GPU test set for the readonly experiments (make test-gpu; skipped without a GPU).
# Every variant validates against the CPU reference; with every block recorded
# (--sample 1) every log holds one record per launched warp, and the most warps
# seen in flight on an SM equals resident blocks per SM x WPB, also when SMEM
# limits occupancy; a sampled log holds the warps of one block in K and
# says so; a CUDA error in the middle of a run leaves no temporary log.
source "$(dirname "$0")/../../../tests/lib.sh"
require_gpu
require_bin readonly readonly_profile bin/warplog

info() { awk -F'\t' -v k="$2" '$1==k{print $2}' <<<"$1"; }

check_logs() { # DIR WPB K: every log passes warplog check; full concurrency when K = 1
    local f n=0
    for f in "$1"/readonly_*_"$2".bin; do
        n=$((n + 1))
        local inf; inf=$(bin/warplog info "$f") || { fail "warplog info $f"; continue; }
        local recs blocks wpb bps k
        recs=$(info "$inf" record_count); blocks=$(info "$inf" blocks)
        wpb=$(info "$inf" warps_per_block); bps=$(info "$inf" blocks_per_sm)
        k=$(info "$inf" sample_blocks)
        [ "$k" = "$3" ] || fail "$f: sample_blocks $k, expected $3"
        [ "$recs" = $(( $(info "$inf" sampled_blocks) * wpb )) ] ||
            fail "$f: $recs records for $(info "$inf" sampled_blocks) sampled blocks x $wpb warps"
        [ "$k" != 1 ] || [ "$(info "$inf" sampled_blocks)" = "$blocks" ] ||
            fail "$f: every block recorded, but sampled_blocks is not blocks ($blocks)"
        local chk; chk=$(bin/warplog check "$f" --quiet) || fail "warplog check $f: $chk"
        if [ "$3" = 1 ]; then
            local conc; conc=$(awk -F'\t' '$1=="# max_concurrent_warps_per_sm"{split($2,a," "); print a[1]}' <<<"$chk")
            [ "$conc" = $((bps * wpb)) ] || fail "$f: at most $conc warps in flight on an SM, expected $bps x $wpb"
        fi
        # (warplog check also refuses records of blocks that sampling 1 in K does not record)
    done
    [ $n -ge 1 ] || fail "no logs in $1"
}

# all variants, every block recorded; the columns of before are all there
expect_exit 0 ./readonly 1e7 0 4 --reps 3 --sample 1 --out "$TMP/a" -q
cols=$(grep -v '^#' <<<"$OUTTXT" | head -n 1 | tr '\t' '\n')
while read -r c; do grep -qx "$c" <<<"$cols" || fail "./readonly lost the column $c"; done \
    <tests/golden/engine/readonly_columns_v1.txt
[ "$(grep -c $'\tok\t' <<<"$OUTTXT")" = 6 ] || fail "not all 6 variants validated: $OUTTXT"
check_logs "$TMP/a" 4 1
expect_exit 0 ./readonly_profile 1e7 0 4 --reps 3 -q
[ "$(grep -c $'\tok\t' <<<"$OUTTXT")" = 6 ] || fail "twin: not all 6 variants validated: $OUTTXT"

# sampled: one block in 8
expect_exit 0 ./readonly 1e7 0 8 --reps 3 --sample 8 --kernel baseline,float4 --out "$TMP/s" -q
check_logs "$TMP/s" 8 8

# default: the sample is chosen by measured overhead and written in the row
expect_exit 0 ./readonly 1e7 0 4 --reps 5 --kernel baseline --out "$TMP/d" -q
grep -qE $'^baseline\t.*\t(1|2|4|8|16|32|64|128|256|512|1024)\t[0-9.]+\t' <<<"$OUTTXT" ||
    fail "no sample K in the default row: $OUTTXT"

# SMEM really limits occupancy: the SMEM that gives 2 blocks per SM
smem=$(./readonly --list-occupancy 1e7 0 8 | awk -F'\t' '$1==2{print $3}')
[ -n "$smem" ] || fail "--list-occupancy gave no SMEM for 2 blocks/SM"
expect_exit 0 ./readonly 1e7 "$smem" 8 --kernel baseline,float4 --reps 2 --sample 1 --out "$TMP/b" -q
grep -q $'\t8\t2\t' <<<"$OUTTXT" || fail "expected blocks_per_sm 2 at SMEM $smem: $OUTTXT"
check_logs "$TMP/b" 8 1

# beyond the opt-in limit: a usage error naming the limit
expect_exit 2 ./readonly 1e6 300000 4 --out "$TMP/c"; expect_says "with opt-in"
[ ! -e "$TMP/c" ] || fail "a refused run created $TMP/c"

# a CUDA error in the middle of a run (injected at the second variant's first
# probe launch, while the first variant's log is being written): exit 1, no
# .tmp file, no table
WARPLAT_INJECT_CUDA_ERROR=4 expect_exit 1 ./readonly 1e8 0 4 --kernel baseline,float4 --sample 1 \
    --warmup 1 --reps 1 --out "$TMP/e" --table "$TMP/e.tsv" -q
expect_says "CUDA error"
ls "$TMP"/e/*.tmp >/dev/null 2>&1 && fail "a temporary log was left: $(ls "$TMP"/e)"
ls "$TMP"/e.tsv* >/dev/null 2>&1 && fail "a table was left: $(ls "$TMP"/e.tsv*)"

# the sweep: one row per resident-block count, and its bound
expect_exit 0 ./readonly 1e7 0 8 --kernel baseline --sweep --points 1,2,8 --reps 3 --out "$TMP/w" \
    --table "$TMP/w.tsv" -q
[ "$(grep -vc '^#' "$TMP/w.tsv")" = 4 ] || fail "sweep: expected a header and 3 rows: $(cat "$TMP/w.tsv")"
# every block recorded: the in-flight columns (src/lib/inflight.h) are
# measured, their residual sums to the closure, and bin/inflight on the
# point's log gives the row's own figures
expect_exit 0 ./readonly 1e7 0 4 --kernel baseline --sweep --sample 1 --points 2 --reps 3 --out "$TMP/f" \
    --table "$TMP/f.tsv" -q
cl=$(bin/tsv get "$TMP/f.tsv" closure_inflight_err_pct)
ld=$(bin/tsv get "$TMP/f.tsv" launch_drain_pct)
im=$(bin/tsv get "$TMP/f.tsv" sm_imbalance_pct)
wf=$(bin/tsv get "$TMP/f.tsv" inflight_warps_per_sm)
awk -v c="$cl" -v l="$ld" -v i="$im" -v w="$wf" 'BEGIN { d = c + l + i; exit !(c == c + 0 && (d < 0.05 && d > -0.05) && w > 0 && w <= 8) }' ||
    fail "sweep --sample 1: closure $cl, launch/drain $ld, imbalance $im, $wf warps in flight of 8"
cols=inflight_warps_per_sm,slot_period_cycles,slot_rest_cycles,bound_inflight_GBps,closure_inflight_err_pct
log=$(bin/tsv get "$TMP/f.tsv" log)
bin/inflight "$log" >"$TMP/f_log.tsv" || fail "bin/inflight $log failed"
for c in ${cols//,/ }; do
    [ "$(bin/tsv get "$TMP/f.tsv" "$c")" = "$(bin/tsv get "$TMP/f_log.tsv" "$c")" ] ||
        fail "$c: the sweep row says $(bin/tsv get "$TMP/f.tsv" "$c"), bin/inflight on its log $(bin/tsv get "$TMP/f_log.tsv" "$c")"
done
# a sampled sweep writes nan there
expect_exit 0 ./readonly 1e7 0 4 --kernel baseline --sweep --sample 4 --points 2 --reps 3 --out "$TMP/g" \
    --table "$TMP/g.tsv" -q
[ "$(bin/tsv get "$TMP/g.tsv" bound_inflight_GBps)" = nan ] || fail "a sampled sweep measured warps in flight"
done_testing
