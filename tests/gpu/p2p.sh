#!/usr/bin/env bash
# tests/gpu/p2p.sh - ./p2p on a host with several GPUs: one GPU reading
# another's memory.  Its refusals first (any machine where ./p2p is built),
# then, with two GPUs or more: every measured row validated against the
# host's reference, min <= median <= max, a plausible SM clock, and a peer
# read slower and a peer load later than the reader's own memory.  Skips
# with fewer than two GPUs, or where no pair can access each other (the
# table's reason).
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
require_bin p2p bin/tsv

expect_exit 0 "$ROOT/p2p" --help;          expect_says "cudaDeviceCanAccessPeer"
expect_exit 2 "$ROOT/p2p" --bytes 17;      expect_says "multiple of 16"
expect_exit 2 "$ROOT/p2p" --reps 1;        expect_says "--reps"
expect_exit 2 "$ROOT/p2p" extra;           expect_says "unexpected argument"
expect_exit 2 "$ROOT/p2p" --reader 1 --owner 1; expect_says "a peer is another GPU"
require_gpu
ngpu=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
[ "$ngpu" -ge 2 ] || skip "one GPU: no peer to read from"
expect_exit 2 "$ROOT/p2p" --reader "$ngpu"; expect_says "this machine has"

num() { awk -v a="$1" -v op="$2" -v b="$3" 'BEGIN { a += 0; b += 0
    exit !(op == "<=" ? a <= b : op == "<" ? a < b : op == ">" ? a > b : a >= b) }'; }
t0=$SECONDS
"$ROOT/p2p" --quick --reader 0 --owner 1 --out "$TMP/p2p.tsv" 2>"$TMP/p2p.err"
rc=$?
echo "p2p --quick (GPU 0 reading GPU 1) took $((SECONDS - t0)) s, exit $rc"
cat "$TMP/p2p.err"
[ -s "$TMP/p2p.tsv" ] || { fail "no table written"; done_testing; }
column -t -s $'\t' "$TMP/p2p.tsv" 2>/dev/null || cat "$TMP/p2p.tsv"
if [ $rc -eq 77 ]; then
    skip "no peer access: $(bin/tsv get "$TMP/p2p.tsv" status --where reader=0 --where owner=1)"
fi
[ $rc -eq 0 ] || fail "p2p exited $rc"
for op in read copy memcpy_peer latency; do
    [ "$(bin/tsv get "$TMP/p2p.tsv" valid --where path=peer --where op=$op)" = ok ] || fail "peer $op is not validated"
    [ "$(bin/tsv get "$TMP/p2p.tsv" status --where path=peer --where op=$op)" = ok ] || fail "peer $op status"
done
for op in read copy; do
    for p in peer local; do
        g() { bin/tsv get "$TMP/p2p.tsv" "$1" --where path=$p --where op=$op; }
        num "$(g bw_GBps)" ">" 1 || fail "$p $op: bandwidth $(g bw_GBps)"
        num "$(g ms_min)" "<=" "$(g ms)" && num "$(g ms)" "<=" "$(g ms_max)" || fail "$p $op: min, median, max out of order"
    done
done
peer=$(bin/tsv get "$TMP/p2p.tsv" bw_GBps --where path=peer --where op=read)
local_=$(bin/tsv get "$TMP/p2p.tsv" bw_GBps --where path=local --where op=read)
num "$peer" "<" "$local_" || fail "the peer read ($peer GB/s) is not slower than the local one ($local_ GB/s)"
pl=$(bin/tsv get "$TMP/p2p.tsv" lat_cycles --where path=peer --where op=latency)
ll=$(bin/tsv get "$TMP/p2p.tsv" lat_cycles --where path=local --where op=latency)
num "$pl" ">" "$ll" || fail "a peer load ($pl cycles) is not later than a local one ($ll)"
mhz=$(bin/tsv get "$TMP/p2p.tsv" sm_clock_MHz --where path=peer --where op=latency)
num "$mhz" ">=" 300 && num "$mhz" "<=" 4000 || fail "SM clock $mhz MHz is not plausible"
echo "peer read $peer GB/s (local $local_), peer latency $pl cycles = $(bin/tsv get "$TMP/p2p.tsv" lat_ns --where path=peer --where op=latency) ns (local $ll cycles)"
done_testing
