#pragma once
// Minimising the fit's objective with NLopt's BOBYQA (a maintained bounded derivative-free
// optimiser; COBYLA for a single parameter) over the free parameters scaled to [0, 1], the others
// held. BOBYQA is restarted from its own optimum until a restart no longer improves the objective
// by 0.1 % (at most 6 runs): the simulations' discreteness makes the objective locally rough, and
// a fresh trust region steps over what stopped the previous one. Deterministic.
#include <functional>
#include <string>
#include <vector>

#include "sim/fit/fit_evaluator.hpp"

namespace pdsim {

struct Minimum {
  std::vector<double> theta;
  double sse = 0;
  std::string status;
  bool converged = false;
};

// Minimises over the parameters in `free`, the others held at theta0's values. Exceptions from
// the simulations propagate.
Minimum minimize(Evaluator& ev, const std::vector<size_t>& runs, const std::vector<size_t>& free,
                 const std::vector<double>& theta0, int max_evaluations,
                 const std::function<void(const std::string&)>& progress);

}  // namespace pdsim
