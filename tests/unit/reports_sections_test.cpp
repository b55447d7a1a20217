// Report sections added for engineers: the tail to the worst sample, the run's state over time
// from its records, fixed colours, and intervals as bands; values computed by hand.
#include <gtest/gtest.h>

#include "reports/html_charts.hpp"
#include "reports/html_report.hpp"
#include "reports/html_run_sections.hpp"
#include "reports/html_series.hpp"
#include "reports/html_sweep_slo.hpp"
#include "reports/report_colours.hpp"
#include "reports/run_time_series.hpp"
#include "sim/serve/entities/bench_metrics.hpp"

namespace pdsim {
namespace sections_test {

RequestRecord staged(int id, double arrival, double pre0, double pre1, double kv1, int in,
                     std::vector<double> chunks, std::vector<int> tokens) {
  RequestRecord q;
  q.id = id;
  q.arrival_s = arrival;
  q.input_len = in;
  q.output_len = static_cast<int>(chunks.size());
  q.prefill_start_s = pre0;
  q.prefill_end_s = pre1;
  q.kv_start_s = pre1;
  q.kv_end_s = kv1;
  q.decode_reserved_s = pre0;
  q.chunk_times_s = std::move(chunks);
  q.chunk_tokens = std::move(tokens);
  q.finish_s = q.chunk_times_s.back();
  q.completed = true;
  return q;
}

TEST(ReportsElastic, OneRowPerChangeWithItsWindows) {
  // A join (cold start a lower bound) and a leave, as elastic_summary writes them.
  Json summary = {{"pdsim",
                   {{"elastic",
                     {{{"role", "decode"},
                       {"instance", 1},
                       {"join_s", 600.0},
                       {"ready_s", 600.25},
                       {"cold_start", {{"s", 0.25}, {"complete", false}}},
                       {"requests_served", 7},
                       {"before_join", {{"requests", 3}, {"mean_ttft_ms", 100.0}}},
                       {"after_ready", {{"requests", 4}, {"mean_ttft_ms", 80.0}}}},
                      {{"role", "prefill"},
                       {"instance", 2},
                       {"leave_s", 700.0},
                       {"drained_s", 712.5},
                       {"requests_served", 5},
                       {"before_leave", {{"requests", 9}, {"mean_itl_ms", 30.0}}},
                       {"after_leave", {{"requests", 0}}}}}}}}};
  ReportDoc d;
  add_elastic_sections(d, {RunView{"A", nullptr, summary}});
  ASSERT_EQ(d.tables.size(), 1u);
  const auto& rows = d.tables[0].rows;
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0][3], "joins");
  EXPECT_EQ(rows[0][5].get<double>(), 600.25);
  EXPECT_EQ(rows[0][6], ">= 0.250");
  EXPECT_EQ(rows[0][8].get<double>(), 100.0);
  EXPECT_EQ(rows[0][9].get<double>(), 80.0);
  EXPECT_TRUE(rows[0][10].is_null());  // no ITL in the window
  EXPECT_EQ(rows[1][3], "leaves (drained)");
  EXPECT_EQ(rows[1][5].get<double>(), 712.5);
  EXPECT_TRUE(rows[1][6].is_null());
  EXPECT_EQ(rows[1][10].get<double>(), 30.0);
  EXPECT_TRUE(rows[1][11].is_null());
  // A run that is not elastic adds nothing.
  ReportDoc none;
  add_elastic_sections(none, {RunView{"B", nullptr, Json{{"pdsim", Json::object()}}}});
  EXPECT_TRUE(none.tables.empty());
}

TEST(ReportsTail, ToTheWorstSampleWithTies) {
  // 1..10 and a tie at the top (10, 10): n = 11. At 10 per decade the fractions ≥ x step down
  // 1, 10^-0.1, ...; the last point is the maximum with its two ties: 2/11.
  std::vector<double> v = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10};
  const auto t = tail_points(v, 10);
  ASSERT_FALSE(t.empty());
  EXPECT_EQ(t.front().x, 1);
  EXPECT_EQ(t.front().fraction, 1.0);
  EXPECT_EQ(t.back().x, 10);
  EXPECT_DOUBLE_EQ(t.back().fraction, 2.0 / 11);
  for (size_t i = 1; i < t.size(); ++i) EXPECT_LT(t[i].fraction, t[i - 1].fraction);
  EXPECT_TRUE(tail_points({}, 10).empty());
  // One sample: the point (x, 1).
  const auto one = tail_points({7}, 10);
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].fraction, 1.0);
}

