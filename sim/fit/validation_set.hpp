#pragma once
// A validation set (schema "pdsim.validation_set/1"): measured runs, each a scenario with its
// `--set` overrides and the bench_serving result measured on the cluster.
//   {"schema": "pdsim.validation_set/1", "name": "...", "description": "...",
//    "provenance": {...},                     where and when the runs were measured
//    "set": ["path=value", ...],              overrides common to every run
//    "fit": ["KIND.FIELD=LO:HI", ...],         `calibrate serving`'s parameters without --fit
//    "runs": [{"name": "R4", "scenario": "FILE", "set": [...], "measured": "FILE",
//              "exclude": {"metric": "why"}, "fit_exclude": {"metric": "why"}, "note": "..."}]}
// `measured` is a bench_serving result file, or a published point written in the set:
//   {"published": {"mean_tpot_ms": 49.1, "output_throughput": 531}, "source": "FILE@commit Lnn"}
// (only those metrics are compared).
// `exclude`: not compared at all; `fit_exclude`: compared by `pdsim validate` but not fitted to
// (a metric the fitted mechanisms cannot explain, which would bias the fit).
// The keys are declared in validation_set_keys.hpp (generated docs: calibrate/README.md,
// docs/validation_set.schema.json). Paths are relative to the set file. Each run's metrics that are
// not compared — known artefacts of its measured record (calibrate/bench_serving_artefacts.hpp) and
// the set's own exclusions, each with its reason — are resolved when the set is loaded.
#include <map>
#include <string>
#include <vector>

#include "sim/core/json_reader.hpp"

namespace pdsim {

constexpr const char* kValidationSetSchema = "pdsim.validation_set/1";

struct ValidationRun {
  std::string name, scenario, measured_file, note;
  std::vector<std::string> sets;                    // the set's common overrides, then the run's
  Json measured;                                    // the bench_serving record
  std::map<std::string, std::string> excluded;      // the set's exclusions: metric → why
  std::map<std::string, std::string> fit_excluded;  // compared, but not fitted to: metric → why
  std::map<std::string, std::string> artefacts;     // the record's artefacts: metric → why
  // Whether `metric` is measured (a number) and neither excluded nor an artefact.
  bool comparable(const std::string& metric) const;
  // comparable() and not excluded from fitting.
  bool fittable(const std::string& metric) const;
};

struct ValidationSet {
  std::string file, name, description;
  Json provenance;
  std::vector<std::string> fit;  // the set's default fit list ("KIND.FIELD=LO:HI"), may be empty
  std::vector<ValidationRun> runs;
};

// InputError naming the file and field: a malformed set, a scenario or measured file that does
// not exist, a measured file that is not bench_serving output.
// `arg` is a file or a name `pdsim list` prints (calibrate/validation/NAME.json).
ValidationSet load_validation_set(const std::string& arg);
// The same from a parsed document; `path` is where it is (or will be) written: paths in it are
// relative to its folder.
ValidationSet read_validation_set(const JsonNode& n, const std::string& path);
// Whether `arg` (a file or such a name) is a JSON object with the validation-set schema (no
// error otherwise: a missing file or a scenario name is not one).
bool is_validation_set(const std::string& arg);

}  // namespace pdsim
