#!/usr/bin/env bash
# scripts/ncu_profile.sh - what the memory system moves for each kernel of a
# family, measured with Nsight Compute and put next to what the sector model
# predicts from the addresses alone (docs/sectors.md).
#
#   scripts/ncu_profile.sh FAMILY [--n N] [--wpb W] [--out DIR] [--l2-fetch B] [--quick]
#
#   FAMILY          a family with a sector model (bin/sector_model --list-families:
#                   readonly, copy, patterns, stencil), or all (each in turn on
#                   the GPU; one family's comparison overlaps the next one's ncu run)
#   --n N           elements per array: copy and patterns 1e7 (default), readonly
#                   1e8 (default); the stencil runs the lab's sizes and ignores it
#   --wpb W         warps per block (default 4, as the labs' figures assume)
#   --out DIR       the results folder (default data)
#   --l2-fetch B    run under cudaLimitMaxL2FetchGranularity = B (32, 64 or 128;
#                   default: the driver's, 64 B on the H100); the model is told
#   --quick         fewer ncu runs (make report's --quick): readonly at the
#                   driver's fetch granularity only and strides 1 and 32;
#                   the stencil's first four lab geometries; copy at strides
#                   1, 2, 4, 32 and batches 1, 4; patterns at offsets 0, 1, 4,
#                   16, 31, 32 and strides 1, 2, 32 (ncu costs a fifth to a
#                   quarter of a second per profiled launch)
#   --gate-wait F, --gate-done F
#                   (all passes them) profile once file F exists; write F once
#                   this family's ncu run is over
#
# The runs are the family's ncu recipe, data of its model
# (src/families/NAME/model.c; bin/sector_model --ncu-recipe FAMILY prints
# them): copy and patterns profile every modelled variant in every default
# configuration (1 run; with --quick fewer configurations); the stencil runs once per lab geometry (16 runs, 4
# with --quick); readonly once per fetch limit and per stride (13 runs, 4
# with --quick).  Every run of a family is one line of one engine
# --batch-file (bin/sector_model --ncu-recipe --batch-file), so each family
# costs ONE ncu process (ncu's start-up, about 2.5 s on the H100, once):
#   ncu --csv --print-units base --clock-control none --cache-control all
#       --kernel-name regex:KERNELS --metrics METRICS
#       ./F_profile --batch-file F.batch --reps 1 --warmup 0 -q --table RUNS
# KERNELS is every run's kernel regex in one (the recipe's kernel_regex); a
# run's --l2-fetch B is on its line (the engine puts the driver's limit back
# for a line without one).  The one table's rows name their line
# (batch_line); bin/sector_model --ncu-split gives each run back its own
# rows and launches (the k-th clean row of a kernel pairs with its k-th
# launch), which bin/sector_compare compares as before.  ncu flushes the
# caches before every profiled kernel (--cache-control all).
#
# Writes, each through NAME.tmp and a rename (names: docs/naming.md):
#   DIR/sectors_<family>.tsv   copy, patterns, stencil: one row per variant,
#                              configuration and op (ld, st), predicted (*_pred)
#                              and measured (*_meas) side by side, agree, mismatch,
#                              the lab's figure and a note (bin/sector_compare
#                              --family); readonly: its measured table (pattern
#                              ... time_ns), which bin/sector_compare FILE compares
#   DIR/l2_fetch.tsv           readonly: the DRAM fetch granularity, one isolated
#                              4 B load per 128 B line under each limit
#   DIR/ncu/<family>.csv.gz    the raw ncu log, gzipped (bin/ncu_extract reads it
#                              as it is), and beside it the batch (<family>.batch),
#                              its table (<family>_runs.tsv), the recipe
#                              (<family>_recipe.tsv) and what ncu --query-metrics said
# The metrics are the model's list (bin/sector_model --metrics FAMILY) less any
# the installed ncu lacks: those are named on stderr and their columns are NA.
# The list is what is used, no more (fewer metrics, fewer replay passes):
#   gpu__time_duration                    time_ns, the utilisations
#   launch__grid_size                     blocks (judged)
#   l1tex__t_requests_..._op_{ld,st}      L1 requests (judged)
#   l1tex__t_sectors_..._op_{ld,st}       L1 sectors (judged)
#   l1tex__t_output_wavefronts_..._ld     wavefronts: the report's lab
#                                         figure (wavefronts/request), a note
#   l1tex__t_sectors_..._{ld,st}_lookup_hit  L1 hits (loads judged; stores a note)
#   lts__t_requests_srcunit_tex_op_{read,write}  L2 requests (judged)
#   lts__t_sectors_srcunit_tex_op_{read,write}   L2 sectors (judged)
#   dram__sectors_{read,write}            DRAM (reads judged; writes a note)
# (readonly: the time and the load path's L1 requests and sectors, L2 sectors
# and DRAM reads, its table's columns.)  No longer asked, still read from a
# log that has them: launch__block_size (no column), smsp__inst_executed_op_
# global_{ld,st} (instructions_meas) and l1tex__data_pipe_lsu_wavefronts_*
# (data_wavefronts_meas), and the stores' wavefronts (one replay pass of
# five: tests/device/ncu_passes.sh): shown only, judged by nothing, read by
# no report, model check or doc figure.
# Needs ncu, ./<family>_profile (make), a GPU and counter access.
# WARPLAT_PROFILE_DIR (default .) is where the <family>_profile programs are
# (tests/cli/ncu_profile.sh points it at stand-ins).
# Exit: 0 written; 1 a step failed (nothing is published for that family); 2 usage.
set -u
cd "$(dirname "$0")/.."

