#include "reports/compare.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

#include "reports/breakdown.hpp"
#include "reports/text_format.hpp"
#include "sim/core/text_align.hpp"

namespace pdsim {
namespace {

struct MetricSpec {
  const char* key;
  const char* label;
};
constexpr MetricSpec kMetrics[] = {
    {"mean_ttft_ms", "Mean TTFT (ms)"},    {"p99_ttft_ms", "P99 TTFT (ms)"},
    {"mean_tpot_ms", "Mean TPOT (ms)"},    {"median_tpot_ms", "Median TPOT (ms)"},
    {"p99_tpot_ms", "P99 TPOT (ms)"},      {"mean_itl_ms", "Mean ITL (ms)"},
    {"p99_itl_ms", "P99 ITL (ms)"},        {"max_itl_ms", "Max ITL (ms)"},
    {"output_throughput", "Output tok/s"}, {"request_throughput", "Requests/s"},
    {"accept_length", "Accept length"},
};

Json opt(std::optional<double> v) {
  return v ? Json(*v) : Json(nullptr);
}

Json delta_pct(std::optional<double> a, std::optional<double> b) {
  if (!a || !b || *a == 0) return nullptr;
  return (*b - *a) / std::fabs(*a) * 100.0;
}

// Largest |value| first, ties by name, so the ranking is deterministic.
void rank(Json& terms, const char* by) {
  std::vector<Json> v(terms.begin(), terms.end());
  std::stable_sort(v.begin(), v.end(), [by](const Json& x, const Json& y) {
    const double ax = std::fabs(x.at(by).get<double>()), ay = std::fabs(y.at(by).get<double>());
    return ax != ay ? ax > ay : x.at("term").get<std::string>() < y.at("term").get<std::string>();
  });
  terms = Json(v);
}

Json tpot_explanation(const Json& a, const Json& b) {
  const double la = summary_number(a, "accept_length").value_or(1.0);
  const double lb = summary_number(b, "accept_length").value_or(1.0);
  std::map<std::string, std::array<double, 2>> us;
  for (const auto& t : forward_terms(a)) us[t.name][0] = t.us;
  for (const auto& t : forward_terms(b)) us[t.name][1] = t.us;
  Json terms = Json::array();
  double explained_ms = 0;
  const auto dtpot = [&]() -> std::optional<double> {
    auto x = summary_number(a, "mean_tpot_ms"), y = summary_number(b, "mean_tpot_ms");
    if (x && y) return *y - *x;
    return std::nullopt;
  }();
  for (const auto& [name, v] : us) {
    const double contrib_ms = (v[1] / lb - v[0] / la) * 1e-3;
    explained_ms += contrib_ms;
    Json t = {{"term", name},
              {"a_us", v[0]},
              {"b_us", v[1]},
              {"delta_us", v[1] - v[0]},
              {"tpot_contribution_ms", contrib_ms},
              {"itl_contribution_ms", (v[1] - v[0]) * 1e-3}};
    t["tpot_share_pct"] =
        (dtpot && *dtpot != 0) ? Json(contrib_ms / *dtpot * 100.0) : Json(nullptr);
    terms.push_back(std::move(t));
  }
  rank(terms, "tpot_contribution_ms");
  Json out = {
      {"tokens_per_forward", {la, lb}}, {"terms", terms}, {"explained_tpot_ms", explained_ms}};
  out["tpot_delta_ms"] = opt(dtpot);
  out["residual_tpot_ms"] = dtpot ? Json(*dtpot - explained_ms) : Json(nullptr);
  auto ia = summary_number(a, "mean_itl_ms"), ib = summary_number(b, "mean_itl_ms");
  out["mean_itl_delta_ms"] = (ia && ib) ? Json(*ib - *ia) : Json(nullptr);
  return out;
}

Json ttft_explanation(const Json& a, const Json& b) {
  struct Term {
    const char* name;
    std::vector<std::string> path;
  };
  const Term specs[] = {{"kv_transfer_mean", {"kv_transfer", "mean_s"}},
                        {"prefill_queue_wait_mean", {"queueing", "prefill_wait_mean_s"}},
                        {"decode_queue_wait_mean", {"queueing", "decode_wait_mean_s"}}};
  auto ta = summary_number(a, "mean_ttft_ms"), tb = summary_number(b, "mean_ttft_ms");
  const std::optional<double> dttft = (ta && tb) ? std::optional<double>(*tb - *ta) : std::nullopt;
  Json terms = Json::array();
  double explained_ms = 0;
  for (const auto& sp : specs) {
    auto va = pdsim_number(a, sp.path), vb = pdsim_number(b, sp.path);
    if (!va && !vb) continue;
    const double am = va.value_or(0) * 1e3, bm = vb.value_or(0) * 1e3;
    explained_ms += bm - am;
    Json t = {{"term", sp.name}, {"a_ms", am}, {"b_ms", bm}, {"delta_ms", bm - am}};
    t["ttft_share_pct"] = (dttft && *dttft != 0) ? Json((bm - am) / *dttft * 100.0) : Json(nullptr);
    terms.push_back(std::move(t));
  }
  rank(terms, "delta_ms");
  Json out = {{"terms", terms}, {"explained_ttft_ms", explained_ms}};
  out["ttft_delta_ms"] = opt(dttft);
  out["residual_ttft_ms"] = dttft ? Json(*dttft - explained_ms) : Json(nullptr);
  auto pa = pdsim_number(a, {"kv_transfer", "p99_s"}),
       pb = pdsim_number(b, {"kv_transfer", "p99_s"});
  out["kv_transfer_p99_delta_ms"] = (pa && pb) ? Json((*pb - *pa) * 1e3) : Json(nullptr);
  return out;
}

std::string num(const Json& v, int decimals, bool sign = false) {
  if (!v.is_number()) return "n/a";
  const double x = v.get<double>();
  return (sign && x >= 0 ? "+" : "") + fmt_fixed(x, decimals);
}

}  // namespace

Json compare_json(const Json& a, const Json& b, const RunNames& names) {
  Json metrics = Json::array();
  for (const auto& m : kMetrics) {
    auto va = summary_number(a, m.key), vb = summary_number(b, m.key);
    if (!va && !vb) continue;
    Json row = {{"key", m.key}, {"label", m.label}};
    row["a"] = opt(va);
    row["b"] = opt(vb);
    row["delta"] = (va && vb) ? Json(*vb - *va) : Json(nullptr);
    row["delta_pct"] = delta_pct(va, vb);
    metrics.push_back(std::move(row));
  }
  return {{"names", {names[0], names[1]}},
          {"metrics", metrics},
          {"tpot_explanation", tpot_explanation(a, b)},
          {"ttft_explanation", ttft_explanation(a, b)}};
}

std::string compare_text(const Json& a, const Json& b, const RunNames& names) {
  const Json c = compare_json(a, b, names);
  const size_t w = std::max<size_t>({12, names[0].size(), names[1].size()});
  std::string o = "Comparison: A = " + names[0] + ", B = " + names[1] + " (delta = B - A)\n";
  o += pad("Metric", 22, true) + " " + pad(names[0], w, false) + " " + pad(names[1], w, false) +
       " " + pad("delta", 12, false) + " " + pad("delta %", 9, false) + "\n";
  for (const auto& m : c.at("metrics")) {
    o += pad(m.at("label").get<std::string>(), 22, true) + " " + pad(num(m.at("a"), 2), w, false) +
         " " + pad(num(m.at("b"), 2), w, false) + " " +
         pad(num(m.at("delta"), 2, true), 12, false) + " " +
         pad(num(m.at("delta_pct"), 1, true), 9, false) + "\n";
  }
  const Json& tp = c.at("tpot_explanation");
  if (!tp.at("terms").empty()) {
    o += "\nMean TPOT delta " + num(tp.at("tpot_delta_ms"), 3, true) +
         " ms, by decode-forward term (ms per output token; tokens per forward A " +
         fmt_fixed(tp.at("tokens_per_forward")[0].get<double>(), 2) + ", B " +
         fmt_fixed(tp.at("tokens_per_forward")[1].get<double>(), 2) + "):\n";
    for (const auto& t : tp.at("terms")) {
      o += "  " + pad(t.at("term").get<std::string>(), 20, true) + " " +
           pad(num(t.at("a_us"), 1), 10, false) + " us -> " + pad(num(t.at("b_us"), 1), 10, false) +
           " us  " + pad(num(t.at("tpot_contribution_ms"), 4, true), 9, false) + " ms/token";
      if (t.at("tpot_share_pct").is_number()) o += "  (" + num(t.at("tpot_share_pct"), 1) + "%)";
      o += "\n";
    }
    o += "  " + pad("residual", 20, true) + " " + pad("", 31, true) +
         pad(num(tp.at("residual_tpot_ms"), 4, true), 9, false) +
         " ms/token (not in the breakdown)\n";
  }
  const Json& tt = c.at("ttft_explanation");
  if (!tt.at("terms").empty()) {
    o += "\nMean TTFT delta " + num(tt.at("ttft_delta_ms"), 2, true) + " ms, by term (ms):\n";
    for (const auto& t : tt.at("terms")) {
      o += "  " + pad(t.at("term").get<std::string>(), 24, true) + " " +
           pad(num(t.at("a_ms"), 2), 10, false) + " -> " + pad(num(t.at("b_ms"), 2), 10, false) +
           "  " + pad(num(t.at("delta_ms"), 2, true), 10, false);
      if (t.at("ttft_share_pct").is_number()) o += "  (" + num(t.at("ttft_share_pct"), 1) + "%)";
      o += "\n";
    }
    o += "  " + pad("residual", 24, true) + " " + pad("", 26, true) +
         pad(num(tt.at("residual_ttft_ms"), 2, true), 10, false) + "\n";
    if (tt.at("kv_transfer_p99_delta_ms").is_number())
      o += "  KV transfer p99 delta " + num(tt.at("kv_transfer_p99_delta_ms"), 2, true) + " ms\n";
  }
  return o;
}

}  // namespace pdsim
