#pragma once
// When each instance of an elastic deployment (scenario section `elastic`) starts serving: an
// instance that joins at t is ready at t + its cold start + elastic.join_warmup_s. Its cold
// start is what the eager connection libraries of its role cost one of its hosts
// (connection_table.hpp: NVSHMEM or UCCL-EP of its own EP group — a new instance is a new group,
// so the instances already serving rebuild nothing), a lower bound where a figure is missing.
// The KV library connects lazily: the first transfer between a prefill stage and a decode rank
// where either instance joined pays the library's per-peer connection (`kv_connect_s`);
// instances present from the start are taken as connected (the measured runs the profiles were
// fitted to include whatever their first transfers cost).
#include <vector>

#include "sim/core/json_reader.hpp"

namespace pdsim {

struct Deployment;

struct ElasticJoins {
  std::vector<double> decode_ready_s, prefill_ready_s;  // per instance; 0: from the start
  std::vector<bool> decode_joined, prefill_joined;
  double kv_connect_s = 0;
  Json description;  // per join: role, instance, join_s, cold_start_s (complete?), ready_s
  bool any() const { return !description.empty(); }
};

// InputError naming elastic.*_joins_s when every instance of a role would join (one must serve
// from the start).
ElasticJoins elastic_joins(const Deployment& d);

}  // namespace pdsim
