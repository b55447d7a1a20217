#include "sim/sweep/point_eval.hpp"

#include <stdexcept>

#include "models/hardware.hpp"
#include "sim/core/error.hpp"
#include "sim/core/fork_call.hpp"
#include "sim/fit/envelope.hpp"
#include "sim/serve/actors/simulation.hpp"
#include "sim/serve/cost/deployment.hpp"
#include "sim/serve/entities/bench_metrics.hpp"
#include "sim/sweep/slo_search.hpp"

namespace pdsim {
namespace {

Scenario point_scenario_parsed(const SweepSpec& s, const SweepPoint& p) {
  const std::string where =
      s.file + " (point " + std::to_string(p.index) + " " + p.overrides.dump() + ")";
  try {
    Scenario sc = parse_scenario(JsonNode::from_json(point_scenario(s, p), where));
    sc.file = s.base_file;
    return sc;
  } catch (const InputError& e) {
    throw InputError(where, e.field(), e.expected());
  }
}

int total_gpus(const Scenario& sc) {
  const InstanceType it = load_instance(sc.cluster.instance_type, sc.file);
  return (sc.prefill.instances * sc.prefill.nodes_per_instance +
          sc.decode.instances * sc.decode.nodes_per_instance) *
         it.gpus_per_node;
}

Json base_line(const SweepSpec& s, const SweepPoint& p) {
  return Json{{"sweep", s.hash},
              {"point", p.index},
              {"id", p.id},
              {"overrides", p.overrides},
              {"points_total", s.points.size()},
              {"status", "ok"},
              {"reason", ""},
              {"gpus", 0},
              {"summary", nullptr}};
}

// One simulation, in a child or (`here`) in this process; the summary loses the per-profile
// provenance (identical on every line of a profile, and in every run directory's
// scenario.resolved.json). Failures surface as std::runtime_error either way, as call_in_child
// reports them.
Json simulate_summary(const Deployment& d, uint64_t seed, bool here = false) {
  auto run = [&] { return bench_summary(simulate(d, seed)); };
  Json summary;
  if (here) {
    try {
      summary = run();
    } catch (const std::exception& e) {
      throw std::runtime_error(e.what());
    }
  } else {
    summary = call_in_child(run);
  }
  if (summary.contains("pdsim")) summary["pdsim"].erase("profiles");
  return summary;
}

}  // namespace

PointCheck check_point(const SweepSpec& s, const SweepPoint& p) {
  const Scenario sc = point_scenario_parsed(s, p);
  PointCheck c;
  c.gpus = total_gpus(sc);
  try {
    build_deployment(sc);
  } catch (const InfeasibleError& e) {
    c.feasible = false;
    c.reason = e.what();
  }
  return c;
}

Json infeasible_line(const SweepSpec& s, const SweepPoint& p, const PointCheck& c) {
  Json line = base_line(s, p);
  line["status"] = "infeasible";
  line["reason"] = c.reason;
  line["gpus"] = c.gpus;
  return line;
}

Json error_line(const SweepSpec& s, const SweepPoint& p, const std::string& why) {
  Json line = base_line(s, p);
  line["status"] = "error";
  line["reason"] = why;
  return line;
}

Json evaluate_point(const SweepSpec& s, const SweepPoint& p, bool in_worker,
                    const CalibrationCorpus* corpus) {
  Json line = base_line(s, p);
  try {
    const Scenario sc = point_scenario_parsed(s, p);
    line["gpus"] = total_gpus(sc);
    Deployment d = build_deployment(sc);
    const int gpus = line["gpus"].get<int>();
    if (s.slo.enabled && s.slo.search) {
      Json at_lo;  // the summary at the bracket's low end, shown when no rate meets the SLOs
      SloSearchResult r = search_max_rate(s.slo, sc.workload.num_prompts, [&](double rate) {
        d.scenario.workload.request_rate = rate;
        Json sum = simulate_summary(d, sc.seed);
        if (rate == s.slo.rate_lo) at_lo = sum;
        return sum;
      });
      Json slo = r.to_json();
      slo["meets"] = r.max_rate.has_value();
      slo["bracket_limited"] = r.max_rate.has_value() && !r.fail_rate.has_value();
      if (r.summary) {
        const Json& sum = *r.summary;
        slo["goodput_rps"] = sum.value("request_throughput", 0.0);
        slo["goodput_rps_per_gpu"] = sum.value("request_throughput", 0.0) / gpus;
        slo["goodput_tok_s_per_gpu"] = sum.value("output_throughput", 0.0) / gpus;
        line["summary"] = sum;
      } else {
        line["summary"] = at_lo;
      }
      line["slo"] = slo;
    } else {
      line["summary"] = simulate_summary(d, sc.seed, in_worker);
      if (s.slo.enabled) {
        const std::vector<std::string> v =
            slo_violations(s.slo, line["summary"], sc.workload.num_prompts);
        line["slo"] = {{"meets", v.empty()}, {"violations", v}};
      }
    }
    if (corpus && line["summary"].is_object())
      line["envelope"] = envelope_brief(deployment_envelope(d, corpus, line["summary"]));
  } catch (const InfeasibleError& e) {
    line["status"] = "infeasible";
    line["reason"] = e.what();
  } catch (const InputError& e) {
    line["status"] = "error";
    line["reason"] = e.what();
  } catch (const std::exception& e) {
    line["status"] = "error";
    line["reason"] = e.what();
  }
  return line;
}

}  // namespace pdsim
