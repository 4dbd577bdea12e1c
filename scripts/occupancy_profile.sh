#!/usr/bin/env bash
# scripts/occupancy_profile.sh - occupancy sweep of one readonly kernel:
# measured throughput and loaded latency at every number of resident blocks
# per SM, against the Little's-law bound (docs/occupancy.md).
#
#   scripts/occupancy_profile.sh KERNEL WPB [options]
#   scripts/occupancy_profile.sh readonly_baseline 4
#
#   KERNEL           readonly_<variant> or the bare variant: baseline, float4,
#                    nondiverging, random_access, strided, strided_float4
#   WPB              warps per block, 1..32
#   --n N            floats in the array (default 1e8)
#   --reps R         timed launches of the uninstrumented twin per point
#                    (default 10; the instrumented run always makes 3)
#   --points LIST    only these resident-blocks-per-SM values, e.g. 1,2,4 or
#                    1-4,8 (default: every value 1..max that ./readonly lists)
#   --ncu            also profile the twin at each point with Nsight Compute
#                    (achieved occupancy, DRAM read bandwidth); without ncu on
#                    PATH or without counter permission those columns are nan
#   --ladder TSV     a latency ladder written by ./latency: the chart's bound
#                    uses its DRAM plateau as the unloaded latency (default:
#                    $WARPLAT_LADDER, else the lowest measured p50 latency)
#   --out DIR        where the results go (default data)
#   --keep-logs DIR  keep each point's warp log as
#                    DIR/readonly_<variant>_<WPB>_b<blocks_per_sm>.bin
#                    (default: they are deleted)
#   -h, --help       this text
#
# For each point (the SMEM that ./readonly --list-occupancy gives for that many
# resident blocks) it runs
#   ./readonly_profile N SMEM WPB --kernel V --reps R -q      throughput
#   ./readonly N SMEM WPB --kernel V --reps 3 --out TMP -q    loaded latency
#   bin/warplog check LOG --quiet                             warps at once
# and writes DIR/readonly_<variant>_<WPB>.txt (the sweep TSV of
# docs/postprocessors.md) and, with bin/plot_throughput, the chart
# DIR/readonly_<variant>_<WPB>.svg and .png.  Progress goes to stderr, one
# line per point.  The table appears only when the whole sweep succeeded.
#
# Binaries (for tests, stand-ins): WARPLAT_READONLY (default ./readonly),
# WARPLAT_READONLY_PROFILE (./readonly_profile), WARPLAT_NCU (ncu),
# WARPLAT_BIN (bin).  Relative paths are taken from the repository root.
# Exit status: 0 done, 1 runtime failure (nothing written), 2 usage error.
set -u
set -o pipefail
PROG=occupancy_profile.sh
T0=$SECONDS

usage() { sed -n '2,/^set -u/p' "$0" | sed -e '/^set -u/d' -e 's/^# \{0,1\}//'; }
usage_error() { echo "$PROG: $*" >&2; echo "(see $PROG --help)" >&2; exit 2; }
die() { echo "$PROG: $*" >&2; exit 1; }

# ---- the command line --------------------------------------------------------
ORIG_ARGS=("$@")
N=1e8 REPS=10 LAT_REPS=3 POINTS="" NCU_ON=0 LADDER="" OUTDIR=data KEEP="" pos=()
while [ $# -gt 0 ]; do
    case $1 in
        -h|--help) usage; exit 0 ;;
        --ncu) NCU_ON=1; shift ;;
        --n|--reps|--points|--ladder|--out|--keep-logs)
            [ $# -ge 2 ] || usage_error "$1 needs a value"
            case $1 in
                --n) N=$2 ;; --reps) REPS=$2 ;; --points) POINTS=$2 ;;
                --ladder) LADDER=$2 ;; --out) OUTDIR=$2 ;; --keep-logs) KEEP=$2 ;;
            esac
            shift 2 ;;
        --n=*|--reps=*|--points=*|--ladder=*|--out=*|--keep-logs=*)
            v=${1#*=}
            case $1 in
                --n=*) N=$v ;; --reps=*) REPS=$v ;; --points=*) POINTS=$v ;;
                --ladder=*) LADDER=$v ;; --out=*) OUTDIR=$v ;; --keep-logs=*) KEEP=$v ;;
            esac
            shift ;;
        -?*) usage_error "unknown option '$1'" ;;
        *) pos+=("$1"); shift ;;
    esac
