#include "models/intranode_profile.hpp"

#include "sim/core/provenance.hpp"

namespace pdsim {
namespace {

CollectiveFit parse_fit(const JsonNode& n) {
  CollectiveFit f;
  f.alpha_us = n.at("alpha_us").non_negative();
  f.busbw_GBps = n.at("busbw_GBps").positive();
  return f;
}

}  // namespace

IntranodeProfile parse_intranode_profile(const JsonNode& n) {
  n.expect_only({"gpus", "provenance", "p2p_GBps", "p2p_latency_us", "allgather", "reduce_scatter",
                 "normal_a2a", "measurements"});
  IntranodeProfile p;
  p.present = true;
  const int64_t gpus = n.at("gpus").positive_integer();
  if (gpus < 2) n.at("gpus").fail("expected at least 2 GPUs (intra-node figures need peers)");
  p.gpus = static_cast<int>(gpus);
  p.provenance = read_provenance(n.at("provenance"));
  p.p2p_GBps = n.at("p2p_GBps").positive();
  p.p2p_latency_us = n.at("p2p_latency_us").non_negative();
  p.allgather = parse_fit(n.at("allgather"));
  p.reduce_scatter = parse_fit(n.at("reduce_scatter"));
  const JsonNode a2a = n.at("normal_a2a");
  p.normal_dispatch_GBps = a2a.at("dispatch_GBps").positive();
  p.normal_combine_GBps = a2a.at("combine_GBps").positive();
  return p;
}

}  // namespace pdsim
