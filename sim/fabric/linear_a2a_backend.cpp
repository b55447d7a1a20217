#include "sim/fabric/linear_a2a_backend.hpp"

#include <algorithm>
#include <stdexcept>

#include "sim/core/error.hpp"
#include "sim/core/units.hpp"

namespace pdsim {

double LinearTerm::eval(const std::vector<double>& theta) const {
  double t = constant_us;
  for (size_t i = 0; i < coef.size(); ++i) t += coef[i] * theta[i];
  return t;
}

JsonNode a2a_block(const FabricProfile& p, const std::string& name) {
  const std::string file = p.file.empty() ? "fabric profile '" + p.name + "'" : p.file;
  Json doc = Json::object();
  doc["a2a"] = p.a2a.is_object() ? p.a2a : Json::object();
  JsonNode a2a = JsonNode::from_json(std::move(doc), file).at("a2a");
  if (!a2a.has(name))
    throw InputError(file, "a2a." + name,
                     "missing required field: profile '" + p.name +
                         "' has no parameters for "
                         "all-to-all backend '" +
                         name + "'");
  JsonNode b = a2a.at(name);
  if (b.has("unsupported"))
    b.fail("backend '" + name + "' is not supported on profile '" + p.name +
           "': " + b.at("unsupported").string());
  return b;
}

LinearA2ABackend::LinearA2ABackend(const FabricProfile& p, std::string name,
                                   std::vector<A2AParamSpec> specs)
    : name_(std::move(name)), specs_(std::move(specs)), block_(a2a_block(p, name_)) {
  fixed_ = specs_.size();
  specs_.push_back({"fixed_us", 0, false, 0});
  if (specs_.size() > kMaxA2AParams)
    throw std::logic_error("all-to-all backend '" + name_ + "' declares " +
                           std::to_string(specs_.size()) + " parameters, above kMaxA2AParams");
  // A block marked "layout_probe" (built by `calibrate fit` to learn the parameter names) may
  // omit fitted parameters; a profile may not.
  const bool probe = block_.bool_or("layout_probe", false);
  for (const auto& s : specs_) {
    double v = block_.has(s.name) ? block_.at(s.name).number() : s.default_value;
    if (!block_.has(s.name) && s.fitted_by_default && !probe) block_.at(s.name);  // throws
    if (v < s.lower) block_.at(s.name).fail("expected a value >= " + std::to_string(s.lower));
    theta_.push_back(v);
  }
  read_priors();
  intranode_nvlink_ = block_.bool_or("intranode_nvlink", true);
  rdma_nic_efficiency_ = p.rdma_nic_efficiency;
  nvlink_GBps_ = p.nvlink_GBps;
}

void LinearA2ABackend::read_priors() {
  priors_.assign(specs_.size(), std::nullopt);
  if (!block_.has("priors")) return;
  const JsonNode priors = block_.at("priors");
  if (!priors.is_object()) priors.fail("expected an object {parameter: {lower, upper, basis}}");
  for (const auto& key : priors.keys()) {
    const JsonNode pr = priors.at(key);
    size_t i = 0;
    while (i < specs_.size() && specs_[i].name != key) ++i;
    if (i == specs_.size()) pr.fail("not a parameter of all-to-all backend '" + name_ + "'");
    if (specs_[i].fitted_by_default)
      pr.fail("a prior is for a held parameter (one microbenchmarks cannot identify); '" + key +
              "' is fitted to the profile's rows");
    pr.expect_only({"lower", "upper", "basis"});
    A2AParamPrior p{pr.at("lower").number(), pr.at("upper").number(), pr.at("basis").string()};
    if (p.lower < specs_[i].lower)
      pr.at("lower").fail("expected a value >= " + std::to_string(specs_[i].lower));
    // The value itself may leave the prior: a serving fit's overlay sets it from measured runs.
    if (!(p.lower <= p.upper)) pr.at("upper").fail("expected a value >= lower");
    priors_[i] = std::move(p);
  }
}

LinearTerm LinearA2ABackend::term(const char* name, double constant_us) const {
  LinearTerm t;
  t.name = name;
  t.coef.assign(specs_.size(), 0.0);
  t.constant_us = constant_us;
  return t;
}

double LinearA2ABackend::rdma_bytes_per_us(const A2AConfig& c) const {
  return gbps_to_bytes_per_s(c.nic_gbps) * c.nics_per_gpu * rdma_nic_efficiency_ * 1e-6;
}

void LinearA2ABackend::add_wire_and_nvlink_branches(RankTerms& t, const A2AConfig& c,
                                                    const RankLoad& l, size_t wire_param) const {
  const double rate = rdma_bytes_per_us(c);
  LinearTerm wire_send = term("wire_us"), wire_recv = term("wire_us");
  wire_send.coef[wire_param] = l.remote_send_bytes / rate;
  wire_recv.coef[wire_param] = l.remote_recv_bytes / rate;
  const double nvl = nvlink_bytes_per_us();
  t.branches.push_back(std::move(wire_send));
  t.branches.push_back(std::move(wire_recv));
  t.branches.push_back(term("nvlink_us", l.nvlink_send_bytes / nvl));
  t.branches.push_back(term("nvlink_us", l.nvlink_recv_bytes / nvl));
}

double LinearA2ABackend::nvlink_bytes_per_us() const {
  return GBps_to_bytes_per_s(nvlink_GBps_) * 1e-6;
}

LinearA2ABackend::RankEval LinearA2ABackend::slowest(const A2AConfig& c, const Routing& r,
                                                     A2APhase phase) const {
  const auto loads = rank_loads(c, r, phase, intranode_nvlink_);
  auto terms_of = [&](size_t k) {
    RankTerms t = rank_terms(c, loads[k], phase);
    LinearTerm fixed = term("fixed_us");
    fixed.coef[fixed_] = 1;
    t.fixed.push_back(std::move(fixed));
    return t;
  };
  // Only the slowest rank's terms are kept: its terms are built again once it is known, so no
  // rank's terms are copied while searching (this runs per phase of every routing sample).
  RankEval worst;
  for (size_t k = 0; k < loads.size(); ++k) {
    const RankTerms t = terms_of(k);
    double branch_max = 0, total_us = 0;
    size_t binding = 0;
    for (size_t b = 0; b < t.branches.size(); ++b) {
      double v = t.branches[b].eval(theta_);
      if (b == 0 || v > branch_max) {
        branch_max = v;
        binding = b;
      }
    }
    total_us = branch_max;
    for (const auto& f : t.fixed) total_us += f.eval(theta_);
    if (worst.rank < 0 || total_us > worst.total_us) {
      worst.rank = static_cast<int>(k);
      worst.total_us = total_us;
      worst.binding = binding;
    }
  }
  if (worst.rank >= 0) worst.terms = terms_of(static_cast<size_t>(worst.rank));
  return worst;
}

A2APhaseTime LinearA2ABackend::phase(const A2AConfig& c, const Routing& r, A2APhase ph) const {
  RankEval w = slowest(c, r, ph);
  A2APhaseTime out;
  out.total_us = w.total_us;
  out.slowest_rank = w.rank;
  for (const auto& f : w.terms.fixed) out.terms_us[f.name] += f.eval(theta_);
  for (size_t b = 0; b < w.terms.branches.size(); ++b) {
    const auto& br = w.terms.branches[b];
    double v = br.eval(theta_);
    if (b == w.binding) {
      out.terms_us[br.name] += v;
    } else {
      double& o = out.overlapped_us[br.name];
      o = std::max(o, v);
    }
  }
  return out;
}

LinearA2ABackend::Linearized LinearA2ABackend::linearize(const A2AConfig& c, const Routing& r,
                                                         A2APhase ph) const {
  RankEval w = slowest(c, r, ph);
  Linearized l;
  l.coef.assign(specs_.size(), 0.0);
  l.total_us = w.total_us;
  auto add = [&](const LinearTerm& t) {
    for (size_t i = 0; i < t.coef.size(); ++i) l.coef[i] += t.coef[i];
    l.constant_us += t.constant_us;
  };
  for (const auto& f : w.terms.fixed) add(f);
  if (!w.terms.branches.empty()) add(w.terms.branches[w.binding]);
  l.coef_any = l.coef;
  for (const auto& b : w.terms.branches)
    for (size_t i = 0; i < b.coef.size(); ++i) l.coef_any[i] = std::max(l.coef_any[i], b.coef[i]);
  return l;
}

}  // namespace pdsim
