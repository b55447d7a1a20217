#!/bin/sh
# Makes the per-configuration scenarios of the DeepSeek-R1 2P2D sweep on 4 x p5en with
# `pdsim import sglang`, from the launch lines of awslabs/awsome-distributed-ai
# 3.test_cases/pytorch/sglang/dsr1-deepep-efa/recipe/serve-pd.sh@911c46bf L246-259 (flags by
# configuration: L206-233), as the measurement folder's README (dsr1-2p2d-p5en-20260624, §2.1)
# tabulates them. Usage: scenarios/dsr1/import.sh [PDSIM [OUT_DIR]]   (run from anywhere; OUT_DIR
# defaults to this folder; tests/cli/cli_test.sh checks that the committed files are its output)
#
# Not imported as run, and why:
#  - deepep (--moe-a2a-backend deepep): DeepEP over NVSHMEM's libfabric transport on EFA has no
#    registered all-to-all backend yet (cpu-proxy is UCCL-EP's); its rows get no prediction.
#  - DP prefill (--dp-size 16 --enable-dp-attention on the prefill role): pdsim models one
#    prefill group of tp x pp GPUs, so the DP configurations' prefill is imported without its DP
#    flags; only their decode TPOT is compared.
set -eu
PDSIM=${1:-pdsim}
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${2:-$HERE}
COMMON="--model-path deepseek-ai/DeepSeek-R1 --trust-remote-code \
--disaggregation-transfer-backend mooncake --disaggregation-bootstrap-port 8998 --nnodes 2 \
--node-rank 0 --dist-init-addr 10.0.0.1:29500 --host 0.0.0.0 --port 30000 --watchdog-timeout 1200"
PREFILL="--disaggregation-mode prefill --mem-fraction-static 0.82 --chunked-prefill-size 16384"
DECODE="--disaggregation-mode decode"
DP="--dp-size 16 --enable-dp-attention --enable-dp-lm-head --moe-dense-tp-size 1 --disable-radix-cache"
DP_DECODE="--mem-fraction-static 0.78 --cuda-graph-bs 128 --max-running-requests 256"

# Model, cluster, fabric and workload come from the baseline scenario (every configuration shares
# them); import replaces the prefill and decode sections. Then the name and description follow
# the configuration.
one() {  # name, MoE flags, decode role flags, description
  out="$OUT/dsr1-2p2d-p5en-$1.json"
  "$PDSIM" import sglang --base "$HERE/dsr1-2p2d-p5en-baseline.json" \
    --prefill "$COMMON $2 $PREFILL" --decode "$COMMON $2 $DECODE $3" -o "$out.tmp" 2>/dev/null
  desc="DeepSeek-R1 2P2D on 4 x p5en as awslabs/awsome-distributed-ai dsr1-deepep-efa ran it\
 (RESULTS-2p2d@911c): $4 on both roles; the decode-table workload (256 in / 512 out, concurrency\
 32, 64 prompts released at once). Made by import.sh from the published launch lines (flags without\
 effect on the model: host, ports, rendezvous, watchdog); the what-if table in scenarios/README.md\
 runs it at every published point."
  sed -e "s|\"name\": \"[^\"]*\"|\"name\": \"dsr1-2p2d-p5en-$1\"|" \
      -e "s|\"description\": \".*\",\$|\"description\": \"$desc\",|" "$out.tmp" > "$out"
  rm -f "$out.tmp"
}
# SGLang picks the capture list when --cuda-graph-bs is not given; the source says each rank
# "captures the full batch-size list [1..512]" then (RESULTS-2p2d@911c L262): max 512.
GRAPHS="--cuda-graph-max-bs 512"
BASE="--tp-size 16 --ep-size 16 --moe-a2a-backend none"
one baseline "$BASE" "--mem-fraction-static 0.82 $GRAPHS" \
  "the 'baseline' configuration ($BASE, no DP attention)"
one tp "--tp-size 16" "--mem-fraction-static 0.82 $GRAPHS" \
  "the 'pure TP' configuration (--tp-size 16: MoE tensor-parallel, no DP attention)"
one baseline-dp "$BASE" "$DP $DP_DECODE" \
  "the 'baseline+DP' configuration ($BASE, decode DP attention 16; prefill without its DP flags)"
one tp-dp "--tp-size 16" "$DP $DP_DECODE" \
  "the 'pure TP+DP' configuration (--tp-size 16, decode DP attention 16; prefill without its DP flags)"