usage() { sed -n '2,/^set -u/p' "$0" | sed -e '/^set -u/d' -e 's/^# \{0,1\}//'; }
usage_error() { echo "ncu_profile.sh: $*" >&2; echo "Try 'scripts/ncu_profile.sh --help'." >&2; exit 2; }
die() { echo "ncu_profile.sh: $*" >&2; exit 1; }

FAMILY="" N="" WPB=4 OUTDIR=data L2F="" QUICK=0 GATE_WAIT="" GATE_DONE=""
while [ $# -gt 0 ]; do
    case $1 in
        -h|--help) usage; exit 0 ;;
        --quick) QUICK=1; shift ;;
        --n|--out|--l2-fetch|--wpb|--gate-wait|--gate-done)
            [ $# -ge 2 ] && [ -n "$2" ] || usage_error "$1 needs a value"
            case $1 in --n) N=$2 ;; --out) OUTDIR=$2 ;; --l2-fetch) L2F=$2 ;; --wpb) WPB=$2 ;;
                --gate-wait) GATE_WAIT=$2 ;; --gate-done) GATE_DONE=$2 ;; esac
            shift 2 ;;
        -*) usage_error "unknown option '$1'" ;;
        *) [ -z "$FAMILY" ] || usage_error "one FAMILY only (got '$FAMILY' and '$1')"; FAMILY=$1; shift ;;
    esac
done
# the families with a sector model: the model says which (never listed here)
[ -x bin/sector_model ] || make -s tools >&2 || die "could not build the tools (make tools)"
MODELLED=$(bin/sector_model --list-families | paste -sd' ') || die "bin/sector_model --list-families failed"
[ -n "$FAMILY" ] || usage_error "FAMILY is missing (${MODELLED// /, } or all)"
case " $MODELLED all " in
    *" $FAMILY "*) ;;
    *) usage_error "unknown FAMILY '$FAMILY' (${MODELLED// /, } or all)" ;;
esac
case $L2F in ""|32|64|128) ;; *) usage_error "--l2-fetch must be 32, 64 or 128" ;; esac
case $WPB in ''|*[!0-9]*|0*) usage_error "--wpb must be a positive whole number" ;; esac
# N's value is checked by the experiment (the one number parser, src/lib/cli.h)
case $N in *[!0-9eE.+]*) usage_error "--n must be a number such as 1e7 or 10000000" ;; esac

# all: the families at once, their GPU steps one after another: each waits
# for the previous family's gate (a file it writes once its ncu run is over,
# or when it stops), so a family's comparison runs on the host while the next
# one is profiled
if [ "$FAMILY" = all ]; then
    rc=0
    args=(--wpb "$WPB" --out "$OUTDIR")
    [ -n "$N" ] && args+=(--n "$N")
    [ -n "$L2F" ] && args+=(--l2-fetch "$L2F")
    [ $QUICK = 1 ] && args+=(--quick)
    GATES=$(mktemp -d "${TMPDIR:-/tmp}/ncu_gates.XXXXXX") || die "mktemp failed"
    # what this ncu can collect, asked once for every family (an ncu start,
    # seconds on the H100, that each family would otherwise pay in turn),
    # unless the caller asked already (WARPLAT_NCU_QUERY: scripts/report.sh
    # asks while it builds)
    if [ -s "${WARPLAT_NCU_QUERY:-}" ]; then
        :
    elif command -v ncu >/dev/null 2>&1 && ncu --query-metrics >"$GATES/query_metrics.txt" 2>&1; then
        export WARPLAT_NCU_QUERY=$GATES/query_metrics.txt
    fi
    prev="" pids=()
    for f in $MODELLED; do
        gate=(--gate-done "$GATES/$f")
        [ -n "$prev" ] && gate+=(--gate-wait "$GATES/$prev")
        "$0" "$f" "${args[@]}" "${gate[@]}" &
        pids+=($!) prev=$f
    done
    for p in "${pids[@]}"; do wait "$p" || rc=1; done
    rm -rf "$GATES"
    exit $rc
