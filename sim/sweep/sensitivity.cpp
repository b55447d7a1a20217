#include "sim/sweep/sensitivity.hpp"

#include <stdlib.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <set>
#include <sstream>

#include "sim/core/atomic_file.hpp"
#include "sim/core/data_path.hpp"
#include "sim/core/error.hpp"
#include "sim/core/excerpt.hpp"
#include "sim/core/process_pool.hpp"
#include "sim/core/text_align.hpp"
#include "sim/serve/actors/simulation.hpp"
#include "sim/serve/cost/deployment.hpp"
#include "sim/serve/cost/profile_overlay.hpp"
#include "sim/serve/entities/bench_metrics.hpp"

namespace pdsim {
namespace {

namespace fs = std::filesystem;

// Perturbed profiles live in a private temporary directory for the duration of the run.
class TempDir {
 public:
  TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "pdsim-sensitivity-XXXXXX").string();
    if (::mkdtemp(tmpl.data()) == nullptr)
      throw InputError(tmpl, "", "a writable temporary directory");
    path_ = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

struct Profiles {
  Json fabric, gpu;
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
  apply_profile_overlays(p.overlays, "fabric", p.fabric.value("name", ""), fabric, p.fabric);
  apply_profile_overlays(p.overlays, "gpu", p.gpu.value("name", ""), gpu, p.gpu);
  return p;
}

// With overlays, every perturbed run reads both profiles from files already overlaid and keeps
// the overlays' other sections (serving stack, acceptance) through copies without their fabric
// and GPU sections. Returns the `--set`s that do that.
std::vector<std::string> overlaid_sets(const Profiles& docs, const std::string& dir) {
  if (docs.overlays.empty()) return {};
  std::vector<std::string> sets;
  std::string list;
  for (size_t i = 0; i < docs.overlays.size(); ++i) {
    Json o = docs.overlays[i].doc;
    o["profiles"].erase("fabric");
    o["profiles"].erase("gpu");
    const std::string f = dir + "/overlay" + std::to_string(i) + ".json";
    write_file_atomic(f, o.dump(2) + "\n");
    list += (list.empty() ? "\"" : ",\"") + f + "\"";
  }
  sets.push_back("profile_overlays=[" + list + "]");
  write_file_atomic(dir + "/base_fabric.json", docs.fabric.dump(2) + "\n");
  write_file_atomic(dir + "/base_gpu.json", docs.gpu.dump(2) + "\n");
  sets.push_back("fabric.profile=" + dir + "/base_fabric.json");
  sets.push_back("gpu_profile=" + dir + "/base_gpu.json");
  return sets;
}

std::vector<SensitivityParam> all_params(const Profiles& docs, bool gpu) {
  std::vector<SensitivityParam> v = sensitivity_parameters("fabric", docs.fabric);
  if (gpu)
    for (auto& p : sensitivity_parameters("gpu", docs.gpu)) v.push_back(p);
  return v;
}

Json metrics_json(const SensitivityMetrics& m) {
  return {{"mean_tpot_ms", m.mean_tpot_ms},
          {"p99_itl_ms", m.p99_itl_ms},
          {"mean_ttft_ms", m.mean_ttft_ms}};
}
SensitivityMetrics metrics_from(const Json& j) {
  return {j.at("mean_tpot_ms").get<double>(), j.at("p99_itl_ms").get<double>(),
          j.at("mean_ttft_ms").get<double>()};
}

// One perturbed side of one parameter: the scenario overrides that select its profile file.
struct Side {
  size_t row = 0;
  bool hi = false;
  double value = 0;
  std::vector<std::string> sets;
};

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

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}
// Exactly 0 (the outcome did not change at all: the scenario does not use the parameter) prints
// as "0", distinct from a small rounded value.
std::string fmt_e(const std::optional<double>& e) {
  if (!e) return "n/a";
  return *e == 0 ? "0" : fmt("%+.4f", *e);
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
  TempDir tmp;
  const std::vector<std::string> overlaid = overlaid_sets(docs, tmp.path());
  std::vector<Side> sides;
  for (size_t i = 0; i < params.size(); ++i) {
    SensitivityRow row;
    row.param = params[i];
    for (const bool hi : {false, true}) {
      auto pert = perturb_parameter(row.param.profile == "gpu" ? docs.gpu : docs.fabric, row.param,
                                    hi ? opt.step : -opt.step);
      if (!pert) continue;
      const std::string file = tmp.path() + "/" + std::to_string(i) + (hi ? "_hi" : "_lo") + "_" +
                               row.param.profile + ".json";
      write_file_atomic(file, pert->doc.dump(2) + "\n");
      Side side{i, hi, pert->value, opt.sets};
      side.sets.insert(side.sets.end(), overlaid.begin(), overlaid.end());
      side.sets.push_back((row.param.profile == "gpu" ? "gpu_profile=" : "fabric.profile=") + file);
      try {  // the same checks as a real run: profile ranges, a2a backend bounds, feasibility
        build_deployment(load_scenario(opt.scenario, side.sets));
        sides.push_back(side);
      } catch (const std::exception& e) {
        row.note += std::string(row.note.empty() ? "" : "; ") + (hi ? "+" : "-") +
                    fmt("%g", opt.step * 100) + "% is not a valid profile";
      }
    }
    res.rows.push_back(row);
  }

  // Task 0 is the base run; then one task per valid side.
  std::vector<std::function<Json()>> tasks;
  const std::optional<uint64_t> seed = res.seed;
  const auto run_one = [&opt, seed](std::vector<std::string> sets, bool full) {
    return [&opt, seed, sets, full]() -> Json {
      // Already in a process of its own (run_in_processes below): simulate here.
      Scenario sc = load_scenario(opt.scenario, sets);
      if (seed) sc.seed = *seed;
      const SimResults r = simulate(build_deployment(sc), sc.seed);
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
  tasks.push_back(run_one(opt.sets, true));
  for (const auto& side : sides) tasks.push_back(run_one(side.sets, false));
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

std::string sensitivity_text(const SensitivityResult& r) {
  std::ostringstream o;
  o << "Sensitivity of " << r.scenario_name << " (seed " << r.seed << ", step ±"
    << fmt("%g", r.step * 100) << "%): elasticity E = d ln(metric) / d ln(parameter)\n"
    << "base: mean TPOT " << fmt("%.3f", r.base.mean_tpot_ms) << " ms, p99 ITL "
    << fmt("%.3f", r.base.p99_itl_ms) << " ms, mean TTFT " << fmt("%.1f", r.base.mean_ttft_ms)
    << " ms\n";
  size_t w = 9;
  for (const auto& row : r.rows) w = std::max(w, row.param.name.size());
  o << pad("rank", 4) << "  " << pad("parameter", w, true) << "  " << pad("value", 10) << "  "
    << pad("E(TPOT)", 9) << "  " << pad("E(p99ITL)", 9) << "  " << pad("E(TTFT)", 9)
    << "  method\n";
  int rank = 0;
  for (const auto& row : r.rows) {
    const std::string value = row.param.curve ? "x1 (curve)" : fmt("%.4g", row.param.base);
    o << pad(row.method == "skipped" ? "-" : std::to_string(++rank), 4) << "  "
      << pad(row.param.name, w, true) << "  " << pad(value, 10) << "  " << pad(fmt_e(row.e_tpot), 9)
      << "  " << pad(fmt_e(row.e_itl), 9) << "  " << pad(fmt_e(row.e_ttft), 9) << "  " << row.method
      << (row.note.empty() ? "" : " (" + row.note + ")") << "\n";
  }
  return o.str();
}

Json sensitivity_json(const SensitivityResult& r) {
  Json rows = Json::array();
  for (const auto& row : r.rows) {
    auto opt = [](const std::optional<double>& v) { return v ? Json(*v) : Json(nullptr); };
    Json j = {
        {"parameter", row.param.name},
        {"profile", row.param.profile},
        {"kind", row.param.curve ? "curve scale" : (row.param.integer ? "integer" : "number")},
        {"value", row.param.base},
        {"method", row.method},
        {"lo_value", opt(row.lo_value)},
        {"hi_value", opt(row.hi_value)},
        {"lo", row.lo ? metrics_json(*row.lo) : Json(nullptr)},
        {"hi", row.hi ? metrics_json(*row.hi) : Json(nullptr)},
        {"elasticity",
         {{"mean_tpot_ms", opt(row.e_tpot)},
          {"p99_itl_ms", opt(row.e_itl)},
          {"mean_ttft_ms", opt(row.e_ttft)}}}};
    if (!row.note.empty()) j["note"] = row.note;
    rows.push_back(j);
  }
  return {{"schema", "pdsim.sensitivity/1"},
          {"scenario_name", r.scenario_name},
          {"seed", r.seed},
          {"step", r.step},
          {"method",
           "one at a time: each parameter set to p(1-step) and p(1+step), one simulation each "
           "with the base seed; elasticity = ln(M+/M-)/ln(p+/p-) (one-sided against the base "
           "run where one side is not a valid profile); curves scale every point; ranked by "
           "max(|E_tpot|, |E_p99_itl|)"},
          {"base", metrics_json(r.base)},
          {"parameters", rows},
          {"resolved_scenario", r.resolved_scenario},
          {"profiles", r.profiles}};
}

}  // namespace pdsim
