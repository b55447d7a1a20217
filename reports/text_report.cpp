#include "reports/text_report.hpp"

#include "sim/core/text_align.hpp"

#include <algorithm>
#include <cmath>

#include "reports/breakdown.hpp"
#include "reports/report_writer.hpp"
#include "reports/text_format.hpp"
#include "sim/core/text_align.hpp"

namespace pdsim {
namespace {

std::string plain(const Json& summary, const std::string& key) {
  if (!summary.contains(key) || summary.at(key).is_null()) return "n/a";
  const Json& v = summary.at(key);
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number_float()) return py_float_repr(v.get<double>());
  return v.dump();
}

// bench_serving prints --request-rate as a Python float: 0.4, 2.0, inf.
std::string request_rate_text(const Json& summary) {
  if (!summary.contains("request_rate")) return "n/a";
  const Json& v = summary.at("request_rate");
  if (v.is_number()) return py_float_repr(v.get<double>());
  if (v.is_string()) return v.get<std::string>();
  return "n/a";
}

std::string max_concurrency_text(const Json& summary) {
  if (!summary.contains("max_concurrency")) return "not set";
  const Json& v = summary.at("max_concurrency");
  if (v.is_number() && v.get<double>() != 0) return v.dump();
  return "not set";
}

class TextReport : public ReportWriter {
 public:
  std::string render(const SimResults&, const Json& summary) const override {
    return bench_text_block(summary) + pdsim_breakdown_text(summary);
  }
  std::string file_name() const override { return "summary.txt"; }
};

}  // namespace

std::string bench_text_block(const Json& s) {
  std::string o;
  auto line = [&o](const std::string& label, const std::string& value) {
    o += bench_line(label, value) + "\n";
  };
  auto f2 = [&s](const char* key) { return summary_fixed(s, key); };
  o += centered(" Serving Benchmark Result ", '=', 50) + "\n";
  if (s.contains("predicted_failure")) {
    const Json& f = s.at("predicted_failure");
    o += "PREDICTED FAILURE at t = " + py_float_repr(f.at("at_s").get<double>()) + " s (" +
         f.at("mechanism").get<std::string>() + "): " + f.at("cause").get<std::string>() +
         "\nNo latencies: the run would have crashed there.\n";
  }
  line("Backend:", plain(s, "backend"));
  line("Traffic request rate:", request_rate_text(s));
  line("Max request concurrency:", max_concurrency_text(s));
  line("Successful requests:", plain(s, "completed"));
  line("Benchmark duration (s):", f2("duration"));
  line("Total input tokens:", plain(s, "total_input_tokens"));
  line("Total generated tokens:", plain(s, "total_output_tokens"));
  line("Request throughput (req/s):", f2("request_throughput"));
  line("Input token throughput (tok/s):", f2("input_throughput"));
  line("Output token throughput (tok/s):", f2("output_throughput"));
  line("Total token throughput (tok/s):", f2("total_throughput"));
  line("Concurrency:", f2("concurrency"));
  // bench_serving prints it only when accept_length is truthy.
  if (auto al = summary_number(s, "accept_length"); al && *al != 0)
    line("Accept length:", f2("accept_length"));
  o += centered("End-to-End Latency", '-', 50) + "\n";
  line("Mean E2E Latency (ms):", f2("mean_e2e_latency_ms"));
  line("Median E2E Latency (ms):", f2("median_e2e_latency_ms"));
  o += centered("Time to First Token", '-', 50) + "\n";
  line("Mean TTFT (ms):", f2("mean_ttft_ms"));
  line("Median TTFT (ms):", f2("median_ttft_ms"));
  line("P99 TTFT (ms):", f2("p99_ttft_ms"));
  o += centered("Time per Output Token (excl. 1st token)", '-', 50) + "\n";
  line("Mean TPOT (ms):", f2("mean_tpot_ms"));
  line("Median TPOT (ms):", f2("median_tpot_ms"));
  line("P99 TPOT (ms):", f2("p99_tpot_ms"));
  o += centered("Inter-Token Latency", '-', 50) + "\n";
  line("Mean ITL (ms):", f2("mean_itl_ms"));
  line("Median ITL (ms):", f2("median_itl_ms"));
  line("P95 ITL (ms):", f2("p95_itl_ms"));
  line("P99 ITL (ms):", f2("p99_itl_ms"));
  line("Max ITL (ms):", f2("max_itl_ms"));
  o += std::string(50, '=') + "\n";
  return o;
}