fi
# the gates of all: wait for the previous family's; open this family's (its
# GPU steps are over, or it stopped) once the previous one is open too, so
# that the GPU steps keep their order whichever family stops early
gate_wait() { [ -z "$GATE_WAIT" ] || while [ ! -e "$GATE_WAIT" ]; do sleep 0.2; done; }
gate_open() { [ -z "$GATE_DONE" ] || { gate_wait; : >"$GATE_DONE"; }; }
WORK=""
trap 'gate_open; [ -z "$WORK" ] || rm -rf "$WORK"' EXIT

command -v ncu >/dev/null 2>&1 ||
    die "ncu (Nsight Compute) is not on PATH: install it or add /usr/local/cuda/bin to PATH"
command -v nvidia-smi >/dev/null 2>&1 || die "nvidia-smi not found: is there an NVIDIA GPU and driver here?"
PROG=${WARPLAT_PROFILE_DIR:-.}/${FAMILY}_profile
[ -x "$PROG" ] || die "$PROG is missing: build it with 'make'"
for b in bin/sector_model bin/sector_compare bin/ncu_extract bin/tsv bin/names; do
    [ -x "$b" ] || { make -s tools >&2 || die "could not build the tools (make tools)"; break; }
done
SECTORS=$(bin/names sectors "$FAMILY") || die "bin/names has no sector table for $FAMILY"
NCU_VERSION=$(ncu --version 2>/dev/null | tail -n 1)
GRANULE=${L2F:-64}   # the model's DRAM granule; readonly measures it below

mkdir -p "$OUTDIR/ncu" || die "cannot create $OUTDIR/ncu"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/ncu_profile.XXXXXX") || die "mktemp failed"

# The metrics: the model's list, less what this ncu lacks (all asked ncu
# once for every family: WARPLAT_NCU_QUERY).
if [ -n "${WARPLAT_NCU_QUERY:-}" ] && [ -s "$WARPLAT_NCU_QUERY" ]; then
    cp "$WARPLAT_NCU_QUERY" "$WORK/query_metrics.txt"
else
    ncu --query-metrics >"$WORK/query_metrics.txt" 2>&1
fi
if [ -s "$WORK/query_metrics.txt" ] &&
   METRICS=$(bin/sector_model --metrics "$FAMILY" --ncu-query "$WORK/query_metrics.txt"); then
    :
else
    echo "ncu_profile.sh: ncu --query-metrics gave no list: asking for all of the model's metrics" >&2
    METRICS=$(bin/sector_model --metrics "$FAMILY") || die "bin/sector_model --metrics failed"
fi

# The runs: the family's ncu recipe (its model.c), for the variants that both
# the model and the program have, as one engine --batch-file (one line a run,
# its --l2-fetch on its line); the recipe's metadata kernel_regex is every
# run's kernel regex in one.
"$PROG" --list-kernels >"$WORK/have.txt" 2>&1 || die "$PROG --list-kernels failed: $(tail -n 3 "$WORK/have.txt")"
recipe_args=(--wpb "$WPB" --have "$WORK/have.txt" --batch-file "$WORK/$FAMILY.batch")
[ -n "$N" ] && recipe_args+=(--run-n "$N")
[ $QUICK = 1 ] && recipe_args+=(--quick)
[ -n "$L2F" ] && recipe_args+=(--l2-fetch "$L2F")
bin/sector_model --ncu-recipe "$FAMILY" "${recipe_args[@]}" >"$WORK/recipe.tsv" ||
    die "bin/sector_model --ncu-recipe $FAMILY failed"
KERNELS=$(bin/tsv meta "$WORK/recipe.tsv" kernel_regex) && [ -n "$KERNELS" ] ||
    die "the recipe of $FAMILY names no kernel regex"

