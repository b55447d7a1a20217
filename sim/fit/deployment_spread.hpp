#pragma once
// The spread between deployments (issue 27, item 3): how far the model misses a deployment whose
// runs no fit saw, estimated from the corpus's out-of-sample runs. Per metric family, each run's
// error e = mean over the family's compared metrics of ln(predicted / measured) (one value per
// run: a run's TPOT and ITL are not independent evidence); the runs are grouped by deployment
// (their categorical coordinates) and every deployment weighs the same, so a configuration
// measured at eight concurrencies does not outvote one measured once:
//   tau² = mean over deployments g of (mean over g's runs of e²).
// tau includes the model's bias on a deployment as well as its scatter: a user predicting a new
// deployment meets both. Leave one deployment out: tau_{-g} from the others, and how many of g's
// runs fall inside ±z90 · tau_{-g} — the honest check of the interval it gives.
// A family with fewer than two deployments has no estimate (tau 0): nothing to say it transfers.
#include <string>
#include <vector>

#include "sim/fit/calibration_corpus.hpp"

namespace pdsim {

// The families and their metrics (bench_serving keys), in the order reports list them.
std::vector<MetricSpread> metric_families();

// Fills `f`'s tau, runs and groups from each group's run errors (`by_group[g]`: ln(predicted /
// measured) per run, averaged over the family's metrics; `names[g]` its label); an empty group is
// skipped. The estimator above, shared with the spread of a fit's left-out folds (fold_spread.hpp).
void fill_spread(MetricSpread& f, const std::vector<std::string>& names,
                 const std::vector<std::vector<double>>& by_group);

// Fills each family's tau, runs and groups from the corpus runs with no fit behind them.
std::vector<MetricSpread> estimate_spreads(const std::vector<CorpusRun>& runs);

}  // namespace pdsim
