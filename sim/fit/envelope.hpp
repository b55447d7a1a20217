#pragma once
// Where a prediction stands relative to what was measured (issue 27, item 5). The corpus's runs
// (calibration_corpus.hpp) are compared with the prediction's coordinates: it is inside when a
// measured deployment has every categorical coordinate equal and the numeric ones within the range
// of that deployment's runs. Otherwise the nearest deployment (fewest categorical differences,
// first in corpus order on a tie) names what differs. Each fitted parameter the run uses (from
// the profile overlays it applied) is checked the same way against the runs its fit used, over
// the coordinates its profile kind depends on (kParameterDependsOn below: an assumption, stated).
// The interval of each metric: outside, ±z90 · tau of the metric's family: the spread of the
// left-out deployments of an applied overlay's fit where that covers the prediction
// (fold_spread.hpp; the largest where several do), else the corpus's spread between deployments
// (deployment_spread.hpp); inside a deployment the corpus measured without fitting
// to it, that deployment's own RMS error; inside a fitted one, the RMS of the fit's residuals on
// that deployment's runs (in-sample: what the fitted mechanisms leave unexplained there; the
// parameters' own uncertainty is --param-samples'), and none where the fit compared no metric
// of the family there.
#include <optional>
#include <string>
#include <vector>

#include "sim/core/json_reader.hpp"
#include "sim/fabric/linear_a2a_backend.hpp"
#include "sim/fit/calibration_corpus.hpp"
#include "sim/fit/fold_spread.hpp"
#include "sim/fit/shipped_fits.hpp"
#include "sim/serve/cost/deployment.hpp"

namespace pdsim {

struct ParameterReach {
  std::string parameter, overlay;  // overlay: its name
  bool in_corpus = false;          // its fit runs are corpus runs
  std::vector<CoordinateGap> gaps;
};

// A decode all-to-all parameter that microbenchmarks cannot identify (held by the backend's
// declaration, e.g. the in-serving fixed cost `fixed_us`) and that no applied overlay set: the
// prediction runs it at the profile's value, which no measured run of this deployment chose (a
// shipped fit on other runs may have: `fitted_elsewhere` says so).
struct HeldParameter {
  std::string parameter;  // e.g. "fabric.a2a.ibgda.fixed_us"
  double value = 0;
  std::optional<A2AParamPrior> prior;  // from published serving figures, where the profile has one
  // What shipped overlays not applied here fitted for the same field of the same profile
  // (shipped_fits.hpp): told, never used.
  std::vector<ShippedFit> fitted_elsewhere;
};

struct Envelope {
  bool inside = false;
  std::vector<size_t> nearest;  // corpus run indices of the nearest deployment
  std::vector<CoordinateGap> gaps;
  bool nearest_fitted = false;  // an overlay the prediction applies was fitted to a nearest run
  std::vector<ParameterReach> parameters;
  // The residuals (log ratio after the fit) of the nearest runs, from the fits of the applied
  // overlays that used them (locate's `overlay_fits`).
  struct Residual {
    std::string run, metric;
    double log_ratio = 0;
  };
  std::vector<Residual> nearest_residuals;
  std::vector<HeldParameter> held;  // filled by deployment_envelope (it knows the backend)
  // Outside, each applied overlay's left-out spread (fold_spread.hpp), from `overlay_fits`; `gap`
  // empty when it covers this prediction, else why not.
  struct OverlaySpread {
    std::string overlay;  // its name
    FoldSpread spread;
    std::string gap;
  };
  std::vector<OverlaySpread> overlay_spreads;
};

// `overlay_log`: the deployment's profiles["profile_overlays"] (null when none was applied).
// `overlay_fits`: each applied overlay's "fit" block by its file (the log carries provenance
// only), for the residuals of a fitted deployment; null: none.
Envelope locate(const Coordinates& c, const CalibrationCorpus& corpus, const Json& overlay_log,
                const Json* overlay_fits = nullptr);

// The "envelope" block of summary.json: the verdict and each metric's interval. `summary` is the
// run's bench_serving summary (its metrics are the predictions).
Json envelope_json(const Envelope& e, const Coordinates& c, const CalibrationCorpus& corpus,
                   const Json& summary);
// The decode all-to-all's held parameters that no overlay in `overlay_log` set, in the
// backend's declaration order; none when decode has no all-to-all.
std::vector<HeldParameter> held_parameters(const Deployment& d, const Json& overlay_log);
// The same for one deployment and its summary: null without a corpus.
Json deployment_envelope(const Deployment& d, const CalibrationCorpus* corpus, const Json& summary);
// What a sweep's results line keeps of it: {"inside", "nearest" (first run), "differs" (coordinate
// keys), "extrapolated_parameters", "interval_90": {metric: [low, high]}}.
Json envelope_brief(const Json& envelope);

}  // namespace pdsim
