#pragma once
// Reports of a validation set (`pdsim validate SET`) and of a serving fit
// (`pdsim calibrate serving`): one table of predicted vs measured with % error per metric per
// run, the metrics not compared and why, and for a fit the parameters with standard errors,
// correlations, residuals before and after, and the leave-one-out predictions.
#include <string>
#include <vector>

#include "sim/fit/fold_spread.hpp"
#include "sim/fit/serving_fit.hpp"
#include "sim/fit/validation_set.hpp"

namespace pdsim {

// {"set", "runs": [{"name", "validation": validate_against(...)}], "mean_abs_error_pct"}
Json validate_set_json(const ValidationSet& set, const std::vector<Json>& predicted);
std::string validate_set_text(const ValidationSet& set, const Json& validation);

// A fit's left-out errors as `pdsim run` uses them (sim/fit/fold_spread.hpp): per family, tau, its
// 90 % factor, and how many left-out runs fall inside when each fold is left out of it; "" when no
// family has an estimate.
std::string fold_spread_text(const FoldSpread& s);

std::string serving_fit_text(const ValidationSet& set, const ServingFitResult& fit);

}  // namespace pdsim
