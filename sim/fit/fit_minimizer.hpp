#pragma once
// Minimising the fit's objective with NLopt's BOBYQA (a maintained bounded derivative-free
// optimiser; COBYLA for a single parameter) over the free parameters scaled to [0, 1], the others
// held. BOBYQA is restarted from its own optimum until a restart no longer improves the objective
// by 0.1 % (at most 30 runs): the simulations' discreteness makes the objective locally rough, and
// a fresh trust region steps over what stopped the previous one. Deterministic.
// The objective can have more than one basin (correlated mechanisms): minimize_from() runs that
// local search from each of several start points (fit_starts.hpp) and keeps the lowest.
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

struct MultiStartMinimum {
  Minimum best;  // the lowest converged minimum (the lowest one when none converged)
  size_t best_start = 0;
  std::vector<Minimum> minima;  // one per start, in start order
};

// minimize() from each start (a full parameter vector: the free ones start there, the others are
// held at its values). Ties keep the earlier start.
MultiStartMinimum minimize_from(Evaluator& ev, const std::vector<size_t>& runs,
                                const std::vector<size_t>& free,
                                const std::vector<std::vector<double>>& starts, int max_evaluations,
                                const std::function<void(const std::string&)>& progress);

}  // namespace pdsim
