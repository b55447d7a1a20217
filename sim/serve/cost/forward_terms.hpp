#pragma once
// The breakdown of one decode iteration (µs), as the iteration timer returns it: every term the
// actor sleeps for. Draft forwards (their own all-to-alls included) are one term.
#include <map>
#include <string>

namespace pdsim {

struct ForwardTerms {
  double attention_us = 0;    // MoE layers' attention blocks (slowest rank per layer)
  double moe_compute_us = 0;  // routed + shared experts (slowest rank per layer)
  double dispatch_us = 0;
  double combine_us = 0;
  double collective_us = 0;  // the layout's NCCL collectives (TP all-reduce, DP gathers)
  double draft_us = 0;       // all draft-model forwards (their own a2a included)
  double other_us = 0;       // dense layers, embedding, LM head (slowest rank)
  double launch_us = 0;      // kernel launch or CUDA-graph replay overhead
  double scheduler_us = 0;   // decode.scheduler_overhead_us and scheduler hiccups
  double host_us = 0;        // serving stack's host work not hidden by the overlap scheduler
  double total_us() const;
  void add(const ForwardTerms& o);
  std::map<std::string, double> named() const;
};

}  // namespace pdsim
