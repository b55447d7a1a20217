// pdsim validate SCENARIO --measured FILE.jsonl [--line K] [--seed N] [--set path=value]...
// [--out DIR]: simulate the scenario and compare it with a measured bench_serving run, metric by
// metric (% error). The measured record is read first, so a bad file fails before simulating.
#include <iostream>
#include <memory>

#include "reports/bench_serving_jsonl.hpp"
#include "reports/run_outputs.hpp"
#include "reports/validate.hpp"
#include "sim/cli/command.hpp"
#include "sim/core/atomic_file.hpp"
#include "sim/serve/bench_metrics.hpp"
#include "sim/serve/run_scenario.hpp"

namespace {
struct ValidateOptions {
  std::string scenario, measured, out;
  std::optional<int> line;
  std::optional<uint64_t> seed;
  std::vector<std::string> sets;
};
}  // namespace

PDSIM_CLI_COMMAND(
    validate, "validate", "compare a scenario's prediction with a measured bench_serving JSONL run",
    [](CLI::App& app) -> std::function<int()> {
      auto o = std::make_shared<ValidateOptions>();
      app.add_option("scenario", o->scenario, "scenario JSON file")->required();
      app.add_option("--measured", o->measured, "bench_serving --output-file (JSONL)")->required();
      app.add_option("--line", o->line, "line of the JSONL file to use (default: the last record)");
      app.add_option("--seed", o->seed, "random seed (default: the scenario's)");
      app.add_option("--set", o->sets, "override a scenario field: dotted.path=value");
      app.add_option("--out", o->out, "also write run outputs and validation.json here");
      return [o] {
        using namespace pdsim;
        const BenchServingRecord measured = read_bench_serving_jsonl(o->measured, o->line);
        const SimResults r = run_scenario_file(o->scenario, o->sets, o->seed);
        const Json predicted = o->out.empty() ? bench_summary(r) : write_run_outputs(r, o->out);
        const Json v = validate_against(predicted, measured.record);
        if (!o->out.empty()) {
          Json doc = v;
          doc["measured_file"] = measured.file;
          doc["measured_line"] = measured.line;
          doc["scenario"] = r.scenario_name;
          write_file_atomic(o->out + "/validation.json", doc.dump(2) + "\n");
        }
        std::cout << validate_text(v, measured.file + " line " + std::to_string(measured.line));
        return 0;
      };
    })
