#pragma once
// `--corpus NAME|FILE|none` of run and compare: the calibration corpus that says where each
// prediction stands relative to what was measured (sim/fit/envelope.hpp), and the summary amendment
// that writes the verdict into summary.json's pdsim.envelope.
#include <CLI/CLI.hpp>
#include <functional>
#include <optional>
#include <string>

#include "sim/fit/envelope.hpp"
#include "sim/serve/cost/deployment.hpp"

namespace pdsim::cli {

inline CLI::Option* add_corpus_option(CLI::App& app, std::string& corpus) {
  return app
      .add_option("--corpus", corpus,
                  "calibration corpus that says where the prediction stands relative to what was "
                  "measured (calibrate/corpus/NAME.json or a file; none: no envelope)")
      ->capture_default_str();
}

// Read before anything is simulated, so a bad corpus fails first.
inline std::optional<CalibrationCorpus> load_corpus_option(const std::string& corpus) {
  if (corpus == "none") return std::nullopt;
  return load_calibration_corpus(corpus);
}

// Adds pdsim.envelope to a run's summary (nothing without a corpus).
inline std::function<void(Json&)> envelope_amendment(const std::optional<CalibrationCorpus>& corpus,
                                                     const Deployment& d) {
  if (!corpus) return {};
  return [&corpus, &d](Json& summary) {
    summary["pdsim"]["envelope"] = deployment_envelope(d, &*corpus, summary);
  };
}

}  // namespace pdsim::cli
