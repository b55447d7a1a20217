#include "models/gpu_profile.hpp"

#include <algorithm>
#include <cmath>

#include "sim/core/data_path.hpp"
#include "sim/core/provenance.hpp"

namespace pdsim {

// Linear in log(x) between neighbouring points; clamped (and flagged) outside [x.front, x.back].
// A single-point curve is a constant that claims to hold everywhere (datasheet profiles), so it
// is never out of range. An empty curve means "no data": efficiency 1, flagged.
EfficiencyCurve::Lookup EfficiencyCurve::at(double xv) const {
  if (x.empty()) return {1.0, true};
  if (x.size() == 1) return {eff.front(), false};
  if (!(xv >= x.front())) return {eff.front(), true};
  if (xv > x.back()) return {eff.back(), true};
  auto hi = std::lower_bound(x.begin(), x.end(), xv);
  size_t i = static_cast<size_t>(hi - x.begin());
  if (*hi == xv) return {eff[i], false};
  double t = (std::log(xv) - std::log(x[i - 1])) / (std::log(x[i]) - std::log(x[i - 1]));
  return {eff[i - 1] + t * (eff[i] - eff[i - 1]), false};
}

namespace {

EfficiencyCurve parse_curve(const JsonNode& n) {
  n.expect_only({"x", "eff", "x_unit", "note"});
  n.at("x_unit").string();
  EfficiencyCurve c;
  c.x = n.at("x").numbers();
  c.eff = n.at("eff").numbers();
  if (c.x.empty()) n.at("x").fail("expected at least one point");
  if (c.x.size() != c.eff.size())
    n.at("eff").fail("expected as many values as x (" + std::to_string(c.x.size()) + ")");
  for (size_t i = 0; i < c.x.size(); ++i) {
    if (!(c.x[i] > 0)) n.at("x").at(i).fail("expected a positive number");
    if (i > 0 && !(c.x[i] > c.x[i - 1])) n.at("x").at(i).fail("expected strictly ascending x");
    if (!(c.eff[i] > 0 && c.eff[i] <= 1))
      n.at("eff").at(i).fail("expected an efficiency in (0, 1]");
  }
  return c;
}

}  // namespace

GpuProfile load_gpu_profile(const std::string& name_or_path, const std::string& from_file,
                            const std::string& field) {
  const JsonNode doc = load_named("models/profiles/gpu", name_or_path, from_file, field);
  return gpu_profile_from_json(doc.raw(), doc.file());
}

GpuProfile gpu_profile_from_json(const Json& doc, const std::string& file) {
  JsonNode n = JsonNode::from_json(doc, file);
  n.expect_only({"schema", "name", "gpu", "provenance", "gemm_bf16", "gemm_fp8", "grouped_gemm_fp8",
                 "hbm_stream", "attention_decode", "indexer_scan", "indexer_prefill",
                 "attention_prefill", "kernel_launch_us", "graph_kernel_us", "nvlink_GBps",
                 "host_signal_rtt_us", "intranode", "measurements"});
  if (n.at("schema").string() != "pdsim.gpu_profile/1")
    n.at("schema").fail("expected \"pdsim.gpu_profile/1\"");
  GpuProfile p;
  p.name = n.at("name").string();
  p.gpu = n.at("gpu").string();
  p.provenance = read_provenance(n.at("provenance"));
  p.gemm_bf16 = parse_curve(n.at("gemm_bf16"));
  p.gemm_fp8 = parse_curve(n.at("gemm_fp8"));
  p.grouped_gemm_fp8 = parse_curve(n.at("grouped_gemm_fp8"));
  p.hbm_stream = parse_curve(n.at("hbm_stream"));
  p.attention_decode = parse_curve(n.at("attention_decode"));
  p.indexer_scan = parse_curve(n.at("indexer_scan"));
  if (n.has("indexer_prefill")) p.indexer_prefill = parse_curve(n.at("indexer_prefill"));
  p.attention_prefill = parse_curve(n.at("attention_prefill"));
  // Per-kernel and signal latencies are microseconds on every GPU measured (H200: ~5 µs); 1 ms is
  // 200x that. A larger value is a unit mistake (ms or ns for µs), not a GPU.
  const auto latency_us = [&](const char* key) {
    const double v = n.at(key).non_negative();
    if (v > 1000)
      n.at(key).fail("expected at most 1000 µs (a per-kernel latency), got " + std::to_string(v));
    return v;
  };
  p.kernel_launch_us = latency_us("kernel_launch_us");
  p.graph_kernel_us = latency_us("graph_kernel_us");
  p.nvlink_GBps = n.at("nvlink_GBps").non_negative();
  p.host_signal_rtt_us = latency_us("host_signal_rtt_us");
  if (n.has("intranode")) p.intranode = parse_intranode_profile(n.at("intranode"));
  return p;
}

}  // namespace pdsim
