#include "sim/fabric/collective_profile.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "sim/core/data_path.hpp"
#include "sim/core/error.hpp"

namespace pdsim {

namespace {
std::string num(double v) {
  std::ostringstream o;
  if (v == std::floor(v) && std::abs(v) < 1e18)
    o << static_cast<long long>(v);
  else
    o << v;
  return o.str();
}
}  // namespace

double collective_bus_factor(const std::string& op, int ranks) {
  if (ranks < 2) throw InputError("<collective>", "ranks", "at least 2 ranks");
  const double n = ranks;
  if (op == "all_reduce") return 2.0 * (n - 1) / n;
  if (op == "all_gather" || op == "reduce_scatter") return (n - 1) / n;
  throw InputError("<collective>", "op",
                   "all_reduce, all_gather or reduce_scatter, got \"" + op + "\"");
}

void CollectiveCurve::validate(CollectiveCurve& c, const JsonNode& n) {
  if (c.max_bytes < c.min_bytes) n.at("max_bytes").fail("expected max_bytes >= min_bytes");
  if (c.ranks < 2 * c.nodes && c.nodes > 1)
    n.at("ranks").fail("expected at least one rank per node");
  const JsonNode rs = n.at("regimes");
  if (c.regimes.empty()) rs.fail("expected at least one regime");
  for (size_t i = 0; i < c.regimes.size(); ++i) {
    const bool last = i + 1 == c.regimes.size();
    const double up = c.regimes[i].up_to_bytes;
    if (last != std::isinf(up))
      rs.at(i)
          .at("up_to_bytes")
          .fail(last ? "expected inf on the last regime"
                     : "expected a finite size (only the last is inf)");
    if (i > 0 && !(up > c.regimes[i - 1].up_to_bytes))
      rs.at(i).at("up_to_bytes").fail("expected regimes in ascending up_to_bytes");
  }
}

CollectivePrediction predict_collective(const CollectiveProfile& p, const std::string& op,
                                        double bytes, int ranks, int nodes) {
  if (!(bytes > 0)) throw InputError(p.file, "bytes", "a positive message size");
  if (ranks < 2 || nodes < 1 || ranks < nodes)
    throw InputError(p.file, "ranks", "at least 2 ranks and at least one per node");
  // The curve of this op at this shape; else the one with the most ranks (a stated assumption).
  const CollectiveCurve* c = nullptr;
  for (const auto& k : p.curves) {
    if (k.op != op) continue;
    if (k.ranks == ranks && k.nodes == nodes) {
      c = &k;
      break;
    }
    if (c == nullptr || k.ranks > c->ranks) c = &k;
  }
  if (c == nullptr)
    throw InputError(p.file, "curves", "a curve for " + op + " (the profile has none)");
  CollectivePrediction out;
  if (c->ranks != ranks || c->nodes != nodes)
    out.outside.push_back(op + " measured over " + std::to_string(c->ranks) + " ranks on " +
                          std::to_string(c->nodes) + " nodes, asked for " + std::to_string(ranks) +
                          " on " + std::to_string(nodes) +
                          ": bus bandwidth taken as shape-independent and alpha as measured");
  if (bytes < c->min_bytes || bytes > c->max_bytes)
    out.outside.push_back(num(bytes) + " bytes outside the measured " + num(c->min_bytes) + ".." +
                          num(c->max_bytes) + " bytes");
  size_t i = 0;
  while (i + 1 < c->regimes.size() && bytes > c->regimes[i].up_to_bytes) ++i;
  const double bus_bytes = collective_bus_factor(op, ranks) * bytes;
  auto time_in = [&](const CollectiveRegime& g) {
    return g.alpha_us + (std::isinf(g.busbw_GBps) ? 0.0 : bus_bytes / (g.busbw_GBps * 1e3));
  };
  out.regime = static_cast<int>(i);
  out.alpha_us = c->regimes[i].alpha_us;
  out.time_us = time_in(c->regimes[i]);
  out.busbw_GBps = bus_bytes / (out.time_us * 1e3);
  out.rel_uncertainty = c->regimes[i].rms_rel_error;
  // Inside a boundary's bracket no size was measured, so where NCCL switches protocol there is
  // unknown: at the boundary the other side's regime is as plausible as this one, at the measured
  // end of the bracket it is ruled out; in between, the gap between the two counts in proportion
  // (linear in log size).
  auto across = [&](const CollectiveRegime& lower, const CollectiveRegime& other) {
    if (!(bytes > lower.bracket_low_bytes && bytes < lower.bracket_high_bytes)) return;
    const double u = lower.up_to_bytes;
    const double edge = bytes <= u ? lower.bracket_low_bytes : lower.bracket_high_bytes;
    const double weight = 1.0 - std::abs(std::log(bytes / u)) / std::abs(std::log(edge / u));
    const double gap = std::abs(time_in(other) - out.time_us) / out.time_us;
    out.rel_uncertainty = std::max(out.rel_uncertainty, weight * gap);
  };
  if (i > 0) across(c->regimes[i - 1], c->regimes[i - 1]);
  if (i + 1 < c->regimes.size()) across(c->regimes[i], c->regimes[i + 1]);
  return out;
}

CollectiveEstimate estimate_collective(const CollectiveProfile& p, const std::string& op,
                                       double bytes, int ranks, int nodes) {
  CollectiveEstimate e;
  const bool own = std::any_of(p.curves.begin(), p.curves.end(),
                               [&](const CollectiveCurve& c) { return c.op == op; });
  if (own || op == "all_reduce") {
    e.prediction = predict_collective(p, op, bytes, ranks, nodes);
    return e;
  }
  collective_bus_factor(op, ranks);  // InputError for an op that is not a collective
  e.from_all_reduce = true;
  e.prediction = predict_collective(p, "all_reduce", bytes, ranks, nodes);
  // Half the bus bytes at the all-reduce's bus bandwidth; the latency's share is the profile's
  // estimated_alpha_fraction (at 0.5, half the time and busbw_GBps unchanged).
  CollectivePrediction& q = e.prediction;
  const double half_time_us = 0.5 * q.time_us;
  q.time_us = p.estimated_alpha_fraction * q.alpha_us + 0.5 * (q.time_us - q.alpha_us);
  q.alpha_us *= p.estimated_alpha_fraction;
  q.busbw_GBps *= half_time_us / q.time_us;
  return e;
}

CollectiveProfile collective_profile_from_json(const Json& doc, const std::string& file) {
  CollectiveProfile p = read_fields<CollectiveProfile>(JsonNode::from_json(doc, file));
  p.file = file;
  return p;
}

CollectiveProfile load_collective_profile(const std::string& name_or_path,
                                          const std::string& from_file, const std::string& field) {
  const JsonNode doc = load_named("models/profiles/collective", name_or_path, from_file, field);
  return collective_profile_from_json(doc.raw(), doc.file());
}

Json collective_profile_to_json(const CollectiveProfile& p) {
  return write_fields(p);
}

}  // namespace pdsim
