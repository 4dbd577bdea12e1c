#!/usr/bin/env bash
# scripts/fleet_host.sh - the study on every GPU of one host at once, judged,
# and packed for data/reference/<name>/ (issue 40): on a bare machine with
# the CUDA Toolkit and two GPUs or more.
#
#   scripts/fleet_host.sh [--quick] [--out DIR] [--name NAME] [--step-limit S]
#                         [--alone DIR --alone-s S]
#
#   --quick         scripts/reference.sh --quick (N = 1e7, the quick ladder)
#                   and ./p2p --quick: the whole script in about 5 minutes
#                   on four H100s; without it each reference run is the
#                   full study (about 320 s alone on one H100)
#   --out DIR       where the results go (default: $OUT, else fleet-host-out)
#   --name NAME     the folder the pack holds (default fleet-h100x4)
#   --step-limit S  stop a reference run after S seconds (default 270 with
#                   --quick, 560 without), so that what ran is still packed
#   --alone DIR     GPU 0 alone was measured already (for example by make
#                   report --device 0 on this host, whose data/<gpu0>/ is
#                   DIR), taking S seconds (--alone-s): step 3 is not run
#                   again, so that the two runs fit in two calls of 10 minutes
#
# Steps, each with its wall time on stderr:
#   1. make -j all (the experiments, bin/, ./p2p)
#   2. the GPUs: nvidia-smi -L through bin/fleet devices all (2 at least,
#      else exit 77)
#   3. A: scripts/reference.sh A/<gpu0> --device 0: GPU 0 alone
#   4. B: scripts/reference.sh B --device all: every GPU at once, one folder each
#   5. bin/fleet collect B --depth 1: the fleet tables beside the folders
#   6. nvidia-smi topo -m: B/topology.txt
#   7. ./p2p: B/p2p.tsv (one GPU reading another's memory; exit 77 kept
#      as a table that says why)
#   8. bin/fleet concurrent A/<gpu0> B/<gpu0>: GPU 0's figures alone and with
#      every GPU running, against the drift tolerances, and the two wall
#      times (B at most 1.15 x A): B/concurrency.tsv
#   9. scripts/report.sh --data B --no-charts: the report of the run, whose
#      first screen is the fleet table
#  10. the pack: DIR/NAME.tar.gz holds NAME/ as it is to be committed under
#      data/reference/: B's folders and tables, topology.txt, p2p.tsv,
#      concurrency.tsv, timing.tsv, README.md, runlogs/, and alone/<gpu0>/
#      (GPU 0 alone: collect NAME with --depth 1, as fleet.tsv was, or it is
#      counted twice); beside it DIR/summary.txt (the verdicts),
#      DIR/report.md (the report's index.md) and DIR/fleet_host.log.  A pack
#      over 15 MiB is split: NAME.tar.gz.part-aa, -ab, ... (cat them).
#
# Exit status: 0 every step ran (the verdicts are results, in summary.txt);
# 1 a step failed (what ran is still packed); 2 usage; 77 fewer than two GPUs.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
# the programs it runs (replaceable to try the sequence without a GPU)
REFERENCE_SCRIPT=${REFERENCE_SCRIPT:-scripts/reference.sh}
P2P=${P2P:-./p2p}

usage() { sed -n '2,/^set -uo/p' "$0" | sed -e '/^set -uo/d' -e 's/^# \{0,1\}//'; }
usage_error() { echo "fleet_host.sh: $*" >&2; echo "Try 'scripts/fleet_host.sh --help'." >&2; exit 2; }

QUICK=0 DEST=${OUT:-fleet-host-out} NAME=fleet-h100x4 LIMIT="" ALONE="" ALONE_S=""
while [ $# -gt 0 ]; do
    case $1 in
        -h|--help) usage; exit 0 ;;
        --quick) QUICK=1; shift ;;
        --out|--name|--step-limit|--alone|--alone-s)
            [ $# -ge 2 ] && [ -n "$2" ] || usage_error "$1 needs a value"
            case $1 in --out) DEST=$2 ;; --name) NAME=$2 ;; --step-limit) LIMIT=$2 ;;
                       --alone) ALONE=$2 ;; --alone-s) ALONE_S=$2 ;; esac
            shift 2 ;;
        *) usage_error "unknown argument '$1'" ;;
    esac
