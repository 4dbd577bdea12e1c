#!/usr/bin/env bash
# scripts/reference.sh - measure this GPU's reference set into OUTDIR, in the
# layout of docs/naming.md, which is what the report reads.
#
#   scripts/reference.sh OUTDIR [--quick] [--only S,S,...] [--skip S,...] [--device D]
#
#   --quick      smaller runs (N = 1e7, fewer sweeps, the quick ladder)
#   --only S     run only these sections; --skip S: all but these
#   --device D   CUDA device ordinal (default 0); a list (0,2) or all: the
#                whole set on every GPU at once, one process per GPU, into
#                OUTDIR/<gpu>/ (gpu<ordinal>-<uuid>-<name>); warplat's own runs
#                never measure on a GPU another one is measuring on (a lock)
#
# Sections, in order (each one's files are rewritten whole; the others are
# left as they are, so the script can be re-run section by section):
#   device     device.tsv, nvidia_smi.csv
#   summaries  <exp>_<N>_wpb<W>.tsv for every family (bin/names families):
#              readonly at WPB 2, 4, 8, 16, 32 and N = 1e8 (quick too: the
#              overhead table needs grids large enough to sample sparsely;
#              one process over a --batch-file, its table split per WPB by
#              bin/tsv split), the others at WPB 4; and latency_stats_1e8_wpb4.tsv
#   overhead   overhead.tsv: the clean twin against the instrumented kernel
#   sampling   sampling.tsv: latency percentiles at WPB 4 with 1 block in K
#              recorded, K = 1, 4, 16, 64, 256 (a sparse K pooled over K / 32
#              launches that record other blocks: bin/sampling plan and pool)
#              and the default (label default); then bin/sampling check says
#              on stderr whether the sparsest K has converged.  The 16-byte
#              variants (float4, strided_float4) run at 4 N, as many warps
#              as the others at N
#   logs       logs_1e6/: every block recorded, for the per-warp timelines
#   latency    latency_ca.tsv, latency_cg.tsv (the ladder)
#   sweeps     sweep_readonly_<variant>_4.tsv and sweep_readonly_baseline_8.tsv
#              (occupancy sweeps, every block recorded: the in-flight columns,
#              src/lib/inflight.h); float4 at 4 N
#   families   every family with a script of its own, scripts/<family>.sh
#              OUTDIR [--device D] [--quick] [--ladder TSV] (ceiling.sh: the
#              achievable bandwidth; stencil.sh: layouts and the size sweep)
#   sass       sass_<exp>.txt: the clean and instrumented (_probe) kernels of
#              every family that has probes; sass_latency.txt
#
# Progress goes to stderr, one line when a step starts and one when it ends,
# with its time.  Exit status: 0 all sections ran, 1 a section failed (the
# others still ran; the failed ones are named at the end), 2 usage error.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() { sed -n '2,/^set -euo/p' "$0" | sed -e '/^set -euo/d' -e 's/^# \{0,1\}//'; }
usage_error() { echo "reference.sh: $*" >&2; echo "Try 'scripts/reference.sh --help'." >&2; exit 2; }

OUTDIR="" QUICK=0 ONLY="" SKIP="" DEVICE=0
while [ $# -gt 0 ]; do
    case $1 in
        -h|--help) usage; exit 0 ;;
        --quick) QUICK=1; shift ;;
        --only|--skip|--device)
            [ $# -ge 2 ] && [ -n "$2" ] || usage_error "$1 needs a value"
            case $1 in --only) ONLY=$2 ;; --skip) SKIP=$2 ;; --device) DEVICE=$2 ;; esac
            shift 2 ;;
        -*) usage_error "unknown option '$1'" ;;
        *) [ -z "$OUTDIR" ] || usage_error "one OUTDIR only (got '$OUTDIR' and '$1')"; OUTDIR=$1; shift ;;
    esac
