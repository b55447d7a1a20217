#!/usr/bin/env bash
# ITL-tail benchmark (not part of CI; issue target: <= 60 s wall on 2 cores): the reference
# comparison at packet fidelity with intervals over 20 seeds,
#   pdsim compare scenarios/glm51-2p2d-{efa,roce}.json --set fabric.fidelity=packet --seeds 20
# REPEATS times with --jobs JOBS. Prints each wall time, the median, and whether every repeat's
# seeds.json is byte-identical to the first (determinism across runs).
# Usage: tests/bench/tail_seeds_bench.sh [PDSIM] [REPEATS] [JOBS]
set -euo pipefail
cd "$(dirname "$0")/../.."
P=${1:-build/pdsim}
REPEATS=${2:-3}
JOBS=${3:-2}
export PDSIM_DATA_DIR=$PWD
echo "context: $(date -u +%FT%TZ) commit $(git rev-parse --short HEAD 2>/dev/null || echo ?)" \
  "| $(nproc) CPUs ($(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1))" \
  "| load $(cut -d' ' -f1-3 /proc/loadavg) | jobs $JOBS"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
median() { sort -n | awk '{a[NR]=$1} END {m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2; printf "%.1f", m}'; }
: >"$T/times"
for i in $(seq 1 "$REPEATS"); do
  t0=$(date +%s.%N)
  "$P" compare scenarios/glm51-2p2d-efa.json scenarios/glm51-2p2d-roce.json \
    --set fabric.fidelity=packet --seeds 20 --jobs "$JOBS" --out "$T/run-$i" >"$T/log-$i"
  t1=$(date +%s.%N)
  w=$(awk "BEGIN {printf \"%.1f\", $t1 - $t0}")
  echo "$w" >>"$T/times"
  same="reference"
  [ "$i" -gt 1 ] && { cmp -s "$T/run-1/seeds.json" "$T/run-$i/seeds.json" && same="seeds.json identical to run 1" || same="seeds.json DIFFERS from run 1"; }
  echo "run $i: wall ${w} s; $same"
done
echo "median wall: $(median <"$T/times") s (target <= 60 s on 2 cores)"
sed -n '/ITL tail over/,/^("none"/p' "$T/log-1"
