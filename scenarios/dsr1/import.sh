#!/bin/sh
# Makes the per-configuration scenarios of the DeepSeek-R1 2P2D sweep on 4 x p5en with
# `pdsim import sglang`, from the launch lines of awslabs/awsome-distributed-ai
# 3.test_cases/pytorch/sglang/dsr1-deepep-efa/recipe/serve-pd.sh@911c46bf L246-259 (flags by
# configuration: L206-233), as the measurement folder's README (dsr1-2p2d-p5en-20260624, §2.1)
# tabulates them. Usage: scenarios/dsr1/import.sh [PDSIM [OUT_DIR]]   (run from anywhere; OUT_DIR
# defaults to this folder; tests/cli/cli_test.sh checks that the committed files are its output)
#
# Every line carries the container environment of serve-pd.sh@911c L125-137 (README section
# 2.2): NVSHMEM_REMOTE_TRANSPORT=libfabric makes the DeepEP configurations' all-to-all backend
# nvshmem-proxy (DeepEP over NVSHMEM's libfabric proxy); MOONCAKE_PROTOCOL=efa keeps the KV cache
# on EFA RDMA; the rest has no effect on the model and is listed as ignored. The UCCL-EP rows
# ran on a third image whose launcher is not published (README sections 1 and 2.2): UCCL-EP's
# deep_ep_wrapper replaces DeepEP and NVSHMEM, so their lines carry the environment without the
# NVSHMEM variables and keep the base scenario's all-to-all backend, cpu-proxy (UCCL-EP's). Which
# of a GPU's two NICs UCCL-EP drove is not published: decode.a2a_nics stays the base's (all).
#
# The DP configurations pass the DP flags to both roles (serve-pd.sh@911c L206-233 sets them per
# configuration, not per role).
set -eu
PDSIM=${1:-pdsim}
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${2:-$HERE}
ENV="NCCL_SOCKET_IFNAME=enp71s0 GLOO_SOCKET_IFNAME=enp71s0 FI_PROVIDER=efa \
FI_EFA_USE_DEVICE_RDMA=1 NVSHMEM_REMOTE_TRANSPORT=libfabric NVSHMEM_LIBFABRIC_PROVIDER=efa \
NVSHMEM_NETDEVS_POLICY=EXTERNAL_SHARING_PCIE_SWITCH_NIC_EXCLUSIVE NVSHMEM_BOOTSTRAP=UID \
MOONCAKE_PROTOCOL=efa MC_FORCE_AUTO_DISCOVERY=1"
LAUNCH="python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-R1 --trust-remote-code \
--disaggregation-transfer-backend mooncake --disaggregation-bootstrap-port 8998 --nnodes 2 \
--node-rank 0 --dist-init-addr 10.0.0.1:29500 --host 0.0.0.0 --port 30000 --watchdog-timeout 1200"
PREFILL="--disaggregation-mode prefill --mem-fraction-static 0.82 --chunked-prefill-size 16384"
DECODE="--disaggregation-mode decode"
DP="--dp-size 16 --enable-dp-attention --enable-dp-lm-head --moe-dense-tp-size 1 --disable-radix-cache"
DP_DECODE="--mem-fraction-static 0.78 --cuda-graph-bs 128 --max-running-requests 256"

