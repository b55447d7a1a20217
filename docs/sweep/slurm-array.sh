#!/bin/bash
# A sweep split over a Slurm job array: task i of N runs shard i/N on one node, all shards append
# to their own file on a shared file system; resubmitting the array resumes every shard.
# Submit: sbatch --array=0-7 docs/sweep/slurm-array.sh scenarios/sweeps/glm51-efa-family-1000.json
# Then:   pdsim sweep merge out/sweeps/glm51-efa-family-1000.shard-*-of-8.jsonl -o ALL.jsonl
#         pdsim sweep scenarios/sweeps/glm51-efa-family-1000.json --results ALL.jsonl --analyze-only
#SBATCH --job-name=pdsim-sweep
#SBATCH --nodes=1
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=16
#SBATCH --time=01:00:00
#SBATCH --output=out/sweeps/slurm-%A_%a.log
set -euo pipefail
SWEEP=${1:?usage: sbatch --array=0-(N-1) $0 SWEEP.json}
N=${SLURM_ARRAY_TASK_COUNT:?run as a job array}
I=${SLURM_ARRAY_TASK_ID}
# Task ids must be 0..N-1 (--array=0-7), so that shard i/N covers index mod N == i.
exec build/pdsim sweep "$SWEEP" --shard "$I/$N" --jobs "${SLURM_CPUS_PER_TASK:-1}" --no-progress