done
case $NAME in ''|*/*|.*) usage_error "--name must be a plain folder name, not '$NAME'" ;; esac
case ${LIMIT:-1} in *[!0-9]*) usage_error "--step-limit wants whole seconds, not '$LIMIT'" ;; esac
if [ -n "$ALONE$ALONE_S" ]; then
    [ -n "$ALONE" ] && [ -n "$ALONE_S" ] || usage_error "--alone and --alone-s go together"
    [ -f "$ALONE/device.tsv" ] || usage_error "--alone $ALONE: no device.tsv there (not a results folder)"
    case $ALONE_S in ''|*[!0-9.]*|*.*.*) usage_error "--alone-s wants seconds, not '$ALONE_S'" ;; esac
    ALONE=$(cd "$ALONE" && pwd)
fi
Q=()
[ $QUICK = 1 ] && Q=(--quick)
if [ -z "$LIMIT" ]; then if [ $QUICK = 1 ]; then LIMIT=270; else LIMIT=560; fi; fi
mkdir -p "$DEST" || { echo "fleet_host.sh: cannot create $DEST" >&2; exit 1; }
DEST=$(cd "$DEST" && pwd)
W=$(mktemp -d "${TMPDIR:-/tmp}/fleet-host.XXXXXX") || exit 1
trap 'rm -rf "$W"' EXIT
P=$W/$NAME                  # the pack: B, the folders of every GPU at once
A=$W/alone                  # GPU 0 alone
mkdir -p "$P/runlogs" "$A"
: >"$DEST/summary.txt"
exec > >(tee -a "$DEST/fleet_host.log") 2>&1

# ---------------------------------------------------------------- timing
now_us() { local t=${EPOCHREALTIME/[.,]/}; printf '%s' "$((10#$t))"; }
secs() { local d=$(( ($2 - $1) / 100000 )); printf '%d.%d' $((d / 10)) $((d % 10)); }
T0=$(now_us)
say() { echo "fleet_host.sh: [$(secs "$T0" "$(now_us)") s] $*"; }
printf 'step\tstatus\twall_s\n' >"$P/timing.tsv"
FAILED=() WALL=""
# step NAME CMD...: run CMD, print and record its wall time (WALL)
step() {
    local name=$1 t0 t1 rc st=ok
    shift
    say "$name ..."
    t0=$(now_us)
    "$@"
    rc=$?
    t1=$(now_us)
    WALL=$(secs "$t0" "$t1")
    [ $rc -eq 0 ] || { st="failed (exit $rc)"; FAILED+=("$name"); }
    say "$name: $st, wall time $WALL s"
    printf '%s\t%s\t%s\n' "$name" "$st" "$WALL" >>"$P/timing.tsv"
    return $rc
}

# ---------------------------------------------------------------- 1. build
# (-k: what can be built is; the run needs the experiments and bin/, and
# ./p2p only for its own step)
build() { make -k -s -j"$(nproc 2>/dev/null || echo 8)" all >"$P/runlogs/make.log" 2>&1 || { tail -n 30 "$P/runlogs/make.log"; return 1; }; }
step "make all" build
for b in readonly latency bin/fleet bin/tsv bin/report bin/names; do
    [ -x "./$b" ] || { say "make did not build ./$b (is nvcc on PATH? see above): nothing can be measured"; exit 1; }
done

# ---------------------------------------------------------------- 2. the GPUs
nvidia-smi -L >"$P/runlogs/nvidia-smi-L.txt" 2>&1
mapfile -t GPUS < <(bin/fleet devices all <"$P/runlogs/nvidia-smi-L.txt")
say "GPUs: ${GPUS[*]:-none} ($(grep -m1 '^GPU 0:' "$P/runlogs/nvidia-smi-L.txt"))"
if [ ${#GPUS[@]} -lt 2 ]; then say "fewer than two GPUs: no fleet to measure"; exit 77; fi
grep -q "^GPU 0: .*H100" "$P/runlogs/nvidia-smi-L.txt" || case $NAME in *h100*) say "warning: GPU 0 is no H100; name the pack with --name" ;; esac
nvidia-smi --query-gpu=index,name,uuid,pstate,temperature.gpu,power.draw,clocks.sm,clocks.mem,clocks.max.sm \
    --format=csv >"$P/runlogs/nvidia-smi-before.csv" 2>&1

# ---------------------------------------------------------------- 3, 4. alone, then all at once
if [ -n "$ALONE" ]; then
    # measured before this script: its folder stands for A/gpu0
    ln -s "$ALONE" "$A/gpu0"
    T_ALONE=$ALONE_S
    printf '%s\t%s\t%s\n' "reference.sh GPU 0 alone (measured before, --alone $ALONE)" ok "$T_ALONE" >>"$P/timing.tsv"
    say "GPU 0 alone: $ALONE, $T_ALONE s (measured before)"
else
    step "reference.sh GPU 0 alone${Q:+ ${Q[*]}}" timeout -k 15 "$LIMIT" "$REFERENCE_SCRIPT" "$A/gpu0" --device 0 "${Q[@]}" \
        2>"$P/runlogs/reference_alone_gpu0.log"
    T_ALONE=$WALL
fi
step "reference.sh all ${#GPUS[@]} GPUs at once${Q:+ ${Q[*]}}" timeout -k 15 "$LIMIT" "$REFERENCE_SCRIPT" "$P" --device all \
    "${Q[@]}" 2>"$P/runlogs/reference_all.log"
T_ALL=$WALL
for f in "$P"/*.log; do [ -f "$f" ] && mv -- "$f" "$P/runlogs/reference_${f##*/}"; done
nvidia-smi --query-gpu=index,name,uuid,pstate,temperature.gpu,power.draw,clocks.sm,clocks.mem,clocks.max.sm \
    --format=csv >"$P/runlogs/nvidia-smi-after.csv" 2>&1

