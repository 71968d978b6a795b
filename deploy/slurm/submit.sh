#!/usr/bin/env bash
# Submits a sweep file as a Slurm job array of TASKS shards and the merge chained after it:
#
#   deploy/slurm/submit.sh Sweeps/drop-grid.json /shared/drop 4 [chipmunk-sim sweep options]
#
# prints both job ids; OUTDIR/all.sqlite holds every run when the merge job has finished.
# Extra sbatch options go in SBATCH_OPTIONS (such as "--partition=main --account=x").
set -euo pipefail
if [ $# -lt 3 ]; then
    echo "usage: $0 SWEEP.json OUTDIR TASKS [chipmunk-sim sweep options]" >&2
    exit 2
fi
sweep="$1"
outdir="$2"
tasks="$3"
shift 3
here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck disable=SC2086 # SBATCH_OPTIONS is a list of options
array=$(sbatch --parsable ${SBATCH_OPTIONS:-} --array=0-$((tasks - 1)) "$here/sweep.sbatch" "$sweep" "$outdir" "$@")
array="${array%%;*}"  # --parsable prints "jobid" or "jobid;cluster"
# shellcheck disable=SC2086
merge=$(sbatch --parsable ${SBATCH_OPTIONS:-} --dependency=afterok:"$array" "$here/merge.sbatch" "$outdir")
echo "sweep array: $array ($tasks tasks); merge: ${merge%%;*} (after every task succeeds)"
