#include "reports/html_run_sections.hpp"

#include <set>

#include "reports/breakdown.hpp"
#include "reports/html_charts.hpp"
#include "reports/interval_report.hpp"
#include "reports/run_time_series.hpp"
#include "reports/tail_attribution.hpp"
#include "reports/validate.hpp"

namespace pdsim {
namespace {

constexpr size_t kTimePoints = 400;  // instants per time series: finer than a chart's pixels

Json opt(const Json& obj, const char* key) {
  return obj.is_object() && obj.contains(key) && obj.at(key).is_number() ? obj.at(key)
                                                                         : Json(nullptr);
}

std::optional<double> num(const Json& obj, const char* key) {
  const Json v = opt(obj, key);
  return v.is_number() ? std::optional<double>(v.get<double>()) : std::nullopt;
}

// The interval metrics shown as bands, in ms (one axis); the table lists every metric.
const std::vector<std::pair<const char*, const char*>>& band_metrics() {
  static const std::vector<std::pair<const char*, const char*>> m = {
      {"p99_itl_ms", "p99 ITL"},
      {"max_itl_ms", "max ITL"},
      {"median_itl_ms", "median ITL"},
      {"mean_tpot_ms", "mean TPOT"},
      {"p99_tpot_ms", "p99 TPOT"}};
  return m;
}

// One band chart and one table from per-run {metric: {p05, p50, p95, ...}} blocks.
void add_spread(ReportDoc& d, const std::vector<RunView>& runs,
                const std::vector<std::string>& colours, const std::string& id,
                const std::string& title, const std::string& note, bool seeds) {
  std::vector<std::string> rows;
  for (const auto& [key, label] : band_metrics()) rows.push_back(label);
  Named<std::vector<IntervalBand>> series;
  std::vector<std::string> cols;
  ReportTable t{id,
                title + " (5 %, 50 %, 95 %)",
                {"run", "metric", "point", "p05", "p50", "p95"},
                {-1, -1, 2, 2, 2, 2},
                {}};
  if (seeds) {
    t.columns.insert(t.columns.end(), {"min", "max"});
    t.decimals.insert(t.decimals.end(), {2, 2});
  }
  for (size_t i = 0; i < runs.size(); ++i) {
    const Json& block = seeds ? runs[i].seeds : runs[i].intervals;
    if (!block.is_object() || !block.contains("metrics")) continue;
    const Json& m = block.at("metrics");
    std::vector<IntervalBand> bands;
    for (const auto& [key, label] : band_metrics()) {
      const Json q = m.contains(key) ? m.at(key) : Json::object();
      bands.push_back({num(q, "p05"), num(q, "p50"), num(q, "p95")});
    }
    series.push_back({runs[i].name, bands});
    cols.push_back(i < colours.size() ? colours[i] : "");
    for (const auto& [key, q] : m.items()) {
      std::vector<Json> row = {runs[i].name,  key,           opt(runs[i].summary, key.c_str()),
                               opt(q, "p05"), opt(q, "p50"), opt(q, "p95")};
      if (seeds) row.insert(row.end(), {opt(q, "min"), opt(q, "max")});
      t.rows.push_back(row);
    }
  }
  if (series.empty()) return;
  d.charts.push_back({id, title, note, interval_chart(rows, series, cols, "ms"),
                      160 + 46 * static_cast<int>(rows.size() * series.size())});
  d.tables.push_back(t);
}

}  // namespace

void add_tail_sections(ReportDoc& d, const std::vector<RunView>& runs) {
  Named<std::vector<BreakdownTerm>> bars;
  ReportTable mech{"tail_mechanisms",
                   "ITL tail: what each mechanism added (µs per sample; fired: share of samples)",
                   {"run", "mechanism", "fired (all)", "median sample", "worst 1 % (mean)",
                    "fired (worst 1 %)", "max sample"},
                   {-1, -1, 3, 1, 1, 3, 1},
                   {}};
  for (const auto& r : runs) {
    const Json a = tail_attribution_json(r.summary);
    if (!a.contains("terms_us")) continue;
    for (const auto& [stat, label] : std::vector<std::pair<const char*, const char*>>{
             {"median", "median sample"}, {"top1pct", "worst 1 %"}, {"max", "max sample"}}) {
      std::vector<BreakdownTerm> terms;
      for (const auto& [k, v] : a.at("terms_us").items()) terms.push_back({k, v.value(stat, 0.0)});
      bars.push_back({r.name + ": " + label, terms});
    }
    if (a.contains("mechanisms_us"))
      for (const auto& [k, v] : a.at("mechanisms_us").items())
        if (v.value("fired_all", 0.0) > 0 || v.value("max", 0.0) > 0)
          mech.rows.push_back({r.name, k, opt(v, "fired_all"), opt(v, "median"), opt(v, "top1pct"),
                               opt(v, "fired_top1pct"), opt(v, "max")});
  }
  if (bars.empty()) return;
  d.charts.push_back({"tail-attribution", "ITL tail attribution",
                      "The forward terms of the median ITL sample, the mean of the worst 1 % and "
                      "the maximum sample (µs): where the tail's extra time goes.",
                      breakdown_chart(bars), 300 + 24 * static_cast<int>(bars.size())});
  d.tables.push_back(mech);
}

void add_time_series_sections(ReportDoc& d, const std::vector<RunView>& runs,
                              const std::vector<std::string>& colours) {
  Named<std::vector<std::pair<double, double>>> batch, queue, kv;
  std::string capacity;
  for (const auto& r : runs) {
    const RunTimeSeries s = run_time_series(*r.results, kTimePoints);
    std::vector<std::pair<double, double>> b, q, k;
    for (size_t i = 0; i < s.t_s.size(); ++i) {
      b.push_back({s.t_s[i], s.decoding[i]});
      q.push_back({s.t_s[i], s.waiting_prefill[i]});
      k.push_back({s.t_s[i], s.decode_kv_tokens[i]});
    }
    batch.push_back({r.name, b});
    queue.push_back({r.name, q});
    kv.push_back({r.name, k});
    if (auto c = pdsim_number(r.summary, {"memory", "decode_kv_capacity_tokens_per_rank"}))
      capacity += (capacity.empty() ? "" : "; ") + r.name + " " +
                  std::to_string(static_cast<long long>(*c)) + " tokens per decode rank";
  }
  const std::string x = "time since the first request (s)";
  d.charts.push_back({"decode-batch", "Decode batch over time",
                      "Requests in decode (KV arrived, not finished), all decode ranks; " +
                          std::to_string(kTimePoints) + " instants.",
                      lines_chart(batch, colours, x, "requests in decode")});
  d.charts.push_back({"prefill-queue", "Prefill queue over time",
                      "Requests sent and not yet in prefill (the client's and the router's "
                      "queue).",
                      lines_chart(queue, colours, x, "requests waiting for prefill")});
  d.charts.push_back({"decode-kv", "Decode KV pool over time",
                      "Tokens held in decode KV: each request's prompt plus the tokens streamed, "
                      "from its decode reservation to its end" +
                          (capacity.empty() ? std::string(".") : " (capacity: " + capacity + ")."),
                      lines_chart(kv, colours, x, "tokens held (all decode ranks)")});
}

void add_interval_sections(ReportDoc& d, const std::vector<RunView>& runs,
                           const std::vector<std::string>& colours) {
  add_spread(d, runs, colours, "seed-spread", "Spread over seeds",
             "Each run at several seeds (workload, routing, acceptance and tail draws): the band "
             "is 5–95 % over seeds, the mark the median.",
             true);
  add_spread(d, runs, colours, "parameter-spread", "Spread over the fitted parameters",
             "Draws of the fitted parameters from their covariance (and of held all-to-all "
             "parameters from their priors), the run's seed: the band is 5–95 % over draws, the "
             "mark the median; 'point' is the run itself.",
             false);
  // A comparison whose draws pair: B / A draw by draw, the shared parameters cancelling.
  if (runs.size() == 2) {
    const Json ratio = paired_ratio_intervals(runs[0].intervals, runs[1].intervals);
    if (ratio.is_object() && !ratio.empty()) {
      ReportTable t{"parameter_ratio",
                    runs[1].name + " / " + runs[0].name +
                        " over paired parameter draws (the fitted parameters both share cancel)",
                    {"metric", "p05", "p50", "p95", "pairs"},
                    {-1, 3, 3, 3, 0},
                    {}};
      for (const auto& [key, q] : ratio.items())
        t.rows.push_back({bench_metric_label(key), q["p05"], q["p50"], q["p95"], q["pairs"]});
      d.tables.push_back(t);
    }
  }
  ReportTable gaps{"worst_gap_by_seed",
                   "The worst gap of each seed and the mechanism behind it",
                   {"run", "seed", "max ITL (ms)", "mechanism", "added (ms)", "share of excess",
                    "term that grew most"},
                   {-1, -1, 2, -1, 2, 3, -1},
                   {}};
  for (const auto& r : runs) {
    if (!r.seeds.is_object() || !r.seeds.contains("worst_gap")) continue;
    for (const auto& g : r.seeds.at("worst_gap").value("by_seed", Json::array()))
      gaps.rows.push_back({r.name, g.value("seed", Json(nullptr)), opt(g, "max_itl_ms"),
                           g.value("mechanism", Json(nullptr)), opt(g, "mechanism_added_ms"),
                           opt(g, "share_of_excess"), g.value("term", Json(nullptr))});
  }
  if (!gaps.rows.empty()) d.tables.push_back(gaps);
}

}  // namespace pdsim
