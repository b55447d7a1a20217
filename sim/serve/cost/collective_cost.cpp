#include "sim/serve/cost/collective_cost.hpp"

#include "sim/core/error.hpp"
#include "sim/fabric/transfers.hpp"

namespace pdsim {

CollectiveCost::CollectiveCost(const FabricProfile& fabric, const CollectiveProfile* cross_node,
                               int gpus_per_node)
    : fabric_(fabric), profile_(cross_node), gpus_per_node_(gpus_per_node) {}

double CollectiveCost::op_us(const CommOp& op) {
  if (op.op == "all_to_all" || op.ranks <= 1 || !(op.bytes > 0)) return 0;
  const int nodes = (op.ranks + gpus_per_node_ - 1) / gpus_per_node_;
  const std::string where = nodes > 1 ? "cross-node" : "nvlink";
  ++calls_[op.op + " " + where + " " + std::to_string(op.ranks) + " ranks"];
  if (nodes == 1) {
    // Ring over NVLink: all-gather and reduce-scatter move (n−1)/n of the total buffer; an
    // all-reduce is both.
    const double ag = nvlink_allgather_us(fabric_, op.bytes / op.ranks, op.ranks);
    return op.op == "all_reduce" ? 2 * ag : ag;
  }
  if (!profile_)
    throw InfeasibleError("a " + op.op + " over " + std::to_string(op.ranks) + " ranks on " +
                          std::to_string(nodes) + " nodes needs fabric.collective_profile");
  const CollectiveEstimate e = estimate_collective(*profile_, op.op, op.bytes, op.ranks, nodes);
  const CollectivePrediction& p = e.prediction;
  if (e.from_all_reduce) estimated_.insert(op.op);
  if (!p.outside.empty()) ++outside_calls_;
  // The regime's RMS relative error, weighted by time (an estimate from the all-reduce curve
  // keeps that curve's error: the decomposition itself adds an unquantified one).
  weighted_time_us_ += p.time_us;
  weighted_error_us_ += p.time_us * p.rel_uncertainty;
  const std::string curve_op = e.from_all_reduce ? "all_reduce" : op.op;
  for (const auto& why : p.outside)
    if (outside_.size() < kOutsideKept) outside_.insert(curve_op + ": " + why);
  return p.time_us + profile_->serving_call_us;
}

double CollectiveCost::forward_us(const ForwardComms& f) {
  double t = 0;
  for (const auto& op : f.ops) t += op.count * op_us(op);
  return t;
}

Json CollectiveCost::stats() const {
  Json calls = Json::object();
  for (const auto& [k, v] : calls_) calls[k] = v;
  Json out{
      {"profile", profile_ ? Json(profile_->name) : Json(nullptr)},
      {"calls", calls},
      {"estimated_from_all_reduce", std::vector<std::string>(estimated_.begin(), estimated_.end())},
      {"outside_measured_calls", outside_calls_},
      {"profile_rms_rel_error",
       weighted_time_us_ > 0 ? weighted_error_us_ / weighted_time_us_ : 0.0},
      {"outside_measured", std::vector<std::string>(outside_.begin(), outside_.end())}};
  // Said where a fit moved them off their defaults (an overlay on the profile), so a summary
  // shows which serving-fitted collective terms it rests on.
  if (profile_ && profile_->serving_call_us != CollectiveProfile{}.serving_call_us)
    out["serving_call_us"] = profile_->serving_call_us;
  if (profile_ &&
      profile_->estimated_alpha_fraction != CollectiveProfile{}.estimated_alpha_fraction)
    out["estimated_alpha_fraction"] = profile_->estimated_alpha_fraction;
  return out;
}

}  // namespace pdsim
