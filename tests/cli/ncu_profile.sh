#!/usr/bin/env bash
# tests/cli/ncu_profile.sh - scripts/ncu_profile.sh end to end without a GPU:
# stand-ins for ncu, nvidia-smi and the <family>_profile programs replay
# recorded ncu logs, so every step after the measurement (the metric list
# against ncu --query-metrics, the kernel filter, bin/ncu_extract, pairing
# launches with the runs' rows, bin/sector_compare, the published files)
# runs for real.  The script profiles each family in one ncu process over
# one --batch-file: the stand-in ncu concatenates the logs recorded for its
# lines (one header, "ID" numbered on, as ncu writes one process's log) and
# the stand-in programs write each line's rows with its batch_line, so the
# split per run (bin/sector_model --ncu-split) is what is tested.
#   readonly: the real H100 logs of data/reference/h100/ncu/ must give back
#             exactly the rows of data/reference/h100/sectors_readonly.tsv and
#             legacy/l2_fetch.tsv, which the earlier awk version wrote from them;
#   copy:     the synthetic fixture (tests/fixtures/ncu/copy_ncu.csv) must
#             flag its two altered rows and nothing else;
#   failures: no counter permission, a program that fails: exit 1, nothing
#             published; usage errors exit 2.
source "$(dirname "$0")/../lib.sh"
require_bin bin/sector_model bin/sector_compare bin/ncu_extract bin/tsv bin/names
F=$ROOT/tests/fixtures/ncu
R=$ROOT/data/reference/h100
STUB=$TMP/stub
mkdir -p "$STUB"

# ncu: --version, --query-metrics, or: run the program, then write into
# --log-file the logs recorded for its runs: one run, or each line of its
# --batch-file in turn, concatenated as ncu writes one process's log (one
# header, the launches' "ID" numbered on from the previous line's).
cat >"$STUB/ncu" <<'EOF'
#!/usr/bin/env bash
case "$*" in
    *--version*) echo "NVIDIA (R) Nsight Compute Command Line Profiler"; echo "Version 2025.3.1.0 (stub)"; exit 0 ;;
    *--query-metrics*) cat "$STUB_QUERY"; exit 0 ;;
esac
log="" prog="" metrics="" kernel=""
while [ $# -gt 0 ]; do
    case $1 in
        --log-file|--metrics|--kernel-name|--print-units|--clock-control|--cache-control)
            [ "$1" = --log-file ] && log=$2
            [ "$1" = --metrics ] && metrics=$2
            [ "$1" = --kernel-name ] && kernel=$2
            shift 2 ;;
        --csv) shift ;;
        -*) echo "stub ncu: unexpected option $1" >&2; exit 3 ;;
        *) prog=$1; shift; break ;;
    esac
done
case ",$metrics," in *",${STUB_BAD_METRIC:-none},"*)
    echo "==ERROR== Failed to find metric $STUB_BAD_METRIC"; exit 1 ;;
esac
batch=""
for ((i = 1; i <= $#; i++)); do [ "${!i}" = --batch-file ] && { j=$((i + 1)); batch=${!j}; }; done
if [ -n "${STUB_CALLS:-}" ]; then
    echo "$(basename "$prog") $* | $kernel" >>"$STUB_CALLS"
    [ -z "$batch" ] || sed 's/^/line /' "$batch" >>"$STUB_CALLS"
fi
[ -n "${STUB_METRICS:-}" ] && echo "$metrics" >"$STUB_METRICS"
"$prog" "$@" || exit 1
# recorded ARGS: the log recorded for a run with these arguments
recorded() {
    local args=" $* " lim=default s
    case $prog in
    *readonly_profile)
        case $args in *" --l2-fetch 32 "*) lim=32 ;; *" --l2-fetch 64 "*) lim=64 ;; *" --l2-fetch 128 "*) lim=128 ;; esac
        case $args in
            *" --kernel strided --stride 32 "*) echo "$STUB_LOGS/readonly_gran_$lim.csv" ;;
            *" --kernel strided,strided_float4 "*) s=${args#* --stride }; echo "$STUB_LOGS/readonly_strided_${s%% *}.csv" ;;
            *) echo "$STUB_LOGS/readonly_other.csv" ;;
        esac ;;
    *stencil_profile)
        case $args in
            " 32 2 0 4 "*" --kernel "*) case $args in *--lead-pad*) echo "$STUB_CSV" ;; *) echo "$STUB_FIX/stencil_32x2_ncu.csv" ;; esac ;;
            " 32 32 0 4 "*"--lead-pad --pad-leading-dim"*) case $args in *--radius*) echo "$STUB_CSV" ;; *) echo "$STUB_FIX/stencil_32x32_aligned_ncu.csv" ;; esac ;;
            *) echo "$STUB_CSV" ;;
        esac ;;
    *) echo "$STUB_CSV" ;;
    esac
}
logs=()
if [ -n "$batch" ]; then
    while read -r line; do logs+=("$(recorded $line)"); done <"$batch"
