#include "sim/sweep/sensitivity.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <functional>

#include "sim/core/data_path.hpp"
#include "sim/core/error.hpp"
#include "sim/core/excerpt.hpp"
#include "sim/core/process_pool.hpp"
#include "sim/serve/actors/simulation.hpp"
#include "sim/serve/cost/deployment.hpp"
#include "sim/serve/cost/profile_overlay.hpp"
#include "sim/serve/entities/bench_metrics.hpp"

namespace pdsim {
namespace {

namespace fs = std::filesystem;

struct Profiles {
  Json fabric, gpu;
  std::string fabric_name, gpu_name;     // as overlays name them
  std::vector<ProfileOverlay> overlays;  // the scenario's
};

// The fabric and GPU profiles as the scenario runs them: its overlays applied, so a fitted value
// is the base that is perturbed (an overlay applied again at run time would undo the step).
Profiles profile_docs(const Scenario& s) {
  Profiles p;
  for (const auto& f : s.profile_overlays) {
    fs::path o(f);
    if (o.is_relative() && !s.file.empty()) o = fs::path(s.file).parent_path() / o;
    p.overlays.push_back(load_profile_overlay(o.lexically_normal().string()));
  }
  const std::string fabric =
      resolve_named("models/profiles/fabric", s.fabric.profile, s.file, "fabric.profile");
  const std::string gpu =
      resolve_named("models/profiles/gpu", s.gpu_profile, s.file, "gpu_profile");
  p.fabric = JsonNode::load_file(fabric).raw();
  p.gpu = JsonNode::load_file(gpu).raw();
  p.fabric_name = p.fabric.value("name", s.fabric.profile);
  p.gpu_name = p.gpu.value("name", s.gpu_profile);
  apply_profile_overlays(p.overlays, "fabric", p.fabric.value("name", ""), fabric, p.fabric);
  apply_profile_overlays(p.overlays, "gpu", p.gpu.value("name", ""), gpu, p.gpu);
  return p;
}

std::vector<SensitivityParam> all_params(const Profiles& docs, bool gpu) {
  std::vector<SensitivityParam> v = sensitivity_parameters("fabric", docs.fabric);
  if (gpu)
    for (auto& p : sensitivity_parameters("gpu", docs.gpu)) v.push_back(p);
  return v;
}

SensitivityMetrics metrics_from(const Json& j) {
  return {j.at("mean_tpot_ms").get<double>(), j.at("p99_itl_ms").get<double>(),
          j.at("mean_ttft_ms").get<double>()};
}

// One perturbed side of one parameter: an in-memory overlay that sets the perturbed value on
// the profile the scenario runs; it applies after the scenario's own overlays.
struct Side {
  size_t row = 0;
  bool hi = false;
  double value = 0;
  ProfileOverlay overlay;
};

ProfileOverlay perturbation(const Profiles& docs, const SensitivityParam& p, const Json& doc,
                            bool hi) {
  Json set = doc;
  for (const auto& k : p.path) set = set.at(k);
  for (auto it = p.path.rbegin(); it != p.path.rend(); ++it) set = Json{{*it, set}};
  const std::string name = "sensitivity " + p.name + (hi ? " +step" : " -step");
  return profile_overlay_from_json(
      {{"schema", kProfileOverlaySchema},
       {"name", name},
       {"provenance", {{"source", "pdsim sensitivity: one parameter moved one step"}}},
       {"profiles",
        {{p.profile,
          {{"profile", p.profile == "gpu" ? docs.gpu_name : docs.fabric_name}, {"set", set}}}}}},
      name);
}

// ln(M_b / M_a) / ln(p_b / p_a); nullopt when a metric is not positive.
std::optional<double> elasticity(double ma, double mb, double pa, double pb) {
  if (!(ma > 0) || !(mb > 0) || !(pa > 0) || !(pb > 0) || pa == pb) return std::nullopt;
  if (ma == mb) return 0.0;  // exactly: the parameter did not change the outcome
  return std::log(mb / ma) / std::log(pb / pa);
}

void set_elasticities(SensitivityRow& r, const SensitivityMetrics& base) {
  const SensitivityMetrics a = r.lo ? *r.lo : base, b = r.hi ? *r.hi : base;
  const double pa = r.lo ? *r.lo_value : r.param.base, pb = r.hi ? *r.hi_value : r.param.base;
  r.e_tpot = elasticity(a.mean_tpot_ms, b.mean_tpot_ms, pa, pb);
  r.e_itl = elasticity(a.p99_itl_ms, b.p99_itl_ms, pa, pb);
  r.e_ttft = elasticity(a.mean_ttft_ms, b.mean_ttft_ms, pa, pb);
  if (!r.e_tpot || !r.e_itl)
    r.note += (r.note.empty() ? "" : "; ") + std::string("metric not positive");
}

double rank_key(const SensitivityRow& r) {
  double k = -1;
  if (r.e_tpot) k = std::max(k, std::abs(*r.e_tpot));
  if (r.e_itl) k = std::max(k, std::abs(*r.e_itl));
  return k;
}

}  // namespace

std::vector<SensitivityParam> scenario_sensitivity_parameters(const SensitivityOptions& opt) {
  const Scenario s = load_scenario(opt.scenario, opt.sets);
  return all_params(profile_docs(s), opt.include_gpu);
}

SensitivityResult run_sensitivity(const SensitivityOptions& opt) {
  if (!(opt.step > 0 && opt.step < 1))
    throw InputError("<command line>", "--step", "a relative step in (0, 1), e.g. 0.2");
  const Scenario s = load_scenario(opt.scenario, opt.sets);
  build_deployment(s);  // bad input or an infeasible base deployment: fail before any run
  const Profiles docs = profile_docs(s);
  std::vector<SensitivityParam> params = all_params(docs, opt.include_gpu);
  if (!opt.params.empty()) {
    std::vector<SensitivityParam> chosen;
    for (const auto& name : opt.params) {
      auto it = std::find_if(params.begin(), params.end(),
                             [&](const SensitivityParam& p) { return p.name == name; });
      if (it == params.end()) {
        std::string names;
        for (const auto& p : params) names += (names.empty() ? "" : ", ") + p.name;
        throw InputError(
            "<command line>", "--param",
            "a parameter of the scenario's profiles (" + names + "), got '" + excerpt(name) + "'");
      }
      if (std::none_of(chosen.begin(), chosen.end(),
                       [&](const SensitivityParam& p) { return p.name == name; }))
        chosen.push_back(*it);
    }
    params = chosen;
  }

  SensitivityResult res;
  res.scenario_name = s.name;
  res.seed = opt.seed.value_or(s.seed);
  res.step = opt.step;
  std::vector<Side> sides;
  for (size_t i = 0; i < params.size(); ++i) {
    SensitivityRow row;
    row.param = params[i];
    for (const bool hi : {false, true}) {
      auto pert = perturb_parameter(row.param.profile == "gpu" ? docs.gpu : docs.fabric, row.param,
                                    hi ? opt.step : -opt.step);
      if (!pert) continue;
      Side side{i, hi, pert->value, perturbation(docs, row.param, pert->doc, hi)};
      try {  // the same checks as a real run: profile ranges, a2a backend bounds, feasibility
        build_deployment(s, {side.overlay});
        sides.push_back(side);
      } catch (const std::exception& e) {
        row.note += std::string(row.note.empty() ? "" : "; ") + (hi ? "+" : "-") +
                    step_percent(opt.step) + "% is not a valid profile";
      }
    }
    res.rows.push_back(row);
  }

  // Task 0 is the base run; then one task per valid side.
  std::vector<std::function<Json()>> tasks;
  const std::optional<uint64_t> seed = res.seed;
  const auto run_one = [&s, seed](std::vector<ProfileOverlay> extra, bool full) {
    return [&s, seed, extra, full]() -> Json {
      // Already in a process of its own (run_in_processes below): simulate here.
      Scenario sc = s;
      if (seed) sc.seed = *seed;
      const SimResults r = simulate(build_deployment(sc, extra), sc.seed);
      const Json sum = bench_summary(r);
      Json m = {{"mean_tpot_ms", sum.at("mean_tpot_ms")},
                {"p99_itl_ms", sum.at("p99_itl_ms")},
                {"mean_ttft_ms", sum.at("mean_ttft_ms")}};
      if (full) {
        m["resolved_scenario"] = r.resolved_scenario;
        m["profiles"] = profiles_provenance(r.profiles);
      }
      return m;
    };
  };
  tasks.push_back(run_one({}, true));
  for (const auto& side : sides) tasks.push_back(run_one({side.overlay}, false));
  // Each in its own process; outcomes kept in task order, so the output does not depend on jobs.
  std::vector<TaskOutcome> outs(tasks.size());
  run_in_processes(
      tasks.size(), opt.jobs, [&](size_t i) { return tasks[i](); },
      [&](size_t i, TaskOutcome o) { outs[i] = std::move(o); });
  if (!outs[0].ok) throw PropagatedError(outs[0].code, "base run: " + outs[0].error);
  res.base = metrics_from(outs[0].result);
  res.resolved_scenario = outs[0].result.at("resolved_scenario");
  res.profiles = outs[0].result.at("profiles");
  for (size_t k = 0; k < sides.size(); ++k) {
    SensitivityRow& row = res.rows[sides[k].row];
    const TaskOutcome& o = outs[k + 1];
    if (!o.ok) {
      row.note += (row.note.empty() ? "" : "; ") + std::string("run failed: ") + o.error;
      continue;
    }
    (sides[k].hi ? row.hi_value : row.lo_value) = sides[k].value;
    (sides[k].hi ? row.hi : row.lo) = metrics_from(o.result);
  }
  for (auto& row : res.rows) {
    if (row.lo && row.hi)
      row.method = "central";
    else if (row.hi)
      row.method = "forward";
    else if (row.lo)
      row.method = "backward";
    else
      row.method = "skipped";
    if (row.method == "skipped") {
      if (row.param.base == 0 && !row.param.curve)
        row.note +=
            std::string(row.note.empty() ? "" : "; ") + "value 0: a relative step does not move it";
      continue;
    }
    set_elasticities(row, res.base);
  }
  std::stable_sort(res.rows.begin(), res.rows.end(),
                   [](const SensitivityRow& a, const SensitivityRow& b) {
                     const double ka = rank_key(a), kb = rank_key(b);
                     if (ka != kb) return ka > kb;
                     return a.param.name < b.param.name;
                   });
  return res;
}

}  // namespace pdsim