done
[ ${#pos[@]} -eq 2 ] || usage_error "expected KERNEL WPB (e.g. readonly_baseline 4), got ${#pos[@]} argument(s)"
KERNEL_ARG=${pos[0]} WPB=${pos[1]}
V=${KERNEL_ARG#readonly_}
case $V in
    baseline|float4|nondiverging|random_access|strided|strided_float4) ;;
    *) usage_error "unknown kernel '$KERNEL_ARG': use readonly_<variant> or <variant>, variant one of baseline, float4, nondiverging, random_access, strided, strided_float4" ;;
esac
KERNEL=readonly_$V
case $WPB in ''|*[!0-9]*) usage_error "WPB must be a whole number of warps per block, 1..32 (got '$WPB')" ;; esac
WPB=$((10#$WPB))
[ "$WPB" -ge 1 ] && [ "$WPB" -le 32 ] || usage_error "WPB must be 1..32 (got $WPB)"
[[ $N =~ ^[0-9]+(\.[0-9]+)?([eE][0-9]+)?[KMG]?$ ]] || usage_error "--n must be a count such as 100000000 or 1e8 (got '$N')"
case $REPS in ''|*[!0-9]*|0) usage_error "--reps must be a whole number >= 1 (got '$REPS')" ;; esac
if [ -n "$POINTS" ]; then
    [[ $POINTS =~ ^[0-9]+(-[0-9]+)?(,[0-9]+(-[0-9]+)?)*$ ]] ||
        usage_error "--points must list blocks-per-SM values, e.g. 1,2,4 or 1-4,8 (got '$POINTS')"
fi
[ -z "$LADDER" ] && LADDER=${WARPLAT_LADDER:-}

# Paths the user gave are relative to where the script was started; the
# script runs from the repository root, so make them absolute when that differs.
ROOT=$(cd "$(dirname "$0")/.." && pwd)
abspath() { case $1 in ''|/*) printf '%s' "$1" ;; *) printf '%s/%s' "$PWD" "$1" ;; esac; }
if [ "$(pwd -P)" != "$(cd "$ROOT" && pwd -P)" ]; then
    OUTDIR=$(abspath "$OUTDIR") KEEP=$(abspath "$KEEP") LADDER=$(abspath "$LADDER")
    for var in WARPLAT_READONLY WARPLAT_READONLY_PROFILE WARPLAT_BIN; do
        val=${!var:-}
        case $val in */*) printf -v "$var" '%s' "$(abspath "$val")" ;; esac
    done
    case ${WARPLAT_NCU:-} in */*) WARPLAT_NCU=$(abspath "$WARPLAT_NCU") ;; esac
fi
SWEEP_COMMAND="scripts/$PROG$(printf ' %q' "${ORIG_ARGS[@]}")"
cd "$ROOT" || die "cannot enter the repository root $ROOT"

READONLY=${WARPLAT_READONLY:-./readonly}
PROFILE=${WARPLAT_READONLY_PROFILE:-./readonly_profile}
NCU=${WARPLAT_NCU:-ncu}
BIN=${WARPLAT_BIN:-bin}

# ---- what must be there --------------------------------------------------------
have_exe() { case $1 in */*) [ -f "$1" ] && [ -x "$1" ] ;; *) command -v "$1" >/dev/null 2>&1 ;; esac; }
missing=()
have_exe "$READONLY" || missing+=("$READONLY (make compile)")
have_exe "$PROFILE" || missing+=("$PROFILE (make compile-profile)")
for t in warplog plot_throughput ncu_extract plot_ladder; do
    have_exe "$BIN/$t" || missing+=("$BIN/$t (make tools)")
