#include "sim/packet/experiment_reader.hpp"

#include <cmath>

#include "sim/core/excerpt.hpp"
#include "sim/packet/checked_number.hpp"

namespace pdsim::packet {
namespace {

TopologyConfig parse_topology(const JsonNode& t) {
  t.expect_only({"kind", "k", "tiers", "hosts_per_edge", "leaves", "spines", "hosts_per_leaf",
                 "nodes", "nodes_per_leaf", "file", "uplinks", "instances", "link_gbps",
                 "host_link_gbps", "hop_latency_us", "nics_per_node", "gpus_per_node",
                 "nvlink_GBps", "nvlink_latency_us"});
  TopologyConfig c;
  c.kind = t.at("kind").string();
  if (t.has("link_gbps")) c.fabric_gbps = checked::gbps(t.at("link_gbps"));
  c.host_gbps = t.has("host_link_gbps") ? checked::gbps(t.at("host_link_gbps")) : c.fabric_gbps;
  if (t.has("hop_latency_us")) c.hop_latency_ps = checked::us(t.at("hop_latency_us"));
  c.nics_per_node = checked::count_or(t, "nics_per_node", c.nics_per_node, 1, 1024);
  c.gpus_per_node = checked::count_or(t, "gpus_per_node", c.gpus_per_node, 1, 1024);
  if (t.has("nvlink_GBps")) {
    c.nvlink_GBps =
        checked::ranged(t.at("nvlink_GBps"), checked::kMinGbps / 8, checked::kMaxGbps / 8, "GB/s");
    c.nvlink_latency_ps = checked::us(t.at("nvlink_latency_us"));
  }
  if (c.kind == "fat_tree") {
    // Radix up to 128 ports (the largest switch ASICs): a 3-tier k = 128 tree has 524288 hosts.
    c.k = checked::count(t.at("k"), 2, 128);
    if (c.k % 2) t.at("k").fail("expected an even radix");
    c.tiers = checked::count_or(t, "tiers", 3, 2, 3);
    c.hosts_per_edge =
        checked::count_or(t, "hosts_per_edge", c.k / 2, 1, 1024);  // > k/2: oversubscribed
  } else if (c.kind == "leaf_spine") {
    c.leaves = checked::count(t.at("leaves"), 1, 65536);
    c.spines = checked::count(t.at("spines"), 1, 65536);
    c.hosts_per_leaf = checked::count(t.at("hosts_per_leaf"), 1, 65536);
  } else if (c.kind == "rail") {
    c.nodes = checked::count(t.at("nodes"), 1, 65536);
    c.nodes_per_leaf = checked::count(t.at("nodes_per_leaf"), 1, 65536);
    c.spines = checked::count(t.at("spines"), 1, 65536);
    if (c.nodes % c.nodes_per_leaf) t.at("nodes_per_leaf").fail("expected a divisor of nodes");
  } else if (c.kind == "aws") {
    c.aws_file = t.at("file").string();
    for (int64_t u : t.at("uplinks").integers()) {
      if (u <= 0 || u > 65536) t.at("uplinks").fail("expected link counts in [1, 65536]");
      c.aws_uplinks.push_back(static_cast<int>(u));
    }
    c.aws_instances = checked::count_or(t, "instances", 0, 1, 65536);
  } else {
    t.at("kind").fail("expected one of fat_tree, leaf_spine, rail, aws, got '" + excerpt(c.kind) +
                      "'");
  }
  check_gpus_and_nics(c, t.file());
  return c;
}

void parse_switch(const JsonNode& s, const TopologyConfig& topo, int64_t mtu, SwitchParams& p) {
  s.expect_only({"buffer_bytes", "queue_packets", "ecn", "pfc"});
  p = default_switch();
  if (s.has("buffer_bytes"))
    p.buffer_bytes =
        static_cast<int64_t>(checked::ranged(s.at("buffer_bytes"), 0, checked::kMaxBytes, "bytes"));
  if (s.has("queue_packets")) p.queue_limit_bytes = checked::count(s.at("queue_packets")) * mtu;
  if (s.has("ecn")) {
    const JsonNode e = s.at("ecn");
    e.expect_only({"enabled", "kmin_bytes", "kmax_bytes", "pmax"});
    enable_ecn(p, topo);
    p.ecn = e.bool_or("enabled", true);
    if (e.has("kmin_bytes"))
      p.ecn_kmin_bytes =
          static_cast<int64_t>(checked::ranged(e.at("kmin_bytes"), 0, checked::kMaxBytes, "bytes"));
    if (e.has("kmax_bytes"))
      p.ecn_kmax_bytes =
          static_cast<int64_t>(checked::ranged(e.at("kmax_bytes"), 0, checked::kMaxBytes, "bytes"));
    if (e.has("pmax")) p.ecn_pmax = e.at("pmax").fraction();
    if (p.ecn_kmax_bytes <= p.ecn_kmin_bytes) e.fail("expected kmax_bytes > kmin_bytes");
  }
  if (s.has("pfc")) {
    const JsonNode f = s.at("pfc");
    f.expect_only({"enabled", "xoff_packets", "xon_packets", "alpha", "resume_offset_bytes",
                   "headroom_bdp", "pause_quanta"});
    enable_pfc(p, topo);
    p.pfc = f.bool_or("enabled", true);
    if (f.has("xoff_packets") || f.has("xon_packets")) {
      // Static per-ingress thresholds instead of the dynamic one, e.g. htsim's XOFF/XON 15/12
      // MTU packets.
      p.pfc_alpha = 0;
      p.pfc_resume_offset_bytes = 0;
      p.pfc_xoff_bytes = checked::count_or(f, "xoff_packets", 15, 0) * mtu;
      p.pfc_xon_bytes = checked::count_or(f, "xon_packets", 12, 0) * mtu;
      if (p.pfc_xon_bytes > p.pfc_xoff_bytes) f.fail("expected xon_packets <= xoff_packets");
      if (f.has("alpha")) f.at("alpha").fail("expected either alpha or xoff/xon_packets");
    } else {
      if (f.has("alpha")) p.pfc_alpha = checked::ranged(f.at("alpha"), 1.0 / 1024, 1024, "a ratio");
      if (f.has("resume_offset_bytes"))
        p.pfc_resume_offset_bytes = static_cast<int64_t>(
            checked::ranged(f.at("resume_offset_bytes"), 0, checked::kMaxBytes, "bytes"));
    }
    if (f.has("headroom_bdp")) {
      const double bdp_bytes =
          topo.fabric_gbps * 1e9 / 8 * 2 * ps_to_us(topo.hop_latency_ps) * 1e-6;
      p.pfc_headroom_bytes =
          static_cast<int64_t>(checked::ranged(f.at("headroom_bdp"), 0, 1000, "BDPs") * bdp_bytes);
    }
    p.pause_quanta =
        checked::count_or(f, "pause_quanta", static_cast<int>(p.pause_quanta), 1, 65535);
  }
}

DelayDistribution parse_delay(const JsonNode& d) {
  DelayDistribution r;
  r.dist = d.at("dist").string();
  if (r.dist == "constant") {
    d.expect_only({"dist", "value"});
    r.a_us = checked::ranged(d.at("value"), 0, checked::kMaxTimeUs, "microseconds");
  } else if (r.dist == "exponential") {
    d.expect_only({"dist", "mean"});
    r.a_us = checked::ranged(d.at("mean"), 0, checked::kMaxTimeUs, "microseconds");
    if (r.a_us <= 0) d.at("mean").fail("expected a positive number of microseconds");
  } else if (r.dist == "uniform") {
    d.expect_only({"dist", "lo", "hi"});
    r.a_us = checked::ranged(d.at("lo"), 0, checked::kMaxTimeUs, "microseconds");
    r.b_us = checked::ranged(d.at("hi"), 0, checked::kMaxTimeUs, "microseconds");
    if (r.b_us < r.a_us) d.at("hi").fail("expected hi >= lo");
  } else if (r.dist == "lognormal") {
    d.expect_only({"dist", "median", "sigma"});
    r.a_us = checked::ranged(d.at("median"), 0, checked::kMaxTimeUs, "microseconds");
    if (r.a_us <= 0) d.at("median").fail("expected a positive number of microseconds");
    r.b_us = checked::ranged(d.at("sigma"), 0, 10, "a log-scale spread");
  } else {
    d.at("dist").fail("expected constant, exponential, uniform or lognormal");
  }
  return r;
}

void parse_transport(const JsonNode& t, ExperimentConfig& c) {
  t.expect_only({"kind", "mtu_bytes", "header_bytes", "srd", "rc", "dcqcn", "issue"});
  c.transport = t.at("kind").string();
  if (c.transport != "srd" && c.transport != "rc") t.at("kind").fail("expected 'srd' or 'rc'");
  TransportParams& p = c.tp;
  p = default_transport(c.topo);
  if (t.has("mtu_bytes")) p.mtu_bytes = checked::count(t.at("mtu_bytes"), 64, 65536);
  p.header_bytes = checked::count_or(t, "header_bytes", static_cast<int>(p.header_bytes), 0, 4096);
  if (t.has("srd")) {
    const JsonNode s = t.at("srd");
    s.expect_only({"paths", "rto_us", "min_rto_us", "window_packets", "path_penalty_us",
                   "queue_allowance_us", "ai_packets", "beta", "max_mdf"});
    p.srd_paths = checked::count_or(s, "paths", p.srd_paths, 1, 65536);
    if (s.has("rto_us")) {
      p.srd_rto_ps = checked::us(s.at("rto_us"), true);
      c.srd_rto_default = false;
    }
    if (s.has("min_rto_us")) {
      p.srd_min_rto_ps = checked::us(s.at("min_rto_us"), true);
      c.srd_min_rto_default = false;
    }
    if (s.has("window_packets")) {
      p.srd_window_packets = checked::count(s.at("window_packets"));
      c.srd_window_default = false;
    }
    if (s.has("path_penalty_us")) {
      p.srd_path_penalty_ps = checked::us(s.at("path_penalty_us"));
      c.srd_penalty_default = false;
    }
    if (s.has("queue_allowance_us")) {
      p.srd_queue_allowance_ps = checked::us(s.at("queue_allowance_us"));
      c.srd_allowance_default = false;
    }
    if (s.has("ai_packets"))
      p.srd_ai_packets = checked::ranged(s.at("ai_packets"), 1e-6, checked::kMaxCount, "packets");
    if (s.has("beta")) p.srd_beta = s.at("beta").fraction();
    if (s.has("max_mdf")) p.srd_max_mdf = s.at("max_mdf").fraction();
  }
  if (t.has("rc")) {
    const JsonNode r = t.at("rc");
    r.expect_only({"timeout_exponent", "retry_count"});
    p.rc_timeout_exponent = checked::count_or(r, "timeout_exponent", p.rc_timeout_exponent, 0, 31);
    p.rc_retry_count = checked::count_or(r, "retry_count", p.rc_retry_count, 0, 7);
  }
  if (t.has("dcqcn")) {
    const JsonNode d = t.at("dcqcn");
    d.expect_only({"enabled", "cnp_interval_us", "rate_period_us", "alpha_period_us", "g",
                   "ai_gbps", "hai_gbps", "fast_recovery_stages"});
    p.dcqcn = d.bool_or("enabled", true);
    if (d.has("cnp_interval_us")) p.dcqcn_cnp_interval_ps = checked::us(d.at("cnp_interval_us"));
    if (d.has("rate_period_us")) p.dcqcn_rate_period_ps = checked::us(d.at("rate_period_us"), true);
    if (d.has("alpha_period_us"))
      p.dcqcn_alpha_period_ps = checked::us(d.at("alpha_period_us"), true);
    if (d.has("g")) p.dcqcn_g = d.at("g").fraction();
    if (d.has("ai_gbps"))
      p.dcqcn_ai_gbps = checked::ranged(d.at("ai_gbps"), 0, checked::kMaxGbps, "Gb/s");
    if (d.has("hai_gbps"))
      p.dcqcn_hai_gbps = checked::ranged(d.at("hai_gbps"), 0, checked::kMaxGbps, "Gb/s");
    p.dcqcn_fast_recovery_stages =
        checked::count_or(d, "fast_recovery_stages", p.dcqcn_fast_recovery_stages, 0, 1000);
    if (p.dcqcn_rate_period_ps <= 0 || p.dcqcn_alpha_period_ps <= 0)
      d.fail("expected positive timer periods");
  }
  if (t.has("issue")) {
    const JsonNode i = t.at("issue");
    i.expect_only({"kind", "delay_us"});
    const std::string kind = i.at("kind").string();
    if (kind == "cpu_proxy") {
      c.issue_cpu_proxy = true;
      c.issue_delay = parse_delay(i.at("delay_us"));
    } else if (kind != "gpu") {
      i.at("kind").fail("expected 'gpu' or 'cpu_proxy'");
    }
  }
}

Picoseconds time_us(const JsonNode& n, std::string_view key) {
  return checked::us(n.at(key));
}

}  // namespace

ExperimentConfig parse_experiment(const JsonNode& root) {
  root.expect_only({"schema", "description", "seed", "max_time_us", "topology", "switch",
                    "transport", "workloads", "failures"});
  if (root.has("schema") && root.at("schema").string() != "pdsim.fabric_experiment/1")
    root.at("schema").fail("expected \"pdsim.fabric_experiment/1\"");
  ExperimentConfig c;
  c.file = root.file();
  c.seed = root.has("seed") ? root.at("seed").unsigned_integer() : 1;
  if (root.has("max_time_us")) c.max_time_ps = checked::us(root.at("max_time_us"), true);
  c.topo = parse_topology(root.at("topology"));
  parse_transport(root.at("transport"), c);
  if (root.has("switch"))
    parse_switch(root.at("switch"), c.topo, c.tp.mtu_bytes, c.sw);
  else
    parse_switch(JsonNode::from_json(Json::object(), root.file()), c.topo, c.tp.mtu_bytes, c.sw);
  const JsonNode w = root.at("workloads");
  if (!w.is_array() || w.size() == 0) w.fail("expected a non-empty array of workloads");
  for (size_t i = 0; i < w.size(); ++i) {
    const JsonNode n = w.at(i);
    WorkloadConfig& wc = c.workloads.emplace_back();
    wc.kind = n.at("kind").string();
    wc.path = n.path();
    wc.name = n.str_or("name", wc.kind + n.path().substr(n.path().find('[')));
    if (n.has("start_us")) wc.start_ps = checked::us(n.at("start_us"));
    wc.settings = n;
  }
  if (root.has("failures")) {
    const JsonNode f = root.at("failures");
    if (!f.is_array()) f.fail("expected an array");
    for (size_t i = 0; i < f.size(); ++i) {
      const JsonNode e = f.at(i);
      e.expect_only({"switch", "port", "endpoint", "down_us", "up_us", "period_us", "repeats"});
      FailureSpec s;
      if (e.has("endpoint")) {
        s.endpoint = checked::count(e.at("endpoint"), 0, checked::kMaxCount);
      } else {
        s.sw = checked::count(e.at("switch"), 0, checked::kMaxCount);
        s.port = checked::count(e.at("port"), 0, checked::kMaxCount);
      }
      s.down_ps = time_us(e, "down_us");
      if (e.has("up_us")) {
        s.up_ps = time_us(e, "up_us");
        if (s.up_ps <= s.down_ps) e.at("up_us").fail("expected up_us > down_us");
      }
      if (e.has("period_us")) {
        s.period_ps = checked::us(e.at("period_us"), true);
        s.repeats = checked::count(e.at("repeats"));
        if (s.up_ps < 0) e.fail("a flap (period_us) needs up_us");
      }
      c.failures.push_back(s);
    }
  }
  return c;
}

}  // namespace pdsim::packet
