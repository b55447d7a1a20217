#pragma once
// Fits one all-to-all backend's parameters to measured phase latencies by simulating the
// measured experiment: for each row, the backend's phase time is averaged over several sampled
// routings (fixed seed). Given which rank is slowest and which branch binds it, the time is
// linear in the parameters, so the fit alternates (1) linearise at the current parameters
// (averaging the slowest rank's active coefficients over the samples) and (2) solve the bounded
// least-squares problem, until the active sets stop changing; the iterate with the smallest
// simulated squared error is kept.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "calibrate/a2a_rows.hpp"
#include "sim/fabric/fabric_profile.hpp"

namespace pdsim {

struct A2AFitOptions {
  int samples = 8;
  uint64_t seed = 1;
  int max_iterations = 40;
  std::map<std::string, double> fixed;  // parameter → value held (overrides fitted_by_default)
  // Fewer rows than free parameters is an input error; a cross-check (an --alternate file fitted
  // on its own and compared) still runs, its report marking what it could not identify.
  bool refuse_underdetermined = true;
};

struct A2AFitResult {
  Json block;   // profile.a2a[backend]: settings + parameters
  Json report;  // parameters with standard errors, residuals per row, rms, dof, iterations
  double rms_us = 0;
};

// `settings` are the backend's non-fitted inputs (e.g. proxy_threads); `base` supplies the
// link-level values (rdma_nic_efficiency, nvlink_GBps). All rows must be for `backend`.
A2AFitResult fit_a2a_backend(const std::string& backend, const FabricProfile& base,
                             const Json& settings, const std::vector<A2ARow>& rows,
                             const A2AFitOptions& opt);

}  // namespace pdsim
