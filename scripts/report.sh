#!/usr/bin/env bash
# scripts/report.sh - one command for the whole study: run it on this GPU, or
# take the bundled reference results, and write a report with every chart.
#
#   scripts/report.sh [--quick] [--device D] [--out DIR] [--data DIR] [--no-gpu]
#   make report REPORT_ARGS="--quick --out /tmp/r"
#
#   --quick       shorter GPU runs: N = 1e7 instead of 1e8, ./latency --quick,
#                 only the baseline occupancy sweep
#   --device D    CUDA device ordinal for the GPU runs (default 0)
#   --out DIR     where the report goes (default report): DIR/index.html,
#                 DIR/index.md, DIR/charts/ (SVG, PNG, and each chart's .gp
#                 script and data, to restyle and redraw with gnuplot -c) and
#                 DIR/data/ (the measured or bundled tables the report shows)
#   --data DIR    make the report from results already on disk instead of
#                 running anything: one GPU's folder (as DIR/data of an earlier
#                 run, or data/reference/h100) or a folder of such folders
#                 (as data/reference), shown side by side
#   --no-gpu      do not run the experiments even when a GPU is present: use
#                 the bundled reference results of data/reference/*/
#   -h, --help    this text
#
# With a usable GPU (nvidia-smi -L lists one and ./readonly is built) it runs
# into DIR/data: ./readonly N 0 WPB (WPB 2, 4, 8, 16) and its uninstrumented
# twin ./readonly_profile; ./readonly 1e6 0 WPB for the timeline logs; the
# occupancy sweeps (scripts/occupancy_profile.sh, when it exists); the latency
# ladder (./latency, cached and L1-bypassing); the sector tables
# (scripts/ncu_profile.sh, when ncu is installed).  Without one it uses every
# folder of data/reference/.  Progress goes to stderr as "[k/n] step
# (elapsed)"; a step that fails is named with its error and the report shows
# everything else, with a "failed: ..." note where the missing part would be.
# Exit status: 0 the report was written (failed steps are then listed at the
# end), 1 nothing could be written, 2 usage error.  See docs/report.md.
set -u
CALLER_PWD=$PWD
cd "$(dirname "$0")/.."
ROOT=$PWD

# Overridable for tests of the GPU path on machines without one.
READONLY=${READONLY:-./readonly}
READONLY_PROFILE=${READONLY_PROFILE:-./readonly_profile}
LATENCY=${LATENCY:-./latency}
NVIDIA_SMI=${NVIDIA_SMI:-nvidia-smi}
OCC_SCRIPT=${OCC_SCRIPT:-scripts/occupancy_profile.sh}
NCU_SCRIPT=${NCU_SCRIPT:-scripts/ncu_profile.sh}
REFERENCE=${WARPLAT_REFERENCE:-data/reference}

QUICK=0 DEVICE=0 OUTDIR=report DATA="" NOGPU=0
usage() { sed -n '2,/^set -u/p' "$0" | sed -e '/^set -u/d' -e 's/^# \{0,1\}//'; }
usage_error() { echo "report.sh: $*" >&2; echo "Try 'scripts/report.sh --help'." >&2; exit 2; }
while [ $# -gt 0 ]; do
    case $1 in
        -h|--help) usage; exit 0 ;;
        --quick) QUICK=1; shift ;;
        --no-gpu) NOGPU=1; shift ;;
        --device|--out|--data)
            [ $# -ge 2 ] && [ -n "$2" ] || usage_error "$1 needs a value"
            case $1 in --device) DEVICE=$2 ;; --out) OUTDIR=$2 ;; --data) DATA=$2 ;; esac
            shift 2 ;;
        --device=*) DEVICE=${1#*=}; shift ;;
        --out=*) OUTDIR=${1#*=}; shift ;;
        --data=*) DATA=${1#*=}; shift ;;
        *) usage_error "unknown argument '$1'" ;;
    esac
