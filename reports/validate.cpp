#include "reports/validate.hpp"

#include <cmath>
#include <optional>

#include "calibrate/bench_serving_artefacts.hpp"
#include "reports/breakdown.hpp"
#include "reports/text_format.hpp"
#include "sim/core/text_align.hpp"

namespace pdsim {
namespace {

struct MetricSpec {
  const char* key;
  const char* label;
  int decimals;
};
constexpr MetricSpec kMetrics[] = {
    {"completed", "Successful requests", 0},
    {"total_input_tokens", "Total input tokens", 0},
    {"total_output_tokens", "Total generated tokens", 0},
    {"duration", "Benchmark duration (s)", 2},
    {"request_throughput", "Request throughput (req/s)", 3},
    {"input_throughput", "Input throughput (tok/s)", 2},
    {"output_throughput", "Output throughput (tok/s)", 2},
    {"concurrency", "Concurrency", 2},
    {"accept_length", "Accept length", 2},
    {"mean_e2e_latency_ms", "Mean E2E Latency (ms)", 2},
    {"median_e2e_latency_ms", "Median E2E Latency (ms)", 2},
    {"p99_e2e_latency_ms", "P99 E2E Latency (ms)", 2},
    {"mean_ttft_ms", "Mean TTFT (ms)", 2},
    {"median_ttft_ms", "Median TTFT (ms)", 2},
    {"p99_ttft_ms", "P99 TTFT (ms)", 2},
    {"mean_tpot_ms", "Mean TPOT (ms)", 2},
    {"median_tpot_ms", "Median TPOT (ms)", 2},
    {"p99_tpot_ms", "P99 TPOT (ms)", 2},
    {"mean_itl_ms", "Mean ITL (ms)", 2},
    {"median_itl_ms", "Median ITL (ms)", 2},
    {"p95_itl_ms", "P95 ITL (ms)", 2},
    {"p99_itl_ms", "P99 ITL (ms)", 2},
    {"max_itl_ms", "Max ITL (ms)", 2},
};

constexpr const char* kWorkloadKeys[] = {"request_rate", "max_concurrency", "random_input_len",
                                         "random_output_len", "random_range_ratio"};

bool is_latency(const std::string& key) {
  return key.size() > 3 && key.compare(key.size() - 3, 3, "_ms") == 0;
}

// Workload values compare as numbers when both are numbers; "inf" strings and an unset
// (null / 0) max_concurrency compare as the same thing on both sides.
Json normalized(const std::string& key, const Json& v) {
  if (key == "max_concurrency" && (v.is_null() || (v.is_number() && v.get<double>() == 0)))
    return nullptr;
  if (v.is_string() && (v == "inf" || v == "Infinity")) return "inf";
  return v;
}

bool same(const Json& a, const Json& b) {
  if (a.is_number() && b.is_number()) {
    const double x = a.get<double>(), y = b.get<double>();
    return std::fabs(x - y) <= 1e-9 * std::max(1.0, std::fabs(y));
  }
  return a == b;
}

}  // namespace

std::string bench_metric_label(const std::string& key) {
  for (const auto& m : kMetrics)
    if (key == m.key) return m.label;
  return key;
}

Json validate_against(const Json& predicted, const Json& measured,
                      const std::map<std::string, std::string>& excluded) {
  const std::map<std::string, std::string> artefacts = bench_serving_artefacts(measured);
  Json rows = Json::array();
  double abs_err_sum = 0;
  int abs_err_n = 0;
  for (const auto& m : kMetrics) {
    auto p = summary_number(predicted, m.key), q = summary_number(measured, m.key);
    Json row = {{"key", m.key}, {"label", m.label}, {"decimals", m.decimals}};
    row["predicted"] = p ? Json(*p) : Json(nullptr);
    row["measured"] = q ? Json(*q) : Json(nullptr);
    row["error_pct"] = nullptr;
    const std::string key = m.key;
    if (!p || !q) {
      row["status"] = "missing";
      row["note"] = !q ? "not in the measured record" : "not predicted";
    } else if (excluded.count(key)) {
      row["status"] = "excluded";
      row["note"] = excluded.at(key);
    } else if (artefacts.count(key)) {
      row["status"] = "untrustworthy";
      row["note"] = artefacts.at(key);
    } else if (*q == 0 && *p != 0) {
      row["status"] = "measured-zero";
      row["note"] = "measured 0: relative error undefined";
    } else {
      const double err = *q == 0 ? 0.0 : (*p - *q) / std::fabs(*q) * 100.0;
      row["status"] = "ok";
      row["error_pct"] = err;
      if (is_latency(key)) {
        abs_err_sum += std::fabs(err);
        ++abs_err_n;
      }
    }
    rows.push_back(std::move(row));
  }
  Json mismatches = Json::array();
  for (const char* k : kWorkloadKeys) {
    if (!measured.is_object() || !measured.contains(k) || !predicted.is_object() ||
        !predicted.contains(k))
      continue;
    const Json a = normalized(k, predicted.at(k)), b = normalized(k, measured.at(k));
    if (!same(a, b)) mismatches.push_back({{"key", k}, {"predicted", a}, {"measured", b}});
  }
  Json out = {{"metrics", rows}, {"workload_mismatches", mismatches}};
  out["latency_metrics_compared"] = abs_err_n;
  out["mean_abs_latency_error_pct"] = abs_err_n > 0 ? Json(abs_err_sum / abs_err_n) : Json(nullptr);
  return out;
}

std::string validate_text(const Json& v, const std::string& measured_label) {
  std::string o = "Validation: predicted vs measured" +
                  (measured_label.empty() ? std::string() : " (" + measured_label + ")") + "\n";
  o += pad("Metric", 28, true) + " " + pad("Predicted", 12, false) + " " +
       pad("Measured", 12, false) + " " + pad("Error %", 9, false) + "\n";
  for (const auto& r : v.at("metrics")) {
    const int d = r.at("decimals").get<int>();
    auto cell = [d](const Json& x) {
      return x.is_number() ? fmt_fixed(x.get<double>(), d) : std::string("n/a");
    };
    o += pad(r.at("label").get<std::string>(), 28, true) + " " +
         pad(cell(r.at("predicted")), 12, false) + " " + pad(cell(r.at("measured")), 12, false) +
         " ";
    if (r.at("status") == "ok") {
      const double e = r.at("error_pct").get<double>();
      o += pad((e >= 0 ? "+" : "") + fmt_fixed(e, 1), 9, false);
    } else {
      o +=
          pad(r.at("status").get<std::string>(), 9, false) + "  " + r.at("note").get<std::string>();
    }
    o += "\n";
  }
  if (v.at("mean_abs_latency_error_pct").is_number())
    o += "Mean |error| over " + std::to_string(v.at("latency_metrics_compared").get<int>()) +
         " latency metrics: " + fmt_fixed(v.at("mean_abs_latency_error_pct").get<double>(), 1) +
         "%\n";
  for (const auto& m : v.at("workload_mismatches"))
    o += "warning: workload differs, " + m.at("key").get<std::string>() + " predicted " +
         m.at("predicted").dump() + ", measured " + m.at("measured").dump() + "\n";
  return o;
}

}  // namespace pdsim
