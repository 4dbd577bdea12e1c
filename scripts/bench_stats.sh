#!/usr/bin/env bash
# scripts/bench_stats.sh - is bin/latency_stats about as fast as zcat of the
# same log?  Builds the tools, then runs bin/bench_stats (src/tools/
# bench_stats.c: the synthetic log, the timings and the ratio are there).
#
#   scripts/bench_stats.sh LOG                    time both on LOG
#   scripts/bench_stats.sh --make RECORDS LOG     first write a synthetic log
#                                                 (3.1e6 records: like N = 1e8)
#
# Exit status: that of bin/bench_stats (0 within 1.5 x zcat, 1 above it or a
# failure, 2 usage error).
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x bin/bench_stats ] && [ -x bin/latency_stats ] || make -s tools
exec bin/bench_stats "$@"