done
case $DEVICE in ''|*[!0-9]*) usage_error "--device must be a GPU ordinal (0, 1, ...), not '$DEVICE'" ;; esac
case $OUTDIR in /*) ;; *) OUTDIR=$CALLER_PWD/$OUTDIR ;; esac
if [ -n "$DATA" ]; then
    case $DATA in /*) ;; *) DATA=$CALLER_PWD/$DATA ;; esac
    [ -d "$DATA" ] || usage_error "--data $DATA is not a directory"
fi

T0=${EPOCHREALTIME/,/.}
elapsed() { awk -v a="$T0" -v b="${EPOCHREALTIME/,/.}" 'BEGIN { printf "%.1f s", b - a }'; }
say() { echo "report.sh: $*" >&2; }

mkdir -p "$OUTDIR" 2>/dev/null && [ -w "$OUTDIR" ] || { say "cannot create or write $OUTDIR"; exit 1; }
OUTDIR=$(cd "$OUTDIR" && pwd)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/warplat-report.XXXXXX") || { say "mktemp failed"; exit 1; }
trap 'rm -rf "$WORK"' EXIT
LOGDIR=$OUTDIR/logs
# a report from an earlier run must not pass for this one's
rm -rf "$OUTDIR/index.html" "$OUTDIR/index.md" "$OUTDIR/charts" "$LOGDIR"
mkdir -p "$OUTDIR/charts" "$OUTDIR/data" "$LOGDIR" || { say "cannot create folders in $OUTDIR"; exit 1; }

if [ $QUICK = 1 ]; then N=1e7; else N=1e8; fi
WPBS="2 4 8 16"
TIMELINE_VARIANTS="baseline float4 random_access"
DIST_VARIANTS="baseline float4 nondiverging random_access"
SWEEP_VARIANTS="baseline float4 nondiverging random_access"
[ $QUICK = 1 ] && SWEEP_VARIANTS=baseline
FAILS=()

# ------------------------------------------------------------------ output
# Every section is written twice, as HTML and as Markdown, by the functions
# below; each section goes to its own pair of fragment files so that a step
# that fails leaves the others intact.

SEC=""   # current section id
sec_open() {   # sec_open ID TITLE
    SEC=$1
    : >"$WORK/sec_$1.html"; : >"$WORK/sec_$1.md"
    printf '<section id="%s">\n<h2>%s</h2>\n' "$1" "$(esc "$2")" >>"$WORK/sec_$1.html"
    printf '## %s\n\n' "$2" >>"$WORK/sec_$1.md"
    # failed GPU runs of this section (already counted in FAILS)
    local what err
    [ -f "$WORK/pending_$1" ] && while IFS=$'\t' read -r what err; do
        printf '<p class="failed">failed: %s: %s</p>\n' "$(esc "$what")" "$(esc "$err")" >>"$WORK/sec_$1.html"
        printf '**failed: %s**: %s\n\n' "$what" "$err" >>"$WORK/sec_$1.md"
    done <"$WORK/pending_$1"
}
sec_close() { printf '</section>\n' >>"$WORK/sec_$SEC.html"; }
esc() { local s=$1 amp='&amp;' lt='&lt;' gt='&gt;'; s=${s//&/$amp}; s=${s//</$lt}; s=${s//>/$gt}; printf '%s' "$s"; }
h3() { printf '<h3>%s</h3>\n' "$(esc "$1")" >>"$WORK/sec_$SEC.html"; printf '### %s\n\n' "$1" >>"$WORK/sec_$SEC.md"; }
para() { printf '<p>%s</p>\n' "$(esc "$1")" >>"$WORK/sec_$SEC.html"; printf '%s\n\n' "$1" >>"$WORK/sec_$SEC.md"; }
# An interpretation computed from the numbers.
finding() { printf '<p class="finding">%s</p>\n' "$(esc "$1")" >>"$WORK/sec_$SEC.html"; printf '> %s\n\n' "$1" >>"$WORK/sec_$SEC.md"; }
na() { printf '<p class="na">not available: %s</p>\n' "$(esc "$1")" >>"$WORK/sec_$SEC.html"; printf '*not available: %s*\n\n' "$1" >>"$WORK/sec_$SEC.md"; }
# fail WHAT ERROR: a failed part, noted in the section and in the summary.
fail() {
    local what=$1 err=${2:-}
    err=$(printf '%s' "$err" | tr '\n' ' ' | sed -e 's/  */ /g' -e 's/ $//' | cut -c1-400)
    printf '<p class="failed">failed: %s: %s</p>\n' "$(esc "$what")" "$(esc "$err")" >>"$WORK/sec_$SEC.html"
    printf '**failed: %s**: %s\n\n' "$what" "$err" >>"$WORK/sec_$SEC.md"
    FAILS+=("$what: $err")
    say "  failed: $what: $err"
}
# link REL TEXT: a link to a file under OUTDIR.
link_line() {   # link_line TEXT REL [TEXT REL ...]: one paragraph of links
    local h="" m=""
    while [ $# -ge 2 ]; do
        h+="<a href=\"$(esc "$2")\">$(esc "$1")</a> "; m+="[$1]($2) "; shift 2
    done
    printf '<p class="links">%s</p>\n' "$h" >>"$WORK/sec_$SEC.html"; printf '%s\n\n' "$m" >>"$WORK/sec_$SEC.md"
}
# Figures: fig_row_open, fig STEM CAPTION (STEM relative to OUTDIR, without
# extension: STEM.svg in the HTML, png/ beside it in the Markdown), fig_row_close.
fig_row_open() { printf '<div class="row">\n' >>"$WORK/sec_$SEC.html"; }
fig_row_close() { printf '</div>\n' >>"$WORK/sec_$SEC.html"; printf '\n' >>"$WORK/sec_$SEC.md"; }
fig() {
    local stem=$1 cap=$2 dir base
    dir=$(dirname "$stem"); base=$(basename "$stem")
    printf '<figure><a href="%s.svg"><img src="%s.svg" alt="%s"></a><figcaption>%s (<a href="%s/png/%s.png">PNG</a>, <a href="%s.gp">gnuplot script</a>)</figcaption></figure>\n' \
        "$stem" "$stem" "$(esc "$cap")" "$(esc "$cap")" "$dir" "$base" "$stem" >>"$WORK/sec_$SEC.html"
    printf '![%s](%s/png/%s.png)\n[SVG](%s.svg), [gnuplot script](%s.gp)\n\n' "$cap" "$dir" "$base" "$stem" "$stem" >>"$WORK/sec_$SEC.md"
}
# table FILE [GROUPS]: a TSV table (header row first).  GROUPS "A:n,B:m" puts
# the columns after the first under group headers A (n columns), B (m).
table() {
    local f=$1 groups=${2:-}
    [ -s "$f" ] || return 0
    awk -F'\t' -v groups="$groups" -v md="$WORK/sec_$SEC.md" '
        function esc(s) { gsub(/&/, "\\&amp;", s); gsub(/</, "\\&lt;", s); gsub(/>/, "\\&gt;", s); return s }
        function isnum(s) { return s ~ /^[-+]?[0-9.]+( ?%)?$/ || s == "n/a" }
        BEGIN { ng = 0
            if (groups != "") { n = split(groups, g, ","); for (i = 1; i <= n; i++) { split(g[i], p, ":"); gname[i] = p[1]; gcols[i] = p[2] } ng = n } }
        NR == 1 {
            print "<table>"
            if (ng) {
                printf "<tr><th rowspan=\"2\">%s</th>", esc($1)
                for (i = 1; i <= ng; i++) printf "<th colspan=\"%d\" class=\"group\">%s</th>", gcols[i], esc(gname[i])
                print "</tr>"
                printf "<tr>"; for (j = 2; j <= NF; j++) printf "<th>%s</th>", esc($j); print "</tr>"
            } else {
                printf "<tr>"; for (j = 1; j <= NF; j++) printf "<th>%s</th>", esc($j); print "</tr>"
            }
            # Markdown: group names prefix the column names
            line = "| " $1; sep = "|---"; c = 2
            for (i = 1; i <= ng; i++) for (k = 1; k <= gcols[i]; k++) { lab[c] = gname[i] ": "; c++ }
            for (j = 2; j <= NF; j++) { line = line " | " lab[j] $j; sep = sep "|---:" }
            print line " |" >> md; print sep "|" >> md
            next
        }
        {
            printf "<tr>"
            for (j = 1; j <= NF; j++) printf "<td%s>%s</td>", (j > 1 && isnum($j)) ? " class=\"n\"" : "", esc($j)
            print "</tr>"
            line = "| " $1; for (j = 2; j <= NF; j++) line = line " | " $j; print line " |" >> md
        }
        END { print "</table>"; print "" >> md }' "$f" >>"$WORK/sec_$SEC.html"
}
# notes FILE [PREFIX]: the "# note<TAB>sentence" lines of a report_facts output.
notes() {
    local line
    while IFS= read -r line; do finding "${2:-}$line"; done < <(sed -n 's/^# note\t//p' "$1")
}
# join_tables OUT F1 F2 ...: join TSV tables on their first column (the rows
# of F1 first, then keys the others add); a missing row shows "-".
join_tables() {
    local out=$1; shift
    awk -F'\t' -v OFS='\t' '
        FNR == 1 { f++; nc[f] = NF - 1; if (f == 1) hdr = $1; for (j = 2; j <= NF; j++) hdr = hdr OFS $j; next }
        { if (!($1 in seen)) { seen[$1] = 1; keys[++nk] = $1 }
          v = ""; for (j = 2; j <= NF; j++) v = v (j > 2 ? OFS : "") $j; val[f, $1] = v }
        END { print hdr
              for (k = 1; k <= nk; k++) { line = keys[k]
                  for (i = 1; i <= f; i++) {
                      if ((i, keys[k]) in val) line = line OFS val[i, keys[k]]
                      else for (j = 1; j <= nc[i]; j++) line = line OFS "-" }
                  print line } }' "$@" >"$out"
}
ncols() { head -n 1 "$1" | awk -F'\t' '{ print NF - 1 }'; }

# ------------------------------------------------------------------ steps
# Each step is a function; run_step prints "[k/n] what (elapsed)", keeps its
# stderr in DIR/logs/, and names it with its error when it fails.
STEP_FN=() STEP_DESC=()
add_step() { STEP_FN+=("$1"); STEP_DESC+=("$2"); }
STEP_K=0
run_step() {   # run_step INDEX
    local i=$1 fn=${STEP_FN[$1]} desc=${STEP_DESC[$1]} log rc
    STEP_K=$((i + 1))
    log=$LOGDIR/step$(printf '%02d' "$STEP_K")_$fn.log
    echo "[$STEP_K/${#STEP_FN[@]}] $desc ($(elapsed))" >&2
    "$fn" 2>>"$log"
    rc=$?
    if [ $rc -ne 0 ]; then
        local err
        err=$(grep -v '^\s*$' "$log" | tail -n 2 | tr '\n' ' ')
        [ -n "$err" ] || err="exit status $rc"
        # a section step that broke off: note it there too
        if [ -n "$SEC" ]; then fail "$desc" "$err"
        else
            FAILS+=("$desc: $err"); say "  failed: $desc: $err"
            # a GPU run: its section notes it when it is written
            local sec=""
            case $fn in
                step_readonly_*) sec=readonly ;; step_logs_1e6) sec=timelines ;;
                step_ladder_*) sec=ladder ;; step_sweep_*) sec=sweeps ;; step_ncu) sec=sectors ;;
            esac
            [ -n "$sec" ] && printf '%s\t%s\n' "$desc" "$err" >>"$WORK/pending_$sec"
        fi
    fi
    SEC=""
    return 0
}
# try WHAT CMD...: run CMD (stderr kept); on failure note WHAT with the error.
try() {
    local what=$1; shift
    "$@" 2>"$WORK/try.err"
    local rc=$?
    cat "$WORK/try.err" >&2
    if [ $rc -ne 0 ]; then
        local err
        err=$(grep -v '^\s*$' "$WORK/try.err" | grep -v '^note:' | tail -n 2)
        fail "$what" "${err:-exit status $rc}"
    fi
    return $rc
}

