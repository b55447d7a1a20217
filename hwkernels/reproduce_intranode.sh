#!/usr/bin/env bash
# Intra-node (NVLink / NVSwitch) benchmarks on every visible GPU (2..8): builds hwkernels/ on its
# own, runs nvlink (bulk P2P), ep (EP-N dispatch/combine), collectives (P2P latency, all-gather,
# reduce-scatter at CP sizes) and nccl (all-reduce bus bandwidth, when NCCL is found at build
# time), checks, and turns the results into the `intranode` section of a GPU profile.
# Usage: hwkernels/reproduce_intranode.sh [RESULTS_DIR] [--quick]   (default ./intranode-results)
# Several runs into one profile section (median over runs) and into the GPU profile:
#   python3 hwkernels/make_intranode.py RUN1 RUN2 RUN3 --out intranode.json \
#     --merge-into models/profiles/gpu/h200-measured.json --command "..."
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
RESULTS=$(mkdir -p "${1:-intranode-results}" && cd "${1:-intranode-results}" && pwd)
QUICK=${2:-}
BUILD=${HWBENCH_BUILD_DIR:-/tmp/pdsim-hwbench-build}
export PATH=/usr/local/cuda/bin:$PATH
export NCCL_NVLS_ENABLE=0  # never NVLink multicast (see hwkernels/README.md)
LOG="$RESULTS/log.txt"
: >"$LOG"

cmake -S "$HERE" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release >>"$LOG" 2>&1 &&
  cmake --build "$BUILD" -j "$(nproc)" >>"$LOG" 2>&1 || { tail -40 "$LOG"; exit 1; }
grep -E "hwkernels: NCCL" "$LOG"

q=name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,clocks.max.mem,power.draw,power.limit,temperature.gpu,pstate
{
  echo "host=$(hostname)"
  echo "date_utc=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "nvcc=$(nvcc --version | tail -1)"
  echo "kernel=$(uname -r)"
  echo "gpus=$(nvidia-smi -L | wc -l)"
  echo "nccl_build=$(grep -E 'hwkernels: NCCL' "$LOG" | head -1)"
  echo "smi_query=$q"
  nvidia-smi --query-gpu=$q --format=csv,noheader | sed 's/^/smi_before=/'
  nvidia-smi topo -m 2>/dev/null | sed 's/^/topo=/'
  nvidia-smi nvlink -s -i 0 2>/dev/null | sed 's/^/nvlink0=/'
} >"$RESULTS/env.txt"

status=0
for b in nvlink ep collectives nccl; do
  "$BUILD/pdsim-hwbench" --only "$b" --out "$RESULTS" $QUICK 2>&1 | tee -a "$LOG" || status=1
  nvidia-smi --query-gpu=$q --format=csv,noheader | sed "s/^/smi_after_$b=/" >>"$RESULTS/env.txt"
done
python3 "$HERE/check_results.py" "$RESULTS" nvlink,ep,collectives,nccl 2>&1 | tee -a "$LOG" || status=1
python3 "$HERE/make_intranode.py" "$RESULTS" --out "$RESULTS/intranode.json" \
  --command "hwkernels/reproduce_intranode.sh" 2>&1 | tee -a "$LOG" || status=1
exit $status
