#!/usr/bin/env bash
# Final device run B: the latency ladder again with the final chase kernel
# (its use of the last pointer is a shared store, see tests/cli/sass.sh), the
# GPU test set and the SASS checks.  Writes into data/reference/h100/.
set -u
O=${OUT:-/tmp/out}; mkdir -p $O
exec > >(tee $O/log_b.txt) 2>&1
T0=$SECONDS
D=data/reference/h100; mkdir -p $D
make -j16 2>&1 | grep -E 'error|Error|skipped'
echo "== ladder"
timeout 150 ./latency --out $D/latency_ca.tsv 2>&1 | tail -1
timeout 120 ./latency --bypass-l1 --out $D/latency_cg.tsv 2>&1 | tail -1
bin/plot_ladder $D/latency_ca.tsv --script-only /tmp/l.svg; bin/plot_ladder $D/latency_cg.tsv --script-only /tmp/l2.svg
cuobjdump -sass latency > /tmp/sass_lat.txt
for f in chase_ca chase_cg; do awk -v f="$f" '$0 ~ "Function : .*"f {p=1; next} /Function :/{p=0} p' /tmp/sass_lat.txt | grep -v '^\s*/\* 0x' | grep -E '^\s+/\*[0-9a-f]{4}\*/' > $D/sass_latency_$f.txt; done
rm -f $D/sass_latency_summary.txt
echo "== sass checks"; bash tests/cli/sass.sh
echo "== test-gpu"; timeout 240 make test-gpu 2>&1 | tail -5
for f in build/test-logs/gpu_*.log; do echo "---- $f"; tail -40 $f; done
echo "total $((SECONDS-T0)) s"
tar czf $O/b.tgz $D/latency_ca.tsv $D/latency_cg.tsv $D/sass_latency_*.txt
