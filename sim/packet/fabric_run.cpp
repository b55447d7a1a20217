#include "sim/packet/fabric_run.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>

#include "sim/core/atomic_file.hpp"
#include "sim/core/error.hpp"
#include "sim/core/json_override.hpp"
#include "sim/core/stats.hpp"
#include "sim/packet/experiment_reader.hpp"
#include "sim/packet/workload.hpp"

namespace pdsim::packet {
namespace {

Json quantiles(std::vector<double> v) {
  Json j;
  j["count"] = v.size();
  if (v.empty()) return j;
  std::sort(v.begin(), v.end());
  j["p50"] = percentile_sorted(v, 50);
  j["p99"] = percentile_sorted(v, 99);
  j["max"] = v.back();
  j["min"] = v.front();
  j["mean"] = mean_of(v);
  return j;
}

std::string fmt(double x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6f", x);
  return buf;
}

}  // namespace

FabricRunResult run_fabric_experiment(const JsonNode& root, std::optional<uint64_t> seed) {
  ExperimentConfig cfg = parse_experiment(root);
  if (seed) cfg.seed = *seed;
  Network net(cfg);
  auto workloads = make_workloads(net);
  for (auto& w : workloads) w->start();
  const auto t0 = std::chrono::steady_clock::now();
  net.run();
  const double wall_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  // The run ends at the last delivery: idle RC local-ACK timers (4.3 s at t = 20) still fire
  // after everything completed, and utilisation over that time would mean nothing.
  Picoseconds end = net.events.now();
  Picoseconds last_delivery = -1;
  bool all_delivered = true;
  for (const auto& w : workloads)
    for (const auto& m : w->records()) {
      last_delivery = std::max(last_delivery, m.delivered_ps);
      all_delivered = all_delivered && m.delivered_ps >= 0;
    }
  if (all_delivered && last_delivery > 0) end = last_delivery;

  FabricRunResult r;
  r.events = net.events.events_run();
  r.wall_s = wall_s;
  Json& s = r.summary;
  s["schema"] = "pdsim.fabric_summary/1";
  s["experiment"] = cfg.file;
  s["seed"] = cfg.seed;
  s["transport"] = cfg.transport;
  std::vector<double> all;
  r.messages_csv = "workload,src,dst,bytes,posted_us,fct_us\n";
  r.phases_csv = "workload,phase,latency_us\n";
  uint64_t incomplete = 0;
  for (const auto& w : workloads) {
    std::vector<double> fct;
    uint64_t missing = 0;
    for (const auto& m : w->records()) {
      const double f = m.delivered_ps < 0 ? -1 : ps_to_us(m.delivered_ps - m.posted_ps);
      if (f < 0)
        ++missing;
      else
        fct.push_back(f);
      r.messages_csv += w->name() + "," + std::to_string(m.src) + "," + std::to_string(m.dst) +
                        "," + std::to_string(m.bytes) + "," + fmt(ps_to_us(m.posted_ps)) + "," +
                        fmt(f) + "\n";
    }
    for (size_t i = 0; i < w->phase_us().size(); ++i)
      r.phases_csv += w->name() + "," + std::to_string(i) + "," + fmt(w->phase_us()[i]) + "\n";
    incomplete += missing;
    all.insert(all.end(), fct.begin(), fct.end());
    Json& wj = s["workloads"][w->name()];
    wj["kind"] = w->kind();
    wj["fct_us"] = quantiles(fct);
    wj["incomplete_messages"] = missing;
    if (!w->phase_us().empty()) wj["phase_us"] = quantiles(w->phase_us());
  }
  s["fct_us"] = quantiles(all);
  s["incomplete_messages"] = incomplete;
  s["events"] = r.events;
  s["sim_time_us"] = ps_to_us(end);
  const auto& fc = net.fabric_counters;
  const auto& tc = net.transport_counters;
  Json& n = s["network"];
  n["data_packets"] = tc.data_packets;
  n["drops"] = fc.drops;
  n["ecn_marks"] = fc.ecn_marks;
  n["pause_frames"] = fc.pause_frames;
  n["pfc_headroom_overflows"] = fc.headroom_overflows;
  n["retransmissions"] = tc.retransmissions;
  n["spurious_retransmissions"] = tc.spurious_retransmissions;
  n["timeouts"] = tc.timeouts;
  n["naks"] = tc.naks;
  n["cnps"] = tc.cnps;
  n["failed_connections"] = tc.failed_connections;
  n["base_rtt_us"] = ps_to_us(net.base_rtt_ps());

  struct Agg {
    std::vector<double> util;
    int64_t max_queue = 0;
    double paused_us = 0, max_paused_us = 0;
  };
  std::map<std::string, Agg> by_kind;
  r.links_csv = "kind,from,to,gbps,utilisation,max_queue_bytes,paused_us\n";
  for (const auto& l : net.topo.links()) {
    const Queue& q = *l.queue;
    const double util = end > 0 ? static_cast<double>(q.tx_bytes) * 8e12 /
                                      (static_cast<double>(q.rate_bps()) * static_cast<double>(end))
                                : 0;
    const double paused = ps_to_us(q.paused_ps);
    Agg& a = by_kind[l.kind];
    a.util.push_back(util);
    a.max_queue = std::max(a.max_queue, q.max_queue_bytes);
    a.paused_us += paused;
    a.max_paused_us = std::max(a.max_paused_us, paused);
    r.links_csv += l.kind + "," + std::to_string(l.from) + "," + std::to_string(l.to) + "," +
                   fmt(static_cast<double>(q.rate_bps()) * 1e-9) + "," + fmt(util) + "," +
                   std::to_string(q.max_queue_bytes) + "," + fmt(paused) + "\n";
  }
  for (auto& [kind, a] : by_kind) {
    Json& k = n["links"][kind];
    k["count"] = a.util.size();
    k["utilisation_mean"] = mean_of(a.util);
    k["utilisation_max"] = max_of(a.util);
    k["max_queue_bytes"] = a.max_queue;
    k["pfc_paused_us_total"] = a.paused_us;
    k["pfc_paused_us_max"] = a.max_paused_us;
  }
  s["wall_s"] = wall_s;
  s["events_per_s"] = wall_s > 0 ? static_cast<double>(r.events) / wall_s : 0;
  return r;
}

void write_fabric_outputs(const FabricRunResult& r, const std::string& dir) {
  write_file_atomic(dir + "/summary.json", r.summary.dump(2) + "\n");
  write_file_atomic(dir + "/messages.csv", r.messages_csv);
  write_file_atomic(dir + "/phases.csv", r.phases_csv);
  write_file_atomic(dir + "/links.csv", r.links_csv);
}

void apply_override(Json& doc, const std::string& file, const std::string& assignment) {
  apply_json_override(doc, assignment, file, {.create_missing = true, .what = "path"});
}

}  // namespace pdsim::packet
