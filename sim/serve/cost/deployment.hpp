#pragma once
// Deployment: a scenario resolved against the catalogs and profiles — the model, GPU, instance
// type, GPU profile, fabric profile, compute model, memory plans and all-to-all configuration —
// with every feasibility check done once, before anything is simulated.
#include <memory>
#include <optional>

#include "models/compute_model.hpp"
#include "models/kv_transport.hpp"
#include "models/memory_model.hpp"
#include "models/sglang_parallel.hpp"
#include "sim/fabric/alltoall.hpp"
#include "sim/fabric/collective_profile.hpp"
#include "sim/fabric/normal_rdma_a2a.hpp"
#include "sim/scenario/scenario.hpp"
#include "sim/serve/cost/decode_passes.hpp"
#include "sim/serve/cost/elastic_joins.hpp"
#include "sim/serve/cost/fabric_fidelity.hpp"
#include "sim/serve/cost/profile_overlay.hpp"
#include "sim/serve/cost/serving_profile.hpp"

namespace pdsim {

struct Deployment {
  Scenario scenario;
  ModelConfig model;
  GpuSpec gpu;
  InstanceType instance;
  GpuProfile gpu_profile;
  FabricProfile fabric;
  std::shared_ptr<const ComputeModel> compute;
  std::shared_ptr<const A2ABackend> a2a_backend;
  // The backend's normal-mode rates across nodes (prefill EP spanning nodes); nullopt: none.
  std::optional<NormalRdmaRates> prefill_normal_rdma;
  std::shared_ptr<const FabricFidelity> fidelity;  // fabric.fidelity
  ServingProfile serving;                          // host-side costs of the serving stack
  double accept_prob = 0;  // speculative: per-token acceptance (profile or scenario override)
  DecodePasses passes;     // what one decode iteration runs (decode.speculative)
  A2AConfig a2a;           // decode expert-parallel all-to-all
  SglangParallel decode_layout, prefill_layout;  // SGLang's groups per role (role_layout.hpp)
  std::shared_ptr<const CollectiveProfile> collective;  // fabric.collective_profile; null: none
  MemoryPlan prefill_memory, decode_memory;
  int decode_ranks = 0;           // DP-attention ranks per decode instance (1 without DP attention)
  int request_pool_per_rank = 0;  // SGLang's req_to_token_pool.size: max_running_requests / dp
  int max_requests_per_rank = 0;  // min(request pool, LL dispatch buffer / query tokens)
  double kv_bytes_per_token = 0;  // all layers
  double kv_block_bytes = 0;      // transfer engine block (one page of one layer by default)
  int kv_nics = 0;                // per prefill node
  std::optional<KvTransport> kv_tcp;  // prefill.kv_protocol tcp: the transport (kv_engine.hpp)
  int a2a_nics = 0;                   // per decode node
  Json profiles;       // every catalog/profile document used, verbatim with provenance
  ElasticJoins joins;  // when each instance serves (scenario section elastic)

  int prefill_gpus() const { return scenario.prefill.nodes_per_instance * instance.gpus_per_node; }
};

// Throws InputError for unknown names / bad files and InfeasibleError for layouts that cannot run.
// `extra_overlays` apply after the scenario's own `profile_overlays` (the serving fit's
// candidates).
Deployment build_deployment(const Scenario& s,
                            const std::vector<ProfileOverlay>& extra_overlays = {});

}  // namespace pdsim