# render STEM TOOL ARGS...: run the tool twice, with @OUT@ replaced by
# DIR/STEM.svg and by DIR/<stem's folder>/png/<name>.png; each output keeps
# its .gp script and data beside it.  0 when the SVG was drawn.
render() {
    local stem=$1; shift
    local svg=$OUTDIR/$stem.svg png
    png=$OUTDIR/$(dirname "$stem")/png/$(basename "$stem").png
    mkdir -p "$(dirname "$svg")" "$(dirname "$png")"
    local a args_svg=() args_png=()
    for a in "$@"; do args_svg+=("${a//@OUT@/$svg}"); args_png+=("${a//@OUT@/$png}"); done
    try "chart $stem.svg" "${args_svg[@]}" >/dev/null || return 1
    try "chart $stem.png" "${args_png[@]}" >/dev/null
    return 0
}

# ------------------------------------------------------------------ data
# GPUS: "label<TAB>folder" for each GPU whose results the report shows; the
# folders are under DIR/data, so every link of the report stays inside DIR.
GPUS=()
MODE=""   # gpu, reference or data
TOP_NOTE=""

have_gpu() {
    command -v "$NVIDIA_SMI" >/dev/null 2>&1 && "$NVIDIA_SMI" -L 2>/dev/null | grep -q '^GPU'
}
slug() { printf '%s' "$1" | tr -c 'A-Za-z0-9' '_' | sed -e 's/__*/_/g' -e 's/^_//' -e 's/_$//' | tr 'A-Z' 'a-z'; }
# is_gpu_dir DIR: holds one GPU's results
is_gpu_dir() { compgen -G "$1/readonly_*.tsv" >/dev/null || compgen -G "$1/latency_c?.tsv" >/dev/null || [ -d "$1/logs_1e6" ]; }
# copy_results SRC DST: the tables and 1e6 logs (not the large 1e7/1e8 logs)
copy_results() {
    mkdir -p "$2" && tar -C "$1" --exclude='./logs_1e7' --exclude='./logs_1e8' -cf - . | tar -C "$2" -xf -
}

if [ -n "$DATA" ]; then
    MODE=data
elif [ $NOGPU = 0 ] && have_gpu && [ -x "$READONLY" ]; then
    MODE=gpu
else
    MODE=reference
    if [ $NOGPU = 1 ]; then TOP_NOTE="No GPU used (--no-gpu)"
    elif have_gpu; then TOP_NOTE="A GPU is present but $READONLY is not built (make), so no GPU run"
    else TOP_NOTE="No GPU found"; fi
fi

# ---- GPU runs (MODE=gpu)
GPU_DATA=$OUTDIR/data
gpu_readonly() {   # gpu_readonly WPB
    local w=$1 f=$GPU_DATA/readonly_${N}_wpb$1.tsv
    "$READONLY" "$N" 0 "$w" --device "$DEVICE" --out "$GPU_DATA/logs_$N" >"$f.tmp" || { rm -f "$f.tmp"; return 1; }
    mv "$f.tmp" "$f"
    if [ -x "$READONLY_PROFILE" ]; then
        f=$GPU_DATA/profile_${N}_wpb$w.tsv
        "$READONLY_PROFILE" "$N" 0 "$w" --device "$DEVICE" >"$f.tmp" || { rm -f "$f.tmp"; return 1; }
        mv "$f.tmp" "$f"
    fi
}
for w in $WPBS; do eval "step_readonly_$w() { gpu_readonly $w; }"; done
step_logs_1e6() {
    local w rc=0
    for w in $WPBS; do
        "$READONLY" 1e6 0 "$w" --device "$DEVICE" --kernel baseline,float4,nondiverging,random_access \
            --out "$GPU_DATA/logs_1e6" >"$GPU_DATA/readonly_1e6_wpb$w.tsv.tmp" &&
            mv "$GPU_DATA/readonly_1e6_wpb$w.tsv.tmp" "$GPU_DATA/readonly_1e6_wpb$w.tsv" || rc=1
    done
    return $rc
}
# on_device CMD...: run a script that has no --device option on device D
# (CUDA_VISIBLE_DEVICES; left alone for device 0)
on_device() {
    if [ "$DEVICE" = 0 ]; then "$@"; else CUDA_VISIBLE_DEVICES=$DEVICE "$@"; fi
}
# The sweep script writes DIR/readonly_<v>_<WPB>.txt (and its own chart);
# the report keeps the table as sweep_readonly_<v>_4.txt, the reference name,
# and draws its own charts.
step_sweep() {   # step_sweep VARIANT
    local tmp=$WORK/occ_$1 extra=()
    [ -f "$GPU_DATA/latency_ca.tsv" ] && extra+=(--ladder "$GPU_DATA/latency_ca.tsv")
    bash "$OCC_SCRIPT" --help 2>/dev/null | grep -q -- '--device' && extra+=(--device "$DEVICE")
    mkdir -p "$tmp"
    on_device bash "$OCC_SCRIPT" "readonly_$1" 4 --n "$N" --out "$tmp" "${extra[@]}" || return 1
    [ -f "$tmp/readonly_$1_4.txt" ] || { echo "$OCC_SCRIPT wrote no $tmp/readonly_$1_4.txt" >&2; return 1; }
    mv "$tmp/readonly_$1_4.txt" "$GPU_DATA/sweep_readonly_$1_4.txt"
}
for v in $SWEEP_VARIANTS; do eval "step_sweep_$v() { step_sweep $v; }"; done
step_ladder_ca() {
    local q=(); [ $QUICK = 1 ] && q=(--quick)
    "$LATENCY" --device "$DEVICE" --out "$GPU_DATA/latency_ca.tsv" "${q[@]}"
}
step_ladder_cg() {
    local q=(); [ $QUICK = 1 ] && q=(--quick)
    "$LATENCY" --bypass-l1 --device "$DEVICE" --out "$GPU_DATA/latency_cg.tsv" "${q[@]}"
}
step_ncu() { on_device bash "$NCU_SCRIPT" --n "$N" --out "$GPU_DATA"; }

