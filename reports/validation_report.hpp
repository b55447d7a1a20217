#pragma once
// Reports of a validation set (`pdsim validate SET`) and of a serving fit
// (`pdsim calibrate serving`): one table of predicted vs measured with % error per metric per
// run, the metrics not compared and why, and for a fit the parameters with standard errors,
// correlations, residuals before and after, and the leave-one-out predictions.
#include <string>
#include <vector>

#include "sim/fit/serving_fit.hpp"
#include "sim/fit/validation_set.hpp"

namespace pdsim {

// {"set", "runs": [{"name", "validation": validate_against(...)}], "mean_abs_error_pct"}
Json validate_set_json(const ValidationSet& set, const std::vector<Json>& predicted);
std::string validate_set_text(const ValidationSet& set, const Json& validation);

std::string serving_fit_text(const ValidationSet& set, const ServingFitResult& fit);

}  // namespace pdsim
