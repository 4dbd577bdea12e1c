#!/usr/bin/env bash
# Check that ./readonly's summary latencies equal bin/latency_stats on the
# logs it wrote, and rerun the GPU tests, after readonly.c moved to src/lib/stats.
set -u
O=${OUT:-/tmp/out}; mkdir -p $O
exec > >(tee $O/log_v.txt) 2>&1
make -j16 2>&1 | grep -E 'error|Error|skipped'
./readonly 1e7 0 4 --out /tmp/v -q | grep -v '^#' | cut -f1,12,13,14
bin/latency_stats /tmp/v/readonly_*_4.bin | grep -v '^#' | cut -f2,6,8,9
timeout 200 make test-gpu 2>&1 | tail -3
bash tests/cli/sass.sh | tail -1
