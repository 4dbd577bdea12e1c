#!/usr/bin/env bash
# tests/fuzz/make_corpus.sh - (re)make the committed seed corpus of the fuzz
# harnesses from the bundled data: data/reference/ and tests/fixtures/.
# Run from anywhere after `make tools`; review `git status tests/fuzz/corpus`.
# Seeds are kept small (libFuzzer mutates small inputs far faster), so logs
# are cut to their first records with shrink_log.
set -euo pipefail
cd "$(dirname "$0")/../.."
C=tests/fuzz/corpus
rm -rf "$C"
mkdir -p "$C"/{warplog_raw,warplog_payload,ncu_csv,sweep,ladder,tsv,cli,probes,sass,ceiling,report_families,fleet,results}
mkdir -p "$C"/{sector_measured,readonly_join,family_join,ncu_query,regions}
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
gcc -std=c11 -O1 -Iinstrument -Isrc/lib tests/fuzz/shrink_log.c build/libwarplat.a -lz -lm -o "$W/shrink_log"

# logs: a few real ones (version 1, H100 and H200), and version-2 logs from
# bin/mklog (sampled, several chunks)
for f in data/reference/h100/logs_1e6/readonly_{baseline_4,random_access_16,float4_2}.bin \
         data/reference/h200/logs_1e6/readonly_nondiverging_8.bin; do
    b=$(basename "$(dirname "$(dirname "$f")")")_$(basename "$f" .bin)
    "$W/shrink_log" "$f" "$C/warplog_raw/$b.bin" 48
done
bin/mklog "$C/warplog_raw/mklog_known.bin" --wpb 2 --sm-count 3 --chunk-records 4 \
    <tests/fixtures/post/known.tsv
bin/mklog "$C/warplog_raw/mklog_float4.bin" --kernel float4 --wpb 2 --clock-mhz 0 \
    <tests/fixtures/post/float4.tsv
# version 3 (named regions, warplat.h): the fuzzers then mutate region_count,
# the names and the bytes per warp too
bin/mklog "$C/warplog_raw/mklog_regions.bin" --kernel spmv --experiment user --regions gather,reduce \
    --region-bytes 6144,0 --wpb 2 --blocks-per-sm 2 --chunk-records 5 <tests/fixtures/regions.tsv
bin/mklog "$C/warplog_raw/mklog_regions16.bin" --kernel k --experiment user --wpb 2 \
    --regions a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p <tests/fixtures/regions.tsv
