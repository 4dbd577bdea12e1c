#!/usr/bin/env bash
# bin/inflight on a log worked by hand (tests/fixtures/post/inflight.tsv, the
# case of tests/unit/test_inflight.c): warps in flight, the slot period,
# Little's law closed by measurement and its residual, a golden TSV, atomic
# --out, and the logs it must refuse.
source "$(dirname "$0")/../lib.sh"
source "$ROOT/tests/golden/post/common.sh"
need_tools
[ -x "$ROOT/bin/inflight" ] || make -s -C "$ROOT" bin/inflight >/dev/null || skip "make bin/inflight failed"
IF=$ROOT/bin/inflight
cd "$TMP"
opts=(--kernel baseline --wpb 2 --sm-count 2 --blocks-per-sm 1 --clock-mhz 1000 --bytes-per-warp 128)
mklog_fixture inflight in.bin "${opts[@]}" --kernel-ms 0.0004

# SM 0: span 250, open windows 100+90+100+80 = 370 -> 1.48 in flight
# SM 1: span 300, 400 -> 1.3333; per SM (1.48 + 1.3333) / 2 = 1.41
# mean latency 770 / 8 = 96.25; slot period 1 x (250 + 300) / 4 = 137.5,
# the rest 41.25; bound 2.8133 x 128 B / 96.25 ns = 3.74 GB/s against
# 1024 B / 400 ns = 2.56 GB/s: -31.58%; the device's span 5000 .. 5320 ns:
# launch and drain (400 - 320) / 400 = 20%, imbalance 11.58%
expect_exit 0 "$IF" in.bin
"$IF" in.bin >in.tsv 2>in.err || fail "bin/inflight in.bin failed"
[ -s in.err ] && fail "unexpected stderr: $(cat in.err)"
row=$(grep -v '^#' in.tsv | sed -n 2p | cut -f2-)
want=$'baseline\t2\t1\t8\t4\t2\t96.2\t275.0\t360\t0.0004\t0.320\t1000\t1.41\t137.5\t41.2\t2.6\t3.7\t-31.58\t20.00\t11.58'
[ "$row" = "$want" ] || fail "row: got '$row', want '$want'"
golden inflight_known.tsv in.tsv

# --out: whole or nothing
expect_exit 0 "$IF" in.bin --out out.tsv
[ -z "$OUTTXT" ] || fail "--out printed: $OUTTXT"
cmp -s out.tsv in.tsv || fail "--out differs from stdout"
no_files_like . 'out.tsv.*tmp'

# no kernel time: the figures that need it are nan, not made up
mklog_fixture inflight nolen.bin "${opts[@]}"
expect_exit 0 "$IF" nolen.bin
grep -v '^#' <<<"$OUTTXT" | sed -n 2p | grep -q $'\t1.41\t137.5\t41.2\tnan\t3.7\tnan\tnan\tnan$' ||
    fail "no kernel_ms: want nan throughput and closure: $OUTTXT"

# refused: a sampled log (with a reason), a missing log, no log, and one bad
# log among good ones leaves no --out file
mklog_fixture inflight sampled.bin "${opts[@]}" --sample 4
expect_exit 1 "$IF" sampled.bin
expect_says "records 1 block in 4"
expect_says "--sample 1"
expect_exit 1 "$IF" nosuch.bin
expect_exit 2 "$IF"
expect_exit 1 "$IF" in.bin sampled.bin --out bad.tsv
[ -e bad.tsv ] && fail "a failed run wrote bad.tsv"
no_files_like . 'bad.tsv*'
done_testing
