#!/bin/bash
# A sweep split over the ranks of one mpirun: rank i of N runs shard i/N into its own results file
# (default out/sweeps/<name>.shard-i-of-N.jsonl, on a file system all hosts share). pdsim is not an
# MPI program: mpirun only starts one process per rank (on the hosts of its hostfile) and sets
# OMPI_COMM_WORLD_RANK/SIZE (Open MPI) or PMI_RANK/PMI_SIZE (MPICH, Intel MPI). Rerunning resumes
# every shard. Run from the repository (or any folder holding build/pdsim):
#   mpirun -np 8 --hostfile hosts docs/sweep/mpirun-shards.sh scenarios/sweeps/glm51-efa-family-1000.json
#   (as root, or more ranks than cores: add --allow-run-as-root --oversubscribe)
# Then:
#   pdsim sweep merge out/sweeps/glm51-efa-family-1000.shard-*-of-8.jsonl -o ALL.jsonl
#   pdsim sweep scenarios/sweeps/glm51-efa-family-1000.json --results ALL.jsonl --analyze-only
# tests/cli/mpi_sweep_test.sh runs this script with -np 2 and checks the merge against one process.
set -euo pipefail
SWEEP=${1:?usage: mpirun -np N $0 SWEEP.json [JOBS]}
I=${OMPI_COMM_WORLD_RANK:-${PMI_RANK:?not started by mpirun}}
N=${OMPI_COMM_WORLD_SIZE:-${PMI_SIZE:?not started by mpirun}}
# Worker processes per rank: one rank per host with --jobs = its cores, or one rank per core with 1.
exec build/pdsim sweep "$SWEEP" --shard "$I/$N" --jobs "${2:-1}" --no-progress
