#!/usr/bin/env bash
# The sharded sweep under a real mpirun: docs/sweep/mpirun-shards.sh with -np 2 runs
# scenarios/sweeps/quick-smoke.json as shards 0/2 and 1/2 (one per rank, from
# OMPI_COMM_WORLD_RANK/SIZE); `pdsim sweep merge` of the two shard files must equal one local
# `pdsim sweep --jobs 1` run byte for byte. Needs Open MPI's mpirun (setup.sh: openmpi-bin).
# Usage: tests/cli/mpi_sweep_test.sh PDSIM SOURCE_DIR
set -u
# The whole test is bounded: rerun under timeout.
[ -n "${PDSIM_UNDER_TIMEOUT:-}" ] || PDSIM_UNDER_TIMEOUT=1 exec timeout 120 "$0" "$@"
PDSIM=$(readlink -f "$1"); SRC=$(readlink -f "$2")
export PDSIM_DATA_DIR=$SRC
SWEEP=$SRC/scenarios/sweeps/quick-smoke.json
fail() { echo "FAIL mpi_sweep: $*"; exit 1; }
command -v mpirun >/dev/null 2>&1 || fail "mpirun not found: run ./setup.sh (it installs openmpi-bin)"
mpirun --version 2>&1 | grep -q 'Open MPI' || fail "mpirun is not Open MPI's: $(mpirun --version 2>&1 | head -1)"
[ -f "$SWEEP" ] || fail "missing $SWEEP"

T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
trap 'fail "interrupted or timed out"' INT TERM
mkdir -p "$T/build"; ln -s "$PDSIM" "$T/build/pdsim"
ROOT=(); [ "$(id -u)" -eq 0 ] && ROOT=(--allow-run-as-root)
(cd "$T" && timeout 60 mpirun "${ROOT[@]}" --oversubscribe --bind-to none -np 2 \
   "$SRC/docs/sweep/mpirun-shards.sh" "$SWEEP") >"$T/mpirun.log" 2>&1 ||
  { tail -20 "$T/mpirun.log"; fail "mpirun -np 2 docs/sweep/mpirun-shards.sh failed"; }
S0=$T/out/sweeps/quick-smoke.shard-0-of-2.jsonl; S1=$T/out/sweeps/quick-smoke.shard-1-of-2.jsonl
for f in "$S0" "$S1"; do
  [ "$(wc -l < "$f" 2>/dev/null)" = 4 ] || { tail -20 "$T/mpirun.log"; fail "$f: want 4 lines"; }
done
timeout 30 "$PDSIM" sweep merge "$S0" "$S1" -o "$T/ALL.jsonl" >"$T/merge.log" 2>&1 ||
  { cat "$T/merge.log"; fail "pdsim sweep merge failed"; }
grep -q "merged 8 points" "$T/merge.log" || { cat "$T/merge.log"; fail "merge does not say 'merged 8 points'"; }
(cd "$T" && timeout 60 "$PDSIM" sweep "$SWEEP" --jobs 1 --no-progress --results "$T/local.jsonl") >"$T/local.log" 2>&1 ||
  { tail -20 "$T/local.log"; fail "local sweep failed"; }
cmp "$T/ALL.jsonl" "$T/local.jsonl" || fail "merged mpirun shards differ from the local sweep"
echo "mpi_sweep: 2 ranks (4 + 4 points) merged equal the local run"
