#!/usr/bin/env bash
# tests/cli/slurm.sh - the fleet through a real Slurm, without a GPU: start a
# single-node cluster on localhost (munged, slurmctld, slurmd, all under the
# test's temporary folder, on free ports), submit scripts/slurm/submit.sh in
# replay mode over the bundled H100 and H200 results and a copy of the H100's
# with its DRAM latency raised 20 % (bin/tsv_scale: the test's data, never
# committed), wait for the collect job, and check the fleet report: the
# perturbed GPU flagged, the real ones not.  Every daemon is stopped at the
# end, also on failure.
#
# It installs nothing.  Without slurmctld, slurmd, sbatch and munged it skips
# (exit 77) and names the packages: apt-get install slurm-wlm munge.
#
# What makes Debian's Slurm start in a container (docs/fleet.md): no cgroup
# plugin (ProctrackType=proctrack/linuxproc, TaskPlugin=task/none), no
# accounting, SlurmdParameters=config_overrides (the node's CPUs as
# configured, whatever the topology), the munge socket in the temporary
# folder (AuthInfo=socket=...), and GPUs that Slurm can count: a gpu GRES
# needs device files, here links to /dev/null (the tasks replay, they touch
# no GPU).  Slurm runs as the user running the test (root or not).
. "$(dirname "$0")/../lib.sh"

# the daemons live in /usr/sbin, which a normal user's PATH may lack
PATH=$PATH:/usr/sbin:/sbin
missing=()
for c in slurmctld slurmd sbatch squeue scontrol munged; do
    command -v "$c" >/dev/null 2>&1 || missing+=("$c")