done
[ -n "$OUTDIR" ] || usage_error "OUTDIR is missing"
SECTIONS="device summaries overhead sampling logs latency sweeps families sass"
for s in ${ONLY//,/ } ${SKIP//,/ }; do
    case " $SECTIONS " in *" $s "*) ;; *) usage_error "unknown section '$s' (one of: $SECTIONS)" ;; esac
done
wanted() {
    if [ -n "$ONLY" ]; then case ",$ONLY," in *",$1,"*) return 0 ;; *) return 1 ;; esac; fi
    case ",$SKIP," in *",$1,"*) return 1 ;; esac
    return 0
}

mkdir -p "$OUTDIR"
OUTDIR=$(cd "$OUTDIR" && pwd)

# several GPUs: this script once per GPU, in parallel, each into its folder
case $DEVICE in
    all|*,*)
        # the GPUs of nvidia-smi -L that DEVICE names (bin/fleet devices:
        # a GPU the host lacks, or a list of another form, is refused here)
        ords=$(nvidia-smi -L 2>/dev/null | bin/fleet devices "$DEVICE") || {
            rc=$?
            echo "reference.sh: --device $DEVICE: nothing measured" >&2
            [ $rc -eq 2 ] && exit 2
            exit 1
        }
        pids=() dirs=()
        for d in $ords; do
            ./readonly --device-info --device "$d" >"$OUTDIR/.device_$d.tsv" ||
                { echo "reference.sh: cannot read device $d" >&2; exit 1; }
            uuid=$(bin/tsv get "$OUTDIR/.device_$d.tsv" value --where key=device_uuid)
            gname=$(bin/tsv get "$OUTDIR/.device_$d.tsv" value --where key=device_name)
            key=$(bin/names gpu "$d" "$uuid" "$gname")
            rm -f "$OUTDIR/.device_$d.tsv"
            pass=()
            [ $QUICK = 1 ] && pass+=(--quick)
            [ -n "$ONLY" ] && pass+=(--only "$ONLY")
            [ -n "$SKIP" ] && pass+=(--skip "$SKIP")
            echo "reference.sh: device $d -> $OUTDIR/$key" >&2
            "$0" "$OUTDIR/$key" --device "$d" "${pass[@]}" 2>"$OUTDIR/$key.log" &
            pids+=($!) dirs+=("$key")
        done
        rc=0
        for i in "${!pids[@]}"; do
            if wait "${pids[$i]}"; then echo "reference.sh: ${dirs[$i]} done" >&2
            else echo "reference.sh: ${dirs[$i]} FAILED (see $OUTDIR/${dirs[$i]}.log)" >&2; rc=1; fi
        done
        exit $rc ;;
esac
SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/warplat-ref.XXXXXX")
trap 'rm -rf "$SCRATCH"' EXIT
FAILED=()

