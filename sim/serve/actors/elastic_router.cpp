#include "sim/serve/actors/elastic_router.hpp"

namespace pdsim {
namespace {

std::vector<int> in_service(const std::vector<double>& ready_s, const std::vector<double>& leave_s,
                            double t) {
  std::vector<int> out;
  for (size_t i = 0; i < ready_s.size(); ++i)
    if (ready_s[i] <= t && t < leave_s[i]) out.push_back(static_cast<int>(i));
  return out;
}

std::unique_ptr<RouterPolicy> policy(const Deployment& d, int prefill, int decode) {
  return RouterPolicyRegistry::instance().create(d.scenario.router.policy, d.scenario.file,
                                                 "router.policy",
                                                 RouterShape{prefill, decode, d.decode_ranks});
}

}  // namespace

ElasticRouter::ElasticRouter(ServingWorld& w)
    : w_(w),
      prefill_ready_s_(w.d.joins.prefill_ready_s),
      decode_ready_s_(w.d.joins.decode_ready_s),
      next_standby_(w.d.joins.first_standby) {}

// Requests the role has not started on: routed to a prefill instance and not yet taken by its
// first stage (which includes those waiting for their decode rank's KV reservation); at decode,
// waiting for a reservation or, with their KV arrived, for admission.
int ElasticRouter::waiting(const std::string& role) const {
  int n = 0;
  if (role == "prefill") {
    for (const auto& p : w_.prefill) n += p->routed - p->taken;
    return n;
  }
  for (const auto& d : w_.decode) {
    n += static_cast<int>(d->arrived.size());
    for (const auto& r : d->ranks) n += static_cast<int>(r.waiting.size());
  }
  return n;
}

void ElasticRouter::autoscale(double t) {
  const ElasticJoins& j = w_.d.joins;
  if (j.autoscale_role == "none" || t < scaling_until_s_) return;
  const bool decode = j.autoscale_role == "decode";
  std::vector<double>& ready = decode ? decode_ready_s_ : prefill_ready_s_;
  if (next_standby_ >= static_cast<int>(ready.size())) return;
  const auto serving = in_service(ready, decode ? j.decode_leave_s : j.prefill_leave_s, t).size();
  const int queued = waiting(j.autoscale_role);
  const double per_instance = static_cast<double>(queued) / static_cast<double>(serving);
  if (per_instance <= j.autoscale_queue_per_instance) return;
  const ColdStart& cold = j.cold(j.autoscale_role);
  const double r = t + cold.s + j.warmup_s;
  ready[static_cast<size_t>(next_standby_)] = scaling_until_s_ = r;
  w_.autoscale_joins.push_back({{"role", j.autoscale_role},
                                {"instance", next_standby_},
                                {"trigger", "autoscale"},
                                {"queue_per_instance", per_instance},
                                {"join_s", t},
                                {"cold_start", cold.json()},
                                {"warmup_s", j.warmup_s},
                                {"ready_s", r},
                                {"kv_connect_s", j.kv_connect_s}});
  ++next_standby_;
}

Route ElasticRouter::route(const Request& r) {
  const double t = r.rec.arrival_s;
  autoscale(t);
  const ElasticJoins& j = w_.d.joins;
  auto key = std::make_pair(in_service(prefill_ready_s_, j.prefill_leave_s, t),
                            in_service(decode_ready_s_, j.decode_leave_s, t));
  auto it = by_set_.find(key);
  if (it == by_set_.end()) {
    auto p = policy(w_.d, static_cast<int>(key.first.size()), static_cast<int>(key.second.size()));
    it = by_set_.emplace(std::move(key), std::move(p)).first;
  }
  Route out = it->second->route(r);
  out.prefill_instance = it->first.first[static_cast<size_t>(out.prefill_instance)];
  out.decode_instance = it->first.second[static_cast<size_t>(out.decode_instance)];
  return out;
}

std::unique_ptr<RouterPolicy> make_router(ServingWorld& w) {
  if (w.d.joins.any()) return std::make_unique<ElasticRouter>(w);
  return policy(w.d, w.d.scenario.prefill.instances, w.d.scenario.decode.instances);
}

}  // namespace pdsim