for f in "$C"/warplog_raw/*.bin; do zcat "$f" >"$C/warplog_payload/$(basename "$f" .bin).raw"; done
# regions (fuzz_regions.c): the DRAM latency in ns (a double), a raw header,
# raw records (the fixture's, as bin/mklog reads them)
raw_records() {
    awk '!/^#/ && NF >= 6 { s = ""
        split($1 " " $2 " " $3, v, " ")
        for (k = 1; k <= 3; k++) { x = v[k]; for (b = 0; b < 8; b++) { s = s sprintf("\\x%02x", x % 256); x = int(x / 256) } }
        x = $4; for (b = 0; b < 4; b++) { s = s sprintf("\\x%02x", x % 256); x = int(x / 256) }
        s = s sprintf("\\x%02x\\x%02x\\x%02x\\x%02x", $5 % 256, (NF > 6 ? $7 : 0) % 256, $6 % 256, int($6 / 256))
        printf "%s", s }' "$1"
}
dram_600ns='\x00\x00\x00\x00\x00\xc0\x82\x40'
for f in mklog_regions mklog_regions16 mklog_known; do
    recs=tests/fixtures/regions.tsv
    [ $f = mklog_known ] && recs=tests/fixtures/post/known.tsv
    { printf "$dram_600ns"; head -c 1024 "$C/warplog_payload/$f.raw"; printf "$(raw_records $recs)"; } >"$C/regions/$f"
done

cp tests/fixtures/ncu/{long_v2023,long_v2025,quoting,raw_page,perm_denied,no_kernels,h100_real_default}.csv "$C/ncu_csv/"
cp data/reference/h100/ncu/{gran_64,strided_8}.csv "$C/ncu_csv/"
cp tests/fixtures/post/sweep_baseline_4.tsv "$C/sweep/"
cp data/reference/h100/readonly_1e6_wpb4.tsv "$C/sweep/readonly_1e6_wpb4.tsv"
cp tests/fixtures/ladder/{flat,h100_cg_quick}.tsv "$C/ladder/"
cp data/reference/h100/latency_ca.tsv "$C/ladder/h100_latency_ca.tsv"
cp data/reference/h200/latency_cg.tsv "$C/ladder/h200_latency_cg.tsv"
cp data/reference/h100/{readonly_1e8_wpb4,l2_fetch,sectors}.tsv "$C/tsv/"
cp tests/fixtures/ncu/measured_h100_1e7.tsv "$C/tsv/"
# command lines: arguments separated by NUL bytes
printf -- '--reps\0 10\0--n\0001e8\0--wpb\0001-4,8\0--kind\0cg\0out.tsv' >"$C/cli/engine"
printf -- '-r\0003\0--ceiling=3352.3\0-q\0--\0-5' >"$C/cli/short"
printf -- 'readonly_1e8_wpb4.tsv\0sweep_readonly_float4_4.tsv\0logs_1e6\0readonly_baseline_4_b2.bin' >"$C/cli/names"
printf -- '1K\0002.5e3\0-0.5\0001-32\0004GiB' >"$C/cli/numbers"
# probes: four header bytes (wpb, regions, min span), then 16-byte probes
{ printf '\x04\x01\x00\x00'; bin/warplog dump "$C/warplog_raw/h100_readonly_baseline_4.bin" |
  awk -F'\t' 'NR > 1 { printf "%08x %08x %08x %08x\n", $5 % 4294967296, ($7 % 16777216) + $4 * 16777216, $8 % 4294967296, $2 }' |
  while read -r a b c d; do
      for v in $a $b $c $d; do printf "\\x${v:6:2}\\x${v:4:2}\\x${v:2:2}\\x${v:0:2}"; done
  done; } >"$C/probes/h100_baseline_4"
# SASS listings (the first functions), ceiling tables, a family's comparison
# tables, results folders (device, latency_ca, ceiling, overhead joined at
# "=====" lines: fuzz_fleet.c)
for f in copy latency; do head -n 150 "data/reference/h100/sass_$f.txt" >"$C/sass/$f.txt"; done
cp data/reference/h100/ceiling.tsv "$C/ceiling/h100.tsv"
for f in sectors_copy sectors_patterns sectors_stencil; do head -n 40 "data/reference/h100/$f.tsv" >"$C/report_families/$f.tsv"; done
for p in device latency_ca ceiling overhead; do
    [ "$p" = device ] || echo =====
    head -n 30 "data/reference/h100/$p.tsv"
done >"$C/fleet/h100.txt"
# a results folder's file names (fuzz_results.c: "L:" in logs_1e6/, "N:" in ncu/)
{ ls data/reference/h100; ls data/reference/h100/logs_1e6 | head -n 20 | sed 's/^/L:/'
  ls data/reference/h100/ncu | head -n 5 | sed 's/^/N:/'; } >"$C/results/h100.txt"
# sector_compare's readers: readonly measured tables; runs and ncu tables
# joined at a "=====" line (fuzz_join_common.h), the ncu table made by
# bin/ncu_extract as scripts/ncu_profile.sh makes it; ncu --query-metrics
# listings and a program's --list-kernels
F=tests/fixtures/ncu
cp $F/{measured_h100_1e7,h100_sectors_1e8}.tsv "$C/sector_measured/"
RO=gpu__time_duration.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,lts__t_sectors_srcunit_tex_op_read.sum,dram__sectors_read.sum
{ cat $F/readonly_runs_1e7.tsv; echo =====; bin/ncu_extract $F/h100_real_default.csv --metrics "$RO"; } \
    >"$C/readonly_join/h100_1e7.txt"
for f in copy patterns stencil_32x32_aligned; do
    fam=${f%%_*}
    m=$(bin/sector_model --metrics "$fam" --ncu-query $F/query_metrics_h100.txt)
    { head -n 12 $F/${f}_runs.tsv; echo =====; bin/ncu_extract $F/${f}_ncu.csv --metrics "$m" --kernel "^${fam}_" | head -n 16; } \
        >"$C/family_join/$f.txt"
done
cp $F/query_metrics_{h100,no_tstage}.txt "$C/ncu_query/"
for f in copy patterns; do tail -n +2 $F/${f}_runs.tsv | grep -v '^#' | cut -f1 | sort -u >"$C/ncu_query/list_kernels_$f.txt"; done
du -sh "$C"
