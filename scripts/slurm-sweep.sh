#!/usr/bin/env bash
# A sweep on a real Slurm cluster, on this machine: installs Debian's slurm-wlm and munge,
# starts a single-node cluster (munged, slurmctld, slurmd, from a generated slurm.conf),
# submits deploy/slurm/sweep.sbatch as a 4-task job array, waits, merges the 4 shard
# databases, and checks that the result equals a local unsharded run, row for row (wall
# time aside). It stops the daemons it started. Needs root (or sudo) for the daemons.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
need_chipmunk
need_sqlite
need_cairo
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

sweep=(Scenes/drop.json --param "speed=log:1:1e20:21" --param "elasticity=0.2,0.5,0.8" --seconds 5)

echo "== sbatch --array=0-3 deploy/slurm/sweep.sbatch"
start=$SECONDS
$sudo env SLURM_CONF="$SLURM_CONF" CHIPMUNK_SIM="$sim" \
    sbatch --wait --array=0-3 --cpus-per-task=1 --chdir="$PWD" --output="$work/task-%a.log" \
    deploy/slurm/sweep.sbatch "${sweep[0]}" "$work/out" "${sweep[@]:1}"
echo "array done in $((SECONDS - start)) s"
for task in 0 1 2 3; do tail -n 1 "$work/task-$task.log"; done

echo "== Merging the shards, and a local unsharded run"
"$sim" merge "$work/merged.sqlite" "$work"/out/shard-{0,1,2,3}.sqlite
"$sim" sweep "${sweep[@]}" --db "$work/local.sqlite" 2>/dev/null
# Every column but the last (wall_ms).
"$sim" results "$work/merged.sqlite" | sed 's/,[^,]*$//' >"$work/merged.csv"
"$sim" results "$work/local.sqlite" | sed 's/,[^,]*$//' >"$work/local.csv"
if ! diff -q "$work/merged.csv" "$work/local.csv" >/dev/null; then
    echo "slurm-sweep.sh: FAILED: the merged shards differ from the unsharded run:" >&2
    diff "$work/merged.csv" "$work/local.csv" | head -20 >&2
    exit 1
fi
echo "slurm-sweep.sh: $(($(wc -l <"$work/merged.csv") - 1)) runs from 4 Slurm array tasks, merged, equal the unsharded run row for row"