step_collect() {
    case $MODE in
    gpu)
        local name
        name=$("$NVIDIA_SMI" --query-gpu=name --format=csv,noheader -i "$DEVICE" 2>/dev/null | head -n 1)
        GPUS=("$(slug "${name:-gpu$DEVICE}")	$GPU_DATA")
        ;;
    reference|data)
        local src=$REFERENCE d label
        [ $MODE = data ] && src=$DATA
        local dirs=()
        if is_gpu_dir "$src"; then dirs=("$src")
        else for d in "$src"/*/; do [ -d "$d" ] && is_gpu_dir "${d%/}" && dirs+=("${d%/}"); done; fi
        [ ${#dirs[@]} -gt 0 ] || { echo "no results found in $src" >&2; return 1; }
        for d in "${dirs[@]}"; do
            label=$(basename "$d")
            [ $MODE = data ] && [ ${#dirs[@]} = 1 ] && [ "$(cd "$d" && pwd)" = "$OUTDIR/data" ] && {
                GPUS+=("$(basename "$(dirname "$d")")	$OUTDIR/data"); continue; }
            rm -rf "${OUTDIR:?}/data/$label"
            copy_results "$d" "$OUTDIR/data/$label" || { echo "could not copy $d" >&2; return 1; }
            GPUS+=("$label	$OUTDIR/data/$label")
        done
        ;;
    esac
}

# ------------------------------------------------------------------ facts
# Per GPU: F_<key>[i] from `warplog info` of a log, with fallbacks.
NG=0
declare -a G_LABEL G_DIR G_NAME G_SMS G_CLK G_CLKSRC G_MEM G_BUS G_PEAK G_L2 G_DATE G_DRIVER G_MAXW G_INFO
gpu_label() { printf '%s' "${G_LABEL[$1]}"; }
first_log() { compgen -G "$1/logs_1e6/*.bin" | head -n 1; compgen -G "$1/logs_1e[78]/*.bin" | head -n 1; }
info_get() { awk -F'\t' -v k="$2" '$1 == k { print $2; exit }' "$1"; }
# pick_tsv DIR PREFIX WPB: DIR/PREFIX_<N>_wpb<WPB>.tsv of the largest N
pick_tsv() {
    local f best="" bestn=-1 n
    for f in "$1/$2"_*_wpb"$3".tsv; do
        [ -f "$f" ] || continue
        n=$(basename "$f" .tsv); n=${n#"$2"_}; n=${n%_wpb*}
        if awk -v a="$n" -v b="$bestn" 'BEGIN { exit !(a + 0 > b + 0) }'; then best=$f; bestn=$n; fi
    done
    printf '%s' "$best"
}
# the median of a column of a TSV (named by header), over its positive values
col_median() {
    awk -F'\t' -v c="$2" '/^#/ { next } !h { for (i = 1; i <= NF; i++) if ($i == c) k = i; h = 1; next }
        k && $k + 0 > 0 { v[++n] = $k + 0 } END { if (!n) exit; asort(v); print (n % 2) ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2 }' "$@"
}
step_facts() {
    local i=0 ent label dir log info tsv
    for ent in "${GPUS[@]}"; do
        label=${ent%%	*}; dir=${ent#*	}
        G_LABEL[i]=$label; G_DIR[i]=$dir
        info=$WORK/info_$i.txt; : >"$info"
        log=$(first_log "$dir" | head -n 1)
        if [ -n "$log" ]; then bin/warplog info "$log" >"$info" || echo "warplog info $log failed" >&2
        elif [ -f "$dir/latency_ca.tsv" ]; then sed -n 's/^# //p' "$dir/latency_ca.tsv" >"$info"; fi
        G_INFO[i]=$info
        G_NAME[i]=$(info_get "$info" device_name)
        tsv=$(pick_tsv "$dir" readonly 4)
        [ -n "$tsv" ] || tsv=$(compgen -G "$dir/readonly_*_wpb*.tsv" | head -n 1)
        if [ -z "${G_NAME[i]}" ] && [ -n "$tsv" ]; then
            G_NAME[i]=$(sed -n 's/^# device\t\(.*\) (.*/\1/p' "$tsv" | head -n 1)
        fi
        [ -n "${G_NAME[i]}" ] || G_NAME[i]=$label
        G_SMS[i]=$(info_get "$info" sm_count)
        G_MEM[i]=$(info_get "$info" mem_clock_khz); G_MEM[i]=${G_MEM[i]:+$((G_MEM[i] / 1000))}
        G_BUS[i]=$(info_get "$info" bus_width_bits)
        G_PEAK[i]=$(info_get "$info" peak_dram_GBps)
        G_L2[i]=$(info_get "$info" l2_bytes)
        G_DATE[i]=$(info_get "$info" date); G_DATE[i]=${G_DATE[i]:0:10}
        G_DRIVER[i]=$(info_get "$info" driver_version)
        local mt; mt=$(info_get "$info" max_threads_per_sm); G_MAXW[i]=${mt:+$((mt / 32))}
        # The SM clock: measured by the log's run, else by the readonly runs
        # (their sm_clock_MHz column), else by the ladder, else nominal.
        local clk; clk=$(info_get "$info" sm_clock_measured_MHz)
        if awk -v c="${clk:-0}" 'BEGIN { exit !(c > 0) }'; then G_CLKSRC[i]="measured by the run of $(basename "$log")"
        else
            clk=""
            # a saved header of another log (warplog info output) may have it
            local h hc
            for h in "$dir"/header_*.txt; do
                [ -f "$h" ] || continue
                hc=$(info_get "$h" sm_clock_measured_MHz)
                if awk -v c="${hc:-0}" 'BEGIN { exit !(c > 0) }'; then
                    clk=$(awk -v c="$hc" 'BEGIN { printf "%.0f", c }'); G_CLKSRC[i]="measured, $(basename "$h")"; break
                fi
            done
            [ -z "$clk" ] && [ -n "$tsv" ] && clk=$(col_median "$dir"/readonly_*_wpb*.tsv sm_clock_MHz) && [ -n "$clk" ] &&
                G_CLKSRC[i]="measured: median over the readonly runs"
            if [ -z "$clk" ] && [ -f "$dir/latency_ca.tsv" ]; then
                clk=$(sed -n 's/^# sm_clock_measured_MHz\t//p' "$dir/latency_ca.tsv" | head -n 1)
                G_CLKSRC[i]="measured by the latency ladder"
            fi
            if [ -z "$clk" ] || [ "$clk" = 0 ]; then
                clk=$(info_get "$info" sm_clock_nominal_khz); clk=${clk:+$((clk / 1000))}
                G_CLKSRC[i]="nominal (not measured)"
            fi
        fi
        G_CLK[i]=$clk
        if [ -z "${G_PEAK[i]}" ] && [ -n "$tsv" ]; then
            G_PEAK[i]=$(sed -n 's/^# peak_dram_GBps\t\([0-9.]*\).*/\1/p' "$tsv" | head -n 1)
        fi
        i=$((i + 1))
    done
    NG=$i
    [ $NG -gt 0 ]
}
dev_opts() {   # report_facts options of GPU i
    local i=$1 o=()
    [ -n "${G_SMS[i]}" ] && o+=(--sm-count "${G_SMS[i]}")
    [ -n "${G_CLK[i]}" ] && o+=(--clock-mhz "${G_CLK[i]}")
    [ -n "${G_PEAK[i]}" ] && o+=(--peak-gbps "${G_PEAK[i]}")
    [ -n "${G_MAXW[i]}" ] && o+=(--max-warps-per-sm "${G_MAXW[i]}")
    printf '%s\n' "${o[@]}"
}
# prefix for findings: the GPU's label when there are several
pfx() { [ $NG -gt 1 ] && printf '%s: ' "${G_LABEL[$1]}"; }
groups_of() {   # groups_of NCOLS: "label1:n,label2:n"
    local i s=""
    for ((i = 0; i < NG; i++)); do s+="${s:+,}${G_LABEL[i]}:$1"; done
    printf '%s' "$s"
}

