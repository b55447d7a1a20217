#pragma once
// The calibration corpus (schema "pdsim.calibration_corpus/1"): every measured run of the shipped
// validation sets, each with where its deployment stands (deployment_coordinates.hpp) and the
// model's error on it, and the spread of that error between deployments (deployment_spread.hpp).
// Written by `pdsim calibrate corpus SET...`, read by `pdsim run` to say where a prediction stands
// relative to what was measured (envelope.hpp). Data, never code: regenerate it when a set, a
// scenario or the model changes (a test checks the shipped file is current).
#include <string>
#include <vector>

#include "sim/core/json_reader.hpp"
#include "sim/fit/deployment_coordinates.hpp"

namespace pdsim {

constexpr const char* kCalibrationCorpusSchema = "pdsim.calibration_corpus/1";

struct CorpusPoint {
  std::string metric;  // bench_serving key, e.g. "mean_tpot_ms"
  double predicted = 0, measured = 0;
};

struct CorpusRun {
  std::string set, name, measured_file;
  Coordinates coordinates;
  std::vector<CorpusPoint> points;  // the metrics `pdsim validate` compared
  // Overlays applied to its prediction whose fit used this run: an in-sample prediction, which
  // says nothing about deployments the fit never saw (it does not enter the spread).
  std::vector<std::string> fitted_by;
  std::string deployment() const;  // its categorical coordinates, joined: the group of item 4
};

// One group's part of a family's spread, and how the spread of the other groups covers it.
struct SpreadGroup {
  std::string deployment;
  int runs = 0;
  double mean_log_error = 0, rms_log_error = 0;
  double tau_without = 0;  // the family's spread estimated without this group (0: not estimable)
  int inside_90 = 0;       // runs with |ln(predicted/measured)| ≤ z90 · tau_without
};

struct MetricSpread {
  std::string family, help;
  std::vector<std::string> metrics;
  double tau = 0;  // between-deployment standard deviation of ln(predicted/measured); 0: none
  int runs = 0;
  std::vector<SpreadGroup> groups;
  int inside_90() const {  // runs inside ±z90 · tau_without over every group
    int n = 0;
    for (const auto& g : groups) n += g.inside_90;
    return n;
  }
};

struct CalibrationCorpus {
  std::string file, name;  // file: as given, or calibrate/corpus/NAME.json for a name
  Json provenance;
  std::vector<CorpusRun> runs;
  std::vector<MetricSpread> spreads;
  // The family a metric belongs to, or null when no family lists it.
  const MetricSpread* spread_of(const std::string& metric) const;
};

Json calibration_corpus_json(const CalibrationCorpus& c);
// InputError naming the file and field path for a malformed corpus.
// `arg`: a file, or a name `pdsim list` prints (calibrate/corpus/NAME.json).
CalibrationCorpus load_calibration_corpus(const std::string& arg);

}  // namespace pdsim