// The decode all-to-all's evidence (sim/fabric/a2a_fit_evidence.hpp): what was fitted, to how
// many rows at which EP, and how far the alternate measurements move each fitted parameter.
void a2a_evidence_lines(const Json& pd, std::string& o) {
  auto line = [&o](const std::string& label, const std::string& value) {
    o += bench_line(label, value) + "\n";
  };
  const Json* e = &pd;
  for (const char* k : {"decode", "cost_model", "a2a_profile"}) {
    if (!e->is_object() || !e->contains(k)) return;
    e = &e->at(k);
  }
  if (!e->is_object()) return;
  std::string eps;
  const Json measured_ep = e->value("measured_ep", Json::array());
  const Json fitted = e->value("fitted_parameters", Json::object());
  for (const auto& ep : measured_ep) eps += (eps.empty() ? "" : ", ") + ep.dump();
  line("All-to-all profile:",
       e->value("backend", std::string()) + " @ " + e->value("profile", std::string()));
  line("  fitted to rows (EP):", e->value("fit_rows", Json(0)).dump() + " (EP " + eps + ")");
  if (e->contains("rms_rel_error"))
    line("  fit rms error:", fmt_fixed(100 * e->at("rms_rel_error").get<double>(), 1) + " %");
  for (const auto& [name, p] : fitted.items()) {
    std::string v = fmt_fixed(p.value("value", 0.0), 3);
    if (p.contains("std_error") && p.at("std_error").is_number())
      v += " ± " + fmt_fixed(p.at("std_error").get<double>(), 3);
    if (p.contains("alternates")) {
      double lo = INFINITY, hi = -INFINITY;
      for (const auto& [f, a] : p.at("alternates").items())
        if (a.is_number()) lo = std::min(lo, a.get<double>()), hi = std::max(hi, a.get<double>());
      if (lo < hi) v += " (alternates " + fmt_fixed(lo, 3) + "–" + fmt_fixed(hi, 3) + ")";
      if (lo == hi) v += " (alternate " + fmt_fixed(lo, 3) + ")";
    }
    line("  " + name + ":", v);
  }
}

// Mooncake's TCP fallback (sim/serve/cost/kv_engine.hpp): the rate it rests on, and a warning
// when the run's concurrency is above where a published run of it failed.
void kv_tcp_lines(const Json& s, std::string& o) {
  const Json* t = &s;
  for (const char* k : {"pdsim", "kv_transfer", "tcp_transport"}) {
    if (!t->is_object() || !t->contains(k)) return;
    t = &t->at(k);
  }
  if (!t->is_object()) return;
  const Json range = t->value("rate_range_GBps", Json::array());
  std::string v = t->value("name", std::string()) + ", " +
                  fmt_fixed(t->value("rate_GBps", 0.0), 2) + " GB/s per rank";
  if (range.is_array() && range.size() == 2 && range[0].is_number() && range[1].is_number())
    v += " (published " + fmt_fixed(range[0].get<double>(), 2) + "–" +
         fmt_fixed(range[1].get<double>(), 2) + ")";
  o += bench_line("KV over TCP:", v) + "\n";
  const Json outside = t->value("outside_measured", Json());
  if (outside.is_string())
    o += wrap("outside what was measured: " + outside.get<std::string>(), 98, "  ");
}

std::string pdsim_breakdown_text(const Json& s) {
  std::string o = centered(" pdsim breakdown ", '-', 50) + "\n";
  auto line = [&o](const std::string& label, const std::string& value) {
    o += bench_line(label, value) + "\n";
  };
  const auto terms = forward_terms(s);
  if (!terms.empty()) {
    o += "Decode forward, mean per forward (us):\n";
    double total = 0;
    for (const auto& t : terms) {
      line("  " + t.name, fmt_fixed(t.us, 2));
      total += t.us;
    }
    line("  total", fmt_fixed(total, 2));
  }
  auto ms = [&s](const std::vector<std::string>& path) {
    auto v = pdsim_number(s, path);
    return v ? fmt_fixed(*v * 1e3, 2) : std::string("n/a");
  };
  line("KV transfer mean (ms):", ms({"kv_transfer", "mean_s"}));
  line("KV transfer p99 (ms):", ms({"kv_transfer", "p99_s"}));
  kv_tcp_lines(s, o);
  line("Prefill queue wait mean (ms):", ms({"queueing", "prefill_wait_mean_s"}));
  line("Decode queue wait mean (ms):", ms({"queueing", "decode_wait_mean_s"}));
  if (s.contains("pdsim") && s.at("pdsim").is_object()) {
    const Json& pd = s.at("pdsim");
    // bench_serving's warmup and a sweep's earlier runs left prompts in the radix cache
    // (sim/serve/entities/prefix_cache_at_start.hpp): that much less prefill work.
    const Json pc = pd.value("prefix_cache", Json::object());
    const int hit = pc.is_object() ? pc.value("requests_hit", 0) : 0;
    if (hit > 0)
      line("Prompts found cached (requests):",
           std::to_string(hit) + ", " +
               std::to_string(std::llround(pc.value("cached_tokens", 0.0))) + " tokens");
    a2a_evidence_lines(pd, o);
    if (pd.contains("scenario") && pd.at("scenario").is_string())
      line("Scenario:", pd.at("scenario").get<std::string>());
    if (pd.contains("seed")) line("Seed:", pd.at("seed").dump());
  }
  o += std::string(50, '=') + "\n";
  return o;
}

PDSIM_REGISTER(ReportWriterRegistry, "text",
               "bench_serving result block plus a pdsim breakdown (stdout of `pdsim run`)",
               [] { return std::make_unique<TextReport>(); })

}  // namespace pdsim
