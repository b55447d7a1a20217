#pragma once
// The KV transfer engine of a prefill node as the serving simulation routes it. Over RDMA
// (prefill.kv_protocol rdma) one flow per request carries its KV through a link at the fabric
// profile's block-size rate, shared by the node's transfers. Over TCP (Mooncake's TCP transport,
// models/catalog/kv_transport) each prefill rank of the request sends its own copy of what it
// holds to its decode peer through its process's one I/O thread; the ranks run in parallel, so
// one flow of one rank's bytes through a link at one rank's rate stands for all of them. Its
// sharing is the catalog entry's: "per_rank" (concurrent transfers share the link) or
// "per_transfer" (each gets the whole rate, a FATPIPE link). TCP bypasses the RDMA NICs, so its
// flows are not background load on the all-to-all (mechanism fabric_background).
#include <optional>

#include "models/kv_transport.hpp"
#include "sim/scenario/scenario.hpp"

namespace pdsim {

struct Deployment;

// The TCP transport a scenario selects (nullopt with kv_protocol rdma); InputError naming
// prefill.kv_protocol / prefill.kv_tcp_transport when it cannot be modelled.
std::optional<KvTransport> resolve_kv_transport(const Scenario& s);

struct KvEngine {
  double rate_Bps = 0;
  bool shared = true;  // false: FATPIPE (every flow at the full rate)
  bool on_rdma_nics = true;
};
KvEngine kv_engine(const Deployment& d);

// Bytes of the flow that stands for one request's KV (all layers; the caller applies the PP
// stage's layer share): RDMA the request's KV once, TCP one rank's copy.
double kv_request_bytes(const Deployment& d, double input_tokens);

// What a TCP prediction rests on, for the run's summary (null over RDMA): the catalog entry, its
// rate with the published spread, the sharing rule, and `outside_measured` (a sentence, or null)
// when the workload's concurrency is above the one a published run of this transport failed at.
Json kv_tcp_summary(const Deployment& d);

}  // namespace pdsim
