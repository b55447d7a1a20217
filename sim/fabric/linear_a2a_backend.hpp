#pragma once
// Common shape of the analytic all-to-all backends. For one rank and phase
//   time = Σ fixed terms + max(branches)
// Every backend also carries the in-serving fixed cost of a low-latency phase, term and
// parameter "fixed_us" (held, default 0), added to every dispatch and every combine: what a phase
// costs in a serving system beyond the microbenchmark's fixed latency at small token counts —
// send and receive kernels' fixed work, flag polling, waiting for the slowest rank to arrive.
// Published microbenchmarks run at 128 tokens per rank with synchronised ranks, so they cannot
// identify it; `pdsim calibrate serving` fits it to measured serving runs, which see dispatch and
// combine only together (one parameter for both). A profile without the field gets 0; a profile
// fitted with published serving figures carries the value and its prior (A2AParamPrior below).
// where every term is linear in the backend's fitted parameters θ (coef·θ + constant_us). The
// branches are the pipelined resources (send issue, proxy, NIC send, NIC receive, NVLink); the
// fixed terms are latencies that do not overlap them. The phase is the slowest rank (barrier).
// Linearity given the binding branch is what lets `pdsim calibrate fit` solve for θ with least
// squares (calibrate/fit_a2a.cpp).
#include <boost/container/static_vector.hpp>
#include <optional>
#include <string>
#include <vector>

#include "sim/fabric/alltoall.hpp"
#include "sim/fabric/rank_load.hpp"

namespace pdsim {

struct A2AParamSpec {
  std::string name;
  double lower = 0;               // physical lower bound (0 for costs, 1 for slow-down factors)
  bool fitted_by_default = true;  // false: held at its value unless the fit is told otherwise
  double default_value = 0;       // used when not fitted and not given
};

// A held parameter's prior (profile.a2a[name].priors[param] = {"lower", "upper", "basis"}),
// written by `pdsim calibrate fit` from published serving figures (calibrate/serving_prior.hpp):
// the interval `--param-samples` draws the parameter from, uniformly, where no overlay set it.
// (An overlay's value may leave it: a serving fit sets the parameter from measured runs.)
struct A2AParamPrior {
  double lower = 0, upper = 0;
  std::string basis;
};

// Terms are built for every rank of every phase of every routing sample (10^5–10^6 per run), so
// they hold no heap memory: names are string literals, coefficients and terms sit inline.
inline constexpr size_t kMaxA2AParams = 8;  // a backend's parameters, fixed_us included
inline constexpr size_t kMaxA2ATerms = 8;   // fixed terms, or branches, of one rank

struct LinearTerm {
  const char* name = "";                                        // a string literal
  boost::container::static_vector<double, kMaxA2AParams> coef;  // per parameter
  double constant_us = 0;
  double eval(const std::vector<double>& theta) const;
};

struct RankTerms {
  boost::container::static_vector<LinearTerm, kMaxA2ATerms> fixed, branches;
};

class LinearA2ABackend : public A2ABackend {
 public:
  // Reads the parameters named in `specs` and the settings from profile.a2a[name].
  // The base appends the fixed_us spec to `specs`.
  LinearA2ABackend(const FabricProfile& p, std::string name, std::vector<A2AParamSpec> specs);
  std::string name() const override { return name_; }
  A2APhaseTime phase(const A2AConfig& c, const Routing& r, A2APhase phase) const override;

  const std::vector<A2AParamSpec>& param_specs() const { return specs_; }
  const std::vector<double>& params() const { return theta_; }
  // One per parameter spec: its prior, where the profile declares one.
  const std::vector<std::optional<A2AParamPrior>>& priors() const { return priors_; }
  // Index of the in-serving fixed cost `fixed_us` in the specs, params and priors.
  size_t fixed_cost_index() const { return fixed_; }

  // The slowest rank's active terms: phase time = coef·θ + constant_us at the current θ.
  struct Linearized {
    std::vector<double> coef;
    double constant_us = 0, total_us = 0;
    std::vector<double> coef_any;  // largest coefficient of each parameter in any of the terms
  };
  Linearized linearize(const A2AConfig& c, const Routing& r, A2APhase phase) const;

 protected:
  virtual RankTerms rank_terms(const A2AConfig& c, const RankLoad& load, A2APhase phase) const = 0;
  // Helpers for subclasses.
  LinearTerm term(const char* name, double constant_us = 0) const;  // name: a literal
  double rdma_bytes_per_us(const A2AConfig& c) const;  // line rate × framing efficiency, per GPU
  double nvlink_bytes_per_us() const;
  // Appends the branches the proxy backends share, in this order: wire send and wire receive
  // (remote bytes / RDMA rate × parameter `wire_param`, the wire time factor), then NVLink send
  // and receive (bytes / nvlink rate).
  void add_wire_and_nvlink_branches(RankTerms& t, const A2AConfig& c, const RankLoad& l,
                                    size_t wire_param) const;
  const JsonNode& block() const { return block_; }
  bool intranode_nvlink() const { return intranode_nvlink_; }

 private:
  struct RankEval {
    double total_us = 0;
    int rank = -1;
    RankTerms terms;
    size_t binding = 0;
  };
  RankEval slowest(const A2AConfig& c, const Routing& r, A2APhase phase) const;
  void read_priors();  // profile.a2a[name].priors, checked against the specs and values

  std::string name_;
  std::vector<A2AParamSpec> specs_;
  size_t fixed_ = 0;  // index of the in-serving fixed cost
  std::vector<double> theta_;
  std::vector<std::optional<A2AParamPrior>> priors_;
  JsonNode block_;
  bool intranode_nvlink_ = true;
  double rdma_nic_efficiency_ = 1, nvlink_GBps_ = 0;
};

// profile.a2a[name] as a JsonNode whose errors name the profile file and "a2a.<name>"; a missing
// block or one marked {"unsupported": "why"} is an InputError.
JsonNode a2a_block(const FabricProfile& p, const std::string& name);

}  // namespace pdsim