else
    logs=("$(recorded "$@")")
fi
awk 'BEGIN { FS = OFS = ","; next_id = 0 }
     FNR == 1 { off = next_id }
     /^"ID",/ { if (!hdr++) print; next }
     /^"[0-9]+",/ { id = $1; gsub(/"/, "", id); id += off; $1 = "\"" id "\""
                    if (id + 1 > next_id) next_id = id + 1; print; next }
     { print }' "${logs[@]}" >"$log"
EOF
# the <family>_profile stand-ins write the engine's table: for a
# --batch-file, each line's rows with its batch_line (the line's number)
cat >"$STUB/table.sh" <<'EOF'
#!/usr/bin/env bash
# table.sh OUT BATCH ROWS_CMD...: OUT gets ROWS_CMD's '#' lines and header
# once, then for each line of BATCH (or the one run: batch_line 0) its rows.
out=$1 batch=$2; shift 2
{
    if [ -n "$batch" ]; then
        n=0
        while read -r line; do n=$((n + 1)); "$@" $line | awk -v n=$n '
            /^#/ { if (n == 1) print; next }
            !hdr++ { if (n == 1) print $0 "\tbatch_line"; next }
            { print $0 "\t" n }'; done <"$batch"
    else
        "$@" | awk '/^#/ { print; next } !hdr++ { print $0 "\tbatch_line"; next } { print $0 "\t0" }'
    fi
} >"$out"
EOF
# what a stand-in was asked: its --table and --batch-file
cat >"$STUB/args.sh" <<'EOF'
table="" batch=""
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
    case ${args[i]} in --table) table=${args[i+1]} ;; --batch-file) batch=${args[i+1]} ;; esac
done
EOF
# stencil_profile: four rows, whatever the geometry (the comparison takes it from the script)
cat >"$STUB/stencil_profile" <<'EOF'
#!/usr/bin/env bash
[ "$1" = --list-kernels ] && { printf 'deriv_copy\tx\nderiv0\tx\nderiv1\tx\nderiv0_halo\tx\n'; exit 0; }
source "$(dirname "$0")/args.sh"
rows() { cat "$STUB_FIX/stencil_32x2_runs.tsv"; }
export -f rows; [ -z "$table" ] || "$(dirname "$0")/table.sh" "$table" "$batch" rows
EOF
cat >"$STUB/nvidia-smi" <<'EOF'
#!/usr/bin/env bash
echo "GPU 0: NVIDIA H100 80GB HBM3 (stub)"
EOF
# readonly_profile: the engine's table for the runs it was asked for
cat >"$STUB/readonly_profile" <<'EOF'
#!/usr/bin/env bash
[ "$1" = --list-kernels ] && { printf 'baseline\tx\nfloat4\tx\nnondiverging\tx\nrandom_access\tx\nstrided\tx\nstrided_float4\tx\n'; exit 0; }
source "$(dirname "$0")/args.sh"
rows() {
    local kernels="" stride=8 a=("$@") i k c
    for ((i = 0; i < ${#a[@]}; i++)); do
        case ${a[i]} in --kernel) kernels=${a[i+1]} ;; --stride) stride=${a[i+1]} ;; esac
    done
    printf '# device\tNVIDIA H100 80GB HBM3 (sm_90, 132 SMs, L2 51200 KiB)\n'
    printf 'kernel\tn\tsmem_bytes\twarps_per_block\tblocks_per_sm\tvalid\tconfig\n'
    for k in ${kernels//,/ }; do
        case $k in strided*) c=stride=$stride ;; *) c=- ;; esac
        printf '%s\t100000000\t0\t4\t16\tok\t%s\n' "$k" "$c"
    done
}
export -f rows; [ -z "$table" ] || "$(dirname "$0")/table.sh" "$table" "$batch" rows "$@"
EOF
# copy_profile: the fixture's table; memcpy has no kernel (and no model)
cat >"$STUB/copy_profile" <<'EOF'
#!/usr/bin/env bash
if [ "$1" = --list-kernels ]; then
    for v in stride stride_store stride16 batch batch_unrolled batch_restrict int4 grid_scalar \
             grid_vector2 grid_vector4 vector2 vector4 memcpy; do printf '%s\tx\n' "$v"; done
    exit 0
