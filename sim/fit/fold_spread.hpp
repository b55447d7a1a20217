#pragma once
// The spread of a fit's left-out predictions (issue 27, item 3, for a prediction that applies a
// fitted overlay). The corpus's spread (deployment_spread.hpp) is the model's error on
// deployments with the profiles alone; a prediction that applies an overlay runs a different
// model, whose out-of-sample error is what the fit's leave-one-out folds measured: each fold
// refitted without its runs and predicted them. Per metric family, each left-out run's error is
// the mean of its residuals' log ratios over the family's metrics; the folds are the groups of
// deployment_spread.hpp's estimator (each weighs the same), and leaving one fold out of that
// estimate checks the interval it gives (how many of the fold's runs fall inside ±z90·tau).
//
// What it covers, an assumption named: a deployment the folds could have left out. The envelope
// (envelope.hpp) uses it only when (a) no deployment of the fit is split between folds (folds by
// load leave out points of a deployment, not a deployment), and (b) the prediction differs from
// the nearest deployment the folds predicted only in categorical coordinates whose values some
// predicted run had: a recombination of what was measured. A value no run had (a new model,
// platform or MoE path) or a number outside a deployment's range is not what the folds tested.
#include <string>
#include <vector>

#include "sim/core/json_reader.hpp"
#include "sim/fit/calibration_corpus.hpp"

namespace pdsim {

struct FoldSpread {
  std::string leave_out_by;  // the fit's grouping ("run" when the overlay records none)
  // Each fold's left-out runs that have a residual (names in the fit's validation set).
  std::vector<std::vector<std::string>> folds;
  std::vector<MetricSpread> families;  // metric_families(), each group one fold (its label)
};

// From an overlay's "fit" block; no folds (a fit with --no-loo, or none) gives tau 0 everywhere.
FoldSpread fold_spread(const Json& fit);

// {"leave_out_by", "families": [{"family", "tau", "runs", "deployments", "inside_90_left_out"}]},
// the families with an estimate only.
Json fold_spread_json(const FoldSpread& s);

// The corpus runs (indices, ascending) among `pool` (the corpus runs of the overlay's fit, from
// its provenance's measured files) that some fold predicted, matched by name.
std::vector<size_t> fold_runs_in(const FoldSpread& s, const CalibrationCorpus& corpus,
                                 const std::vector<size_t>& pool);

// Why `s` does not cover a prediction at `c` (empty: it does). `tested`: fold_runs_in(...).
std::string fold_spread_gap(const FoldSpread& s, const Coordinates& c,
                            const CalibrationCorpus& corpus, const std::vector<size_t>& tested);

}  // namespace pdsim
