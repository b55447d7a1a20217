#!/usr/bin/env bash
# Regenerates the shipped fabric profiles from the published measurement files.
# Run from the repository root after building: calibrate/published/regenerate_profiles.sh [PDSIM]
# tests/unit/calibrate_fit_profiles_test.cpp refits with the same arguments and checks that the
# committed profiles have not drifted.
set -euo pipefail
PDSIM=${1:-build/pdsim}
M=calibrate/published
export PDSIM_DATA_DIR=${PDSIM_DATA_DIR:-$(pwd)}

# AWS p5en.48xlarge: 8x H200, 16x 200 Gb/s EFA (SRD).
# The UCCL-EP rows share one shape (EP16, 128 tokens), so cpu-proxy's fixed latency and its
# per-message cost are not separately identifiable (the free fit puts the latency at its 0 bound);
# the latency is held at the one-way EFA small-message latency, RTT 20 µs / 2 from
# uccl-blog-rtt-efa.json (the profile's rdma_alpha_us), and only the per-message cost is fitted.
"$PDSIM" calibrate fit \
  $M/uccl-ep-p5en-ll.json $M/uccl-pr505-p5en.json $M/uccl-blog-proxy-path.json \
  $M/pplx-efa-ll.json $M/uccl-blog-rtt-efa.json $M/mooncake-efa-p5en.json \
  $M/nccl-allreduce-p5en.json $M/uccl-ep-p5en-normal.json \
  $M/nvshmem-libfabric-source.json $M/deepep-nvshmem-efa-p5en-ll.json \
  $M/deepep-nvshmem-efa-p5en-normal.json \
  --alternate $M/fi-pingpong-efa.json --alternate $M/uccl-blog-ep32-batching.json \
  --alternate $M/deepep-normal-intranode-h800.json \
  --alternate $M/deepep-nvshmem-efa-p5-ll.json --alternate $M/deepep-nvshmem37-efa-table-ll.json \
  --fix cpu-proxy.latency_us=10 --fix nvshmem-proxy.latency_us=10 \
  --name efa-p5en --transport srd --instance p5en.48xlarge \
  -o models/profiles/fabric/efa-p5en.json

# AWS p5.48xlarge: 8x H100, 32x 100 Gb/s EFA (SRD). Only DeepEP over NVSHMEM's libfabric proxy has
# published all-to-all figures on p5 (nvshmem-proxy: low-latency and normal mode, whn09), so it is
# the only all-to-all backend in this profile; the p5en build of the same test is the alternate.
# Transferred from p5en, each stated in the profile's notes: the EFA round trip (same SRD), the
# Mooncake curve (per NIC: scaled by NICs used, capped at 32 x 100 Gb/s x efficiency), NVLink
# (H100 and H200 share the NVLink 4 NVSwitch baseboard).
"$PDSIM" calibrate fit \
  $M/nvshmem-libfabric-source.json $M/deepep-nvshmem-efa-p5-ll.json \
  $M/deepep-nvshmem-efa-p5-normal.json $M/uccl-blog-rtt-efa.json $M/mooncake-efa-p5en.json \
  $M/nccl-allreduce-p5en.json $M/uccl-ep-p5en-normal.json \
  --alternate $M/deepep-nvshmem-efa-p5en-ll.json \
  --fix nvshmem-proxy.latency_us=10 \
  --name efa-p5 --transport srd --instance p5.48xlarge \
  -o models/profiles/fabric/efa-p5.json

# On-prem 8x H200 + ConnectX-7 400 Gb/s per GPU, RoCE v2 (RC). NVLink figures are the H200
# node's (p5en has the same H200 NVSwitch baseboard). DeepEP's in-serving fixed cost, which no
# microbenchmark identifies, gets its prior from LMSYS's real-serving figure on ConnectX-7
# InfiniBand (calibrate/serving_prior.hpp).
"$PDSIM" calibrate fit \
  $M/deepep-ll-cx7-2025-06.json $M/pplx-cx7-ll.json $M/uccl-blog-rtt-roce.json \
  $M/roce-v2-framing.json $M/nccl-allreduce-p5en.json $M/uccl-ep-p5en-normal.json \
  $M/lmsys-deepep-serving-ib.json \
  --alternate $M/pplx-deepep-cx7-ll.json --alternate $M/deepep-ll-cx7-2025-02.json \
  --alternate $M/deepep-normal-intranode-h800.json \
  --name roce-cx7 --transport rc --instance onprem-h200-cx7 \
  -o models/profiles/fabric/roce-cx7.json

# NCCL collectives across two nodes over EFA (aws-ofi-nccl), p5 (32 x 100G) and p5en (16 x 200G):
# one stack at 3200 Gb/s per node, so the rows of both instance types share one curve.
"$PDSIM" calibrate collective \
  $M/nccl-allreduce-2node-p5.json $M/nccl-allreduce-2node-p5en.json \
  --library "NCCL 2.23.4 + aws-ofi-nccl 1.19.0" \
  --fabric "EFA, 3200 Gb/s per node (p5: 32 x 100G, p5en: 16 x 200G)" \
  --name nccl-2.23-ofi-1.19-efa -o models/profiles/collective/nccl-2.23-ofi-1.19-efa.json