fi
[ -n "${STUB_FAIL:-}" ] && { echo "copy_profile: CUDA error (stub)" >&2; exit 1; }
source "$(dirname "$0")/args.sh"
rows() { cat "$STUB_RUNS"; }
export -f rows; [ -z "$table" ] || "$(dirname "$0")/table.sh" "$table" "$batch" rows
EOF
chmod +x "$STUB"/*
export PATH="$STUB:$PATH" WARPLAT_PROFILE_DIR=$STUB STUB_QUERY=$F/query_metrics_h100.txt

# --- usage
expect_exit 0 scripts/ncu_profile.sh --help;           expect_says "FAMILY [--n N]"
expect_exit 2 scripts/ncu_profile.sh;                  expect_says "FAMILY is missing"
expect_exit 2 scripts/ncu_profile.sh bogus;            expect_says "unknown FAMILY 'bogus'"
expect_exit 2 scripts/ncu_profile.sh copy --l2-fetch 48; expect_says "32, 64 or 128"
expect_exit 2 scripts/ncu_profile.sh copy --wpb x;     expect_says "--wpb must be"
expect_exit 2 scripts/ncu_profile.sh copy --n nan;     expect_says "--n must be a number"
expect_exit 2 scripts/ncu_profile.sh copy --out;       expect_says "--out needs a value"

# --- readonly: the real H100 logs reproduce the published reference tables
export STUB_LOGS=$R/ncu
OUT=$TMP/ro
STUB_CALLS=$TMP/readonly_calls.txt expect_exit 0 scripts/ncu_profile.sh readonly --out "$OUT"
# one ncu process over one batch: the 13 runs, in order, each line the
# arguments the script gave its run when it was a process of its own, its
# fetch limit on it; every run's kernel regex in the one --kernel-name
RE='(^readonly_strided$)|(^readonly_(strided|strided_float4)$)|(^readonly_(baseline|float4|nondiverging|random_access)$)'
{
    echo "readonly_profile --batch-file $TMP/WORK/readonly.batch --reps 1 --warmup 0 -q --table $TMP/WORK/runs.tsv | regex:$RE"
    for lim in default 32 64 128; do
        extra=""; [ $lim = default ] || extra=" --l2-fetch $lim"
        echo "line 1e8 0 4 --kernel strided --stride 32$extra"
    done
    for s in 1 2 4 8 16 32 64 128; do
        echo "line 1e8 0 4 --kernel strided,strided_float4 --stride $s"
    done
    echo "line 1e8 0 4 --kernel baseline,float4,nondiverging,random_access"
} >"$TMP/readonly_want.txt"
sed -e "s|/[^ ]*/ncu_profile\.[A-Za-z0-9]*/|$TMP/WORK/|g" "$TMP/readonly_calls.txt" >"$TMP/readonly_got.txt"
diff -u "$TMP/readonly_want.txt" "$TMP/readonly_got.txt" >"$TMP/d" ||
    fail "readonly: the profiled runs' arguments changed:
$(cat "$TMP/d")"
[ -s "$OUT/sectors_readonly.tsv" ] && [ -s "$OUT/l2_fetch.tsv" ] || fail "readonly: tables not written"
grep -v '^#' "$R/sectors_readonly.tsv" >"$TMP/want.tsv"
grep -v '^#' "$OUT/sectors_readonly.tsv" >"$TMP/got.tsv" 2>/dev/null
diff -u "$TMP/want.tsv" "$TMP/got.tsv" >"$TMP/d" || fail "readonly rows differ from data/reference/h100/sectors_readonly.tsv:
$(head -n 20 "$TMP/d")"
grep -v '^#' "$R/legacy/l2_fetch.tsv" >"$TMP/want2.tsv"
grep -v '^#' "$OUT/l2_fetch.tsv" >"$TMP/got2.tsv" 2>/dev/null
diff -u "$TMP/want2.tsv" "$TMP/got2.tsv" >"$TMP/d2" || fail "l2_fetch rows differ from the reference:
$(head -n 20 "$TMP/d2")"
[ "$(bin/tsv meta "$OUT/sectors_readonly.tsv" dram_granularity_bytes)" = 64 ] ||
    fail "readonly: the measured granule (64 B) is not in the table's metadata"