done
[ ${#missing[@]} -eq 0 ] ||
    skip "Slurm is not installed here (missing: ${missing[*]}): apt-get install slurm-wlm munge"
require_bin bin/fleet bin/tsv_scale bin/tsv bin/plot_ladder

S=$TMP/cluster
mkdir -p "$S/munge" "$S/state" "$S/spool" "$S/log" "$S/dev"
PIDS=()
stop_all() {
    # scancel what is left, then the daemons, newest first; wait for them
    [ -f "$S/slurm.conf" ] && SLURM_CONF=$S/slurm.conf scancel --user="$(id -un)" >/dev/null 2>&1
    local i
    for ((i = ${#PIDS[@]} - 1; i >= 0; i--)); do kill "${PIDS[$i]}" 2>/dev/null; done
    for ((i = ${#PIDS[@]} - 1; i >= 0; i--)); do
        for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 "${PIDS[$i]}" 2>/dev/null || break; sleep 0.5; done
        kill -9 "${PIDS[$i]}" 2>/dev/null
    done
    rm -rf "$TMP"
}
trap stop_all EXIT

show_logs() {
    local f
    for f in "$S"/log/* "$RES"/.logs/*; do
        [ -f "$f" ] || continue
        echo "---- $f" >&2
        tail -n 30 "$f" >&2
    done
}
die() { echo "FAIL: $*" >&2; show_logs; exit 1; }

# a free TCP port on localhost: nobody answers on it
free_port() {
    local p
    for _ in $(seq 1 200); do
        p=$((20000 + RANDOM % 40000))
        (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null || { echo "$p"; return 0; }
    done
    return 1
}

# ---- munge: a key of our own, a socket in the temporary folder
head -c 1024 /dev/urandom >"$S/munge/key"
chmod 600 "$S/munge/key"
chmod 755 "$S/munge"
SOCK=$S/munge/munge.socket
munged --foreground --force --key-file="$S/munge/key" --socket="$SOCK" --pid-file="$S/munge/munged.pid" \
    --log-file="$S/log/munged.log" --seed-file="$S/munge/seed" >"$S/log/munged.out" 2>&1 &
PIDS+=($!)
wait_until 10 test -S "$SOCK" || die "munged did not start"

# ---- slurm.conf: one node, localhost, the machine's CPUs, two GPUs
CPUS=$(nproc)
PCTLD=$(free_port) && PD=$(free_port) || die "no free TCP port"
[ "$PCTLD" != "$PD" ] || PD=$((PCTLD + 1))
ME=$(id -un)
ln -s /dev/null "$S/dev/nvidia0"
ln -s /dev/null "$S/dev/nvidia1"
cat >"$S/slurm.conf" <<EOF
ClusterName=warplattest
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$PCTLD
SlurmdPort=$PD
SlurmUser=$ME
SlurmdUser=$ME
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$SOCK
StateSaveLocation=$S/state
SlurmdSpoolDir=$S/spool
SlurmctldPidFile=$S/slurmctld.pid
SlurmdPidFile=$S/slurmd.pid
SlurmctldLogFile=$S/log/slurmctld.log
SlurmdLogFile=$S/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SlurmdParameters=config_overrides
ReturnToService=2
MpiDefault=none
MailProg=/bin/true
GresTypes=gpu
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$CPUS Gres=gpu:2 State=UNKNOWN
PartitionName=fleettest Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
echo "NodeName=localhost Name=gpu File=$S/dev/nvidia[0-1]" >"$S/gres.conf"
export SLURM_CONF=$S/slurm.conf

slurmctld -D -f "$SLURM_CONF" >"$S/log/slurmctld.out" 2>&1 &
PIDS+=($!)
slurmd -D -f "$SLURM_CONF" -N localhost >"$S/log/slurmd.out" 2>&1 &
PIDS+=($!)
up=0
for _ in $(seq 1 120); do
    state=$(sinfo -h -n localhost -o %T 2>/dev/null) || state=""
    case $state in idle*|mixed*|allocated*) up=1; break ;; esac
    sleep 0.5
done
[ $up = 1 ] || die "the node did not come up (state: '${state:-none}')"
echo "cluster up: slurmctld on $PCTLD, slurmd on $PD, $CPUS CPUs, 2 GPU slots"

# ---- the fleet: the real sets, and a copy of the H100's with a slower DRAM
SICK=$TMP/h100-dram-slow
mkdir -p "$SICK"
for f in "$ROOT"/data/reference/h100/*; do [ -f "$f" ] && cp "$f" "$SICK/"; done
for l in latency_ca latency_cg; do
    [ -f "$SICK/$l.tsv" ] || continue
    # the DRAM plateau begins past the L2 (50 MiB): every size from 64 MiB on
    bin/tsv_scale "$ROOT/data/reference/h100/$l.tsv" --columns cycles_per_load,ns_per_load \
        --factor 1.2 --rows-from bytes=67108864 --out "$SICK/$l.tsv" 2>/dev/null ||
        die "bin/tsv_scale failed on $l.tsv"
done
real_dram=$(bin/plot_ladder data/reference/h100/latency_ca.tsv --dram-latency | cut -f1)
sick_dram=$(bin/plot_ladder "$SICK/latency_ca.tsv" --dram-latency | cut -f1)
echo "DRAM latency: real H100 $real_dram cycles, perturbed copy $sick_dram cycles"

# task i replays folder i: three H100s (one of them sick) and three H200s,
# so that each model has the three GPUs the rule needs
H100=$ROOT/data/reference/h100 H200=$ROOT/data/reference/h200
RES=$TMP/results
expect_exit 0 scripts/slurm/submit.sh --results "$RES" --replay "$H100" --replay "$H200" --replay "$SICK" \
    --replay "$H100" --replay "$H200" --replay "$H200" -- --time=10
echo "$OUTTXT"
collect=$(printf '%s\n' "$OUTTXT" | awk -F'\t' '$1 == "collect_job" { print $2 }')
array=$(printf '%s\n' "$OUTTXT" | awk -F'\t' '$1 == "array_job" { print $2 }')
[ -n "$collect" ] && [ -n "$array" ] || die "submit.sh printed no job ids"
expect_says "afterok:$array"

done_=0
for _ in $(seq 1 360); do
    if [ -z "$(squeue -h -j "$array,$collect" 2>/dev/null)" ]; then done_=1; break; fi
    sleep 0.5
done
[ $done_ = 1 ] || die "the jobs did not finish in 3 minutes: $(squeue 2>&1)"
cstate=$(scontrol -o show job "$collect" 2>/dev/null | grep -o 'JobState=[A-Z_]*')
[ "$cstate" = JobState=COMPLETED ] || die "the collect job ended as '${cstate:-unknown}'"

# ---- what came back
n=$(find "$RES" -mindepth 1 -maxdepth 1 -type d -name 'localhost-gpu*' | wc -l)
[ "$n" -eq 6 ] || fail "expected 6 GPU folders in $RES, found $n"
[ -z "$(find "$RES" -maxdepth 1 -name '.task-*')" ] || fail "a task left its unfinished folder"
for f in fleet.tsv fleet_summary.tsv fleet_chart.tsv; do [ -s "$RES/$f" ] || fail "$f was not written"; done
[ -f "$RES/fleet.tsv" ] || die "no fleet.tsv"

# folder names carry the UUID where a set has device.tsv: found, not spelled
gpu_dir() { local d; for d in "$RES"/localhost-gpu"$1"-*; do [ -d "$d" ] && basename "$d"; done; }
G_SICK=$(gpu_dir 2)
case $G_SICK in *-nvidia-h100-80gb-hbm3) ;; *) fail "GPU 2's folder is '$G_SICK', not an H100's" ;; esac
get() { bin/tsv get "$RES/fleet.tsv" "$3" --where gpu="$1" --where figure="$2"; }
[ "$(get $G_SICK dram_lat_cycles flagged)" = 1 ] || fail "the perturbed GPU's DRAM latency is not flagged"
[ "$(get $G_SICK dram_lat_ns flagged)" = 1 ] || fail "the perturbed GPU's DRAM latency in ns is not flagged"
v=$(get $G_SICK dram_lat_cycles value)
[ "$v" = "$sick_dram" ] || [ "$(awk -v a="$v" -v b="$sick_dram" 'BEGIN { print (a - b < 0.06 && b - a < 0.06) }')" = 1 ] ||
    fail "the perturbed DRAM latency reads $v, bin/plot_ladder says $sick_dram"
m=$(get $G_SICK dram_lat_cycles median)
[ "$(awk -v a="$m" -v b="$real_dram" 'BEGIN { print (a - b < 0.06 && b - a < 0.06) }')" = 1 ] ||
    fail "the H100s' median DRAM latency is $m, the real H100's is $real_dram"
# the perturbation touched the DRAM plateau only: its L2 figures are in line
[ "$(get $G_SICK l2_near_lat_cycles flagged)" = 0 ] || fail "the perturbed GPU's L2 latency is flagged too"

# the real sets: judged (three of each model), never flagged
for g in $(gpu_dir 0) $(gpu_dir 3) $(gpu_dir 1) $(gpu_dir 4) $(gpu_dir 5); do
    flags=$(bin/tsv get "$RES/fleet.tsv" flagged --where gpu="$g" | sort -u | tr '\n' ' ')
    case " $flags " in *" 1 "*) fail "$g (a real set) is flagged: $flags" ;; esac
    case " $flags " in *" 0 "*) ;; *) fail "$g was not judged at all: $flags" ;; esac
    [ "$(bin/tsv get "$RES/fleet_summary.tsv" verdict --where gpu="$g")" = ok ] || fail "$g's verdict is not ok"
done
[ "$(bin/tsv get "$RES/fleet_summary.tsv" verdict --where gpu=$G_SICK)" = flagged ] ||
    fail "the perturbed GPU's verdict is not 'flagged'"
[ "$(bin/tsv meta "$RES/fleet_summary.tsv" flagged_gpus)" = 1 ] || fail "more or fewer than one GPU flagged"
# the models are kept apart: an H200's median is the H200s'
h200m=$(get "$(gpu_dir 1)" dram_lat_cycles median)
h200d=$(bin/plot_ladder data/reference/h200/latency_ca.tsv --dram-latency | cut -f1)
[ "$(awk -v a="$h200m" -v b="$h200d" 'BEGIN { print (a - b < 0.06 && b - a < 0.06) }')" = 1 ] ||
    fail "the H200s' median DRAM latency is $h200m, the H200's is $h200d"
# each task said what it replayed
grep -q "replaying $SICK" "$RES"/.logs/task-"${array}"_2.out || fail "task 2's output does not name its folder"

[ "$nfail" -eq 0 ] || show_logs
done_testing
