#include "sim/fit/calibration_corpus.hpp"

#include "sim/core/data_path.hpp"
#include "sim/core/error.hpp"

namespace pdsim {

std::string CorpusRun::deployment() const {
  std::string s;
  for (const auto& c : coordinates)
    if (!c.numeric) s += (s.empty() ? "" : " | ") + c.text;
  return s;
}

const MetricSpread* CalibrationCorpus::spread_of(const std::string& metric) const {
  for (const auto& f : spreads)
    for (const auto& m : f.metrics)
      if (m == metric) return &f;
  return nullptr;
}

Json calibration_corpus_json(const CalibrationCorpus& c) {
  Json runs = Json::array();
  for (const auto& r : c.runs) {
    Json pts = Json::array();
    for (const auto& p : r.points)
      pts.push_back({{"metric", p.metric}, {"predicted", p.predicted}, {"measured", p.measured}});
    runs.push_back({{"set", r.set},
                    {"name", r.name},
                    {"measured_file", r.measured_file},
                    {"coordinates", coordinates_json(r.coordinates)},
                    {"fitted_by", r.fitted_by},
                    {"points", pts}});
  }
  Json spreads = Json::array();
  for (const auto& f : c.spreads) {
    Json groups = Json::array();
    for (const auto& g : f.groups)
      groups.push_back({{"deployment", g.deployment},
                        {"runs", g.runs},
                        {"mean_log_error", g.mean_log_error},
                        {"rms_log_error", g.rms_log_error},
                        {"tau_without", g.tau_without},
                        {"inside_90", g.inside_90}});
    spreads.push_back({{"family", f.family},
                       {"help", f.help},
                       {"metrics", f.metrics},
                       {"tau", f.tau},
                       {"runs", f.runs},
                       {"groups", groups}});
  }
  return {{"schema", kCalibrationCorpusSchema},
          {"name", c.name},
          {"provenance", c.provenance},
          {"spreads", spreads},
          {"runs", runs}};
}

CalibrationCorpus load_calibration_corpus(const std::string& arg) {
  const std::optional<std::string> found = file_or_named(arg, "calibrate/corpus");
  if (!found)
    throw InputError("--corpus", "",
                     "a calibration corpus file, or a name pdsim list prints "
                     "(calibrate/corpus/NAME.json under " +
                         data_root() + "); got \"" + arg + "\" (none: no envelope)");
  const std::string path = *found;
  const JsonNode n = JsonNode::load_file(path);
  n.expect_only({"schema", "name", "provenance", "spreads", "runs"});
  if (n.at("schema").string() != kCalibrationCorpusSchema)
    throw InputError(path, "schema", std::string("expected \"") + kCalibrationCorpusSchema + "\"");
  CalibrationCorpus c;
  // As the user named it: a name stays data-relative, so outputs do not depend on the checkout.
  c.file = path == arg ? arg : "calibrate/corpus/" + arg + ".json";
  c.name = n.at("name").string();
  c.provenance = n.at("provenance").raw();
  const JsonNode runs = n.at("runs");
  for (size_t i = 0; i < runs.size(); ++i) {
    const JsonNode r = runs.at(i);
    r.expect_only({"set", "name", "measured_file", "coordinates", "fitted_by", "points"});
    CorpusRun run{r.at("set").string(),
                  r.at("name").string(),
                  r.at("measured_file").string(),
                  coordinates_from_json(r.at("coordinates")),
                  {},
                  {}};
    const JsonNode fb = r.at("fitted_by");
    for (size_t k = 0; k < fb.size(); ++k) run.fitted_by.push_back(fb.at(k).string());
    const JsonNode pts = r.at("points");
    for (size_t k = 0; k < pts.size(); ++k) {
      const JsonNode p = pts.at(k);
      p.expect_only({"metric", "predicted", "measured"});
      run.points.push_back(
          {p.at("metric").string(), p.at("predicted").positive(), p.at("measured").positive()});
    }
    c.runs.push_back(std::move(run));
  }
  const JsonNode sp = n.at("spreads");
  for (size_t i = 0; i < sp.size(); ++i) {
    const JsonNode f = sp.at(i);
    f.expect_only({"family", "help", "metrics", "tau", "runs", "groups"});
    MetricSpread m{f.at("family").string(),
                   f.at("help").string(),
                   {},
                   f.at("tau").non_negative(),
                   static_cast<int>(f.at("runs").integer()),
                   {}};
    const JsonNode ms = f.at("metrics");
    for (size_t k = 0; k < ms.size(); ++k) m.metrics.push_back(ms.at(k).string());
    const JsonNode gs = f.at("groups");
    for (size_t k = 0; k < gs.size(); ++k) {
      const JsonNode g = gs.at(k);
      g.expect_only(
          {"deployment", "runs", "mean_log_error", "rms_log_error", "tau_without", "inside_90"});
      m.groups.push_back({g.at("deployment").string(), static_cast<int>(g.at("runs").integer()),
                          g.at("mean_log_error").number(), g.at("rms_log_error").non_negative(),
                          g.at("tau_without").non_negative(),
                          static_cast<int>(g.at("inside_90").integer())});
    }
    c.spreads.push_back(std::move(m));
  }
  return c;
}

}  // namespace pdsim
