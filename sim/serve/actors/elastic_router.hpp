#pragma once
// The router of an elastic deployment (scenario section `elastic`, cost/elastic_joins.hpp): a
// request goes only to instances ready when it arrives. Joined instances are the last of their
// role and become ready in order, so the instances in service are a prefix of each role; each
// prefix pair (prefill, decode) has its own instance of the scenario's router.policy over that
// shape, made when first needed (a policy's rotation starts afresh when the shape changes, as a
// router restarted with a new instance list would).
#include <map>
#include <memory>
#include <utility>

#include "sim/serve/cost/deployment.hpp"
#include "sim/serve/policies/router_policy.hpp"

namespace pdsim {

class ElasticRouter : public RouterPolicy {
 public:
  explicit ElasticRouter(const Deployment& d) : d_(d) {}
  Route route(const Request& r) override;

 private:
  const Deployment& d_;
  std::map<std::pair<int, int>, std::unique_ptr<RouterPolicy>> by_shape_;
};

// The router a simulation uses: the scenario's policy, wrapped in ElasticRouter when instances
// join.
std::unique_ptr<RouterPolicy> make_router(const Deployment& d);

}  // namespace pdsim
