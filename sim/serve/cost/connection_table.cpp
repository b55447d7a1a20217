#include "sim/serve/cost/connection_table.hpp"

#include <algorithm>

#include "sim/serve/cost/role_layout.hpp"

namespace pdsim {

namespace {

// The catalog entry of the decode all-to-all: by backend and the fabric's transport.
std::string a2a_library(const std::string& backend, const std::string& transport,
                        std::string* missing) {
  if (backend == "ibgda") return transport == "rc" ? "nvshmem-ibgda" : "";
  if (backend == "cpu-proxy") return transport == "srd" ? "uccl-ep-efa" : "uccl-ep-rc";
  if (backend == "batched-proxy") return transport == "srd" ? "pplx-garden-efa" : "pplx-garden-rc";
  if (backend == "nvshmem-proxy") {
    if (transport == "srd") return "nvshmem-libfabric";
    *missing =
        "NVSHMEM's IBRC proxy transport (1 RC QP per peer, NVSHMEM_IB_NUM_RC_PER_DEVICE) "
        "is not in the catalog";
    return "";
  }
  *missing = "the '" + backend + "' backend's connection state is not in the catalog";
  return "";
}

ConnectionRow make_row(const Deployment& d, std::string purpose, std::string side,
                       const std::string& library, std::string missing, const ConnGroup& g,
                       int hosts, int new_host_ranks) {
  ConnectionRow r;
  r.purpose = std::move(purpose);
  r.side = std::move(side);
  r.library = library;
  r.hosts = hosts;
  r.group = g;
  if (library.empty()) {
    r.missing = missing.empty() ? "not in the catalog" : missing;
    return r;
  }
  r.lib = load_connection_library(library);
  r.counts = count_connections(*r.lib, g);
  r.nic = load_connection_setup(d.instance.nic_kind);
  r.setup = setup_times(*r.lib, r.counts, g, *r.nic, new_host_ranks);
  r.join_applies = new_host_ranks > 0;
  return r;
}

}  // namespace

std::vector<ConnectionRow> connection_table(const Deployment& d) {
  std::vector<ConnectionRow> rows;
  const Scenario& s = d.scenario;
  const int G = d.instance.gpus_per_node;
  const std::string& tr = d.fabric.transport;
  const int decode_hosts = s.decode.instances * s.decode.nodes_per_instance;
  const int prefill_hosts = s.prefill.instances * s.prefill.nodes_per_instance;

  if (d.model.is_moe() && d.decode_layout.moe_a2a) {
    std::string missing;
    const std::string lib = a2a_library(s.fabric.a2a_backend, tr, &missing);
    ConnGroup g;
    g.ranks = d.decode_layout.moe_ep;
    g.ranks_per_host = G;
    g.nics_per_host = d.a2a_nics;
    g.num_experts = d.model.n_routed_experts;
    g.deepep_mode = d.decode_layout.flags.deepep_mode;
    rows.push_back(make_row(d, "decode all-to-all", "decode", lib, missing, g, decode_hosts, G));
  }
  const int prefill_ep_hosts = (d.prefill_layout.moe_ep + G - 1) / G;
  if (d.model.is_moe() && d.prefill_layout.moe_a2a && prefill_ep_hosts > 1) {
    std::string missing;
    const std::string backend = prefill_a2a_backend(s);
    std::string lib = a2a_library(backend, tr, &missing);
    ConnGroup g;
    g.ranks = d.prefill_layout.moe_ep;
    g.ranks_per_host = G;
    g.nics_per_host = d.instance.nics_per_node;
    g.num_experts = d.model.n_routed_experts;
    g.deepep_mode = d.prefill_layout.flags.deepep_mode;
    if (lib.rfind("nvshmem", 0) == 0) {
      // DeepEP's normal mode: the NVSHMEM world is the same-rail ranks of the other hosts
      // (DeepEP csrc/legacy/buffer.hpp:262-265@dd758ca), one rank per host.
      g.ranks = prefill_ep_hosts;
      g.ranks_per_host = 1;
      g.worlds_per_host = G;
    } else if (lib.rfind("uccl-ep", 0) ==
               0) {  // pplx-garden: one kernel and context for both modes
      missing =
          "UCCL-EP's normal (high-throughput) mode connects same-rail ranks with 11 QPs per "
          "proxy thread; not in the catalog";
      lib.clear();
    }
    rows.push_back(make_row(d, "prefill all-to-all", "prefill", lib, missing, g, prefill_hosts,
                            g.ranks_per_host == 1 ? 1 : G));
  }

  if (s.prefill.kv_protocol == "rdma") {
    std::string lib, missing;
    // Mooncake uses the KV NICs (its device list); NIXL's libfabric agents open every EFA device
    // of the host.
    int nics = d.kv_nics;
    if (s.prefill.kv_transfer_backend == "mooncake") {
      lib = tr == "srd" ? "mooncake-efa" : "mooncake-rdma";
    } else if (s.prefill.kv_transfer_backend == "nixl" && tr == "srd") {
      lib = "nixl-libfabric";
      nics = d.instance.nics_per_node;
    } else {
      missing =
          s.prefill.kv_transfer_backend == "nixl"
              ? "NIXL's UCX backend: UCX, not NIXL, decides its RC/DC QPs (not in the "
                "catalog)"
              : "the '" + s.prefill.kv_transfer_backend + "' KV backend is not in the catalog";
    }
    const double nics_per_rank = std::max(1.0, static_cast<double>(nics) / G);
    const int prefill_ranks = prefill_hosts * G, decode_ranks = decode_hosts * G;
    ConnGroup g;
    g.ranks = prefill_ranks;
    g.ranks_per_host = G;
    g.nics_per_host = nics;
    g.peer_ranks = decode_ranks;
    g.peer_nics_per_rank = nics_per_rank;
    g.peer_nics_per_host = nics;
    rows.push_back(make_row(d, "KV transfer", "prefill", lib, missing, g, prefill_hosts, G));
    g.ranks = decode_ranks;
    g.peer_ranks = prefill_ranks;
    rows.push_back(make_row(d, "KV transfer", "decode", lib, missing, g, decode_hosts, G));
  } else {
    ConnectionRow r;
    r.purpose = "KV transfer";
    r.side = "both";
    r.library = "mooncake-tcp";
    r.join_applies = false;
    r.missing = "TCP sockets (one per slice, opened or borrowed per transfer): no RDMA state";
    rows.push_back(r);
  }

  // Pipeline stages on different hosts send activations through NCCL (SGLang's PP groups).
  const auto pp_row = [&](const SglangParallel& layout, const std::string& side, int hosts) {
    const int pp = layout.flags.pp;
    if (pp < 2 || layout.gpus / pp < G) return;  // stages inside one host: NVLink, no NIC
    ConnGroup g;
    g.ranks = layout.gpus;
    g.ranks_per_host = G;
    g.nics_per_host = d.instance.nics_per_node;
    g.peer_ranks = std::min(2, pp - 1);  // a middle stage's host talks to both neighbours
    g.rank_nic_GBps = static_cast<double>(d.instance.nics_per_node) / G * d.instance.nic_gbps / 8;
    rows.push_back(make_row(d, "PP send/recv", side, tr == "srd" ? "aws-ofi-nccl" : "nccl-ib", "",
                            g, hosts, 0));
  };
  pp_row(d.prefill_layout, "prefill", prefill_hosts);
  pp_row(d.decode_layout, "decode", decode_hosts);
  return rows;
}

}  // namespace pdsim