if [ $QUICK = 1 ]; then N=1e7; else N=1e8; fi
# readonly's 16-byte variants load 4 elements a thread: sweeps and sampling
# give them 4 N, so that they launch as many warps as the others at N.  At
# 1e8, float4 lasts 0.13 ms and its launch and drain are 5 % of the sweep's
# time, which Little's law with the warps in flight cannot see
# (docs/occupancy.md); sampling at 1 block in 256 would keep only 24k warps
WIDE_VARIANTS="float4 strided_float4"
if [ $QUICK = 1 ]; then N_WIDE=4e7; else N_WIDE=4e8; fi
WPBS="2 4 8 16 32"          # readonly: the overhead table needs every WPB
# readonly's summaries feed overhead.tsv, whose every row must be within
# --max-overhead (1 %): at N = 1e7 a grid is too small to sample sparsely
# enough (strided at WPB 16 and 32 stayed at 1.1-2.2 % on the H100), so
# they run at 1e8 in quick runs too (about 6 s more)
N_RO=1e8
WPBS_OTHER="4"              # the other families
# the kernel families: the registry says which (src/families/NAME/)
[ -x bin/names ] || make -s tools >&2 || { echo "reference.sh: could not build the tools (make tools)" >&2; exit 1; }
mapfile -t FAMILIES < <(bin/names families)
[ ${#FAMILIES[@]} -gt 0 ] || { echo "reference.sh: bin/names families listed no family" >&2; exit 1; }

say() { echo "reference.sh: [${SECONDS}s] $*" >&2; }
# step NAME CMD...: run CMD with a start and an end line; a failure is recorded
step() {
    local name=$1; shift
    local t0=$SECONDS
    say "$name ..."
    local rc=0
    "$@" 2>"$SCRATCH/step.err" || rc=$?
    # WARPLAT_TRACE_LOG=FILE: every step's stderr (with WARPLAT_TRACE=1 the
    # engine's step times, src/engine/trace.c) appended there
    [ -n "${WARPLAT_TRACE_LOG:-}" ] && { echo "## $name"; cat "$SCRATCH/step.err"; } >>"$WARPLAT_TRACE_LOG"
    if [ $rc = 0 ]; then
        say "$name done ($((SECONDS - t0)) s)"
    else
        say "$name FAILED ($((SECONDS - t0)) s):"
        tail -n 20 "$SCRATCH/step.err" | sed 's/^/    /' >&2
        FAILED+=("$name")
    fi
}
name() { bin/names "$@"; }
# readonly_variants [-v]: readonly's variants among WIDE_VARIANTS (-v: the
# others), comma-separated, from ./readonly --list-kernels
readonly_variants() {
    ./readonly --list-kernels | cut -f1 | grep -x ${1:-} -F "$(printf '%s\n' $WIDE_VARIANTS)" | paste -sd,
}

# the programs the wanted sections run (sweeps and sampling need ./readonly
# only, so that a GPU machine can rebuild just those after make readonly tools)
needs=(readonly)
if wanted summaries || wanted families || wanted sass; then needs+=("${FAMILIES[@]}"); fi
if wanted latency || wanted sass; then needs+=(latency); fi
for b in "${needs[@]}"; do
    [ -x "./$b" ] || { echo "reference.sh: ./$b is missing: run make first" >&2; exit 1; }
done

# ---------------------------------------------------------------- device
sec_device() {
    ./readonly --device-info --device "$DEVICE" >"$SCRATCH/device.tsv" &&
        mv "$SCRATCH/device.tsv" "$OUTDIR/device.tsv"
    if command -v nvidia-smi >/dev/null 2>&1; then
        nvidia-smi -i "$DEVICE" --format=csv \
            --query-gpu=name,uuid,driver_version,pstate,temperature.gpu,power.draw,clocks.sm,clocks.mem,clocks.max.sm,clocks.max.mem,ecc.mode.current \
            >"$SCRATCH/smi.csv" && mv "$SCRATCH/smi.csv" "$OUTDIR/nvidia_smi.csv"
    fi
}

# ---------------------------------------------------------------- summaries
sec_summaries() {
    local fam w
    for fam in "${FAMILIES[@]}"; do
        # a family with a script of its own (scripts/<family>.sh) has a section of its own
        [ -f "scripts/$fam.sh" ] && continue
        local wpbs=$WPBS_OTHER
        [ "$fam" = readonly ] && wpbs=$WPBS
        # the size: N where the family has one, else its default sizes
        local size=() n=default
        if ./"$fam" --list-positional | grep -qx N; then size=(--n "$N"); n=$N; fi
        [ "$fam" = readonly ] && size=(--n "$N_RO") n=$N_RO
        if [ "$wpbs" = "${wpbs% *}" ]; then   # one WPB: one run
            step "summary $fam WPB $wpbs" ./"$fam" "${size[@]}" --wpb "$wpbs" --device "$DEVICE" \
                --out "$SCRATCH/logs_${fam}_$wpbs" --table "$OUTDIR/$(name summary "$fam" "$n" "$wpbs")" -q
            continue
        fi
        # several WPBs: one process over a --batch-file, a line per WPB with
        # its own --out, then its table split per line (the column
        # batch_line: the line's number) into the WPBs' tables.  As five
        # processes, readonly's were 6 s of the quick run's 12 s of summaries
        # on the H200 (issue 37), each paying its own start (0.23 s to the
        # device being ready) and exit; a line pays neither
        local b=$SCRATCH/summaries_$fam ln=0 split=()
        for w in $wpbs; do
            ln=$((ln + 1))
            echo "${size[*]} --wpb $w --out $SCRATCH/logs_${fam}_$w"
            split+=("$ln=$OUTDIR/$(name summary "$fam" "$n" "$w")")
        done >"$b.batch"
        step "summary $fam WPB ${wpbs// /,} ($b.batch)" ./"$fam" --batch-file "$b.batch" \
            --device "$DEVICE" --table "$b.tsv" -q
        [ -f "$b.tsv" ] && step "summary $fam: a table per WPB" bin/tsv split "$b.tsv" batch_line "${split[@]}"
    done
    # latency statistics of the WPB 4 readonly logs (not kept: 2.5-15 MB each)
    step "latency_stats readonly WPB 4" bash -c 'bin/latency_stats "$1"/readonly_*_4.bin >"$2.tmp" && mv "$2.tmp" "$2"' _ \
        "$SCRATCH/logs_readonly_4" "$OUTDIR/$(name latency-stats "$N_RO" 4)"
    rm -rf "$SCRATCH"/logs_*
}

# ---------------------------------------------------------------- overhead
sec_overhead() {
    local files=() w
    for w in $WPBS; do files+=("$OUTDIR/$(name summary readonly "$N_RO" "$w")"); done
    step "overhead.tsv" bin/tsv cat \
        --columns variant=kernel,wpb=warps_per_block,sample,clean_ms=kernel_ms,clean_ms_min=kernel_ms_min,clean_ms_max=kernel_ms_max,instrumented_ms=instr_ms,instrumented_ms_min=instr_ms_min,instrumented_ms_max=instr_ms_max,overhead_pct,overhead_met,bw_GBps,blocks_per_sm,launches,clean_ms_ci_lo=kernel_ms_ci_lo,clean_ms_ci_hi=kernel_ms_ci_hi \
        --out "$OUTDIR/overhead.tsv" "${files[@]}"
}

# ---------------------------------------------------------------- sampling
sec_sampling() {
    local k seed d logs=() dlogs=() b=$SCRATCH/sampling
    # the launches: one per K, and K / 32 at a sparse K, each seed recording
    # other blocks (its sample offset), pooled into one row per K; then the
    # run's own choice of K (--sample auto), labelled default.  Each size is
    # one process over a --batch-file (a line per K and seed, each with its
    # own --out): one device start instead of 18 (the scratch path must have
    # no blank: the batch splits its lines at blanks)
    local narrow wide
    narrow=$(readonly_variants -v) wide=$(readonly_variants)
    mkdir -p "$b"
    while read -r k seed; do
        d=$b/k${k}_s$seed
        echo "$N 0 4 --sample $k --seed $seed --kernel $narrow --out $d"
        echo "$N_WIDE 0 4 --sample $k --seed $seed --kernel $wide --out $d.wide" >>"$b/wide.batch"
    done < <(bin/sampling plan 1,4,16,64,256) >"$b/narrow.batch"
    echo "$N 0 4 --kernel $narrow --out $b/default" >>"$b/narrow.batch"
    echo "$N_WIDE 0 4 --kernel $wide --out $b/default.wide" >>"$b/wide.batch"
    step "sampling: every K at N $N ($b/narrow.batch)" ./readonly --batch-file "$b/narrow.batch" \
        --device "$DEVICE" --table "$b/narrow.tsv" -q
    step "sampling: every K at N $N_WIDE ($b/wide.batch)" ./readonly --batch-file "$b/wide.batch" \
        --device "$DEVICE" --table "$b/wide.tsv" -q
    logs=("$b"/k*/*.bin) dlogs=("$b"/default/*.bin "$b"/default.wide/*.bin)
    step "sampling: pooled" bin/sampling pool --out "$b/fixed.tsv" "${logs[@]}"
    step "sampling: default rows" bin/sampling pool --label default --out "$b/auto.tsv" "${dlogs[@]}"
    step "sampling.tsv" bin/tsv cat --out "$OUTDIR/sampling.tsv" "$b/fixed.tsv" "$b/auto.tsv"
    [ -f "$OUTDIR/sampling.tsv" ] && bin/sampling check "$OUTDIR/sampling.tsv" >&2
    rm -rf "$SCRATCH/sampling"
}

# ---------------------------------------------------------------- logs
sec_logs() {
    local d w ln=0 split=() b=$SCRATCH/logs o=$SCRATCH/logs_1e6
    d=$OUTDIR/$(name logdir 1e6)
    mkdir -p "$o"
    # one process over a --batch-file, a line per WPB (four starts were 2 s
    # of the quick run on the H200), its table split per line (batch_line);
    # written in the scratch folder (a batch line splits at blanks, and
    # OUTDIR may have some), then moved whole
    for w in 2 4 8 16; do
        ln=$((ln + 1))
        echo "1e6 0 $w --sample 1 --kernel baseline,float4,nondiverging,random_access --out $o"
        split+=("$ln=$o/readonly_1e6_wpb$w.tsv")
    done >"$b.batch"
    step "logs 1e6 WPB 2,4,8,16 ($b.batch)" ./readonly --batch-file "$b.batch" --device "$DEVICE" \
        --table "$b.tsv" -q
    [ -f "$b.tsv" ] && step "logs 1e6: a table per WPB" bin/tsv split "$b.tsv" batch_line "${split[@]}"
    rm -rf "$d" "$d.new" && mv "$o" "$d.new" && mv "$d.new" "$d"
}

# ---------------------------------------------------------------- latency
sec_latency() {
    local q=""
    [ $QUICK = 1 ] && q=--quick
    step "ladder, L1 cached" ./latency $q --device "$DEVICE" --out "$OUTDIR/latency_ca.tsv"
    step "ladder, L1 bypassed" ./latency $q --bypass-l1 --device "$DEVICE" --out "$OUTDIR/latency_cg.tsv"
}

# ---------------------------------------------------------------- sweeps
sec_sweeps() {
    local v n variants="baseline float4 nondiverging random_access" wpb8=baseline ladder=()
    [ $QUICK = 1 ] && variants=baseline wpb8=""
    [ -f "$OUTDIR/latency_ca.tsv" ] && ladder=(--ladder "$OUTDIR/latency_ca.tsv")
    # every block recorded (--sample 1): the warps measured in flight, the
    # slot period and Little's law closed with them need every window
    for v in $variants; do
        n=$N
        case " $WIDE_VARIANTS " in *" $v "*) n=$N_WIDE ;; esac
        step "sweep readonly $v WPB 4" ./readonly "$n" 0 4 --kernel "$v" --sweep --sample 1 "${ladder[@]}" \
            --device "$DEVICE" --out "$SCRATCH/sweep" --table "$OUTDIR/$(name sweep readonly "$v" 4)" -q
        rm -rf "$SCRATCH/sweep"
    done
    for v in $wpb8; do
        step "sweep readonly $v WPB 8" ./readonly "$N" 0 8 --kernel "$v" --sweep --sample 1 "${ladder[@]}" \
            --device "$DEVICE" --out "$SCRATCH/sweep" --table "$OUTDIR/$(name sweep readonly "$v" 8)" -q
        rm -rf "$SCRATCH/sweep"
    done
}

# ---------------------------------------------------------------- families
sec_families() {
    local fam opts=(--device "$DEVICE")
    [ $QUICK = 1 ] && opts+=(--quick)
    [ -f "$OUTDIR/latency_ca.tsv" ] && opts+=(--ladder "$OUTDIR/latency_ca.tsv")
    for fam in "${FAMILIES[@]}"; do
        [ -f "scripts/$fam.sh" ] || continue
        step "$fam (scripts/$fam.sh)" "scripts/$fam.sh" "$OUTDIR" "${opts[@]}"
    done
}

# ---------------------------------------------------------------- sass
sec_sass() {
    command -v cuobjdump >/dev/null 2>&1 || { echo "cuobjdump not found" >&2; return 1; }
    # the family's clean kernels and instrumented kernels (FAMILY_..._probe),
    # not the checkers: what is timed and where the probes read the clock.  A
    # family without probes (./FAMILY --list-probed lists none: the ceiling,
    # some 200 configurations, no timed region inside a kernel) has no listing.
    # Each program is disassembled once, all of them at the same time; the
    # listings are taken from that one disassembly (bin/sass_check select).
    local fam pids=() what=()
    for fam in "${FAMILIES[@]}"; do
        [ -n "$("./$fam" --list-probed)" ] || continue
        ( cuobjdump -sass "./$fam" >"$SCRATCH/$fam.sass" &&
          bin/sass_check select "$SCRATCH/$fam.sass" "${fam}_" --except _check >"$SCRATCH/$fam.sel" &&
          mv "$SCRATCH/$fam.sel" "$OUTDIR/$(name sass "$fam")" ) 2>"$SCRATCH/sass_$fam.err" &
        pids+=($!) what+=("$fam")
    done
    ( cuobjdump -sass ./latency >"$SCRATCH/latency.sel" && mv "$SCRATCH/latency.sel" "$OUTDIR/sass_latency.txt" ) \
        2>"$SCRATCH/sass_latency.err" &
    pids+=($!) what+=(latency)
    local i rc=0
    for i in "${!pids[@]}"; do
        if wait "${pids[$i]}"; then say "sass ${what[$i]} done"
        else say "sass ${what[$i]} FAILED:"; sed 's/^/    /' "$SCRATCH/sass_${what[$i]}.err" >&2; FAILED+=("sass ${what[$i]}"); rc=1; fi
    done
    rm -f "$SCRATCH"/*.sass
    return $rc
}

# sass needs no GPU (cuobjdump on the host): it runs beside the others from
# the start, its progress and failures reported in order at the end
SASS_PID=""
if wanted sass; then
    ( FAILED=(); sec_sass || FAILED+=(sass); [ ${#FAILED[@]} = 0 ] || printf '%s\n' "${FAILED[@]}" >"$SCRATCH/sass.failed" ) \
        2>"$SCRATCH/sass.log" &
    SASS_PID=$!
fi
for s in $SECTIONS; do
    wanted "$s" || continue
    if [ "$s" = sass ]; then
        t0=$SECONDS
        say "== sass (started with the first section)"
        wait "$SASS_PID" || true
        cat "$SCRATCH/sass.log" >&2
        if [ -f "$SCRATCH/sass.failed" ]; then mapfile -t -O ${#FAILED[@]} FAILED <"$SCRATCH/sass.failed"; fi
        say "== sass done ($((SECONDS - t0)) s more)"
        continue
    fi
    t0=$SECONDS
    say "== $s"
    if ! "sec_$s"; then FAILED+=("$s"); fi
    say "== $s done ($((SECONDS - t0)) s)"
done
if [ ${#FAILED[@]} -gt 0 ]; then
    echo "reference.sh: failed: ${FAILED[*]}" >&2
    exit 1
fi
say "all sections done; results in $OUTDIR"
