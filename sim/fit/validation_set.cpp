#include "sim/fit/validation_set.hpp"

#include <filesystem>

#include "calibrate/bench_serving_artefacts.hpp"
#include "calibrate/bench_serving_jsonl.hpp"
#include "calibrate/bench_serving_record.hpp"
#include "sim/core/bounded_json.hpp"
#include "sim/core/data_path.hpp"
#include "sim/core/error.hpp"
#include "sim/core/path_name.hpp"
#include "sim/core/provenance.hpp"
#include "sim/core/read_file.hpp"
#include "sim/fit/fit_parameter.hpp"
#include "sim/fit/validation_set_keys.hpp"
#include "sim/scenario/record_workload.hpp"

namespace pdsim {
namespace {

namespace fs = std::filesystem;

// A file named in the set, relative to the set's directory; it must exist.
// n's path, relative to the set's folder.
std::string named_path(const JsonNode& n, const std::string& set_file) {
  fs::path p(n.string());
  if (p.is_relative()) p = fs::path(set_file).parent_path() / p;
  return p.lexically_normal().string();
}

// `resolved` (n's path as named_path gives it) when it is an existing file; else n fails.
std::string named_file(const JsonNode& n, const std::string& resolved) {
  if (!fs::is_regular_file(resolved)) n.fail("an existing file (" + resolved + " does not exist)");
  return resolved;
}

std::vector<std::string> overrides(const JsonNode& n) {
  if (!n.is_array()) n.fail("expected an array of \"dotted.path=value\" strings");
  std::vector<std::string> out;
  for (size_t i = 0; i < n.size(); ++i) out.push_back(n.at(i).string());
  return out;
}

// "KIND.FIELD=LO:HI" strings, each checked as `--fit` checks it.
std::vector<std::string> fit_list(const JsonNode& n) {
  if (!n.is_array() || n.size() == 0)
    n.fail("expected a non-empty array of \"KIND.FIELD=LO:HI\" strings");
  std::vector<std::string> out;
  for (size_t i = 0; i < n.size(); ++i) {
    out.push_back(n.at(i).string());
    try {
      parse_fit_parameter(out.back());
    } catch (const InputError& e) {
      n.at(i).fail(e.expected());
    }
  }
  return out;
}

// The bench_serving keys a comparison needs: a file without them is not bench_serving output.
void check_bench_serving(const Json& r, const JsonNode& where) {
  for (const char* k :
       {"duration", "completed", "total_output_tokens", "mean_e2e_latency_ms", "median_itl_ms"})
    if (!r.contains(k) || !r.at(k).is_number())
      where.fail(std::string("a bench_serving result (") + k + " missing)");
}

// bench_serving's --output-file (JSONL: the last record, or record `line`) or one record as a
// JSON document.
Json read_measured(const std::string& file, std::optional<int> line, const JsonNode& where) {
  try {
    return read_bench_serving_jsonl(file, line).record;
  } catch (const InputError& as_jsonl) {
    Json doc;
    try {
      doc = parse_json(read_file(file), file);
    } catch (const JsonSyntaxError&) {
      throw as_jsonl;  // neither form: the JSONL reader's error says what line is wrong
    }
    if (!doc.is_object() || line) throw as_jsonl;
    check_bench_serving(doc, where);
    check_bench_serving_values(doc, file, "");
    return doc;
  }
}

// A published point given in the set itself: {"published": {metric: value}, "source": "..."}.
// Papers and READMEs print a few summary figures per point (mean TPOT, throughput), not the whole
// bench_serving record: only the metrics given are compared, under bench_serving's key names.
Json published_point(const JsonNode& n) {
  n.expect_only({"published", "source"});
  if (n.at("source").string().empty()) n.at("source").fail("where the figures are printed");
  const JsonNode m = n.at("published");
  if (!m.is_object() || m.keys().empty())
    m.fail("expected an object of bench_serving metrics, e.g. {\"mean_tpot_ms\": 49.1}");
  Json record = Json::object();
  for (const auto& k : m.keys()) {
    if (!is_bench_serving_measured_key(k))
      m.at(k).fail("a bench_serving metric name (mean_tpot_ms, output_throughput, ...)");
    record[k] = m.at(k).non_negative();
  }
  return record;
}

}  // namespace

bool ValidationRun::comparable(const std::string& metric) const {
  return measured.is_object() && measured.contains(metric) && measured.at(metric).is_number() &&
         !excluded.count(metric) && !artefacts.count(metric);
}

bool ValidationRun::fittable(const std::string& metric) const {
  return comparable(metric) && !fit_excluded.count(metric);
}

bool is_validation_set(const std::string& arg) {
  // A file, or a name `pdsim list` prints; anything else is left to the scenario reader.
  const std::optional<std::string> path = file_or_named(arg, "calibrate/validation");
  std::error_code ec;
  if (!path || !fs::is_regular_file(*path, ec)) return false;
  Json j;
  try {
    j = parse_json(read_file(*path), *path);
  } catch (const JsonSyntaxError&) {
    return false;  // loaded as a scenario, whose reader reports the syntax error
  }
  return j.is_object() && j.contains("schema") && j["schema"] == kValidationSetSchema;
}

ValidationSet load_validation_set(const std::string& arg) {
  const std::string path = file_or_named(arg, "calibrate/validation").value_or(arg);
  return read_validation_set(JsonNode::load_file(path), path);
}

ValidationSet read_validation_set(const JsonNode& n, const std::string& path) {
  n.expect_only(key_names(validation_set_keys()));
  if (n.at("schema").string() != kValidationSetSchema)
    n.at("schema").fail(std::string("expected \"") + kValidationSetSchema + "\"");
  ValidationSet vs;
  vs.file = path;
  vs.name = n.at("name").string();
  vs.description = n.str_or("description", "");
  vs.provenance = read_provenance(n.at("provenance"));
  const std::vector<std::string> common =
      n.has("set") ? overrides(n.at("set")) : std::vector<std::string>{};
  if (n.has("fit")) vs.fit = fit_list(n.at("fit"));
  // Each run's workload from its bench_serving record unless the set says otherwise; the set's
  // and the run's own overrides come after it, so they win.
  const bool from_record = n.bool_or("workload_from_record", true);
  const JsonNode runs = n.at("runs");
  if (!runs.is_array() || runs.size() == 0) runs.fail("expected a non-empty array of runs");
  for (size_t i = 0; i < runs.size(); ++i) {
    const JsonNode r = runs.at(i);
    r.expect_only(key_names(validation_run_keys()));
    ValidationRun run;
    run.name = path_name(r.at("name"));  // names DIR/<name>.summary.json
    for (const auto& other : vs.runs)
      if (other.name == run.name) r.at("name").fail("a name no other run has");
    run.scenario = named_file(r.at("scenario"), named_path(r.at("scenario"), path));
    if (r.at("measured").is_object()) {
      run.measured_file = path;  // the figures are in the set
      run.measured = published_point(r.at("measured"));
    } else {
      // "FILE.jsonl:LINE" picks one record of an appended file.
      const RecordRef ref = split_record_ref(named_path(r.at("measured"), path));
      run.measured_file = named_file(r.at("measured"), ref.path);
      run.measured = read_measured(run.measured_file, ref.line, r.at("measured"));
      check_bench_serving(run.measured, r.at("measured"));
      if (from_record)
        run.sets = workload_from_record(JsonNode::from_json(run.measured, run.measured_file));
    }
    run.sets.insert(run.sets.end(), common.begin(), common.end());
    if (r.has("set"))
      for (auto& s : overrides(r.at("set"))) run.sets.push_back(std::move(s));
    run.artefacts = bench_serving_artefacts(run.measured);
    if (r.has("exclude")) {
      const JsonNode ex = r.at("exclude");
      if (!ex.is_object()) ex.fail("expected an object: metric -> why it is not compared");
      for (const auto& k : ex.keys()) {
        // A mistyped metric would exclude nothing, silently (issue 31).
        if (!is_bench_serving_measured_key(k))
          ex.at(k).fail("expected a bench_serving metric name (mean_tpot_ms, p99_itl_ms, ...)");
        run.excluded[k] = ex.at(k).string();
      }
    }
    if (r.has("fit_exclude")) {
      const JsonNode ex = r.at("fit_exclude");
      if (!ex.is_object()) ex.fail("expected an object: metric -> why it is not fitted to");
      for (const auto& k : ex.keys()) {
        if (!is_bench_serving_measured_key(k))
          ex.at(k).fail("expected a bench_serving metric name (mean_tpot_ms, p99_itl_ms, ...)");
        run.fit_excluded[k] = ex.at(k).string();
      }
    }
    run.note = r.str_or("note", "");
    vs.runs.push_back(std::move(run));
  }
  return vs;
}

}  // namespace pdsim
