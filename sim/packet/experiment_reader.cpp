#include "sim/packet/experiment_reader.hpp"

#include <cmath>

#include "sim/core/excerpt.hpp"

namespace pdsim::packet {
namespace {

int positive_int(const JsonNode& n, std::string_view key, int def) {
  if (!n.has(key)) return def;
  return static_cast<int>(n.at(key).positive_integer());
}

TopologyConfig parse_topology(const JsonNode& t) {
  t.expect_only({"kind", "k", "tiers", "hosts_per_edge", "leaves", "spines", "hosts_per_leaf",
                 "nodes", "nodes_per_leaf", "file", "uplinks", "instances", "link_gbps",
                 "host_link_gbps", "hop_latency_us", "nics_per_node", "gpus_per_node",
                 "nvlink_GBps", "nvlink_latency_us"});
  TopologyConfig c;
  c.kind = t.at("kind").string();
  if (t.has("link_gbps")) c.fabric_gbps = t.at("link_gbps").positive();
  c.host_gbps = t.has("host_link_gbps") ? t.at("host_link_gbps").positive() : c.fabric_gbps;
  if (t.has("hop_latency_us")) c.hop_latency_ps = us_to_ps(t.at("hop_latency_us").non_negative());
  c.nics_per_node = positive_int(t, "nics_per_node", c.nics_per_node);
  c.gpus_per_node = positive_int(t, "gpus_per_node", c.gpus_per_node);
  if (t.has("nvlink_GBps")) {
    c.nvlink_GBps = t.at("nvlink_GBps").positive();
    c.nvlink_latency_ps = us_to_ps(t.at("nvlink_latency_us").non_negative());
  }
  if (c.kind == "fat_tree") {
    c.k = static_cast<int>(t.at("k").positive_integer());
    if (c.k % 2) t.at("k").fail("expected an even radix");
    c.tiers = static_cast<int>(t.has("tiers") ? t.at("tiers").positive_integer() : 3);
    if (c.tiers != 2 && c.tiers != 3) t.at("tiers").fail("expected 2 or 3");
    c.hosts_per_edge = positive_int(t, "hosts_per_edge", c.k / 2);  // > k/2: oversubscribed
  } else if (c.kind == "leaf_spine") {
    c.leaves = static_cast<int>(t.at("leaves").positive_integer());
    c.spines = static_cast<int>(t.at("spines").positive_integer());
    c.hosts_per_leaf = static_cast<int>(t.at("hosts_per_leaf").positive_integer());
  } else if (c.kind == "rail") {
    c.nodes = static_cast<int>(t.at("nodes").positive_integer());
    c.nodes_per_leaf = static_cast<int>(t.at("nodes_per_leaf").positive_integer());
    c.spines = static_cast<int>(t.at("spines").positive_integer());
    if (c.nodes % c.nodes_per_leaf) t.at("nodes_per_leaf").fail("expected a divisor of nodes");
  } else if (c.kind == "aws") {
    c.aws_file = t.at("file").string();
    for (int64_t u : t.at("uplinks").integers()) {
      if (u <= 0) t.at("uplinks").fail("expected positive link counts");
      c.aws_uplinks.push_back(static_cast<int>(u));
    }
    c.aws_instances =
        t.has("instances") ? static_cast<int>(t.at("instances").positive_integer()) : 0;
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
  if (s.has("buffer_bytes")) p.buffer_bytes = static_cast<int64_t>(s.at("buffer_bytes").number());
  if (s.has("queue_packets")) p.queue_limit_bytes = s.at("queue_packets").positive_integer() * mtu;
  if (s.has("ecn")) {
    const JsonNode e = s.at("ecn");
    e.expect_only({"enabled", "kmin_bytes", "kmax_bytes", "pmax"});
    enable_ecn(p, topo);
    p.ecn = e.bool_or("enabled", true);
    if (e.has("kmin_bytes")) p.ecn_kmin_bytes = static_cast<int64_t>(e.at("kmin_bytes").number());
    if (e.has("kmax_bytes")) p.ecn_kmax_bytes = static_cast<int64_t>(e.at("kmax_bytes").number());
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
      p.pfc_xoff_bytes = f.int_or("xoff_packets", 15) * mtu;
      p.pfc_xon_bytes = f.int_or("xon_packets", 12) * mtu;
      if (p.pfc_xon_bytes > p.pfc_xoff_bytes) f.fail("expected xon_packets <= xoff_packets");
      if (f.has("alpha")) f.at("alpha").fail("expected either alpha or xoff/xon_packets");
    } else {
      if (f.has("alpha")) p.pfc_alpha = f.at("alpha").positive();
      p.pfc_resume_offset_bytes = f.int_or("resume_offset_bytes", p.pfc_resume_offset_bytes);
    }
    if (f.has("headroom_bdp")) {
      const double bdp_bytes =
          topo.fabric_gbps * 1e9 / 8 * 2 * ps_to_us(topo.hop_latency_ps) * 1e-6;
      p.pfc_headroom_bytes = static_cast<int64_t>(f.at("headroom_bdp").number() * bdp_bytes);
    }
    p.pause_quanta = f.int_or("pause_quanta", p.pause_quanta);
    if (p.pause_quanta < 1 || p.pause_quanta > 65535)
      f.at("pause_quanta").fail("expected 1..65535");
  }
}

DelayDistribution parse_delay(const JsonNode& d) {
  DelayDistribution r;
  r.dist = d.at("dist").string();
  if (r.dist == "constant") {
    d.expect_only({"dist", "value"});
    r.a_us = d.at("value").non_negative();
  } else if (r.dist == "exponential") {
    d.expect_only({"dist", "mean"});
    r.a_us = d.at("mean").positive();
  } else if (r.dist == "uniform") {
    d.expect_only({"dist", "lo", "hi"});
    r.a_us = d.at("lo").non_negative();
    r.b_us = d.at("hi").non_negative();
    if (r.b_us < r.a_us) d.at("hi").fail("expected hi >= lo");
  } else if (r.dist == "lognormal") {
    d.expect_only({"dist", "median", "sigma"});
    r.a_us = d.at("median").positive();
    r.b_us = d.at("sigma").non_negative();
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
  if (t.has("mtu_bytes")) p.mtu_bytes = t.at("mtu_bytes").positive_integer();
  p.header_bytes = t.int_or("header_bytes", p.header_bytes);
  if (t.has("srd")) {
    const JsonNode s = t.at("srd");
    s.expect_only({"paths", "rto_us", "min_rto_us", "window_packets", "path_penalty_us",
                   "queue_allowance_us", "ai_packets", "beta", "max_mdf"});
    p.srd_paths = static_cast<int>(s.int_or("paths", p.srd_paths));
    if (p.srd_paths < 1) s.at("paths").fail("expected >= 1");
    if (s.has("rto_us")) {
      p.srd_rto_ps = us_to_ps(s.at("rto_us").positive());
      c.srd_rto_default = false;
    }
    if (s.has("min_rto_us")) {
      p.srd_min_rto_ps = us_to_ps(s.at("min_rto_us").positive());
      c.srd_min_rto_default = false;
    }
    if (s.has("window_packets")) {
      p.srd_window_packets = s.at("window_packets").positive_integer();
      c.srd_window_default = false;
    }
    if (s.has("path_penalty_us")) {
      p.srd_path_penalty_ps = us_to_ps(s.at("path_penalty_us").non_negative());
      c.srd_penalty_default = false;
    }
    if (s.has("queue_allowance_us")) {
      p.srd_queue_allowance_ps = us_to_ps(s.at("queue_allowance_us").non_negative());
      c.srd_allowance_default = false;
    }
    if (s.has("ai_packets")) p.srd_ai_packets = s.at("ai_packets").positive();
    if (s.has("beta")) p.srd_beta = s.at("beta").fraction();
    if (s.has("max_mdf")) p.srd_max_mdf = s.at("max_mdf").fraction();
  }
  if (t.has("rc")) {
    const JsonNode r = t.at("rc");
    r.expect_only({"timeout_exponent", "retry_count"});
    p.rc_timeout_exponent = static_cast<int>(r.int_or("timeout_exponent", p.rc_timeout_exponent));
    p.rc_retry_count = static_cast<int>(r.int_or("retry_count", p.rc_retry_count));
    if (p.rc_timeout_exponent < 0 || p.rc_timeout_exponent > 31)
      r.at("timeout_exponent").fail("expected 0..31");
  }
  if (t.has("dcqcn")) {
    const JsonNode d = t.at("dcqcn");
    d.expect_only({"enabled", "cnp_interval_us", "rate_period_us", "alpha_period_us", "g",
                   "ai_gbps", "hai_gbps", "fast_recovery_stages"});
    p.dcqcn = d.bool_or("enabled", true);
    if (d.has("cnp_interval_us")) p.dcqcn_cnp_interval_ps = us_to_ps(d.num("cnp_interval_us"));
    if (d.has("rate_period_us")) p.dcqcn_rate_period_ps = us_to_ps(d.num("rate_period_us"));
    if (d.has("alpha_period_us")) p.dcqcn_alpha_period_ps = us_to_ps(d.num("alpha_period_us"));
    if (d.has("g")) p.dcqcn_g = d.at("g").fraction();
    p.dcqcn_ai_gbps = d.num_or("ai_gbps", p.dcqcn_ai_gbps);
    p.dcqcn_hai_gbps = d.num_or("hai_gbps", p.dcqcn_hai_gbps);
    p.dcqcn_fast_recovery_stages =
        static_cast<int>(d.int_or("fast_recovery_stages", p.dcqcn_fast_recovery_stages));
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
  return us_to_ps(n.at(key).non_negative());
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
  if (root.has("max_time_us")) c.max_time_ps = us_to_ps(root.at("max_time_us").positive());
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
    if (n.has("start_us")) wc.start_ps = us_to_ps(n.at("start_us").non_negative());
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
        s.endpoint = static_cast<int>(e.at("endpoint").integer());
      } else {
        s.sw = static_cast<int>(e.at("switch").integer());
        s.port = static_cast<int>(e.at("port").integer());
      }
      s.down_ps = time_us(e, "down_us");
      if (e.has("up_us")) {
        s.up_ps = time_us(e, "up_us");
        if (s.up_ps <= s.down_ps) e.at("up_us").fail("expected up_us > down_us");
      }
      if (e.has("period_us")) {
        s.period_ps = us_to_ps(e.at("period_us").positive());
        s.repeats = static_cast<int>(e.at("repeats").positive_integer());
        if (s.up_ps < 0) e.fail("a flap (period_us) needs up_us");
      }
      c.failures.push_back(s);
    }
  }
  return c;
}

}  // namespace pdsim::packet
