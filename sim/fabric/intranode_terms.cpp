#include "sim/fabric/intranode_terms.hpp"

namespace pdsim {

Json apply_intranode_profile(FabricProfile& fabric, const GpuProfile& gpu) {
  const IntranodeProfile& m = gpu.intranode;
  const std::string published =
      "fabric profile '" + fabric.name + "' (published, see its provenance)";
  Json src = Json::object();
  if (!m.present) {
    for (const char* term :
         {"nvlink_GBps", "nvlink_alpha_us", "cp_allgather", "prefill_normal_a2a"})
      src[term] = published;
    src["note"] = "GPU profile '" + gpu.name + "' has no intranode section";
    return src;
  }
  const std::string measured = "GPU profile '" + gpu.name + "' intranode (measured among " +
                               std::to_string(m.gpus) + " GPUs)";
  fabric.nvlink_GBps = m.p2p_GBps;
  fabric.nvlink_alpha_us = m.p2p_latency_us;
  fabric.nvlink_measured.allgather = true;
  fabric.nvlink_measured.allgather_fit = m.allgather;
  fabric.nvlink_measured.normal_a2a_ranks = m.gpus;
  fabric.nvlink_measured.normal_dispatch_GBps = m.normal_dispatch_GBps;
  fabric.nvlink_measured.normal_combine_GBps = m.normal_combine_GBps;
  src["nvlink_GBps"] = measured + ": p2p_GBps";
  src["nvlink_alpha_us"] = measured + ": p2p_latency_us";
  src["cp_allgather"] = measured + ": allgather fit";
  src["prefill_normal_a2a"] = "EP" + std::to_string(m.gpus) + ": " + measured +
                              ": normal_a2a; other EP degrees: " + published +
                              " nvlink_normal_a2a_GBps + measured nvlink_alpha_us";
  return src;
}

}  // namespace pdsim
