#!/usr/bin/env bash
# Builds hwkernels/ on its own and runs every H200 microbenchmark; everything lands in one folder:
# raw-*.json (raw tables), nvidia-smi readings, the log, and h200-measured.json (the GPU profile,
# with its intranode section when 2 or more GPUs are visible; see reproduce_intranode.sh).
# Usage: hwkernels/reproduce.sh [RESULTS_DIR]     (default: ./hwbench-results)
# Needs: an NVIDIA H200 (any NVIDIA GPU runs, the profile name assumes H200), nvcc, cmake, python3.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(dirname "$HERE")
RESULTS=$(mkdir -p "${1:-hwbench-results}" && cd "${1:-hwbench-results}" && pwd)
BUILD=${HWBENCH_BUILD_DIR:-/tmp/pdsim-hwbench-build}
export PATH=/usr/local/cuda/bin:$PATH
LOG="$RESULTS/log.txt"
: >"$LOG"

cmake -S "$HERE" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release >>"$LOG" 2>&1 &&
  cmake --build "$BUILD" -j "$(nproc)" >>"$LOG" 2>&1 || { tail -40 "$LOG"; exit 1; }

q=name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,clocks.max.mem,power.draw,power.limit,temperature.gpu,pstate
{
  echo "host=$(hostname)"
  echo "date_utc=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "nvcc=$(nvcc --version | tail -1)"
  echo "kernel=$(uname -r)"
  echo "smi_query=$q"
  nvidia-smi --query-gpu=$q --format=csv,noheader | sed 's/^/smi_before=/'
  nvidia-smi topo -m 2>/dev/null | sed 's/^/topo=/'
} >"$RESULTS/env.txt"

status=0
for b in proxy launch hbm gemm attention prefill nvlink ep collectives nccl; do
  "$BUILD/pdsim-hwbench" --only "$b" --out "$RESULTS" 2>&1 | tee -a "$LOG" || status=1
  nvidia-smi --query-gpu=$q --format=csv,noheader | sed "s/^/smi_after_$b=/" >>"$RESULTS/env.txt"
done

python3 "$HERE/check_results.py" "$RESULTS" 2>&1 | tee -a "$LOG" || status=1
python3 "$HERE/make_profile.py" "$RESULTS" --catalog "$ROOT/models/catalog/gpu/h200.json" \
  --command "hwkernels/reproduce.sh" --out "$RESULTS/h200-measured.json" 2>&1 | tee -a "$LOG" || status=1
python3 "$HERE/make_intranode.py" "$RESULTS" --out "$RESULTS/intranode.json" --command "hwkernels/reproduce.sh" \
  --merge-into "$RESULTS/h200-measured.json" 2>&1 | tee -a "$LOG" || status=1
exit $status