# ---------------------------------------------------------------- 5-8. judged
step "bin/fleet collect" bin/fleet collect "$P" --depth 1
step "nvidia-smi topo -m" bash -c 'nvidia-smi topo -m >"$1" 2>&1' _ "$P/topology.txt"
# exit 77 (no pair may access each other) is a result: p2p.tsv says why
p2p_run() {
    [ -x "$P2P" ] || { echo "$P2P was not built"; return 1; }
    timeout -k 15 300 "$P2P" "${Q[@]}" --out "$P/p2p.tsv" 2>"$P/runlogs/p2p.log"
    local rc=$?
    [ $rc -eq 77 ] || return $rc
}
step "p2p (every pair of GPUs)" p2p_run
KEY=$(bin/fleet key "$A/gpu0" --ordinal 0 2>/dev/null)
if [ -n "$KEY" ] && [ -d "$P/$KEY" ]; then
    concurrent() {   # its verdict lines (stderr) into summary.txt too
        bin/fleet concurrent "$A/gpu0" "$P/$KEY" --alone-s "$T_ALONE" --all-s "$T_ALL" --out "$P/concurrency.tsv" 2>&1 |
            tee -a "$DEST/summary.txt"
    }
    step "GPU 0 alone against all at once (bin/fleet concurrent)" concurrent
else
    say "GPU 0's folder of the run of all GPUs (${KEY:-no key: GPU 0 alone wrote no device.tsv}) is missing: no comparison"
    FAILED+=("GPU 0 alone against all at once")
fi

# ---------------------------------------------------------------- 9. the report
if step "the report of the run (scripts/report.sh --data, no charts)" \
    scripts/report.sh --data "$P" --out "$W/report" --no-charts 2>"$P/runlogs/report.log"; then
    cp "$W/report/index.md" "$DEST/report.md"
fi