# One ncu process over the whole batch (its table in $WORK/runs.tsv, the
# launches in $WORK/ext.tsv, bin/ncu_extract), then split per run of the
# recipe by the rows' batch_line (bin/sector_model --ncu-split): $WORK/NAME_runs.tsv
# and $WORK/NAME.tsv, the tables each run had when it was a process of its own.
gate_wait   # with all: the GPU is the previous family's until its gate opens
T_NCU=$SECONDS
echo "ncu_profile.sh: $FAMILY: the recipe's runs ($(bin/tsv get "$WORK/recipe.tsv" run | paste -sd' ')) in one ncu process: $PROG --batch-file $WORK/$FAMILY.batch --reps 1 --warmup 0" >&2
for attempt in 1 2; do
    rm -f "$WORK/$FAMILY.csv" "$WORK/runs.tsv"
    timeout 1200 ncu --csv --log-file "$WORK/$FAMILY.csv" --print-units base --clock-control none \
        --cache-control all --kernel-name "regex:$KERNELS" --metrics "$METRICS" \
        "$PROG" --batch-file "$WORK/$FAMILY.batch" --reps 1 --warmup 0 -q --table "$WORK/runs.tsv" \
        >"$WORK/$FAMILY.out" 2>&1
    rc=$?
    if grep -qs ERR_NVGPUCTRPERM "$WORK/$FAMILY.csv" "$WORK/$FAMILY.out"; then
        die "ncu has no permission to read the GPU counters (ERR_NVGPUCTRPERM): run as root or enable access for all users, see https://developer.nvidia.com/ERR_NVGPUCTRPERM"
    fi
    [ $rc -eq 0 ] && [ -s "$WORK/$FAMILY.csv" ] && [ -s "$WORK/runs.tsv" ] && break
    tail -n 20 "$WORK/$FAMILY.out" >&2
    # ncu refused a metric name: once, fall back to the names seen on an H100
    if [ $attempt = 1 ] && grep -i '^==ERROR==' "$WORK/$FAMILY.out" | grep -qi metric; then
        METRICS=$(bin/sector_model --metrics "$FAMILY" --proven) || die "bin/sector_model --metrics --proven failed"
        echo "ncu_profile.sh: ncu refused a metric: again with the ones every H100 ncu has: $METRICS" >&2
        continue
    fi
    die "$FAMILY: ncu or $PROG failed (exit $rc)"
done
gate_open   # the GPU is the next family's
# how long ncu held the GPU (its replay passes it prints only without --csv:
# tests/device/ncu_cost.sh counts them)
echo "ncu_profile.sh: $FAMILY: ncu took $((SECONDS - T_NCU)) s" >&2
bin/ncu_extract "$WORK/$FAMILY.csv" --metrics "$METRICS" --kernel "$KERNELS" >"$WORK/ext.tsv" ||
    die "$FAMILY: could not read the ncu log"
bin/sector_model --ncu-split "$FAMILY" --recipe "$WORK/recipe.tsv" --runs "$WORK/runs.tsv" \
    --ncu "$WORK/ext.tsv" --dir "$WORK" || die "$FAMILY: could not split the batch per run"

# publish SRC DEST: copy through DEST.tmp and a rename.
publish() {
    cp "$1" "$2.tmp" && mv "$2.tmp" "$2" || { rm -f "$2.tmp"; die "cannot write $2"; }
}
keep_raw() { # the ncu log (gzipped), the batch, its table and the recipe, under DIR/ncu/
    gzip -n -c "$WORK/$FAMILY.csv" >"$WORK/$FAMILY.csv.gz" || die "gzip failed"
    publish "$WORK/$FAMILY.csv.gz" "$OUTDIR/ncu/$FAMILY.csv.gz"
    publish "$WORK/$FAMILY.batch" "$OUTDIR/ncu/$FAMILY.batch"
    publish "$WORK/runs.tsv" "$OUTDIR/ncu/${FAMILY}_runs.tsv"
    publish "$WORK/recipe.tsv" "$OUTDIR/ncu/${FAMILY}_recipe.tsv"
    publish "$WORK/query_metrics.txt" "$OUTDIR/ncu/${FAMILY}_query_metrics.txt"
}
meta_lines() { # the run's facts, as '# key<TAB>value' lines
    printf '# date\t%s\n# ncu\t%s\n# wpb\t%s\n# l2_fetch_limit_bytes\t%s\n# metrics\t%s\n' \
        "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$NCU_VERSION" "$WPB" "${L2F:-0}" "$METRICS"
}

