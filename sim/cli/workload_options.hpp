#pragma once
// bench_serving's own flags on `run` and `compare` (issue 28: --request-rate 2 --num-prompts 64
// instead of --set workload.request_rate=2 ...): one option per workload field whose declaration
// names a bench_serving flag (sim/scenario/scenario.hpp), so the spellings, units and help come
// from the declaration and a new field brings its flag. Each given flag becomes
// `workload.FIELD=VALUE`, applied after the --set overrides (the flag wins), read in the field's
// type and range like any --set.
#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "sim/scenario/sglang_fields.hpp"

namespace pdsim::cli {

inline void add_workload_flags(CLI::App& app, std::vector<std::string>& sets) {
  for (const FieldInfo& f : sglang_fields::mapped("workload")) {
    if (!f.spec.sglang.flag) continue;
    const std::string path = f.path;
    std::string help = std::string(f.spec.help) + " (sets " + path;
    if (*f.spec.unit) help += ", " + std::string(f.spec.unit);
    help += ")";
    app.add_option_function<std::string>(
           f.spec.sglang.flag,
           [&sets, path](const std::string& v) { sets.push_back(path + "=" + v); }, help)
        ->type_name(f.type == "integer"  ? "INT"
                    : f.type == "number" ? "NUMBER"
                                         : "TEXT")
        ->group("Workload (bench_serving's flags)");
  }
}

}  // namespace pdsim::cli