# Model, cluster, fabric and workload come from the baseline scenario (every configuration shares
# them); import replaces the prefill and decode sections. Then the name and description follow
# the configuration.
# BASE_FILE, PRE_ENV (the prefill line's environment when it differs from LINE_ENV), and CLUSTER,
# AS and USE (in the description), may be set for one call.
one_named() {  # scenario name, MoE flags, decode role flags, description[, prefill MoE flags]
  out="$OUT/$1.json"
  "$PDSIM" import sglang --base "${BASE_FILE:-$HERE/dsr1-2p2d-p5en-baseline.json}" \
    --prefill "${PRE_ENV-${LINE_ENV-$ENV}} $LAUNCH ${5:-$2} $PREFILL" \
    --decode "${LINE_ENV-$ENV} $LAUNCH $2 $DECODE $3" -o "$out.tmp" 2>/dev/null
  both=" on both roles"
  [ -z "${5:-}" ] || both=""
  desc="DeepSeek-R1 2P2D on ${CLUSTER:-4 x p5en} ${AS:-as awslabs/awsome-distributed-ai dsr1-deepep-efa ran it}\
 (RESULTS-2p2d@911c): $4$both; the decode-table workload (256 in / 512 out, concurrency\
 32, 64 prompts released at once). Made by import.sh from the published launch lines (flags without\
 effect on the model: host, ports, rendezvous, watchdog); ${USE:-the what-if table in\
 scenarios/README.md runs it at every published point}."
  sed -e "s|\"name\": \"[^\"]*\"|\"name\": \"$1\"|" \
      -e "s|\"description\": \".*\",\$|\"description\": \"$desc\",|" "$out.tmp" > "$out"
  rm -f "$out.tmp"
}
one() {  # configuration name (the scenario is dsr1-2p2d-p5en-NAME), then as one_named
  name=$1
  shift
  one_named "dsr1-2p2d-p5en-$name" "$@"
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
  "the 'baseline+DP' configuration ($BASE, DP attention 16)" "$BASE $DP"
one tp-dp "--tp-size 16" "$DP $DP_DECODE" \
  "the 'pure TP+DP' configuration (--tp-size 16, DP attention 16)" "--tp-size 16 $DP"
# DeepEP: the non-DP rows ran --deepep-mode auto (README section 2.1: SGLang resolves it per batch,
# normal for prefill batches and low_latency for decode batches); DeepEP+DP pinned each role.
DEEPEP="--tp-size 16 --ep-size 16 --moe-a2a-backend deepep"
one deepep "$DEEPEP --deepep-mode auto" "--mem-fraction-static 0.82 $GRAPHS" \
  "the 'DeepEP' configuration ($DEEPEP --deepep-mode auto, no DP attention: DeepEP over NVSHMEM's libfabric transport)"
one deepep-dp "$DEEPEP" "--deepep-mode low_latency $DP $DP_DECODE" \
  "the 'DeepEP+DP' configuration ($DEEPEP, DP attention 16; decode --deepep-mode low_latency, prefill --deepep-mode normal)" \
  "$DEEPEP --deepep-mode normal $DP"
# UCCL-EP (held out of the measurement folder: its rows check these predictions). Modes pinned per
# role; decode --mem-fraction-static 0.70 as the script has it (the prose says 0.78 for UCCL+DP).
UCCL_ENV="NCCL_SOCKET_IFNAME=enp71s0 GLOO_SOCKET_IFNAME=enp71s0 FI_PROVIDER=efa \
FI_EFA_USE_DEVICE_RDMA=1 MOONCAKE_PROTOCOL=efa MC_FORCE_AUTO_DISCOVERY=1"
LINE_ENV=$UCCL_ENV one uccl "$DEEPEP" "--deepep-mode low_latency --mem-fraction-static 0.70 $GRAPHS" \
  "the 'UCCL-EP' configuration ($DEEPEP on the UCCL-EP image: cpu-proxy; decode --deepep-mode low_latency, prefill --deepep-mode normal, no DP attention)" \
  "$DEEPEP --deepep-mode normal"
LINE_ENV=$UCCL_ENV one uccl-dp "$DEEPEP" \
  "--deepep-mode low_latency $DP --cuda-graph-bs 128 --max-running-requests 256 --mem-fraction-static 0.70" \
  "the 'UCCL-EP+DP' configuration ($DEEPEP on the UCCL-EP image: cpu-proxy; DP attention 16; decode --deepep-mode low_latency, prefill --deepep-mode normal)" \
  "$DEEPEP --deepep-mode normal $DP"
# The split the source proposes but never ran end to end (RESULTS-2p2d@911c L450-452, README
# caveat 6): DeepEP over NVSHMEM's libfabric transport on the prefill (its NVSHMEM environment:
# prefill.a2a_backend nvshmem-proxy), UCCL-EP with DP attention on the decode (UCCL's environment:
# the base's cpu-proxy). A what-if: no measurement to compare with.
PRE_ENV=$ENV LINE_ENV=$UCCL_ENV AS="from the launch lines of awslabs/awsome-distributed-ai dsr1-deepep-efa, in a split never run end to end" \
  USE="a what-if: no run of this split was published" \
  one deepep-prefill-uccl-dp-decode "$DEEPEP" \
  "--deepep-mode low_latency $DP --cuda-graph-bs 128 --max-running-requests 256 --mem-fraction-static 0.70" \
  "DeepEP prefill ($DEEPEP --deepep-mode normal over NVSHMEM's libfabric transport, no DP attention) with the 'UCCL-EP+DP' decode (cpu-proxy, --deepep-mode low_latency, DP attention 16)" \
  "$DEEPEP --deepep-mode normal"
# The DeepEP configuration on 4 x p5.48xlarge (H100 80 GB, 32 x 100 Gb/s EFA): the source's p5
# rows are held out of the measurement folder. Same launch lines; the base swaps the instance, its
# fabric profile (efa-p5) and the GPU profile (h100-datasheet: no H100 was measured here).
# (Beside the baseline, so that its relative overlay path resolves as the baseline's does.)
P5_BASE=$(mktemp "$HERE/.p5-base.XXXXXX")
sed -e 's/"p5en.48xlarge"/"p5.48xlarge"/' -e 's/"efa-p5en"/"efa-p5"/' \
    -e 's/"h200-measured"/"h100-datasheet"/' "$HERE/dsr1-2p2d-p5en-baseline.json" > "$P5_BASE"
BASE_FILE=$P5_BASE CLUSTER="4 x p5.48xlarge (H100)" \
  USE="its rows are held out of the measurement folder, to check it" one_named dsr1-2p2d-p5-deepep \
  "$DEEPEP --deepep-mode auto" "--mem-fraction-static 0.82 $GRAPHS" \
  "the 'DeepEP' configuration ($DEEPEP --deepep-mode auto, no DP attention: DeepEP over NVSHMEM's libfabric transport)"
rm -f "$P5_BASE"
