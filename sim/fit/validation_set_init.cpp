#include "sim/fit/validation_set_init.hpp"

#include <filesystem>
#include <map>

#include "calibrate/bench_serving_jsonl.hpp"
#include "sim/core/data_path.hpp"
#include "sim/core/error.hpp"
#include "sim/core/path_name.hpp"
#include "sim/fit/recommended_fit.hpp"
#include "sim/fit/validation_set.hpp"
#include "sim/scenario/scenario.hpp"
#include "sim/serve/cost/deployment.hpp"

namespace pdsim {
namespace {

namespace fs = std::filesystem;

// `p` relative to the folder `dir` (lexically, both made absolute); absolute when it has no such
// form (another root).
std::string relative_to(const std::string& p, const fs::path& dir) {
  const fs::path abs = fs::absolute(p).lexically_normal();
  fs::path base = (fs::current_path() / dir).lexically_normal();
  if (!base.has_filename()) base = base.parent_path();  // "/a/b/" → "/a/b"
  const fs::path rel = abs.lexically_relative(base);
  return rel.empty() ? abs.generic_string() : rel.generic_string();
}

}  // namespace

Json init_validation_set(const SetInit& in) {
  const fs::path dir = fs::path(in.file).parent_path();
  const std::string scenario = file_or_named(in.scenario, "scenarios").value_or(in.scenario);
  if (!fs::is_regular_file(scenario))
    throw InputError("--scenario", in.scenario, "an existing scenario file or a scenario name");
  if (in.records.empty())
    throw InputError("--init", in.file, "at least one bench_serving record (FILE[:LINE])");
  Json runs = Json::array();
  std::map<std::string, size_t> index;
  std::string names;
  for (const auto& arg : in.records) {
    const RecordRef ref = split_record_ref(arg);
    std::string name = fs::path(ref.path).stem().string();
    if (!is_safe_path_name(name))
      throw InputError(arg, "",
                       "a record whose file name's stem can name a run (letters, digits, "
                       "'.', '_', '-', '+'; not starting with '.'): rename the copy");
    if (ref.line) name += "-" + std::to_string(*ref.line);
    std::string measured = relative_to(ref.path, dir);
    if (ref.line) measured += ":" + std::to_string(*ref.line);
    index[name] = runs.size();
    names += (names.empty() ? "" : ", ") + name;
    runs.push_back(
        {{"name", name}, {"scenario", relative_to(scenario, dir)}, {"measured", measured}});
  }
  for (const auto& spec : in.run_sets) {
    const size_t colon = spec.find(':');
    const std::string run = spec.substr(0, colon == std::string::npos ? 0 : colon);
    if (colon == std::string::npos || spec.find('=', colon) == std::string::npos)
      throw InputError("--run-set", spec, "RUN:dotted.path=value");
    if (!index.count(run))
      throw InputError("--run-set", spec, "a run of the set before ':' (one of: " + names + ")");
    runs[index[run]]["set"].push_back(spec.substr(colon + 1));
  }
  const Json doc = {
      {"schema", kValidationSetSchema},
      {"name", fs::path(in.file).stem().string()},
      {"description", "bench_serving runs " + names + " of " + fs::path(scenario).stem().string() +
                          ", each with its record's workload (written by pdsim calibrate serving "
                          "--init; add exclusions, with their reasons, by hand)"},
      {"provenance",
       {{"kind", "measured"},
        {"tool", "pdsim calibrate serving --init"},
        {"source", "the bench_serving records named in runs[].measured"}}},
      {"workload_from_record", true},
      {"fit", in.fit.empty() ? recommended_serving_fit() : in.fit},
      {"runs", runs}};
  // As `calibrate serving` and `validate` will read it: records, names, fit list, overrides, the
  // profiles and overlays each run's deployment uses.
  const ValidationSet set = read_validation_set(JsonNode::from_json(doc, in.file), in.file);
  for (const auto& r : set.runs) build_deployment(load_scenario(r.scenario, r.sets));
  return doc;
}

}  // namespace pdsim
