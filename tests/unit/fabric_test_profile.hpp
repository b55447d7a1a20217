#pragma once
// A hand-made fabric profile for fabric/calibrate unit tests (numbers chosen for easy hand
// arithmetic, not taken from any measurement).
#include "sim/fabric/alltoall.hpp"
#include "sim/fabric/fabric_profile.hpp"

namespace pdsim::testing {

inline FabricProfile hand_profile() {
  FabricProfile p;
  p.file = "hand-profile.json";
  p.name = "hand";
  p.transport = "rc";
  p.rdma_nic_efficiency = 0.9;  // 2 × 200 Gb/s × 0.9 = 45 GB/s = 45000 B/µs per GPU
  p.nvlink_GBps = 400;          // 400000 B/µs
  p.nvlink_normal_a2a_GBps = 300;
  p.nvlink_alpha_us = 2;
  p.a2a = Json::object();
  p.a2a["ibgda"] = {{"dispatch_latency_us", 20}, {"combine_latency_us", 30},
                    {"issue_us_per_msg", 0.05},  {"nvlink_us_per_msg", 0.01},
                    {"wire_time_factor", 1.2},   {"intranode_nvlink", true}};
  p.a2a["cpu-proxy"] = {{"latency_us", 50},        {"post_us_per_msg", 0.8},
                        {"wire_time_factor", 1.0}, {"proxy_threads", 4},
                        {"fifo_latency_us", 3},    {"fifo_us_per_msg", 0.125},
                        {"intranode_nvlink", true}};
  p.a2a["nvshmem-proxy"] = {{"latency_us", 10},          {"post_us_per_msg", 0.5},
                            {"wire_time_factor", 1.0},   {"proxy_threads", 1},
                            {"proxy_ops_per_signal", 2}, {"intranode_nvlink", true}};
  p.a2a["batched-proxy"] = {{"latency_us", 25},
                            {"count_exchange_us", 40},
                            {"wire_time_factor", 1.1},
                            {"intranode_nvlink", true}};
  p.kv_block_GBps.x = {65536, 1048576};
  p.kv_block_GBps.eff = {100, 300};
  p.kv_reference_nics = 16;
  p.rdma_alpha_us = 10;
  p.p2p_alpha_us = 10;
  p.p2p_efficiency = 0.9;
  return p;
}

// EP16 over two nodes of 8, hidden 7168, 2 NICs × 200 Gb/s per GPU.
inline A2AConfig ep16_config() {
  A2AConfig c;
  c.ep_ranks = 16;
  c.gpus_per_node = 8;
  c.num_experts = 256;
  c.top_k = 8;
  c.hidden = 7168;
  c.nics_per_gpu = 2;
  c.nic_gbps = 200;
  return c;
}

// Every rank sends `per_pair` copies to every rank (itself included).
inline Routing uniform_routing(int ranks, int per_pair) {
  Routing r;
  r.ranks = ranks;
  r.copies.assign(static_cast<size_t>(ranks * ranks), per_pair);
  return r;
}

}  // namespace pdsim::testing