# ------------------------------------------------------------------ sections
sec_device() {
    sec_open device "Device"
    local i f=$WORK/device.tsv
    {
        printf 'fact'; for ((i = 0; i < NG; i++)); do printf '\t%s' "${G_LABEL[i]}"; done; echo
        row() { local k=$1; shift; printf '%s' "$k"; for ((i = 0; i < NG; i++)); do printf '\t%s' "$(eval "$1")"; done; echo; }
        row "name" 'echo "${G_NAME[i]}"'
        row "SMs" 'echo "${G_SMS[i]:-n/a}"'
        row "SM clock (MHz)" 'echo "${G_CLK[i]:-n/a} (${G_CLKSRC[i]:-unknown})"'
        row "memory clock (MHz)" 'echo "${G_MEM[i]:-n/a}"'
        row "memory bus (bits)" 'echo "${G_BUS[i]:-n/a}"'
        row "DRAM peak (GB/s)" 'echo "${G_PEAK[i]:-n/a}${G_MEM[i]:+ = ${G_MEM[i]} MHz x ${G_BUS[i]} bits / 8 x 2}"'
        row "L2 (bytes)" 'echo "${G_L2[i]:-n/a}"'
        row "resident warps per SM (max)" 'echo "${G_MAXW[i]:-n/a}"'
        row "driver" 'echo "${G_DRIVER[i]:-n/a}"'
        row "measured on" 'echo "${G_DATE[i]:-n/a}"'
    } >"$f"
    table "$f"
    for ((i = 0; i < NG; i++)); do
        if [ -s "${G_INFO[i]}" ] && [ -n "${G_PEAK[i]}" ] && [ -n "${G_SMS[i]}" ] && [ -n "${G_CLK[i]}" ]; then
            finding "$(pfx $i)$(awk -v p="${G_PEAK[i]}" -v s="${G_SMS[i]}" -v c="${G_CLK[i]}" 'BEGIN {
                printf "At %.0f MHz, the %.0f GB/s peak is %.1f bytes per SM cycle across the GPU, %.1f B per cycle per SM: one 128 B warp load every %.1f cycles on each SM.", c, p, p * 1e3 / c, p * 1e3 / c / s, 128 / (p * 1e3 / c / s) }')"
        fi
    done
    sec_close
}