for f in readonly.csv.gz readonly_runs.tsv readonly.batch readonly_recipe.tsv; do
    [ -s "$OUT/ncu/$f" ] || fail "readonly: ncu/$f not kept"
done
ls "$OUT/ncu" | grep -q '\.csv$' && fail "readonly: a raw log was kept uncompressed"
# the kept log is the one process's: 13 runs' launches, read back through zlib
gzip -dc "$OUT/ncu/readonly.csv.gz" | grep -c '^"ID"' | grep -qx 1 || fail "readonly: the kept log should have one header"
bin/ncu_extract "$OUT/ncu/readonly.csv.gz" --metrics dram__sectors_read.sum >"$TMP/ro_ext.tsv" ||
    fail "bin/ncu_extract cannot read the gzipped log"
[ "$(bin/tsv get "$TMP/ro_ext.tsv" id | tail -n 1)" = "$(($(bin/tsv get "$TMP/ro_ext.tsv" id | wc -l) - 1))" ] ||
    fail "readonly: the launches' IDs should run on through the batch"
ls "$OUT" "$OUT/ncu" | grep -q '\.tmp$' && fail "readonly: a .tmp file was left behind"

# --- copy: the fixture's two altered rows are flagged, the others agree
export STUB_CSV=$F/copy_ncu.csv STUB_RUNS=$F/copy_runs.tsv
OUT=$TMP/copy
STUB_CALLS=$TMP/copy_calls.txt STUB_METRICS=$TMP/copy_metrics.txt expect_exit 0 scripts/ncu_profile.sh copy --out "$OUT"
expect_says "copy memcpy has no sector model"
V=stride,stride_store,stride16,batch,batch_unrolled,batch_restrict,int4,grid_scalar,grid_vector2,grid_vector4,vector2,vector4
[ "$(sed -e 's| --table [^ ]*||' -e 's| --batch-file [^ ]*||' "$TMP/copy_calls.txt")" = \
  "copy_profile --reps 1 --warmup 0 -q | regex:(^copy_(${V//,/|})(_b[0-9]+)?\$)
line 1e7 0 4 --kernel $V" ] ||
    fail "copy: the one run's arguments changed: $(cat "$TMP/copy_calls.txt")"
# the metrics asked: the model's 15 that the judging, the notes and the report use
[ "$(tr ',' '\n' <"$TMP/copy_metrics.txt" | wc -l)" = 15 ] ||
    fail "copy: expected 15 metrics asked of ncu, got $(cat "$TMP/copy_metrics.txt")"
grep -q 'smsp__inst_executed\|launch__block_size\|lsu_wavefronts_mem_lg\|output_wavefronts_pipe_lsu_mem_global_op_st' "$TMP/copy_metrics.txt" &&
    fail "copy: a metric nothing uses is still asked: $(cat "$TMP/copy_metrics.txt")"
T=$OUT/sectors_copy.tsv
[ -s "$T" ] || fail "copy: $T not written"
[ "$(bin/tsv get "$T" config --where agree=no | tr '\n' ' ')" = "stride=16 " ] ||
    fail "copy: expected exactly stride=16 to disagree, got: $(bin/tsv get "$T" config --where agree=no | tr '\n' ' ')"
[ "$(bin/tsv get "$T" mismatch --where config=stride=16 --where op=ld)" = dram_sectors ] ||
    fail "copy: stride=16 should disagree on DRAM only"
bin/tsv get "$T" note --where config=stride=5 --where op=ld | grep -q "wavefronts not judged" ||
    fail "copy: stride=5's extra wavefront should be named in its note (shown, not judged)"
[ "$(bin/tsv get "$T" lab_vs_model --where variant=stride --where config=stride=4 --where op=ld)" = agrees ] ||
    fail "copy: stride=4 should carry the lab's figure, in agreement"
[ "$(bin/tsv meta "$T" ncu)" = "Version 2025.3.1.0 (stub)" ] || fail "copy: the ncu version is not recorded"
[ -s "$OUT/ncu/copy.csv.gz" ] && [ -s "$OUT/ncu/copy_runs.tsv" ] || fail "copy: raw log or runs table not kept"

# --- a metric this ncu lacks: left out, its column NA, the rows still judged
export STUB_QUERY=$F/query_metrics_no_tstage.txt
OUT=$TMP/copy2
expect_exit 0 scripts/ncu_profile.sh copy --out "$OUT"
expect_says "lacks l1tex__t_output_wavefronts_pipe_lsu_mem_global_op_ld.sum"
T=$OUT/sectors_copy.tsv
[ "$(bin/tsv get "$T" wavefronts_meas --where config=stride=5 --where op=ld)" = NA ] ||
    fail "copy without the tag-stage counters: wavefronts_meas should be NA"
[ "$(bin/tsv get "$T" config --where agree=no | tr '\n' ' ')" = "stride=16 " ] ||
    fail "copy without wavefronts: only stride=16 should disagree"
export STUB_QUERY=$F/query_metrics_h100.txt

# --- stencil: 16 geometries, 16 lines of one batch, one ncu process, one table;
#     the two with recorded logs agree
export STUB_FIX=$F STUB_QUERY=$F/query_metrics_no_tstage.txt
OUT=$TMP/sten
STUB_CALLS=$TMP/stencil_calls.txt STUB_CSV=$F/stencil_32x2_ncu.csv expect_exit 0 scripts/ncu_profile.sh stencil --out "$OUT"
# the lab's 16 geometries, in order, as the script has always run them
V=deriv_copy,deriv0,deriv1,deriv0_halo
{
    echo "stencil_profile --reps 1 --warmup 0 -q | regex:(^stencil_(${V//,/|})\$)"
    for g in "64 1" "64 1 --lead-pad" "1024 1" "1024 1 --lead-pad" "32 1" "32 1 --lead-pad --pad-leading-dim" \
             "32 2" "32 2 --lead-pad" "32 2 --lead-pad --pad-leading-dim" "32 5" "32 5 --lead-pad" \
             "32 5 --lead-pad --pad-leading-dim" "32 32" "32 32 --lead-pad" "32 32 --lead-pad --pad-leading-dim" \
             "32 32 --radius 2 --lead-pad --pad-leading-dim"; do
        set -- $g
        echo "line $1 $2 0 4 --kernel $V${3:+ }${*:3}"
    done
} >"$TMP/stencil_want.txt"
sed -e 's| --table [^ ]*||' -e 's| --batch-file [^ ]*||' "$TMP/stencil_calls.txt" >"$TMP/stencil_got.txt"
diff -u "$TMP/stencil_want.txt" "$TMP/stencil_got.txt" >"$TMP/d" ||
    fail "stencil: the profiled runs' arguments changed:
$(cat "$TMP/d")"
T=$OUT/sectors_stencil.tsv
[ "$(bin/tsv get "$T" variant | wc -l)" = 128 ] || fail "stencil: 16 geometries x 4 variants x 2 ops = 128 rows"
[ "$(bin/tsv get "$T" agree --where config=n0=32,n1=2,r=1,lead=0,ld=34 | sort -u)" = yes ] ||
    fail "stencil: the 32 x 2 rows replay their own log and should agree"
# (the first 8 rows of that configuration: the radius-2 run's deriv0_halo, whose
# kernel always has R = 1, shares its config string and replays another log)
# (the synthetic fixture's deriv1 has 4 hits of a neighbouring block: judged at the
# in-block point, that one row disagrees, docs/sectors.md B2)
[ "$(bin/tsv get "$T" agree --where config=n0=32,n1=32,r=1,lead=31,ld=64 | head -n 8 | tr '\n' ' ')" = \
  "yes yes yes yes no yes yes yes " ] ||
    fail "stencil: the 32 x 32 padded rows replay their own log and should agree but for deriv1's loads"
[ "$(bin/tsv get "$T" agree --where config=n0=32,n1=32,r=1,lead=31,ld=64 | wc -l)" = 10 ] ||
    fail "stencil: the 32 x 32 padded run (8 rows) and the radius-2 run's deriv0_halo (2) share a config"
[ "$(bin/tsv get "$T" agree --where config=n0=1024,n1=1,r=1,lead=0,ld=1026 | sort -u)" = no ] ||
    fail "stencil: a geometry replaying another's log must disagree"
# (n0 = 64, n1 = 1 replaying the 32 x 2 log mostly agrees: both geometries touch the same sectors)
# --quick: the first four geometries only
STUB_CALLS=$TMP/stencil_quick.txt STUB_CSV=$F/stencil_32x2_ncu.csv expect_exit 0 \
    scripts/ncu_profile.sh stencil --quick --out "$TMP/stenq"
[ "$(grep '^line ' "$TMP/stencil_quick.txt" | cut -d' ' -f2,3 | tr '\n' ,)" = "64 1,64 1,1024 1,1024 1," ] ||
    fail "stencil --quick: expected the geometries 64x1 (twice) and 1024x1 (twice): $(cat "$TMP/stencil_quick.txt")"
[ "$(grep -c '^stencil_profile ' "$TMP/stencil_quick.txt")" = 1 ] || fail "stencil --quick: one ncu process"
for f in stencil.csv.gz stencil_runs.tsv stencil.batch; do
    [ -s "$OUT/ncu/$f" ] || fail "stencil: raw file ncu/$f not kept"
done
export STUB_QUERY=$F/query_metrics_h100.txt

# --- ncu refuses a metric its --query-metrics listed: once more, with the names
#     seen in real H100 captures (loads only: the store rows are then not measured)
OUT=$TMP/copy3
STUB_BAD_METRIC=l1tex__t_requests_pipe_lsu_mem_global_op_st.sum expect_exit 0 scripts/ncu_profile.sh copy --out "$OUT"
expect_says "ncu refused a metric"
T=$OUT/sectors_copy.tsv
[ "$(bin/tsv get "$T" l2_requests_meas --where config=stride=4 --where op=ld)" = NA ] ||
    fail "after the fallback, the L2 requests are not measured (NA)"
[ "$(bin/tsv get "$T" l1_sectors_meas --where config=stride=4 --where op=ld)" = 131072 ] ||
    fail "after the fallback, the L1 sectors are still measured"
[ "$(bin/tsv get "$T" config --where agree=no --where op=ld | tr '\n' ' ')" = "stride=16 " ] ||
    fail "after the fallback, only the stride=16 loads (DRAM) should disagree"
[ "$(bin/tsv get "$T" mismatch --where config=stride=4 --where op=st)" = "not measured" ] ||
    fail "after the fallback, the stores are not measured"

# --- failures publish nothing
OUT=$TMP/fail
STUB_FAIL=1 expect_exit 1 scripts/ncu_profile.sh copy --out "$OUT"
expect_says "ncu or $STUB/copy_profile failed"
[ ! -e "$OUT/sectors_copy.tsv" ] || fail "a failed run published sectors_copy.tsv"
STUB_CSV=$F/perm_denied.csv expect_exit 1 scripts/ncu_profile.sh copy --out "$OUT"
expect_says "ERR_NVGPUCTRPERM"
[ ! -e "$OUT/sectors_copy.tsv" ] || fail "a run without counter access published sectors_copy.tsv"
WARPLAT_PROFILE_DIR=$TMP/none expect_exit 1 scripts/ncu_profile.sh copy --out "$OUT"
expect_says "copy_profile is missing"

# --- all: every family at once, their ncu runs one after another in the
#     families' order (the gates); patterns has no stand-in here: it stops,
#     the others still publish, and no family waits for it forever
OUT=$TMP/all
STUB_CALLS=$TMP/all_calls.txt expect_exit 1 scripts/ncu_profile.sh all --out "$OUT"
expect_says "patterns_profile is missing"
for f in sectors_readonly.tsv sectors_copy.tsv sectors_stencil.tsv; do
    [ -s "$OUT/$f" ] || fail "all: $f not written"
done
order=$(grep -v '^line ' "$TMP/all_calls.txt" | cut -d' ' -f1 | paste -sd' ')
[ "$order" = "copy_profile readonly_profile stencil_profile" ] ||
    fail "all: the ncu runs in the families' order expected, got: $order"
done_testing
