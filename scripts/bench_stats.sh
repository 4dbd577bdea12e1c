#!/usr/bin/env bash
# scripts/bench_stats.sh - is latency_stats about as fast as decompressing?
#
#   scripts/bench_stats.sh LOG                    time both on LOG, print the ratio
#   scripts/bench_stats.sh --make LOG [RECORDS]   first write a synthetic log
#                                                 (default 3.1M records, like N=1e8)
#
# Target: latency_stats LOG costs <= 1.5 x `zcat LOG >/dev/null` (best of 3
# runs each, so a cold page cache does not decide).  Exit 1 when above.
set -euo pipefail
cd "$(dirname "$0")/.."
make=0
if [ "${1:-}" = --make ]; then make=1; shift; fi
[ $# -ge 1 ] || { echo "usage: $0 [--make] LOG [RECORDS]" >&2; exit 2; }
log=$1 records=${2:-3100000}
[ -x bin/latency_stats ] && [ -x bin/mklog ] || make -s tools

if [ $make = 1 ]; then
    # A plausible readonly run: 132 SMs, 4 warps per block, blocks dealt to SMs
    # round-robin, each SM's clock with its own offset, latencies 450..1650
    # cycles with a tail, block turnover ~400 cycles.
    awk -v n="$records" 'BEGIN {
        srand(42); wpb = 4; nsm = 132
        for (s = 0; s < nsm; s++) { t[s] = 1000000 * (s + 1) + int(rand() * 5000) }
        for (i = 0; i < n; i++) {
            b = int(i / wpb); w = i % wpb; sm = b % nsm
            if (w == 0) t[sm] += 400 + int(rand() * 50)
            st = t[sm] + w * 3 + int(rand() * 8)
            lat = 450 + int(rand() * 600) + (rand() < 0.05 ? int(rand() * 600) : 0)
            printf "%d %d %d %d %d %d\n", st, st + lat, 5000000 + i * 5, b, w, sm
        }
    }' | bin/mklog "$log" --kernel baseline --wpb 4 --n $((records * 32))
fi
[ -f "$log" ] || { echo "bench_stats: $log does not exist (use --make)" >&2; exit 1; }

best() { # best wall seconds of three runs of "$@"
    local b= t
    for _ in 1 2 3; do
        local t0 t1
        t0=$(date +%s.%N); "$@" >/dev/null; t1=$(date +%s.%N)
        t=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", b - a }')
        if [ -z "$b" ] || awk -v t="$t" -v b="$b" 'BEGIN { exit !(t < b) }'; then b=$t; fi
    done
    echo "$b"
}
zc=$(best zcat "$log")
ls=$(best bin/latency_stats "$log")
ratio=$(awk -v a="$ls" -v b="$zc" 'BEGIN { printf "%.4f", a / b }')
printf 'log %s: %s records\n' "$log" "$(bin/latency_stats "$log" | awk -F'\t' '$4=="all"{print $5}')"
printf 'zcat            %.3f s\nlatency_stats   %.3f s\nratio           %.2f (target <= 1.5)\n' \
    "$zc" "$ls" "$ratio"
awk -v r="$ratio" 'BEGIN { exit !(r <= 1.5) }'