sec_readonly() {
    sec_open readonly "Readonly kernels: time, bandwidth and latency"
    para "Each kernel reads N floats once (./readonly N 0 WPB: no shared-memory limit on occupancy). ms is the median kernel time of the instrumented run, GB/s useful bytes over that time; the latency columns are per-warp load latency (end_clk - start_clk, SM cycles) of the same run; the uninstrumented time is ./readonly_profile, the same kernels without probes."
    local w i any=0
    for w in $WPBS; do
        local files=() have=0
        for ((i = 0; i < NG; i++)); do
            local ro pr out=$WORK/ro_${i}_$w.tsv opts
            ro=$(pick_tsv "${G_DIR[i]}" readonly $w)
            pr=$(pick_tsv "${G_DIR[i]}" profile $w)
            if [ -z "$ro" ]; then printf 'kernel\n' >"$out"; files+=("$out"); continue; fi
            mapfile -t opts < <(dev_opts $i)
            if try "$(pfx $i)readonly table, $w warps per block" bin/report_facts readonly "$ro" ${pr:+"$pr"} "${opts[@]}" >"$out"; then
                have=1
            else printf 'kernel\n' >"$out"; fi
            grep -v '^#' "$out" >"$out.t"; files+=("$out.t")
            cp "$out" "$WORK/ronotes_${i}_$w"
        done
        [ $have = 1 ] || continue
        any=1
        h3 "$w warps per block"
        if [ $NG -gt 1 ]; then
            join_tables "$WORK/ro_$w.join" "${files[@]}"
            table "$WORK/ro_$w.join" "$(groups_of "$(ncols "${files[0]}")")"
        else
            table "${files[0]}"
        fi
        for ((i = 0; i < NG; i++)); do [ -f "$WORK/ronotes_${i}_$w" ] && notes "$WORK/ronotes_${i}_$w" "$(pfx $i)"; done
    done
    [ $any = 1 ] || na "no readonly_*_wpb*.tsv tables in the results"
    # across WPB: how the baseline scales with warps per block
    for ((i = 0; i < NG; i++)); do
        local s
        s=$(for w in $WPBS; do f=$(pick_tsv "${G_DIR[i]}" readonly $w); [ -n "$f" ] && awk -F'\t' -v w=$w '/^#/ { next } !h { for (j = 1; j <= NF; j++) c[$j] = j; h = 1; next } $1 == "baseline" || $1 == "float4" { print $1, w, $c["bw_GBps"], $c["blocks_per_sm"] * w }' "$f"; done |
            awk '{ bw[$1] = bw[$1] sep[$1] sprintf("%.0f GB/s at %d", $3, $2); sep[$1] = ", " } END {
                if ("baseline" in bw) printf "Baseline bandwidth by warps per block: %s. ", bw["baseline"]
                if ("float4" in bw) printf "float4: %s.", bw["float4"] }')
        [ -n "$s" ] && finding "$(pfx $i)$s"
    done
    local links=()
    for ((i = 0; i < NG; i++)); do
        for f in "${G_DIR[i]}"/readonly_*_wpb*.tsv "${G_DIR[i]}"/profile_*_wpb*.tsv; do
            [ -f "$f" ] && links+=("${G_LABEL[i]}/$(basename "$f")" "${f#$OUTDIR/}")
        done
    done
    [ ${#links[@]} -gt 0 ] && { para "Tables:"; link_line "${links[@]}"; }
    sec_close
}

# latency_stats of the 1e6 logs, one line per log: variant wpb count mean p50 p95 p99
stats_1e6() {   # stats_1e6 GPU_INDEX
    local i=$1 out=$WORK/stats_$1.tsv
    [ -s "$out" ] && { cat "$out"; return; }
    local logs=()
    mapfile -t logs < <(compgen -G "${G_DIR[i]}/logs_1e6/readonly_*.bin" | sort)
    [ ${#logs[@]} -gt 0 ] || return 0
    bin/latency_stats "${logs[@]}" 2>/dev/null | awk -F'\t' '/^#/ { next } !h { for (j = 1; j <= NF; j++) c[$j] = j; h = 1; next }
        { printf "%s\t%s\t%s\t%.0f\t%.0f\t%.0f\t%.0f\t%.0f\n", $c["kernel"], $c["wpb"], $c["count"], $c["mean_cycles"], $c["p5_cycles"], $c["p50_cycles"], $c["p95_cycles"], $c["p99_cycles"] }' >"$out"
    cat "$out"
}

sec_timelines() {
    sec_open timelines "Per-warp timelines (N = 1e6)"
    para "One horizontal line per warp, from its load's start to its end, in cycles since the first warp on the same SM started; colour by SM, the first warp of each block in black (docs/postprocessors.md). Steps in the left edge are blocks retiring and new ones starting; lines growing longer up the staircase mean the memory system is queueing."
    local w v i any=0
    for w in $WPBS; do
        local row_started=0
        for ((i = 0; i < NG; i++)); do
            local stems=()
            for v in $TIMELINE_VARIANTS; do
                local log=${G_DIR[i]}/logs_1e6/readonly_${v}_$w.bin
                [ -f "$log" ] || continue
                local stem=charts/${G_LABEL[i]}/warps_${v}_$w
                render "$stem" bin/plot_warps "$log" @OUT@ && stems+=("$stem" "$v")
            done
            [ ${#stems[@]} -gt 0 ] || continue
            [ $row_started = 1 ] || { h3 "$w warps per block"; row_started=1; }
            any=1
            fig_row_open
            while [ ${#stems[@]} -gt 0 ]; do
                fig "${stems[0]}" "$(pfx $i)${stems[1]}, $w warps per block"; stems=("${stems[@]:2}")
            done
            fig_row_close
        done
    done
    [ $any = 1 ] || na "no per-warp logs (logs_1e6/readonly_<variant>_<WPB>.bin)"
    # computed: how the median latency grows with warps per block
    for ((i = 0; i < NG; i++)); do
        local s
        s=$(stats_1e6 $i | awk -F'\t' -v vs="$TIMELINE_VARIANTS" 'BEGIN { n = split(vs, V, " ") }
            { p50[$1, $2] = $5; if (!($1 in lo) || $2 < lo[$1]) lo[$1] = $2; if ($2 > hi[$1]) hi[$1] = $2 }
            END { for (k = 1; k <= n; k++) { v = V[k]; if (!(v in lo) || lo[v] == hi[v]) continue
                printf "%s%s: median warp latency %d cycles at %d warps per block, %d at %d (x%.2f)", sep, v, p50[v, lo[v]], lo[v], p50[v, hi[v]], hi[v], p50[v, hi[v]] / p50[v, lo[v]]; sep = "; " }
                if (sep != "") printf "." }')
        [ -n "$s" ] && finding "$(pfx $i)$s"
    done
    sec_close
}

sec_latency() {
    sec_open latency "Latency distribution"
    para "Cumulative distribution of per-warp load latency of each kernel at 4 warps per block (N = 1e6): a curve to the right is slower; a steep curve means every warp saw about the same latency."
    local i v any=0 w=4
    fig_row_open
    for ((i = 0; i < NG; i++)); do
        local logs=()
        for v in $DIST_VARIANTS; do
            [ -f "${G_DIR[i]}/logs_1e6/readonly_${v}_$w.bin" ] && logs+=("${G_DIR[i]}/logs_1e6/readonly_${v}_$w.bin")
        done
        [ ${#logs[@]} -gt 0 ] || continue
        local stem=charts/${G_LABEL[i]}/latency_cdf_$w
        render "$stem" bin/plot_latency "${logs[@]}" @OUT@ && { fig "$stem" "$(pfx $i)latency CDF, $w warps per block"; any=1; }
    done
    fig_row_close
    if [ $any = 0 ]; then na "no per-warp logs at 4 warps per block"; sec_close; return 0; fi
    local files=()
    for ((i = 0; i < NG; i++)); do
        local t=$WORK/dist_$i.tsv
        { printf 'kernel\twarps\tmean (cycles)\tp5\tp50\tp95\tp99\n'
          stats_1e6 $i | awk -F'\t' -v OFS='\t' -v w=$w '$2 == w { print $1, $3, $4, $5, $6, $7, $8 }'; } >"$t"
        files+=("$t")
    done
    if [ $NG -gt 1 ]; then join_tables "$WORK/dist.join" "${files[@]}"; table "$WORK/dist.join" "$(groups_of 6)"
    else table "${files[0]}"; fi
    for ((i = 0; i < NG; i++)); do
        local s l2 nb
        s=$(awk -F'\t' 'NR > 1 { p50[$1] = $5; k[++n] = $1 } END { if (!("baseline" in p50) || p50["baseline"] <= 0) exit
            printf "Median latency relative to baseline (%d cycles):", p50["baseline"]
            for (j = 1; j <= n; j++) if (k[j] != "baseline") printf "%s %s x%.2f", (c++ ? "," : ""), k[j], p50[k[j]] / p50["baseline"]
            printf "." }' "${files[i]}")
        l2=${G_L2[i]}
        nb=$(info_get "${G_INFO[i]}" n_elems)
        if [ -n "$l2" ] && [ -n "$nb" ]; then
            s+=$(awk -v n="$nb" -v l2="$l2" 'BEGIN { b = n * 4; printf " At N = %.0f the array is %.1f MB, %s the %.1f MB L2, so these latencies are %s.", n, b / 1e6, b < l2 ? "smaller than" : "larger than", l2 / 1e6, b < l2 ? "mostly L2 hits after the first touch, lower than at N = 1e8 (the readonly tables)" : "DRAM latencies" }')
        fi
        [ -n "$s" ] && finding "$(pfx $i)$s"
    done
    sec_close
}

sec_ladder() {
    sec_open ladder "Latency ladder: L1, L2, DRAM"
    para "One thread chases pointers through a working set of growing size (./latency, docs/latency.md); each plateau is a level of the memory hierarchy. ca: loads cached in L1; cg: L1 bypassed."
    local i k any=0 dats=()
    for k in ca cg; do
        local have=() files=()
        for ((i = 0; i < NG; i++)); do
            local tsv=${G_DIR[i]}/latency_$k.tsv lev=$WORK/levels_${i}_$k.tsv
            [ -f "$tsv" ] || continue
            try "$(pfx $i)ladder levels ($k)" bin/plot_ladder "$tsv" --levels-out "$lev" && have+=("$i")
        done
        [ ${#have[@]} -gt 0 ] || continue
        any=1
        h3 "$([ $k = ca ] && echo "L1 cached (ld.global.ca)" || echo "L1 bypassed (ld.global.cg)")"
        fig_row_open
        for i in "${have[@]}"; do
            local stem=charts/${G_LABEL[i]}/ladder_$k
            if render "$stem" bin/plot_ladder "${G_DIR[i]}/latency_$k.tsv" @OUT@ --levels-out "$WORK/levels.discard"; then
                fig "$stem" "$(pfx $i)latency ladder, $k"
                [ $k = ca ] && dats+=("$i")
            fi
        done
        fig_row_close
        for i in "${have[@]}"; do
            local facts=$WORK/ladder_${i}_$k.out opts
            mapfile -t opts < <(dev_opts $i)
            if try "$(pfx $i)ladder facts ($k)" bin/report_facts ladder "$WORK/levels_${i}_$k.tsv" "${opts[@]}" >"$facts"; then
                grep -v '^#' "$facts" >"$facts.t"; files+=("$facts.t")
            fi
        done
        if [ ${#files[@]} -gt 1 ]; then
            local g="" i3
            for i3 in "${have[@]}"; do g+="${g:+,}${G_LABEL[i3]}:$(ncols "${files[0]}")"; done
            join_tables "$WORK/ladder_$k.join" "${files[@]}"; table "$WORK/ladder_$k.join" "$g"
        elif [ ${#files[@]} = 1 ]; then table "${files[0]}"; fi
        for i in "${have[@]}"; do [ -f "$WORK/ladder_${i}_$k.out" ] && notes "$WORK/ladder_${i}_$k.out" "$(pfx $i)"; done
    done
    [ $any = 1 ] || na "no latency_ca.tsv / latency_cg.tsv in the results"
    # several GPUs: their cached ladders on one chart
    if [ ${#dats[@]} -gt 1 ]; then
        h3 "All GPUs, L1 cached"
        local gp=$OUTDIR/charts/ladder_all.gp plots="" i2
        for i2 in "${dats[@]}"; do
            plots+="${plots:+, }'${G_LABEL[i2]}/ladder_ca.dat' using 1:2 with linespoints pt 7 ps 0.5 lw 1.5 title '$(printf '%s' "${G_NAME[i2]} (${G_LABEL[i2]})" | tr -d "'")'"
        done
        cat >"$gp" <<EOF
# ladder_all.gp - the cached latency ladders of every GPU of the report, from
# the .dat files bin/plot_ladder wrote beside each one.  Redraw from this
# folder with: gnuplot -c ladder_all.gp [OUTPUT]   (.svg or .png)
out = ARGC >= 1 ? ARG1 : 'ladder_all.svg'
if (out[strlen(out)-3:] eq '.png') { set terminal pngcairo size 960,600 background rgb 'white' font 'Helvetica,11' } else { set terminal svg size 960,600 dynamic background rgb 'white' font 'Helvetica,13' }
set termoption noenhanced
set output out
set title 'Pointer-chase latency, L1 cached (chase_ca)'
set xlabel 'working set (bytes)'
set ylabel 'latency per dependent load (cycles)'
set logscale x 2
set format x '2^{%L}'
set grid xtics ytics lc rgb '#dddddd'
set key top left
plot $plots
EOF
        mkdir -p "$OUTDIR/charts/png"
        if try "chart charts/ladder_all.svg" bash -c 'cd "$1" && gnuplot -c ladder_all.gp ladder_all.svg && gnuplot -c ladder_all.gp png/ladder_all.png' _ "$OUTDIR/charts"; then
            fig_row_open; fig charts/ladder_all "cached latency ladders of every GPU"; fig_row_close
        fi
    fi
    sec_close
}

sec_sweeps() {
    sec_open sweeps "Occupancy sweeps: throughput against Little's law"
    para "Bandwidth against resident warps per SM, with the Little's-law bound (bytes in flight / latency) and the DRAM peak (bin/plot_throughput). A point near its own bound (the open circle) is latency-bound; a point far below is limited by something else."
    local i f any=0 ladder_opt
    for ((i = 0; i < NG; i++)); do
        local sweeps=()
        mapfile -t sweeps < <(compgen -G "${G_DIR[i]}/sweep_*.txt" | sort)
        if [ ${#sweeps[@]} = 0 ]; then
            [ $NG -gt 1 ] && na "$(pfx $i)no occupancy sweeps (sweep_readonly_<variant>_4.txt)"
            continue
        fi
        ladder_opt=()
        if [ -f "${G_DIR[i]}/latency_ca.tsv" ] && bin/plot_throughput --help 2>/dev/null | grep -q -- '--ladder'; then
            ladder_opt=(--ladder "${G_DIR[i]}/latency_ca.tsv")
        fi
        local dram_lat=""
        [ -f "$WORK/levels_${i}_ca.tsv" ] && dram_lat=$(awk -F'\t' 'NR > 1 { c = $4 } END { if (c != "") print c }' "$WORK/levels_${i}_ca.tsv")
        for f in "${sweeps[@]}"; do
            local name stem facts opts
            name=$(basename "$f" .txt)
            stem=charts/${G_LABEL[i]}/throughput_${name#sweep_}
            h3 "$(pfx $i)${name#sweep_}"
            any=1
            render "$stem" bin/plot_throughput "$f" @OUT@ "${ladder_opt[@]}" && { fig_row_open; fig "$stem" "$(pfx $i)${name#sweep_}"; fig_row_close; }
            facts=$WORK/sweep_${i}_$name.out
            mapfile -t opts < <(dev_opts $i)
            if try "$(pfx $i)sweep table ${name#sweep_}" bin/report_facts sweep "$f" "${opts[@]}" ${dram_lat:+--latency "$dram_lat"} >"$facts"; then
                grep -v '^#' "$facts" >"$facts.t"; table "$facts.t"; notes "$facts" "$(pfx $i)"
            fi
            link_line "data: $(basename "$f")" "${f#$OUTDIR/}"
        done
    done
    [ $any = 1 ] || na "no occupancy sweeps (sweep_readonly_<variant>_4.txt) in the results$([ $MODE = gpu ] && [ ! -f "$OCC_SCRIPT" ] && echo ": $OCC_SCRIPT does not exist yet")"
    sec_close
}

sec_sectors() {
    sec_open sectors "What the hardware moves: sectors"
    para "L1 requests and sectors, L2 and DRAM sectors per access pattern, measured with Nsight Compute (scripts/ncu_profile.sh) against the sector model (bin/sector_model, docs/sectors.md)."
    local i any=0
    for ((i = 0; i < NG; i++)); do
        local s
        s=$(compgen -G "${G_DIR[i]}/sectors*.tsv" | head -n 1)
        if [ -n "$s" ]; then
            any=1
            h3 "$(pfx $i)measured against the model"
            local cmp=$WORK/cmp_$i.tsv stem=charts/${G_LABEL[i]}/sectors
            # one model walk for the table and the SVG (it takes a second or two at N = 1e8)
            mkdir -p "$OUTDIR/charts/${G_LABEL[i]}/png"
            local drawn=0
            if try "chart $stem.svg" bin/sector_compare "$s" --chart "$OUTDIR/$stem.svg" >"$cmp"; then drawn=1
            else try "$(pfx $i)sector_compare" bin/sector_compare "$s" >"$cmp"; fi
            if [ -s "$cmp" ]; then
                awk -F'\t' -v OFS='\t' '/^#/ { next } !h { for (j = 1; j <= NF; j++) c[$j] = j; h = 1
                        print "pattern", "elem (B)", "stride", "L1 requests pred / meas", "L1 sectors pred", "L1 sectors meas", "L2 sectors meas", "DRAM sectors pred", "DRAM sectors meas", "DRAM err %", "time (us)", "verdict"; next }
                    { print $c["pattern"], $c["elem_bytes"], $c["stride"], $c["l1_requests_pred"] " / " $c["l1_requests_meas"], $c["l1_sectors_pred"], $c["l1_sectors_meas"], $c["l2_sectors_meas"], $c["dram_sectors_pred"], $c["dram_sectors_meas"], $c["dram_err_pct"], sprintf("%.1f", $c["time_ns"] / 1000), $c["verdict"] }' "$cmp" >"$cmp.t"
                table "$cmp.t"
                finding "$(pfx $i)$(awk -F'\t' '/^#/ { next } !h { for (j = 1; j <= NF; j++) c[$j] = j; h = 1; next }
                    { n++; if ($c["verdict"] == "agree") a++; if ($c["l1_ok"] == 1) l1++
                      e = $c["dram_err_pct"] + 0; if (e < 0) e = -e; if (e > worst) { worst = e; wp = $c["pattern"] " stride " $c["stride"] } }
                    END { printf "%d of %d patterns agree with the model (L1 sectors exact, DRAM within 5%%); L1 sectors match in %d of %d.", a, n, l1, n
                          if (worst > 5) printf " The largest DRAM disagreement is %s, %.1f%%: there the L2 reuse assumption (A4) is wrong for this GPU.", wp, worst }' "$cmp")"
                if [ $drawn = 1 ]; then
                    # the PNG is drawn from a copy of the SVG's script rather than
                    # by walking the model again
                    local cdir=$OUTDIR/charts/${G_LABEL[i]} gp
                    gp=$cdir/sectors.gp
                    cp "$cdir/sectors.dat" "$cdir/png/sectors.dat"
                    sed -e "s|^set terminal svg size \([0-9]*\),\([0-9]*\).*|set terminal pngcairo size \1,\2 background rgb 'white' font 'Helvetica,11'|" \
                        -e 's|sectors\.svg|sectors.png|g' "$gp" >"$cdir/png/sectors.gp"
                    try "chart $stem.png" bash -c 'cd "$1" && gnuplot sectors.gp' _ "$cdir/png"
                    fig_row_open; fig "$stem" "$(pfx $i)sectors and time vs stride"; fig_row_close
                fi
            fi
            link_line "data: $(basename "$s")" "${s#$OUTDIR/}"
        fi
        local l2f
        l2f=$(compgen -G "${G_DIR[i]}/l2_fetch*.tsv" | head -n 1)
        if [ -n "$l2f" ]; then
            any=1
            h3 "$(pfx $i)DRAM fetch granularity"
            grep -v '^#' "$l2f" >"$WORK/l2f_$i.t"; table "$WORK/l2f_$i.t"
            local g; g=$(sed -n 's/^# dram_granularity_bytes\t//p' "$l2f" "$s" 2>/dev/null | head -n 1)
            [ -n "$g" ] && finding "$(pfx $i)An isolated 4 B miss fetches $g B from DRAM under the default limit."
            link_line "data: $(basename "$l2f")" "${l2f#$OUTDIR/}"
        fi
        [ -z "$s" ] && [ $NG -gt 1 ] && na "$(pfx $i)no sector table (sectors.tsv)"
        local sass=() f
        for f in "${G_DIR[i]}"/sass_*.txt; do [ -f "$f" ] && sass+=("$(basename "$f")" "${f#$OUTDIR/}"); done
        if [ ${#sass[@]} -gt 0 ]; then any=1; para "$(pfx $i)SASS of the kernels:"; link_line "${sass[@]}"; fi
    done
    [ $any = 1 ] || na "no sector tables (sectors.tsv, l2_fetch.tsv) in the results$([ $MODE = gpu ] && ! command -v ncu >/dev/null 2>&1 && echo ": ncu is not installed")"
    sec_close
}

# ------------------------------------------------------------------ assemble
SECTIONS="device readonly timelines latency ladder sweeps sectors"
step_write() {
    local i title s desc=""
    for ((i = 0; i < NG; i++)); do
        desc+="${desc:+ and }${G_NAME[i]}${G_DATE[i]:+, measured ${G_DATE[i]}}"
    done
    case $MODE in
        gpu) title="warplat report: ${G_NAME[0]}"
             TOP_NOTE="This report shows the study run on this machine's ${G_NAME[0]} (device $DEVICE), $(date -u +%Y-%m-%d)$([ $QUICK = 1 ] && echo ", --quick: N = $N")." ;;
        reference) title="warplat report: bundled reference results"
             TOP_NOTE="$TOP_NOTE: this report shows the bundled reference results of $desc." ;;
        data) title="warplat report"
             TOP_NOTE="This report shows the results in $DATA: $desc." ;;
    esac
    local html=$OUTDIR/index.html md=$OUTDIR/index.md
    {
        cat <<EOF
<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>$(esc "$title")</title>
<style>
body { font-family: Helvetica, Arial, sans-serif; max-width: 1400px; margin: 1em auto; padding: 0 1em; color: #222; line-height: 1.4; }
h1 { font-size: 1.6em; } h2 { border-bottom: 2px solid #0077bb; padding-bottom: .2em; margin-top: 2em; } h3 { margin-top: 1.4em; }
.top { background: #fff6d5; border-left: 5px solid #e0a800; padding: .6em 1em; font-size: 1.1em; }
.failures { background: #fde8e8; border-left: 5px solid #cc3311; padding: .4em 1em; }
table { border-collapse: collapse; margin: .6em 0; font-size: .9em; display: block; max-width: 100%; overflow-x: auto; }
th, td { border: 1px solid #ccc; padding: .25em .6em; } th { background: #eef3f8; } th.group { background: #dbe7f3; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
.finding { background: #eef7ee; border-left: 4px solid #228833; padding: .4em .8em; }
.na { color: #777; font-style: italic; } .failed { color: #cc3311; font-weight: bold; }
.row { display: flex; flex-wrap: wrap; gap: 1em; }
figure { margin: 0; flex: 1 1 30%; min-width: 320px; max-width: 960px; } figure img { width: 100%; height: auto; border: 1px solid #ddd; }
figcaption { font-size: .85em; color: #555; }
nav a { margin-right: 1em; }
</style>
</head>
<body>
<h1>$(esc "$title")</h1>
<p class="top">$(esc "$TOP_NOTE")</p>
EOF
        if [ ${#FAILS[@]} -gt 0 ]; then
            printf '<div class="failures"><p>%d step(s) failed; the rest of the report is complete:</p><ul>\n' ${#FAILS[@]}
            for s in "${FAILS[@]}"; do printf '<li>failed: %s</li>\n' "$(esc "$s")"; done
            printf '</ul></div>\n'
        fi
        printf '<nav>'
        for s in $SECTIONS; do [ -f "$WORK/sec_$s.html" ] && printf '<a href="#%s">%s</a>' "$s" "$s"; done
        printf '</nav>\n'
        for s in $SECTIONS; do [ -f "$WORK/sec_$s.html" ] && cat "$WORK/sec_$s.html"; done
        cat <<'EOF'
<footer><p>Made by scripts/report.sh (docs/report.md). Every chart is drawn by gnuplot from the .gp script and data beside it: edit the script and run <code>gnuplot -c NAME.gp</code> in its folder to redraw. The tables behind the report are in data/, the logs of each step in logs/.</p></footer>
<script>
window.addEventListener('load', function () {
  var imgs = document.getElementsByTagName('img'), ok = 0;
  for (var i = 0; i < imgs.length; i++) if (imgs[i].complete && imgs[i].naturalWidth > 0) ok++;
  document.body.setAttribute('data-images-ok', ok + '/' + imgs.length);
});
</script>
</body>
</html>
EOF
    } >"$html.tmp" || return 1
    {
        printf '# %s\n\n' "$title"
        printf '**%s**\n\n' "$TOP_NOTE"
        if [ ${#FAILS[@]} -gt 0 ]; then
            printf '%d step(s) failed; the rest of the report is complete:\n\n' ${#FAILS[@]}
            for s in "${FAILS[@]}"; do printf -- '- failed: %s\n' "$s"; done
            echo
        fi
        for s in $SECTIONS; do [ -f "$WORK/sec_$s.md" ] && cat "$WORK/sec_$s.md"; done
        printf -- '---\n\nMade by scripts/report.sh (docs/report.md). Every chart is drawn by gnuplot from the .gp script and data beside it: edit the script and run `gnuplot -c NAME.gp` in its folder to redraw.\n'
    } >"$md.tmp" || return 1
    mv "$html.tmp" "$html" && mv "$md.tmp" "$md"
}

# ------------------------------------------------------------------ plan
if [ ! -x bin/report_facts ] || [ ! -x bin/plot_warps ] || [ ! -x bin/warplog ]; then
    say "building the tools (make tools)"
    make -s tools >&2 || { say "could not build bin/ (make tools)"; exit 1; }
fi
command -v gnuplot >/dev/null 2>&1 || say "gnuplot not found: charts will fail (scripts/ensure_deps.sh installs it)"

if [ $MODE = gpu ]; then
    mkdir -p "$GPU_DATA"
    for w in $WPBS; do add_step "step_readonly_$w" "readonly $N 0 $w (instrumented and uninstrumented)"; done
    add_step step_logs_1e6 "readonly 1e6 0 {2,4,8,16}: per-warp logs for the timelines"
    # the ladder first: its DRAM plateau is the sweeps' unloaded latency
    [ -x "$LATENCY" ] && { add_step step_ladder_ca "latency ladder, L1 cached$([ $QUICK = 1 ] && echo ' (--quick)')"
                          add_step step_ladder_cg "latency ladder, L1 bypassed$([ $QUICK = 1 ] && echo ' (--quick)')"; }
    if [ -f "$OCC_SCRIPT" ]; then
        for v in $SWEEP_VARIANTS; do add_step "step_sweep_$v" "occupancy sweep readonly_$v, 4 warps per block (N = $N)"; done
    fi
    command -v ncu >/dev/null 2>&1 && [ -x "$READONLY_PROFILE" ] && add_step step_ncu "sector tables with Nsight Compute (N = $N)"
fi
add_step step_collect "$([ $MODE = gpu ] && echo "collect the results of $GPU_DATA" || echo "copy the results into $OUTDIR/data")"
add_step step_facts "device facts (warplog info)"
add_step sec_device "section: device"
add_step sec_readonly "section: readonly tables"
add_step sec_timelines "section: per-warp timelines (plot_warps)"
add_step sec_latency "section: latency distributions (plot_latency)"
add_step sec_ladder "section: latency ladder (plot_ladder)"
add_step sec_sweeps "section: occupancy sweeps (plot_throughput)"
add_step sec_sectors "section: sector tables (sector_compare)"
add_step step_write "write index.html and index.md"

say "$([ $MODE = gpu ] && echo "running the study on GPU $DEVICE" || echo "${TOP_NOTE:-using $DATA}"): writing $OUTDIR"
for ((si = 0; si < ${#STEP_FN[@]}; si++)); do
    run_step $si
    # without results there is nothing to report
    if [ "${STEP_FN[si]}" = step_collect ] && [ ${#GPUS[@]} = 0 ]; then say "no results to report"; exit 1; fi
    if [ "${STEP_FN[si]}" = step_facts ] && [ "$NG" = 0 ]; then say "no device facts: nothing to report"; exit 1; fi
done

if [ ! -s "$OUTDIR/index.html" ] || [ ! -s "$OUTDIR/index.md" ]; then
    say "could not write the report ($(elapsed))"
    exit 1
fi
say "wrote $OUTDIR/index.html and $OUTDIR/index.md in $(elapsed)"
if [ ${#FAILS[@]} -gt 0 ]; then
    say "${#FAILS[@]} step(s) failed (the report shows everything else):"
    for s in "${FAILS[@]}"; do echo "  failed: $s" >&2; done
fi
exit 0
