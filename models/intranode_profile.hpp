#pragma once
// Measured intra-node (NVLink / NVSwitch) figures of a GPU profile: the optional `intranode`
// section of models/profiles/gpu/NAME.json, written by hwkernels/make_profile.py from
// hwkernels/reproduce_intranode.sh. Each figure was measured among `gpus` GPUs of one node; the
// analytic fabric (sim/fabric/intranode_terms.hpp) decides which of its NVLink terms take them.
#include "sim/core/json_reader.hpp"

namespace pdsim {

// t(B) = alpha_us + (ranks − 1) · B / busbw_GBps for B bytes per rank (least-squares fit over the
// measured sizes; busbw in NCCL's convention).
struct CollectiveFit {
  double alpha_us = 0;
  double busbw_GBps = 0;
};

struct IntranodeProfile {
  bool present = false;
  int gpus = 0;  // GPUs the figures were measured among
  Json provenance;
  double p2p_GBps = 0;        // per GPU and direction, every rank pushing at once (bulk copy)
  double p2p_latency_us = 0;  // one-way small-message (flag) latency
  CollectiveFit allgather, reduce_scatter;
  // Normal-mode (prefill) EP all-to-all among `gpus` ranks: bytes per rank / time, where bytes
  // = copies per rank (one per token and distinct destination rank, local ones included) ×
  // message bytes (FP8 dispatch, BF16 combine).
  double normal_dispatch_GBps = 0, normal_combine_GBps = 0;
};

// Parses the `intranode` object (field errors name its file and path).
IntranodeProfile parse_intranode_profile(const JsonNode& n);

}  // namespace pdsim
