#include "calibrate/fit_link.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "calibrate/bounded_lsq.hpp"
#include "sim/core/error.hpp"
#include "sim/core/units.hpp"

namespace pdsim {
namespace {

Json row_ref(const JsonNode& doc, size_t i) {
  return {{"file", doc.file()}, {"row", i}};
}

double param_or_row(const JsonNode& doc, const JsonNode& row, std::string_view key) {
  if (row.has(key)) return row.at(key).positive();
  return doc.at("parameters").at(key).positive();
}

}  // namespace

AlphaBetaFit fit_alpha_beta(const std::vector<JsonNode>& docs) {
  std::vector<double> bytes, lat;
  Json used = Json::array();
  for (const auto& d : docs) {
    if (d.at("probe").string() != "pingpong") continue;
    const JsonNode res = d.at("results");
    for (size_t i = 0; i < res.size(); ++i) {
      const JsonNode r = res.at(i);
      if (r.str_or("path", "two_nodes") == "local_nic") continue;
      bytes.push_back(r.at("bytes").positive());
      lat.push_back(r.at("latency_us").positive());
      used.push_back(row_ref(d, i));
    }
  }
  AlphaBetaFit f;
  if (bytes.empty()) return f;
  const bool one_size =
      std::all_of(bytes.begin(), bytes.end(), [&](double b) { return b == bytes[0]; });
  const Eigen::Index m = static_cast<Eigen::Index>(bytes.size());
  Eigen::MatrixXd A(m, one_size ? 1 : 2);
  Eigen::VectorXd y(m);
  for (Eigen::Index i = 0; i < m; ++i) {
    A(i, 0) = 1;
    if (!one_size) A(i, 1) = bytes[static_cast<size_t>(i)];
    y(i) = lat[static_cast<size_t>(i)];
  }
  BoundedLsq l = bounded_least_squares(A, y, Eigen::VectorXd::Zero(A.cols()));
  f.alpha_us = l.theta(0);
  f.us_per_byte = one_size ? 0 : l.theta(1);
  auto se = [&](size_t k) {
    return std::isfinite(l.std_error[k]) ? Json(l.std_error[k]) : Json(nullptr);
  };
  f.report = {{"alpha_us", {{"value", f.alpha_us}, {"std_error", se(0)}}},
              {"rows_used", used},
              {"rms_us", std::sqrt(l.sse / static_cast<double>(m))},
              {"dof", l.dof}};
  if (!one_size)
    f.report["us_per_byte"] = {{"value", f.us_per_byte},
                               {"std_error", se(1)},
                               {"note", "small-message slope; large transfers use the NIC rate"}};
  return f;
}

KvCurveFit fit_kv_curve(const std::vector<JsonNode>& docs) {
  std::map<double, double> by_block;
  KvCurveFit f;
  Json used = Json::array();
  double line_GBps = 0;
  for (const auto& d : docs) {
    if (d.at("probe").string() != "kv_transfer") continue;
    const JsonNode res = d.at("results");
    for (size_t i = 0; i < res.size(); ++i) {
      const JsonNode r = res.at(i);
      const std::string op = r.at("op").string();
      if (op == "first_submit") {
        f.first_submit_ms = r.at("time_ms").non_negative();
        f.has_first_submit = true;
        used.push_back(row_ref(d, i));
        continue;
      }
      if (op != "write") continue;
      const int nics = static_cast<int>(param_or_row(d, r, "nics"));
      if (f.reference_nics != 0 && nics != f.reference_nics)
        r.at("nics").fail("the same NIC count as the other KV rows (" +
                          std::to_string(f.reference_nics) + ")");
      f.reference_nics = nics;
      line_GBps = nics * gbps_to_bytes_per_s(param_or_row(d, r, "nic_gbps")) / 1e9;
      by_block[r.at("block_bytes").positive()] = r.at("GBps").positive();
      used.push_back(row_ref(d, i));
    }
  }
  double peak = 0;
  for (const auto& [x, v] : by_block) {
    f.curve.x.push_back(x);
    f.curve.eff.push_back(v);
    peak = std::max(peak, v);
  }
  if (line_GBps > 0) f.peak_efficiency = peak / line_GBps;
  f.report = {{"rows_used", used},
              {"peak_GBps", peak},
              {"line_rate_GBps", line_GBps},
              {"peak_efficiency", f.peak_efficiency},
              {"method",
               "measured write rates as the curve (log-linear interpolation); "
               "rdma_nic_efficiency = peak / line rate"}};
  return f;
}

FramingFit fit_framing(const std::vector<JsonNode>& docs) {
  FramingFit f;
  for (const auto& d : docs) {
    if (d.at("probe").string() != "framing") continue;
    const JsonNode r = d.at("results").at(0);
    const double mtu = r.at("mtu_payload_bytes").positive();
    const double over = r.at("per_packet_overhead_bytes").non_negative();
    f.efficiency = mtu / (mtu + over);
    f.nic_gbps = d.at("parameters").at("nic_gbps").positive();
    f.report = {{"rows_used", Json::array({row_ref(d, 0)})},
                {"efficiency", f.efficiency},
                {"method", "mtu_payload / (mtu_payload + per-packet overhead)"}};
  }
  return f;
}

NvlinkFit fit_nvlink(const std::vector<JsonNode>& docs) {
  NvlinkFit f;
  Json used_bw = Json::array(), used_a2a = Json::array();
  double sum = 0;
  int n = 0;
  for (const auto& d : docs) {
    const std::string probe = d.at("probe").string();
    const JsonNode res = d.at("results");
    for (size_t i = 0; i < res.size(); ++i) {
      const JsonNode r = res.at(i);
      // Rows across nodes measure the network, not NVLink (calibrate collective fits them).
      const bool across_nodes = d.at("parameters").int_or("nodes", 1) > 1;
      if (probe == "collective" && r.at("op").string() == "all_reduce" && !across_nodes) {
        // Bus bandwidth is defined to equal the per-GPU link throughput (nccl-tests).
        f.GBps = std::max(f.GBps, r.at("busbw_GBps").positive());
        used_bw.push_back(row_ref(d, i));
      }
      if (probe == "a2a_phase" && r.str_or("mode", "") == "normal" && r.has("GBps")) {
        const double gpn = d.at("parameters").at("gpus_per_node").positive();
        if (r.at("ep").positive() > gpn) continue;  // crosses nodes: not an NVLink figure
        sum += r.at("GBps").positive();
        ++n;
        used_a2a.push_back(row_ref(d, i));
      }
    }
  }
  if (n > 0) f.normal_a2a_GBps = sum / n;
  f.report = {
      {"nvlink_GBps",
       {{"value", f.GBps}, {"rows_used", used_bw}, {"method", "peak all-reduce bus bandwidth"}}},
      {"nvlink_normal_a2a_GBps",
       {{"value", f.normal_a2a_GBps},
        {"rows_used", used_a2a},
        {"method", "mean of intra-node normal-mode rows"}}}};
  return f;
}

}  // namespace pdsim
