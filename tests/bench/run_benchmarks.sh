#!/usr/bin/env bash
# Runs the repository's benchmarks (not part of CI). Usage: tests/bench/run_benchmarks.sh [BUILD_DIR]
# Prints Google Benchmark's report (machine context, median of 5 repetitions) and, for the CLI
# path, wall time and peak RSS of `pdsim run` on the reference scenarios.
set -euo pipefail
cd "$(dirname "$0")/../.."
B=${1:-build}
export PDSIM_DATA_DIR=$PWD
"$B/pdsim_bench" --benchmark_repetitions=5 --benchmark_report_aggregates_only=false
for s in glm51-2p2d-efa glm51-2p2d-roce; do
  for i in 1 2 3 4 5; do
    /usr/bin/time -f "$s run $i: wall %e s, peak RSS %M KB" "$B/pdsim" run "scenarios/$s.json" --out "/tmp/pdsim-bench-$s" >/dev/null
  done
done
if [ -x tests/bench/scale_bench.sh ]; then tests/bench/scale_bench.sh "$B/pdsim" 5 3; fi
if [ -x tests/bench/packet_bench.sh ]; then tests/bench/packet_bench.sh "$B"; fi
if [ -x tests/bench/tail_seeds_bench.sh ]; then tests/bench/tail_seeds_bench.sh "$B/pdsim" 3 2; fi
if [ -x tests/bench/calibrate_serving_bench.sh ]; then tests/bench/calibrate_serving_bench.sh "$B/pdsim" 3 2; fi
