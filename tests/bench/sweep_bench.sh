#!/usr/bin/env bash
# Sweep throughput (not part of CI): the 1000-point reference family
# scenarios/sweeps/glm51-efa-family-1000.json at analytic fidelity, from scratch, REPEATS times
# with --jobs JOBS; prints each wall time and the median. Then checks that --jobs 1 and --jobs 2
# give identical results on a 50-point shard (compared in canonical order via `sweep merge`).
# Usage: tests/bench/sweep_bench.sh [PDSIM] [REPEATS] [JOBS]
# Set CPUS=0,1 to pin the sweep to those cores (taskset), e.g. on a larger machine.
set -euo pipefail
cd "$(dirname "$0")/../.."
P=${1:-build/pdsim}
REPEATS=${2:-3}
JOBS=${3:-2}
export PDSIM_DATA_DIR=$PWD
PIN=()
if [ -n "${CPUS:-}" ]; then PIN=(taskset -c "$CPUS"); fi
S=scenarios/sweeps/glm51-efa-family-1000.json
# The machine context every figure needs (as google/benchmark prints it).
echo "context: $(date -u +%FT%TZ) commit $(git rev-parse --short HEAD 2>/dev/null || echo ?)" \
  "| $(nproc) CPUs ($(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1))" \
  "| load $(cut -d' ' -f1-3 /proc/loadavg)" \
  "| THP $(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null || echo n/a)" \
  "| jobs $JOBS${CPUS:+ on CPUs $CPUS}"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
times=()
for i in $(seq 1 "$REPEATS"); do
  rm -f "$T/r.jsonl"
  t0=$(date +%s.%N)
  "${PIN[@]}" "$P" sweep "$S" --results "$T/r.jsonl" --jobs "$JOBS" --no-progress >"$T/out.txt"
  t1=$(date +%s.%N)
  w=$(awk "BEGIN {printf \"%.1f\", $t1 - $t0}")
  times+=("$w")
  echo "run $i: $(head -1 "$T/out.txt" | sed 's/ -> .*//'); wall ${w} s"
done
printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2; printf "median wall %.1f s over %d runs (jobs %s)\n", m, NR, "'"$JOBS"'"}'
for j in 1 2; do
  "${PIN[@]}" "$P" sweep "$S" --shard 0/20 --results "$T/j$j.jsonl" --jobs $j --no-progress >/dev/null
  "$P" sweep merge "$T/j$j.jsonl" -o "$T/j$j.sorted" >/dev/null
done
if cmp -s "$T/j1.sorted" "$T/j2.sorted"; then echo "jobs 1 and jobs 2: identical (50 points)"
else echo "jobs 1 and jobs 2: DIFFERENT"; exit 1; fi
