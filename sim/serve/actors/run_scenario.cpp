#include "sim/serve/actors/run_scenario.hpp"

#include <filesystem>
#include <stdexcept>

#include "sim/core/error.hpp"
#include "sim/core/fork_call.hpp"
#include "sim/core/process_pool.hpp"
#include "sim/serve/actors/simulation.hpp"

namespace pdsim {

Json results_to_json(const SimResults& r) {
  Json reqs = Json::array();
  for (const auto& q : r.requests)
    reqs.push_back({{"id", q.id},
                    {"arrival_s", q.arrival_s},
                    {"input_len", q.input_len},
                    {"output_len", q.output_len},
                    {"prefill_instance", q.prefill_instance},
                    {"decode_instance", q.decode_instance},
                    {"decode_rank", q.decode_rank},
                    {"decode_reserved_s", q.decode_reserved_s},
                    {"prefill_start_s", q.prefill_start_s},
                    {"prefill_end_s", q.prefill_end_s},
                    {"kv_start_s", q.kv_start_s},
                    {"kv_end_s", q.kv_end_s},
                    {"finish_s", q.finish_s},
                    {"chunk_times_s", q.chunk_times_s},
                    {"chunk_tokens", q.chunk_tokens},
                    {"completed", q.completed}});
  return Json{{"scenario_name", r.scenario_name},
              {"resolved_scenario", r.resolved_scenario},
              {"profiles", r.profiles},
              {"seed", r.seed},
              {"duration_s", r.duration_s},
              {"speculative", r.speculative},
              {"requests", reqs},
              {"extras", r.extras}};
}

SimResults results_from_json(const Json& j) {
  SimResults r;
  r.scenario_name = j.at("scenario_name").get<std::string>();
  r.resolved_scenario = j.at("resolved_scenario");
  r.profiles = j.at("profiles");
  r.seed = j.at("seed").get<uint64_t>();
  r.duration_s = j.at("duration_s").get<double>();
  r.speculative = j.at("speculative").get<bool>();
  r.extras = j.at("extras");
  for (const auto& q : j.at("requests")) {
    RequestRecord x;
    x.id = q.at("id").get<int>();
    x.arrival_s = q.at("arrival_s").get<double>();
    x.input_len = q.at("input_len").get<int>();
    x.output_len = q.at("output_len").get<int>();
    x.prefill_instance = q.at("prefill_instance").get<int>();
    x.decode_instance = q.at("decode_instance").get<int>();
    x.decode_rank = q.at("decode_rank").get<int>();
    x.decode_reserved_s = q.at("decode_reserved_s").get<double>();
    x.prefill_start_s = q.at("prefill_start_s").get<double>();
    x.prefill_end_s = q.at("prefill_end_s").get<double>();
    x.kv_start_s = q.at("kv_start_s").get<double>();
    x.kv_end_s = q.at("kv_end_s").get<double>();
    x.finish_s = q.at("finish_s").get<double>();
    x.chunk_times_s = q.at("chunk_times_s").get<std::vector<double>>();
    x.chunk_tokens = q.at("chunk_tokens").get<std::vector<int>>();
    x.completed = q.at("completed").get<bool>();
    r.requests.push_back(std::move(x));
  }
  return r;
}

SimResults simulate_isolated(const Deployment& d, uint64_t seed) {
  return results_from_json(call_in_child([&] {
    try {
      return results_to_json(simulate(d, seed));
    } catch (const std::exception& e) {
      throw std::runtime_error(std::string("simulation failed: ") + e.what());
    }
  }));
}

std::vector<SimResults> simulate_isolated(const std::vector<const Deployment*>& runs,
                                          const std::vector<uint64_t>& seeds, int jobs) {
  std::vector<Json> out(runs.size());
  std::vector<TaskOutcome> failed(runs.size());
  run_in_processes(
      runs.size(), jobs, [&](size_t i) { return results_to_json(simulate(*runs[i], seeds[i])); },
      [&](size_t i, TaskOutcome o) {
        if (o.ok)
          out[i] = std::move(o.result);
        else
          failed[i] = std::move(o);
      },
      "simulation");
  for (const auto& f : failed)
    if (!f.error.empty()) throw PropagatedError(f.code, "simulation failed: " + f.error);
  std::vector<SimResults> r;
  for (const auto& j : out) r.push_back(results_from_json(j));
  return r;
}

Scenario load_run_scenario(const std::string& path, const std::vector<std::string>& set_overrides,
                           std::optional<uint64_t> seed,
                           const std::vector<std::string>& overlay_files) {
  Scenario s = load_scenario(path, set_overrides);
  if (seed) s.seed = *seed;
  // Given on the command line: relative to the working directory, not to the scenario.
  for (const auto& f : overlay_files)
    s.profile_overlays.push_back(std::filesystem::absolute(f).lexically_normal().string());
  return s;
}

SimResults run_scenario_file(const std::string& path, const std::vector<std::string>& set_overrides,
                             std::optional<uint64_t> seed,
                             const std::vector<std::string>& overlay_files) {
  const Scenario s = load_run_scenario(path, set_overrides, seed, overlay_files);
  Deployment d = build_deployment(s);
  return simulate_isolated(d, s.seed);
}

}  // namespace pdsim
