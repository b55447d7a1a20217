#pragma once
// The router of an elastic deployment (scenario section `elastic`, cost/elastic_joins.hpp): a
// request goes only to instances in service when it arrives (ready, not yet left). Each set of
// instances in service has its own instance of the scenario's router.policy over that shape,
// made when first needed (a policy's rotation starts afresh when the set changes, as a router
// restarted with a new worker list would); its choices map back onto the instances' indices.
// With elastic.autoscale_role, the router also applies the scaling rule at each arrival — it is
// where a request's arrival meets the queues — and records each join it starts in the world.
#include <map>
#include <memory>
#include <utility>
#include <vector>

#include "sim/serve/actors/serving_world.hpp"
#include "sim/serve/policies/router_policy.hpp"

namespace pdsim {

class ElasticRouter : public RouterPolicy {
 public:
  explicit ElasticRouter(ServingWorld& w);
  Route route(const Request& r) override;

 private:
  void autoscale(double t);
  int waiting(const std::string& role) const;

  ServingWorld& w_;
  std::vector<double> prefill_ready_s_, decode_ready_s_;  // standby joins fill these in
  int next_standby_ = 0;
  double scaling_until_s_ = -1;  // a join started by the rule is in progress until then
  std::map<std::pair<std::vector<int>, std::vector<int>>, std::unique_ptr<RouterPolicy>> by_set_;
};

// The router a simulation uses: the scenario's policy, wrapped in ElasticRouter when instances
// join or leave.
std::unique_ptr<RouterPolicy> make_router(ServingWorld& w);

}  // namespace pdsim
