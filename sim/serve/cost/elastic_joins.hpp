#pragma once
// When each instance of an elastic deployment (scenario section `elastic`) serves: an instance
// that joins at t is ready at t + its cold start + elastic.join_warmup_s, and serves until it
// leaves (drained: the router sends it nothing more). Its cold start is what the eager
// connection libraries of its role cost one of its hosts (connection_table.hpp: NVSHMEM or
// UCCL-EP of its own EP group — a new instance is a new group, so the instances already serving
// rebuild nothing, and one that leaves tears down only its own group), a lower bound where a
// figure is missing. The KV library connects lazily: the first transfer between a prefill stage
// and a decode rank where either instance joined pays the library's per-peer connection
// (`kv_connect_s`); instances present from the start are taken as connected (the measured runs
// the profiles were fitted to include whatever their first transfers cost). Standby instances
// (elastic.autoscale_*) have no ready time until the router's rule joins them
// (actors/elastic_router.hpp).
#include <limits>
#include <string>
#include <vector>

#include "sim/core/json_reader.hpp"

namespace pdsim {

struct Deployment;

// The cold start of one instance of a role: its eager connection libraries.
struct ColdStart {
  double s = 0;
  bool complete = true;  // false: a lower bound, some object kinds have no published time
  std::vector<std::string> libraries, unknown;
  Json json() const;
};

struct ElasticJoins {
  static constexpr double kNever = std::numeric_limits<double>::infinity();
  // Per instance: serves in [ready_s, leave_s); ready 0 = from the start, kNever = standby.
  std::vector<double> decode_ready_s, prefill_ready_s, decode_leave_s, prefill_leave_s;
  std::vector<bool> decode_joined, prefill_joined;  // not connected at the start
  ColdStart decode_cold, prefill_cold;
  double warmup_s = 0;
  double kv_connect_s = 0;
  std::string autoscale_role = "none";
  int first_standby = 0;  // of autoscale_role: instances from here on are standby
  double autoscale_queue_per_instance = 0;
  Json description;  // per scheduled change: role, instance, join_s or leave_s, ...
  bool any() const { return !description.empty() || autoscale_role != "none"; }
  const ColdStart& cold(const std::string& role) const {
    return role == "decode" ? decode_cold : prefill_cold;
  }
};

// InputError naming the elastic field when a role would have no instance serving (one serves
// from the start and until the end), or when autoscaling and scheduled joins share a role.
ElasticJoins elastic_joins(const Deployment& d);

}  // namespace pdsim
