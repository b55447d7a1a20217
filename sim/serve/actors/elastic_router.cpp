#include "sim/serve/actors/elastic_router.hpp"

namespace pdsim {
namespace {

// Instances ready at `t`: ready times are 0 for the instances serving from the start and
// increase over the joined ones (joins strictly increase, every join costs the same).
int in_service(const std::vector<double>& ready_s, double t) {
  int n = 0;
  while (n < static_cast<int>(ready_s.size()) && ready_s[static_cast<size_t>(n)] <= t) ++n;
  return n;
}

std::unique_ptr<RouterPolicy> policy(const Deployment& d, int prefill, int decode) {
  return RouterPolicyRegistry::instance().create(d.scenario.router.policy, d.scenario.file,
                                                 "router.policy",
                                                 RouterShape{prefill, decode, d.decode_ranks});
}

}  // namespace

Route ElasticRouter::route(const Request& r) {
  const double t = r.rec.arrival_s;
  const std::pair<int, int> shape{in_service(d_.joins.prefill_ready_s, t),
                                  in_service(d_.joins.decode_ready_s, t)};
  auto it = by_shape_.find(shape);
  if (it == by_shape_.end())
    it = by_shape_.emplace(shape, policy(d_, shape.first, shape.second)).first;
  return it->second->route(r);
}

std::unique_ptr<RouterPolicy> make_router(const Deployment& d) {
  if (d.joins.any()) return std::make_unique<ElasticRouter>(d);
  return policy(d, d.scenario.prefill.instances, d.scenario.decode.instances);
}

}  // namespace pdsim
