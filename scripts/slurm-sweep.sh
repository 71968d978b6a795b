#!/usr/bin/env bash
# A sweep on a real Slurm cluster, on this machine: installs Debian's slurm-wlm and munge,
# starts a single-node cluster (munged, slurmctld, slurmd, from a generated slurm.conf),
# submits a sweep file with deploy/slurm/submit.sh (deploy/slurm/sweep.sbatch as a 4-task
# job array, and deploy/slurm/merge.sbatch chained after it with --dependency=afterok),
# waits for the merge job, and checks that the shards were balanced and that the merged
# database equals a local unsharded run, row for row (wall time aside), and records the
# same sweep. It stops the daemons it started. Needs root (or sudo) for the daemons.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
need_build_deps
need_package sqlite3 sqlite3
need_package sbatch slurm-wlm
need_package munged munge

sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi

swift_build --product chipmunk-sim
sim="$(swift_bin_path)/chipmunk-sim"
work="$(mktemp -d /tmp/slurm-sweep.XXXXXX)"
chmod 755 "$work"
started_munged=""

stop() {
    for daemon in slurmd slurmctld; do
        if [ -f "$work/$daemon.pid" ]; then $sudo kill "$(cat "$work/$daemon.pid")" 2>/dev/null || true; fi
    done
    if [ -n "$started_munged" ]; then $sudo kill "$started_munged" 2>/dev/null || true; fi
    # slurmctld and slurmd take a moment to exit; a second run must not find them.
    for _ in $(seq 1 50); do { pgrep -x slurmctld || pgrep -x slurmd; } >/dev/null || break; sleep 0.1; done
}
trap stop EXIT

# munge: a key (Debian's package makes one), and munged running as the munge user.
if ! pgrep -x munged >/dev/null; then
    if [ ! -f /etc/munge/munge.key ]; then $sudo mungekey --create; fi
    $sudo install -d -o munge -g munge -m 0755 /run/munge
    $sudo runuser -u munge -- /usr/sbin/munged --pid-file=/run/munge/munged.pid
    for _ in $(seq 1 20); do [ -s /run/munge/munged.pid ] && break; sleep 0.1; done
    started_munged="$(cat /run/munge/munged.pid)"
fi

node="$(hostname -s)"
mkdir -p "$work/state" "$work/spool" "$work/out"
cat >"$work/slurm.conf" <<CONF
ClusterName=chipmunk
SlurmctldHost=$node
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
NodeName=$node CPUs=2 State=UNKNOWN
PartitionName=main Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$work/slurm.conf"

echo "== Starting slurmctld and slurmd ($work)"
$sudo env SLURM_CONF="$SLURM_CONF" slurmctld
$sudo env SLURM_CONF="$SLURM_CONF" slurmd
for _ in $(seq 1 60); do
    if sinfo --noheader --Node --format=%t 2>/dev/null | grep -qx "idle"; then break; fi
    sleep 0.5
done
sinfo

# Sweeps/drop-grid.json: Scenes/drop.json over 21 speeds and 3 elasticities, 5 s each (63 runs).
sweep_file=Sweeps/drop-grid.json

echo "== deploy/slurm/submit.sh $sweep_file (a 4-task array, and the merge chained after it)"
start=$SECONDS
submitted="$($sudo env SLURM_CONF="$SLURM_CONF" CHIPMUNK_SIM="$sim" \
    SBATCH_OPTIONS="--cpus-per-task=1 --chdir=$PWD --output=$work/%x-%a.log" \
    deploy/slurm/submit.sh "$sweep_file" "$work/out" 4)"
echo "$submitted"
merge_job="$(echo "$submitted" | sed -n 's/.*merge: \([0-9]*\).*/\1/p')"
state=""
for _ in $(seq 1 600); do
    state="$(scontrol show job "$merge_job" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p')"
    case "$state" in COMPLETED | FAILED | CANCELLED | TIMEOUT | NODE_FAIL | OUT_OF_MEMORY) break ;; esac
    # A dependency that can never be met leaves the merge pending for ever.
    if scontrol show job "$merge_job" 2>/dev/null | grep -q "Reason=DependencyNeverSatisfied"; then
        state=NEVER
        break
    fi
    sleep 0.5
done
echo "array and merge done in $((SECONDS - start)) s (merge job $merge_job: $state)"
for task in 0 1 2 3; do tail -n 1 "$work/chipmunk-sweep-$task.log"; done
cat "$work"/chipmunk-merge-*.log
if [ "$state" != COMPLETED ]; then
    echo "slurm-sweep.sh: FAILED: the merge job ended $state" >&2
    exit 1
fi
# Balanced shards: 63 runs in 4 tasks are 16, 16, 16 and 15.
for task in 0 1 2 3; do
    want=$((task < 3 ? 16 : 15))
    if ! grep -q "(shard $task/4: $want runs)" "$work/chipmunk-sweep-$task.log"; then
        echo "slurm-sweep.sh: FAILED: task $task did not run $want runs" >&2
        exit 1
    fi
done

echo "== The merged database against a local unsharded run"
"$sim" sweep --sweep "$sweep_file" --db "$work/local.sqlite" 2>/dev/null
# Every column but the last (wall_ms).
"$sim" results "$work/out/all.sqlite" | sed 's/,[^,]*$//' >"$work/merged.csv"
"$sim" results "$work/local.sqlite" | sed 's/,[^,]*$//' >"$work/local.csv"
if ! diff -q "$work/merged.csv" "$work/local.csv" >/dev/null; then
    echo "slurm-sweep.sh: FAILED: the merged shards differ from the unsharded run:" >&2
    diff "$work/merged.csv" "$work/local.csv" | head -20 >&2
    exit 1
fi
# Both record the same one sweep (scene hash and plan hash).
sweep_of() { sqlite3 -separator ' ' "$1" 'SELECT scene_hash, plan_hash FROM sweeps'; }
merged_sweep="$(sweep_of "$work/out/all.sqlite")"
local_sweep="$(sweep_of "$work/local.sqlite")"
if [ -z "$merged_sweep" ] || [ "$merged_sweep" != "$local_sweep" ]; then
    echo "slurm-sweep.sh: FAILED: the merged database records sweep '$merged_sweep', the local run '$local_sweep'" >&2
    exit 1
fi
echo "slurm-sweep.sh: $(($(wc -l <"$work/merged.csv") - 1)) runs from 4 Slurm array tasks (16/16/16/15), merged by the chained job, equal the unsharded run row for row (sweep $merged_sweep)"