TEST(ReportsTimeSeries, StagesAndKvFromRecords) {
  SimResults r;
  // a: sent 0, prefill [1, 2), KV until 3, chunks at 2 (first token), 4, 6 (1, 2, 1 tokens).
  // b: sent 2, prefill [2, 4), KV until 5, chunks 4, 6.
  r.requests.push_back(staged(0, 0, 1, 2, 3, 100, {2, 4, 6}, {1, 2, 1}));
  r.requests.push_back(staged(1, 2, 2, 4, 5, 50, {4, 6}, {1, 1}));
  const RunTimeSeries s = run_time_series(r, 7);  // t = 0, 1, ..., 6
  EXPECT_EQ(s.t_s, (std::vector<double>{0, 1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(s.waiting_prefill, (std::vector<double>{1, 0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(s.prefilling, (std::vector<double>{0, 1, 1, 1, 0, 0, 0}));
  EXPECT_EQ(s.to_decode, (std::vector<double>{0, 0, 1, 0, 1, 0, 0}));
  EXPECT_EQ(s.decoding, (std::vector<double>{0, 0, 0, 1, 1, 2, 0}));
  // KV held from the reservation (prefill start): a from 1 (100, then +1 at 2, +2 at 4: 103), b
  // from 2 (50, +1 at 4: 51); both end at 6 (finish is exclusive).
  EXPECT_EQ(s.decode_kv_tokens, (std::vector<double>{0, 100, 151, 151, 154, 154, 0}));
  EXPECT_TRUE(run_time_series(r, 1).t_s.empty());
}

TEST(ReportsTimeSeries, KvTrafficPerDecodeInstance) {
  SimResults r;
  r.requests.push_back(staged(0, 0, 1, 2, 3, 100, {2, 4, 6}, {1, 2, 1}));
  r.requests.push_back(staged(1, 2, 2, 4, 5, 50, {4, 6}, {1, 1}));
  r.requests[0].decode_instance = 0;
  r.requests[1].decode_instance = 1;
  // 10 bytes per token: a moves 1000 B over [2, 3), b 500 B over [4, 5). Intervals of 1 s between
  // the instants 0..6: a fills [2, 3) at 1000 B/s; with 4 instants (intervals of 2 s) a's
  // 1000 B spread over [2, 4) is 500 B/s, b's over [4, 6) 250 B/s.
  KvRateSeries s = kv_rate_series(r, 10, 7);
  EXPECT_EQ(s.t_s, (std::vector<double>{0.5, 1.5, 2.5, 3.5, 4.5, 5.5}));
  ASSERT_EQ(s.by_instance.size(), 2u);
  EXPECT_EQ(s.by_instance[0], (std::vector<double>{0, 0, 1000, 0, 0, 0}));
  EXPECT_EQ(s.by_instance[1], (std::vector<double>{0, 0, 0, 0, 500, 0}));
  s = kv_rate_series(r, 10, 4);
  EXPECT_EQ(s.by_instance[0], (std::vector<double>{0, 500, 0}));
  EXPECT_EQ(s.by_instance[1], (std::vector<double>{0, 0, 250}));
}

TEST(ReportsNetwork, AllToAllTermsPerIteration) {
  SimResults r;
  r.requests.push_back(staged(0, 0, 1, 2, 3, 100, {2, 4, 6}, {1, 2, 1}));
  r.extras = Json::parse(R"({"decode":{"iterations":4,"cost_model":{"a2a_terms_total_us":
    {"combine.latency_us":20,"dispatch.latency_us":40,"dispatch.proxy_us":80}}},
    "tail":{"kv_overlap":{"iterations_share":0.25,"samples_share":0.5,"stall_mean_us":3,
    "stall_p99_us":4,"stall_max_us":5}}})");
  ReportDoc d;
  add_network_sections(d, {{"efa", &r, bench_summary(r)}}, {"#D55E00"});
  ASSERT_EQ(d.charts.size(), 1u);  // no KV bytes per token: no traffic chart
  EXPECT_EQ(d.charts[0].id, "a2a-terms");
  // Per iteration: dispatch latency 10, proxy 20; combine latency 5.
  EXPECT_EQ(d.charts[0].config["data"]["labels"],
            Json::parse(R"(["efa: combine","efa: dispatch"])"));
  EXPECT_EQ(d.charts[0].config["data"]["datasets"][0]["label"], "latency_us");
  EXPECT_EQ(d.charts[0].config["data"]["datasets"][0]["data"], Json::parse("[5.0,10.0]"));
  EXPECT_EQ(d.charts[0].config["data"]["datasets"][1]["data"], Json::parse("[0.0,20.0]"));
  // The KV / all-to-all sharing figures, one row per run, as the tail log wrote them.
  ASSERT_EQ(d.tables.size(), 1u);
  EXPECT_EQ(d.tables[0].rows[0], (std::vector<Json>{"efa", 0.25, 0.5, 3, 4, 5}));
}

TEST(ReportsColours, FixedPerTermAndFabric) {
  EXPECT_EQ(term_colour("dispatch"), "#0072B2");
  EXPECT_EQ(term_colour("+batch_jump"), term_colour("batch_jump"));
  // An unknown term: the same colour every time, from the palette.
  EXPECT_EQ(term_colour("new_term"), term_colour("new_term"));
  EXPECT_EQ(fabric_family("efa-p5en"), "efa");
  EXPECT_EQ(fabric_family("roce-cx7"), "roce");
  EXPECT_EQ(fabric_family("custom"), "");
  // EFA vermillion and RoCE blue in either order; a second EFA run takes a free colour.
  EXPECT_EQ(run_colours({"efa-p5en", "roce-cx7"}),
            (std::vector<std::string>{"#D55E00", "#0072B2"}));
  EXPECT_EQ(run_colours({"roce-cx7", "efa-p5"}), (std::vector<std::string>{"#0072B2", "#D55E00"}));
  EXPECT_EQ(run_colours({"efa-p5en", "efa-p5en"}),
            (std::vector<std::string>{"#D55E00", "#009E73"}));
}

TEST(ReportsBands, IntervalChartAndSeedSections) {
  const Json c =
      interval_chart({"p99 ITL", "max ITL"}, {{"efa", {{1.0, 2.0, 3.0}, {4.0, std::nullopt, 6.0}}}},
                     {"#D55E00"}, "ms");
  EXPECT_EQ(c["options"]["indexAxis"], "y");
  EXPECT_EQ(c["data"]["datasets"][0]["data"], Json::parse("[[1.0,3.0],[4.0,6.0]]"));
  EXPECT_EQ(c["data"]["datasets"][1]["data"], Json::parse("[2.0,null]"));
  // A run with seeds: the band chart and its table, the worst gap per seed.
  SimResults r;
  r.requests.push_back(staged(0, 0, 1, 2, 3, 100, {2, 4, 6}, {1, 2, 1}));
  RunView v{"efa", &r, bench_summary(r)};
  v.seeds = Json::parse(R"({"metrics":{"p99_itl_ms":{"p05":1,"p50":2,"p95":3,"min":0.5,"max":4}},
    "worst_gap":{"by_seed":[{"seed":1,"max_itl_ms":4,"mechanism":"gc_pause",
    "mechanism_added_ms":1.5,"share_of_excess":0.75,"term":"host"}]}})");
  const ReportDoc d = run_report_doc({v});
  const std::string md = render_markdown(d);
  EXPECT_NE(md.find("| efa | p99_itl_ms | 2000.00 | 1 | 2 | 3 | 0.50 | 4 |"), std::string::npos)
      << md;
  EXPECT_NE(md.find("| efa | 1 | 4 | gc_pause | 1.50 | 0.750 | host |"), std::string::npos) << md;
  bool band = false;
  for (const auto& ch : d.charts) band |= ch.id == "seed-spread";
  EXPECT_TRUE(band);
}

TEST(ReportsSweepSlo, CapacityCheapestAndLines) {
  // A point whose search met the SLOs up to 0.8 req/s (achieving 0.75 there) and failed at 1.6.
  const Json line = Json::parse(R"({"sweep":"s","point":2,"id":"h2","status":"ok","reason":"",
    "gpus":32,"overrides":{"prefill.instances":2},"summary":{},
    "slo":{"bracket_limited":false,"max_request_rate":0.8,"min_failing_rate":1.6,"meets":true,
      "evaluations":[{"request_rate":1.6,"achieved_request_rate":1.1,"meets":false,
                      "violations":["mean_tpot_ms 31 > 20"]},
                     {"request_rate":0.8,"achieved_request_rate":0.75,"meets":true,
                      "violations":[]}]}})");
  const auto pts = parse_sweep_points({line}, "s.jsonl");
  const ReportTable cap = capacity_table(pts);
  ASSERT_EQ(cap.rows.size(), 1u);
  EXPECT_EQ(cap.rows[0][1], "prefill.instances=2");
  EXPECT_EQ(cap.rows[0][3], 0.8);
  EXPECT_EQ(cap.rows[0][4], 0.75);  // the rate reached at the SLO capacity, not the one asked
  EXPECT_EQ(cap.rows[0][5], 1.6);
  EXPECT_EQ(cap.rows[0][6], "mean_tpot_ms 31 > 20");
  // The cheapest configuration with its flags, one row per line of the SGLang text.
  const Json analysis = Json::parse(R"({"slo":{"mean_tpot_ms":20},"cost_basis":"GPU count",
    "cheapest":{"point":2,"overrides":{"prefill.instances":2},"gpus":32,"max_request_rate":0.8,
    "sglang_text":"prefill: --tp-size 8\ndecode: --tp-size 16\n"}})");
  const auto ch = cheapest_tables(analysis);
  ASSERT_EQ(ch.size(), 2u);
  EXPECT_EQ(ch[1].rows,
            (std::vector<std::vector<Json>>{{"prefill: --tp-size 8"}, {"decode: --tp-size 16"}}));
  EXPECT_TRUE(cheapest_tables(Json(nullptr)).empty());
  // The TPOT SLO as a line across the rates.
  Json chart = {{"data", {{"datasets", Json::array()}}}};
  add_slo_lines(chart, analysis["slo"], "tpot", 0.1, 3.2);
  ASSERT_EQ(chart["data"]["datasets"].size(), 1u);
  EXPECT_EQ(chart["data"]["datasets"][0]["data"],
            Json::parse(R"([{"x":0.1,"y":20},{"x":3.2,"y":20}])"));
}

}  // namespace sections_test
}  // namespace pdsim