done
[ ${#missing[@]} -eq 0 ] || die "missing: ${missing[*]}; run make first"

DRAM_LAT="" DRAM_LAT_NS=""
if [ -n "$LADDER" ]; then
    lad=$("$BIN/plot_ladder" "$LADDER" --dram-latency 2>&1) ||
        die "--ladder $LADDER: no DRAM latency from it: $lad"
    DRAM_LAT=$(printf '%s\n' "$lad" | tail -n 1 | cut -f1)
    DRAM_LAT_NS=$(printf '%s\n' "$lad" | tail -n 1 | cut -f2)
    [[ $DRAM_LAT =~ ^[0-9]+(\.[0-9]+)?$ ]] || die "--ladder $LADDER: unexpected output of plot_ladder --dram-latency: $lad"
fi

NCU_STATE=off # off | on | missing | denied
if [ $NCU_ON = 1 ]; then
    if have_exe "$NCU"; then
        NCU_STATE=on
    else
        NCU_STATE=missing
        echo "$PROG: --ncu: '$NCU' (Nsight Compute) is not on PATH; the sweep goes on without it and achieved_occupancy_pct and dram_read_GBps are nan (add /usr/local/cuda/bin to PATH, or set WARPLAT_NCU)" >&2
    fi
fi
NCU_METRICS=sm__warps_active.avg.pct_of_peak_sustained_active,dram__bytes_read.sum.per_second

mkdir -p "$OUTDIR" || die "cannot create --out $OUTDIR"
[ -w "$OUTDIR" ] || die "cannot write to --out $OUTDIR"
if [ -n "$KEEP" ]; then
    mkdir -p "$KEEP" && [ -w "$KEEP" ] || die "cannot write to --keep-logs $KEEP"
fi
STEM=$OUTDIR/${KERNEL}_$WPB
DATA=$STEM.txt
DATA_TMP=$DATA.tmp

# ---- temporary files: all removed on any exit --------------------------------
WORK="" LOGTMP=""
cleanup() {
    [ -n "$WORK" ] && rm -rf "$WORK"
    [ -n "$LOGTMP" ] && rm -rf "$LOGTMP"
    rm -f "$DATA_TMP"
}
trap cleanup EXIT
DATA_DONE=0
stopped() { # SIGNAL-WORD STATUS
    if [ $DATA_DONE = 1 ]; then echo "$PROG: $1 while drawing the chart; the table $DATA is complete" >&2
    else echo "$PROG: $1; no data file written" >&2; fi
    exit "$2"
}
trap 'stopped interrupted 130' INT
trap 'stopped terminated 143' TERM
WORK=$(mktemp -d "${TMPDIR:-/tmp}/occupancy_profile.XXXXXX") || die "mktemp failed"
if [ -n "$KEEP" ]; then
    # beside their final place, so that keeping them is a rename
    LOGTMP=$(mktemp -d "$KEEP/.occupancy_logs.XXXXXX") || die "mktemp in $KEEP failed"
else
    LOGTMP=$WORK/logs
fi

# ---- the points ----------------------------------------------------------------
if ! "$READONLY" --list-occupancy "$N" 0 "$WPB" >"$WORK/list.tsv" 2>"$WORK/list.err"; then
    sed 's/^/    /' "$WORK/list.err" | tail -n 8 >&2
    die "'$READONLY --list-occupancy $N 0 $WPB' failed; no point to sweep"
fi
# blocks_per_sm <TAB> smem_bytes, fewest blocks first, restricted to --points
awk -F'\t' -v want="$POINTS" '
    BEGIN {
        n = split(want, parts, ",")
        for (i = 1; i <= n; i++) {
            if (split(parts[i], r, "-") == 2) { for (b = r[1] + 0; b <= r[2] + 0; b++) sel[b] = 1 }
            else sel[parts[i] + 0] = 1
        }
    }
    /^#/ || !NF { next }
    !hdr { for (i = 1; i <= NF; i++) col[$i] = i; hdr = 1
           if (!("blocks_per_sm" in col) || !("smem_bytes" in col)) exit 3
           next }
    { b = $col["blocks_per_sm"]; s = $col["smem_bytes"]
      if (b !~ /^[0-9]+$/ || s !~ /^[0-9]+$/) exit 4
      if (want == "" || (b + 0) in sel) print b "\t" s }
' "$WORK/list.tsv" | sort -n -k1,1 -u >"$WORK/points" ||
    die "cannot read the output of '$READONLY --list-occupancy' (want columns blocks_per_sm and smem_bytes)"
NP=$(wc -l <"$WORK/points" | tr -d ' ')
if [ "$NP" -eq 0 ]; then
    if [ -n "$POINTS" ]; then
        die "none of --points $POINTS is a resident-blocks-per-SM value that $READONLY lists for WPB $WPB (it lists: $(awk -F'\t' '/^#/ || !NF { next } h { printf "%s%s", s, $1; s = "," } { h = 1 }' "$WORK/list.tsv"))"
    fi
    die "'$READONLY --list-occupancy $N 0 $WPB' lists no point: nothing to sweep"
fi
if [ -n "$POINTS" ]; then
    IFS=, read -r -a asked <<<"$POINTS"
    for p in "${asked[@]}"; do
        case $p in *-*) continue ;; esac
        awk -v b="$p" '$1 == b { f = 1 } END { exit !f }' "$WORK/points" ||
            echo "$PROG: note: --points $p: $READONLY lists no SMEM giving $p blocks/SM at WPB $WPB; skipped" >&2
    done
fi
echo "$PROG: $KERNEL, WPB $WPB, N $N: $NP point(s), blocks/SM $(cut -f1 "$WORK/points" | paste -sd, -)" >&2

# tsv_get FILE COL...: the values of the named columns in the row of kernel V
# of a readonly/readonly_profile TSV, tab-separated ("nan" for a missing one).
tsv_get() {
    local f=$1; shift
    awk -F'\t' -v cols="$*" -v k="$V" '
        /^#/ || !NF { next }
        !hdr { for (i = 1; i <= NF; i++) col[$i] = i; hdr = 1; next }
        ("kernel" in col) && $col["kernel"] != k { next }
        { n = split(cols, c, " ")
          for (i = 1; i <= n; i++) printf "%s%s", (i > 1 ? "\t" : ""), ((c[i] in col) && $col[c[i]] != "" ? $col[c[i]] : "nan")
          printf "\n"; found = 1; exit }
        END { exit !found }' "$f"
}
# info_get FILE KEY: a value of `warplog info` output.
info_get() { awk -F'\t' -v k="$2" '$1 == k { v = $2 } END { print (v == "" ? "nan" : v) }' "$1"; }

# fail_point I B SMEM WHAT RC ERRFILE: a point could not be measured: say what
# and stop; the EXIT trap removes everything written so far.
fail_point() {
    echo "$PROG: [$1/$NP] $2 blocks/SM (SMEM $3): $4 failed (exit $5)${6:+; it said:}" >&2
    [ -n "${6:-}" ] && [ -s "$6" ] && tail -n 8 "$6" | sed 's/^/    /' >&2
    die "sweep stopped at point $1 of $NP; no data file written"
}

BAD_CONC=0 FIRST_NOTE_OCC=0 i=0
: >"$WORK/rows"
isint() { [[ $1 =~ ^[0-9]+$ ]]; }
# fd 3 holds the point list, so that nothing run below can read it from stdin
while IFS=$'\t' read -r B SMEM <&3; do
    i=$((i + 1))
    P=$WORK/p$i
    # 1. throughput: the uninstrumented twin
    "$PROFILE" "$N" "$SMEM" "$WPB" --kernel "$V" --reps "$REPS" -q >"$P.twin" 2>"$P.twin.err" ||
        fail_point $i "$B" "$SMEM" "$PROFILE" $? "$P.twin.err"
    twin=$(tsv_get "$P.twin" blocks_per_sm kernel_ms kernel_ms_min kernel_ms_max bw_GBps valid) ||
        fail_point $i "$B" "$SMEM" "reading the output of $PROFILE (no row for kernel $V)" 1 "$P.twin"
    IFS=$'\t' read -r t_bps ms ms_min ms_max bw t_valid <<<"$twin"
    [ "$t_valid" = ok ] || fail_point $i "$B" "$SMEM" "$PROFILE validation (valid=$t_valid)" 1 "$P.twin.err"

    # 2. loaded latency: the instrumented run, its log, and the warps at once
    mkdir -p "$LOGTMP/p$i" || die "cannot create $LOGTMP/p$i"
    "$READONLY" "$N" "$SMEM" "$WPB" --kernel "$V" --reps "$LAT_REPS" --out "$LOGTMP/p$i" -q \
        >"$P.ro" 2>"$P.ro.err" || fail_point $i "$B" "$SMEM" "$READONLY" $? "$P.ro.err"
    ro=$(tsv_get "$P.ro" blocks_per_sm lat_mean_cycles lat_p50_cycles valid log) ||
        fail_point $i "$B" "$SMEM" "reading the output of $READONLY (no row for kernel $V)" 1 "$P.ro"
    IFS=$'\t' read -r r_bps lat_mean lat_p50 r_valid log <<<"$ro"
    [ "$r_valid" = ok ] || fail_point $i "$B" "$SMEM" "$READONLY validation (valid=$r_valid)" 1 "$P.ro.err"
    [ -f "$log" ] || fail_point $i "$B" "$SMEM" "$READONLY wrote no log ('$log')" 1 "$P.ro.err"
    "$BIN/warplog" info "$log" >"$P.info" 2>"$P.info.err" ||
        fail_point $i "$B" "$SMEM" "$BIN/warplog info $log" $? "$P.info.err"
    "$BIN/warplog" check "$log" --quiet >"$P.check" 2>"$P.check.err"
    check_rc=$?
    maxc=$(awk -F'\t' '$1 == "# max_concurrent_warps_per_sm" { split($2, a, " "); print a[1] }' "$P.check")
    [[ $maxc =~ ^[0-9]+$ ]] || maxc=nan
    for pair in "$t_bps:$PROFILE" "$r_bps:$READONLY"; do
        [ "${pair%%:*}" = "$B" ] || echo "$PROG: [$i/$NP] warning: $B blocks/SM was listed for SMEM $SMEM but ${pair#*:} ran with ${pair%%:*} blocks/SM" >&2
    done
    expect=nan
    isint "$r_bps" && expect=$((r_bps * WPB))
    conc=$maxc
    if [ "$maxc" != "$expect" ] || [ $check_rc -ne 0 ]; then
        conc="$maxc!"
        BAD_CONC=$((BAD_CONC + 1))
        echo "$PROG: [$i/$NP] warning: the log shows at most $maxc warps at once on an SM, expected blocks_per_sm x WPB = $r_bps x $WPB = $expect$([ $check_rc -ne 0 ] && echo "; warplog check failed:")" >&2
        [ $check_rc -ne 0 ] && sed 's/^/    /' "$P.check.err" >&2
    fi
    if [ -n "$KEEP" ]; then
        kept=$KEEP/${KERNEL}_${WPB}_b$B.bin
    else
        kept=nan
    fi
    printf '%s\n' "$log" >"$P.logpath"

    # 3. optionally, what Nsight Compute sees at this point
    ach=nan dram=nan
    if [ $NCU_STATE = on ]; then
        "$NCU" --csv --log-file "$P.ncu.csv" --print-units base --clock-control none \
            --kernel-name "$KERNEL" --metrics "$NCU_METRICS" \
            "$PROFILE" "$N" "$SMEM" "$WPB" --kernel "$V" --reps 1 --warmup 0 \
            >"$P.ncu.out" 2>&1
        ncu_rc=$?
        if grep -qs ERR_NVGPUCTRPERM "$P.ncu.csv" "$P.ncu.out"; then
            NCU_STATE=denied
            echo "$PROG: --ncu: ncu has no permission to read the GPU performance counters (ERR_NVGPUCTRPERM); the sweep goes on without it and achieved_occupancy_pct and dram_read_GBps are nan (run as root, or allow all users: https://developer.nvidia.com/ERR_NVGPUCTRPERM)" >&2
        elif [ -s "$P.ncu.csv" ] &&
            "$BIN/ncu_extract" "$P.ncu.csv" --metrics "$NCU_METRICS" --kernel "^$KERNEL(\$|[(<])" \
                >"$P.ncu.tsv" 2>"$P.ncu.err"; then
            IFS=$'\t' read -r ach dram <<<"$(awk -F'\t' 'NR > 1 { a = $3; d = $4 } END {
                printf "%s\t%s\n", (a ~ /^[-+0-9.eE]+$/ ? sprintf("%.2f", a) : "nan"),
                       (d ~ /^[-+0-9.eE]+$/ ? sprintf("%.1f", d / 1e9) : "nan") }' "$P.ncu.tsv")"
            [ $ncu_rc -eq 0 ] || echo "$PROG: [$i/$NP] note: ncu exited $ncu_rc but its log had the metrics" >&2
        else
            echo "$PROG: [$i/$NP] warning: ncu gave no metrics (exit $ncu_rc); nan for this point:" >&2
            cat "$P.ncu.err" "$P.ncu.out" 2>/dev/null | grep -v '^==PROF==' | tail -n 5 | sed 's/^/    /' >&2
        fi
    fi

    # 4. the row, from the twin's throughput, the log's latency and header
    out=$(awk -v smem="$SMEM" -v b="$t_bps" -v wpb="$WPB" -v ms="$ms" -v ms_min="$ms_min" \
        -v ms_max="$ms_max" -v bw="$bw" -v lat_mean="$lat_mean" -v lat_p50="$lat_p50" \
        -v ach="$ach" -v dram="$dram" -v conc="$conc" -v logcol="$kept" \
        -v sm_count="$(info_get "$P.info" sm_count)" \
        -v peak="$(info_get "$P.info" peak_dram_GBps)" \
        -v clk="$(info_get "$P.info" sm_clock_measured_MHz)" \
        -v clk_khz="$(info_get "$P.info" sm_clock_nominal_khz)" \
        -v bpw="$(info_get "$P.info" bytes_per_warp_load)" \
        -v mtps="$(info_get "$P.info" max_threads_per_sm)" '
    function num(s) { return s ~ /^[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$/ }
    function pos(s) { return num(s) && s + 0 > 0 }
    function f(fmt, ok, v) { return ok ? sprintf(fmt, v) : "nan" }
    BEGIN {
        w = num(b) && num(wpb) ? b * wpb : "nan"
        note = ""
        if (!pos(clk)) { clk = pos(clk_khz) ? clk_khz / 1000 : "nan"; note = note " clock:nominal" }
        if (!pos(mtps)) note = note " occupancy:no_max_threads"
        occ = f("%.2f", pos(mtps) && num(w), w / (mtps / 32) * 100)
        bw_min = f("%.1f", pos(bw) && pos(ms) && pos(ms_max), bw * ms / ms_max)
        bw_max = f("%.1f", pos(bw) && pos(ms) && pos(ms_min), bw * ms / ms_min)
        okb = pos(sm_count) && pos(w) && pos(bpw) && pos(clk) && pos(lat_mean) && pos(peak)
        bound = okb ? sm_count * w * bpw * clk * 1e6 / lat_mean / 1e9 : 0
        if (okb && bound > peak + 0) bound = peak + 0
        bnd = f("%.1f", okb, bound)
        clo = f("%.2f", okb && num(bw), (bw - bound) / bound * 100)
        printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n",
            smem, b, w, occ, ms, ms_min, ms_max, bw, bw_min, bw_max, lat_mean, lat_p50,
            bnd, clo, ach, dram, conc, logcol
        printf "%s GB/s, lat %s cycles, closure %s\t%s\n", bw,
            (num(lat_mean) ? sprintf("%.0f", lat_mean) : "nan"),
            (clo == "nan" ? "nan" : sprintf("%+.1f%%", clo)), note
    }')
    row=$(printf '%s\n' "$out" | sed -n 1p)
    progress=$(printf '%s\n' "$out" | sed -n 2p)
    case ${progress#*$'\t'} in
        *occupancy:no_max_threads*)
            [ $FIRST_NOTE_OCC = 1 ] || echo "$PROG: warning: the log header has no max_threads_per_sm: occupancy_pct is nan" >&2
            FIRST_NOTE_OCC=1 ;;
    esac
    case ${progress#*$'\t'} in
        *clock:nominal*) echo "$PROG: [$i/$NP] note: the log has no measured SM clock; the bound uses the nominal one" >&2 ;;
    esac
    printf '%s\n' "$row" >>"$WORK/rows"
    cp "$P.info" "$WORK/meta.info"
    echo "$PROG: [$i/$NP] $t_bps blocks/SM ($(isint "$t_bps" && echo $((t_bps * WPB)) || echo nan) warps, SMEM $SMEM): ${progress%%$'\t'*}" >&2
done 3<"$WORK/points" </dev/null

# ---- the table: complete, so keep the logs and rename it into place --------------
{
    echo "# $PROG: occupancy sweep of $KERNEL at WPB $WPB (docs/occupancy.md)"
    echo "# The key/value lines below, up to sweep_command, are the header of the last"
    echo "# point's log (warplog info): its smem_bytes, blocks_per_sm and timing are that point's."
    sed 's/^/# /' "$WORK/meta.info"
    printf '# sweep_command\t%s\n' "$SWEEP_COMMAND"
    printf '# date\t%s\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
    printf '# sweep_n\t%s\n# sweep_twin_reps\t%s\n# sweep_latency_reps\t%s\n' "$N" "$REPS" "$LAT_REPS"
    printf '# sweep_points\t%s\n' "$(cut -f1 "$WORK/points" | paste -sd, -)"
    printf '# sweep_binaries\t%s %s\n' "$READONLY" "$PROFILE"
    printf '# ncu\t%s\n' "$(case $NCU_STATE in on) echo "$NCU" ;; off) echo "not asked (--ncu)" ;;
        missing) echo "not found: $NCU" ;; denied) echo "no counter permission (ERR_NVGPUCTRPERM)" ;; esac)"
    printf '# max_concurrent_warps_mismatches\t%s\n' "$BAD_CONC"
    if [ -n "$DRAM_LAT" ]; then
        printf '# ladder\t%s\n# dram_latency_cycles\t%s\n# dram_latency_ns\t%s\n' "$LADDER" "$DRAM_LAT" "$DRAM_LAT_NS"
    fi
    printf '# sweep_elapsed_s\t%s\n' "$((SECONDS - T0))"
    printf 'smem_bytes\tblocks_per_sm\twarps_per_sm\toccupancy_pct\tkernel_ms\tkernel_ms_min\t'
    printf 'kernel_ms_max\tbw_GBps\tbw_GBps_min\tbw_GBps_max\tlat_mean_cycles\tlat_p50_cycles\t'
    printf 'bound_GBps\tclosure_err_pct\tachieved_occupancy_pct\tdram_read_GBps\t'
    printf 'max_concurrent_warps\tlog\n'
    cat "$WORK/rows"
} >"$DATA_TMP" || die "cannot write $DATA_TMP"
if [ -n "$KEEP" ]; then
    i=0
    while IFS=$'\t' read -r B SMEM; do
        i=$((i + 1))
        mv -f "$(cat "$WORK/p$i.logpath")" "$KEEP/${KERNEL}_${WPB}_b$B.bin" ||
            die "cannot move the log of point $i into $KEEP"
    done <"$WORK/points"