# ---------------------------------------------------------------- 10. the pack
{
    echo "wall time, GPU 0 alone: $T_ALONE s; all ${#GPUS[@]} GPUs at once: $T_ALL s (reference.sh${Q:+ ${Q[*]}})"
    for g in $(bin/tsv get "$P/fleet_summary.tsv" gpu 2>/dev/null); do
        echo "fleet: $g: $(bin/tsv get "$P/fleet_summary.tsv" verdict --where gpu="$g") ($(bin/tsv get "$P/fleet_summary.tsv" flagged_figures --where gpu="$g"))"
    done
    [ -f "$P/p2p.tsv" ] && echo "p2p: $(grep -c . "$P/p2p.tsv") lines in p2p.tsv$(bin/tsv meta "$P/p2p.tsv" skipped 2>/dev/null | sed 's/^/; skipped: /')"
    for op in read copy memcpy_peer latency; do   # GPU 0 reading GPU 1, and GPU 0's own memory
        for o in 1 0; do
            v=$(bin/tsv get "$P/p2p.tsv" bw_GBps --where reader=0 --where owner=$o --where op=$op 2>/dev/null)
            l=$(bin/tsv get "$P/p2p.tsv" lat_ns --where reader=0 --where owner=$o --where op=$op 2>/dev/null)
            [ -n "$v$l" ] && echo "p2p: GPU 0 reading GPU $o's memory, $op: $v GB/s, latency $l ns"
        done
    done
    [ ${#FAILED[@]} -eq 0 ] && echo "failed steps: none" || echo "failed steps: $(printf '%s; ' "${FAILED[@]}")"
} | tee -a "$DEST/summary.txt"
mkdir -p "$P/alone" && [ -d "$A/gpu0" ] && [ -n "$KEY" ] && cp -RL "$A/gpu0" "$P/alone/$KEY"
cat >"$P/README.md" <<EOF
# $NAME: every GPU of one host measured at once

Made by \`scripts/fleet_host.sh${Q:+ ${Q[*]}}\` (issue 40) on $(date -u +%Y-%m-%d), $(grep -c '^GPU' "$P/runlogs/nvidia-smi-L.txt") GPUs
($(grep -m1 '^GPU 0:' "$P/runlogs/nvidia-smi-L.txt" | sed 's/ (UUID.*//')).

- \`gpu<k>-<uuid8>-<name>/\`: each GPU's results, from one \`scripts/reference.sh OUT --device all\` run
  (wall time in \`timing.tsv\`; each GPU's log in \`runlogs/\`)
- \`fleet.tsv\`, \`fleet_summary.tsv\`, \`fleet_chart.tsv\`: \`bin/fleet collect $NAME --depth 1\`
- \`alone/<gpu0>/\`: GPU 0 measured alone first (\`scripts/reference.sh --device 0\`); collect this
  folder with \`--depth 1\`, or GPU 0 is counted twice
- \`concurrency.tsv\`: GPU 0 alone against GPU 0 with every GPU running (\`bin/fleet concurrent\`):
  each figure against its drift tolerance, and the two wall times against 1.15 x
- \`topology.txt\`: \`nvidia-smi topo -m\`; \`p2p.tsv\`: \`./p2p${Q:+ ${Q[*]}}\`, one GPU reading another's memory
EOF
tar -C "$W" -czf "$DEST/$NAME.tar.gz" "$NAME" && say "packed $DEST/$NAME.tar.gz ($(du -h "$DEST/$NAME.tar.gz" | cut -f1))"
# a file that comes back from a lent GPU machine holds at most 16 MiB:
# larger, the pack goes in parts (cat NAME.tar.gz.part-* > NAME.tar.gz)
if [ -n "$(find "$DEST/$NAME.tar.gz" -size +15M 2>/dev/null)" ]; then
    split -b 15M "$DEST/$NAME.tar.gz" "$DEST/$NAME.tar.gz.part-" && rm -f "$DEST/$NAME.tar.gz" &&
        say "split into $(ls "$DEST" | grep -c "^$NAME.tar.gz.part-") parts: cat $NAME.tar.gz.part-* > $NAME.tar.gz"
fi
say "done: $DEST ($(ls "$DEST" | tr '\n' ' '))"
[ ${#FAILED[@]} -eq 0 ]
