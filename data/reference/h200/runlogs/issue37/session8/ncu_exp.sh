#!/usr/bin/env bash
# experiment: ncu_profile.sh all (gated) against the four families at once
set -u
export PATH=$PATH:/usr/local/cuda/bin
R=$OUT/r; mkdir -p $R
{ lscpu | grep -E 'Model name|^CPU\(s\)|L1d|L2|L3'; nvidia-smi -L; } > $R/host.txt 2>&1
t0=$(date +%s.%N); make -j16 >$R/build.log 2>&1; echo "build $(echo "$(date +%s.%N) - $t0" | bc)" >> $R/times.txt
for i in 1 2 3; do /usr/bin/time -f "sector_compare %e s %U u %S s" bin/sector_compare data/reference/h100/sectors_readonly.tsv --chart /tmp/x.svg >/dev/null 2>>$R/times.txt; done
t0=$(date +%s.%N); ncu --version >/dev/null; echo "ncu --version $(echo "$(date +%s.%N) - $t0" | bc)" >> $R/times.txt
ncu --query-metrics > /tmp/qm.txt 2>&1; export WARPLAT_NCU_QUERY=/tmp/qm.txt
run_gated() { local o=$1 q=$2; t0=$(date +%s.%N); scripts/ncu_profile.sh all $q --out $o >$o.log 2>&1; echo "gated $q $o rc=$? $(echo "$(date +%s.%N) - $t0" | bc)" >> $R/times.txt; }
run_conc() { local o=$1 q=$2; t0=$(date +%s.%N); pids=(); for f in copy patterns readonly stencil; do scripts/ncu_profile.sh $f $q --out $o >$o.$f.log 2>&1 & pids+=($!); done; rc=0; for p in "${pids[@]}"; do wait $p || rc=1; done; echo "concurrent $q $o rc=$rc $(echo "$(date +%s.%N) - $t0" | bc)" >> $R/times.txt; }
run_gated $R/qg1 --quick
run_conc $R/qc1 --quick
run_gated $R/qg2 --quick
run_conc $R/qc2 --quick
run_conc $R/fc1 ""
run_gated $R/fg1 ""
for a in qg1 qg2 qc1 qc2 fg1 fc1; do for t in $R/$a/sectors_*.tsv; do grep -v '^# date' $t > $t.nodate; done; done
for p in "qg1 qg2" "qg1 qc1" "qg1 qc2" "fg1 fc1"; do set -- $p; for t in $R/$1/sectors_*.tsv.nodate; do b=$(basename $t); if cmp -s $t $R/$2/$b; then echo "same $1 $2 $b"; else echo "DIFF $1 $2 $b: $(diff $t $R/$2/$b | grep -c '^<') lines"; fi; done; done >> $R/times.txt
cat $R/times.txt
tar czf $OUT/ncu_exp.tar.gz -C $R --exclude='*.csv.gz' .
