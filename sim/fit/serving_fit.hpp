#pragma once
// `pdsim calibrate serving SET --fit PATH=LO:HI ...`: fits declared parameters of the serving
// model's mechanisms to a validation set's measured runs.
//   1. Binds each parameter to the profile the runs use and checks its range against what the
//      profile accepts; computes the Jacobian of the residuals at the start point and refuses
//      parameters the runs cannot identify (local_jacobian.hpp), naming them.
//   2. Minimises Σ ln(predicted/measured)² (fit_objective.hpp) with NLopt's BOBYQA, a maintained
//      bounded derivative-free optimiser, over the parameters scaled to [0, 1], from each of
//      `starts` start points (the profiles' values, then Halton points; the lowest minimum wins).
//      Every evaluation simulates the runs in worker processes with common random numbers
//      (set_predictor.hpp), so the objective is deterministic and smooth up to the discreteness of
//      events.
//   3. At the optimum: Jacobian again, standard errors and correlations; an overlay with only the
//      fitted fields, per profile, and the fit as provenance (runs, metrics, residuals,
//      uncertainty). Deterministic: the same inputs give a byte-identical overlay.
//   4. Leave-one-out: for each run (or each group of runs, `leave_out_by`: a whole deployment), the
//      fit on the others (parameters they cannot identify held at the profile's value) predicts
//      the runs left out.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "sim/fit/fit_loss.hpp"
#include "sim/fit/fit_minimizer.hpp"
#include "sim/fit/fit_objective.hpp"
#include "sim/fit/fit_parameter.hpp"
#include "sim/fit/fit_quality.hpp"
#include "sim/fit/leave_one_out.hpp"
#include "sim/fit/local_jacobian.hpp"
#include "sim/fit/validation_set.hpp"

namespace pdsim {

struct ServingFitOptions {
  std::vector<std::string> fit;      // "PATH=LO:HI"
  std::vector<std::string> metrics;  // empty: default_fit_metrics()
  FitLoss loss;                      // what is minimised (fit_loss.hpp); default Σ r²
  std::optional<uint64_t> seed;      // default: each run's scenario seed
  int jobs = 2;
  int max_evaluations = 400;
  int starts = 1;       // start points (fit_starts.hpp): the profiles' values, then Halton points
  std::string name;     // the overlay's name
  std::string command;  // recorded in the provenance
  bool leave_one_out = true;
  std::string leave_out_by = "run";  // which runs a fold leaves out together (leave_out_groups.hpp)
  std::function<void(const std::string&)> progress;  // one line per step (optional)
};

struct ServingFitResult {
  bool converged = false;
  std::string status;  // NLopt's result
  int evaluations = 0;
  std::vector<FitParameter> params;
  std::vector<double> theta;
  std::vector<std::vector<double>> starts;
  std::vector<Minimum> minima;  // one per start
  size_t best_start = 0;
  ParameterUncertainty uncertainty;
  std::vector<Residual> start_residuals, residuals;
  double sse = 0;
  std::vector<LeaveOneOut> loo;
  std::string leave_out_by = "run";  // how loo's folds were grouped
  std::vector<FitWarning> warnings;  // on the converged fit's quality (fit_quality.hpp)
  ProfileOverlay overlay;            // only when converged
};

// InputError for bad parameters (unknown path, LO >= HI, a range the profile rejects, a parameter
// the runs cannot identify); a result with converged = false when the optimiser did not converge.
ServingFitResult fit_serving(const ValidationSet& set, const ServingFitOptions& opt);

}  // namespace pdsim