fi
mv -f "$DATA_TMP" "$DATA" || die "cannot rename $DATA_TMP to $DATA"
DATA_DONE=1
[ $BAD_CONC -eq 0 ] ||
    echo "$PROG: warning: at $BAD_CONC point(s) the warps at once per SM differ from blocks_per_sm x WPB (marked '!' in max_concurrent_warps)" >&2

# ---- the chart ------------------------------------------------------------------------
charts=""
if ! command -v gnuplot >/dev/null 2>&1; then
    echo "$PROG: note: gnuplot is not installed: no chart; draw it later with $BIN/plot_throughput $DATA ${DRAM_LAT:+$DRAM_LAT }$STEM.svg" >&2
else
    lat_args=()
    if [ -n "$DRAM_LAT" ]; then
        # a plot_throughput that reads ladders itself labels the bound as the
        # DRAM plateau; an older one gets the plateau as its LATENCY argument
        if "$BIN/plot_throughput" --help 2>/dev/null | grep -q -- '--ladder'; then
            lat_args=(--ladder "$LADDER")
        else
            lat_args=("$DRAM_LAT")
        fi
    fi
    for ext in svg png; do
        if [ ${#lat_args[@]} -gt 0 ] && [ "${lat_args[0]}" = --ladder ]; then
            WARPLAT_LADDER="" "$BIN/plot_throughput" "$DATA" "$STEM.$ext" "${lat_args[@]}" >&2
        else
            WARPLAT_LADDER="" "$BIN/plot_throughput" "$DATA" ${lat_args[@]+"${lat_args[@]}"} "$STEM.$ext" >&2
        fi || die "the sweep is in $DATA, but $BIN/plot_throughput could not draw $STEM.$ext"
        charts="$charts, $STEM.$ext"
    done
fi
echo "$PROG: done: $NP point(s) in $((SECONDS - T0)) s: $DATA$charts" >&2
exit 0
