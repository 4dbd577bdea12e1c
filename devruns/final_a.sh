#!/usr/bin/env bash
# Final device run A: reference results of the readonly experiments, SASS,
# GPU tests, latency ladder, Nsight Compute sector tables.
set -u
O=${OUT:-/tmp/out}; mkdir -p $O
exec > >(tee $O/log.txt) 2>&1
T0=$SECONDS
D=${REF_DIR:-data/reference/h100}; rm -rf $D; mkdir -p $D/logs_1e6 $D/ncu
make -j16 2>&1 | grep -E 'error|Error|skipped'
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,ecc.mode.current --format=csv > $D/nvidia_smi.csv; cat $D/nvidia_smi.csv
for w in 4 2 8 16; do
  /usr/bin/time -f "wall_s %e  (./readonly 1e8 0 $w)" ./readonly 1e8 0 $w --out /tmp/logs1e8 -q > $D/readonly_1e8_wpb$w.tsv
  ./readonly_profile 1e8 0 $w -q > $D/profile_1e8_wpb$w.tsv
done
ls -l /tmp/logs1e8 | awk '{print $5, $9}' > $D/log_sizes_1e8.txt; cat $D/log_sizes_1e8.txt
bin/warplog info /tmp/logs1e8/readonly_baseline_4.bin > $D/header_baseline_1e8_4.txt
for f in /tmp/logs1e8/*_4.bin; do echo "$f $(bin/warplog check $f --quiet | tr '\n' ' ')"; done > $D/check_1e8_4.txt; cat $D/check_1e8_4.txt
for i in 1 2 3; do /usr/bin/time -f "zcat_s %e" sh -c 'zcat /tmp/logs1e8/readonly_baseline_4.bin >/dev/null'; /usr/bin/time -f "latency_stats_s %e" bin/latency_stats /tmp/logs1e8/readonly_baseline_4.bin > /dev/null; done 2> $D/stats_vs_zcat.txt; cat $D/stats_vs_zcat.txt
bin/latency_stats /tmp/logs1e8/readonly_*_4.bin > $D/latency_stats_1e8_4.tsv
for w in 2 4 8 16; do ./readonly 1e6 0 $w --kernel baseline,float4,nondiverging,random_access --out $D/logs_1e6 -q > $D/readonly_1e6_wpb$w.tsv; done
cuobjdump -sass readonly > /tmp/sass_ro.txt; cuobjdump -sass readonly_profile > /tmp/sass_pr.txt; cuobjdump -sass latency > /tmp/sass_lat.txt
for k in baseline float4 nondiverging random_access strided strided_float4; do
  echo "== readonly_$k (instrumented)"; awk -v k="Function : readonly_$k\$" '$0 ~ k {f=1; next} /Function :/{f=0} f' /tmp/sass_ro.txt | grep -v '^\s*/\* 0x' | grep -E '^\s+/\*[0-9a-f]{4}\*/' 
done > $D/sass_readonly.txt
awk '/Function : readonly_baseline$/{f=1; next} /Function :/{f=0} f' /tmp/sass_pr.txt | grep -v '^\s*/\* 0x' | grep -E '^\s+/\*[0-9a-f]{4}\*/' > $D/sass_readonly_profile_baseline.txt
grep -E 'Function :|CLOCKLO|LDG' /tmp/sass_lat.txt > $D/sass_latency_summary.txt
awk '/Function : .*chase_ca/{f=1} /Function : .*chase_cg/{f=0} f' /tmp/sass_lat.txt | grep -v '^\s*/\* 0x' | grep -E '^\s+/\*[0-9a-f]{4}\*/' > $D/sass_latency_chase_ca.txt
echo "== test-gpu"; timeout 200 make test-gpu 2>&1 | tail -6
echo "== ladder"; timeout 120 ./latency --out $D/latency_ca.tsv 2>&1 | tail -1; timeout 100 ./latency --bypass-l1 --out $D/latency_cg.tsv 2>&1 | tail -1
echo "== ncu ($((SECONDS-T0)) s so far)"; timeout 330 scripts/ncu_profile.sh --n 1e8 --out /tmp/ncu 2>&1 | tail -5
cp /tmp/ncu/sectors_*.tsv $D/sectors.tsv; cp /tmp/ncu/l2_fetch_*.tsv $D/l2_fetch.tsv; cp -r /tmp/ncu/ncu_*/* $D/ncu/ 2>/dev/null
echo "total $((SECONDS-T0)) s"
tar czf $O/ref.tgz $D