# Each run of the recipe in turn (read by column name): its comparison goes
# to the sector table (output sectors), to a row of l2_fetch.tsv (l2_fetch),
# or its tables join the pool compared at the end.
mapfile -t R_RUN < <(bin/tsv get "$WORK/recipe.tsv" run) &&
mapfile -t R_CMP < <(bin/tsv get "$WORK/recipe.tsv" compare) &&
mapfile -t R_OUT < <(bin/tsv get "$WORK/recipe.tsv" output) || die "cannot read the recipe"
[ ${#R_RUN[@]} -gt 0 ] || die "the recipe of $FAMILY has no run"
parts=() rows=() pool_runs=() pool_ext=() pool_cmp=()
for i in "${!R_RUN[@]}"; do
    name=${R_RUN[i]}
    read -r -a cmp <<<"${R_CMP[i]}"
    case ${R_OUT[i]} in
    sectors)
        bin/sector_compare "${cmp[@]}" --runs "$WORK/${name}_runs.tsv" --ncu "$WORK/$name.tsv" \
            --dram-granularity "$GRANULE" --out "$WORK/$name.cmp.tsv" || die "bin/sector_compare failed for $name"
        parts+=("$WORK/$name.cmp.tsv") ;;
    l2_fetch)
        bin/sector_compare "${cmp[@]}" --runs "$WORK/${name}_runs.tsv" --ncu "$WORK/$name.tsv" \
            --out "$WORK/$name.row.tsv" || die "bin/sector_compare failed ($name)"
        rows+=("$WORK/$name.row.tsv") ;;
    pool)
        pool_runs+=("$WORK/${name}_runs.tsv") pool_ext+=("$WORK/$name.tsv") pool_cmp=("${cmp[@]}") ;;
    *) die "the recipe's run $name has an unknown output '${R_OUT[i]}'" ;;
    esac
done
# The DRAM fetch granularity measured (l2_fetch rows): the pool's granule.
if [ ${#rows[@]} -gt 0 ]; then
    bin/tsv cat --out "$WORK/l2_fetch_rows.tsv" "${rows[@]}" || die "bin/tsv cat failed"
    { meta_lines; cat "$WORK/l2_fetch_rows.tsv"; } >"$WORK/l2_fetch.tsv" || die "cannot write l2_fetch.tsv"
    GRANULE=$(bin/tsv get "$WORK/l2_fetch.tsv" granule_bytes --where "l2_fetch_limit_bytes=${L2F:-0}") || GRANULE=64
    case $GRANULE in 32|64|128) ;; *) GRANULE=64 ;; esac
fi
if [ ${#pool_runs[@]} -gt 0 ]; then
    bin/tsv cat --out "$WORK/runs_all.tsv" "${pool_runs[@]}" && bin/tsv cat --out "$WORK/ext_all.tsv" "${pool_ext[@]}" ||
        die "bin/tsv cat failed"
    bin/sector_compare "${pool_cmp[@]}" --runs "$WORK/runs_all.tsv" --ncu "$WORK/ext_all.tsv" \
        --dram-granularity "$GRANULE" --out "$WORK/pool.cmp.tsv" || die "bin/sector_compare failed"
    parts+=("$WORK/pool.cmp.tsv")
fi
[ ${#parts[@]} -gt 0 ] || die "the recipe of $FAMILY makes no sector table"
if [ ${#parts[@]} = 1 ]; then
    cp "${parts[0]}" "$WORK/compare.tsv" || die "cannot write $WORK/compare.tsv"
else
    bin/tsv cat --out "$WORK/compare.tsv" "${parts[@]}" || die "bin/tsv cat failed"
fi
{ meta_lines; cat "$WORK/compare.tsv"; } >"$WORK/final.tsv" || die "cannot write $WORK/final.tsv"
keep_raw
[ ${#rows[@]} -gt 0 ] && publish "$WORK/l2_fetch.tsv" "$OUTDIR/l2_fetch.tsv"

publish "$WORK/final.tsv" "$OUTDIR/$SECTORS"
echo "ncu_profile.sh: wrote $OUTDIR/$SECTORS (raw logs in $OUTDIR/ncu/)" >&2
if [ "$FAMILY" = readonly ]; then
    echo "ncu_profile.sh: next: bin/sector_compare $OUTDIR/$SECTORS --markdown" >&2
else
    echo "ncu_profile.sh: rows that disagree: bin/tsv get $OUTDIR/$SECTORS variant --where agree=no" >&2
fi
