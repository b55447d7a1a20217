// HTML/Markdown/CSV reports: the numbers behind each chart (ITL CDF points, percentiles, KV
// spans, breakdown, Pareto frontier) hand-computed on reports_fixture.hpp and on hand-made sweep
// lines; exact Markdown and CSV text; the page is self-contained and script-safe.
#include <gtest/gtest.h>

#include <filesystem>

#include "reports/html_charts.hpp"
#include "reports/html_report.hpp"
#include "reports/html_series.hpp"
#include "reports_fixture.hpp"
#include "sim/core/atomic_file.hpp"
#include "sim/core/error.hpp"
#include "sim/serve/entities/bench_metrics.hpp"

namespace pdsim {
namespace {

using testing_fixture::hand_results;

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

// Fixture ITL samples (ms): r0 gaps 125, 250, 375; r2 gaps 500, 250; r3 never completed.
TEST(ReportsHtmlSeries, PooledItlAndCdf) {
  const SimResults r = hand_results();
  EXPECT_EQ(pooled_itl_ms(r), (std::vector<double>{125, 250, 375, 500, 250}));
  // Sorted 125 250 250 375 500: F = i/5 at each sample, the two 250s merged at 3/5.
  auto c = ecdf(pooled_itl_ms(r), 1000);
  ASSERT_EQ(c.size(), 4u);
  EXPECT_EQ(c[0].x, 125);
  EXPECT_EQ(c[0].fraction, 0.2);
  EXPECT_EQ(c[1].x, 250);
  EXPECT_EQ(c[1].fraction, 0.6);
  EXPECT_EQ(c[2].x, 375);
  EXPECT_EQ(c[2].fraction, 0.8);
  EXPECT_EQ(c[3].x, 500);
  EXPECT_EQ(c[3].fraction, 1.0);
  // At most 3 points: ranks ceil(5/3)=2, ceil(10/3)=4, 5 → (250, .4), (375, .8), (500, 1).
  c = ecdf(pooled_itl_ms(r), 3);
  ASSERT_EQ(c.size(), 3u);
  EXPECT_EQ(c[0].x, 250);
  EXPECT_EQ(c[0].fraction, 0.4);
  EXPECT_EQ(c[1].x, 375);
  EXPECT_EQ(c[2].x, 500);
  EXPECT_EQ(c[2].fraction, 1.0);
  EXPECT_TRUE(ecdf({}, 10).empty());
}

TEST(ReportsHtmlSeries, KvSpansAndConcurrency) {
  const SimResults r = hand_results();
  const auto s = kv_spans(r);  // only r2 recorded a transfer: 1.25 → 1.375 s
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].request_id, 2);
  EXPECT_EQ(s[0].start_s, 1.25);
  EXPECT_EQ(s[0].end_s, 1.375);
  EXPECT_EQ(max_concurrent(s), 1);
  // [0,1) [0.5,2) [1,3): at t=1 one ends as one starts → at most 2 at once.
  EXPECT_EQ(max_concurrent({{0, 0, 1}, {1, 0.5, 2}, {2, 1, 3}}), 2);
  EXPECT_EQ(max_concurrent({{0, 0, 1}, {1, 0, 1}, {2, 0.5, 0.75}}), 3);
  EXPECT_EQ(max_concurrent({}), 0);
}

Json point(int i, const std::string& status, double tpot, double out_tps, double rate,
           const std::string& cfg) {
  Json p = {{"sweep", "hand"},
            {"point", i},
            {"id", "p" + std::to_string(i)},
            {"status", status},
            {"reason", status == "ok" ? "" : "does not fit"},
            {"gpus", 32},
            {"overrides", {{"workload.request_rate", rate}, {"decode.nodes_per_instance", cfg}}}};
  if (status == "ok")
    p["summary"] = {
        {"mean_ttft_ms", 1000 + rate * 100},
        {"p99_ttft_ms", 2000 + rate * 100},
        {"mean_tpot_ms", tpot},
        {"p99_tpot_ms", tpot * 2},
        {"p99_itl_ms", tpot * 3},
        {"request_throughput", rate},
        {"output_throughput", out_tps},
        {"pdsim", {{"forward_breakdown_us", {{"attention", 100.0}, {"dispatch", tpot}}}}}};
  else
    p["summary"] = nullptr;
  p["slo"] = {{"meets", status == "ok" && tpot < 30}};
  return p;
}

// Throughput per GPU = output_throughput / 32:
//   p0 (20 ms, 50) p1 (25, 75) p2 (30, 60: dominated by p1) p3 (20, 40: dominated by p0)
//   p4 infeasible, p5 (40, 100), p6 error → frontier p0, p1, p5.
std::vector<Json> hand_sweep() {
  return {point(0, "ok", 20, 1600, 0.5, "2"),     point(1, "ok", 25, 2400, 1.0, "2"),
          point(2, "ok", 30, 1920, 0.5, "4"),     point(3, "ok", 20, 1280, 1.0, "4"),
          point(4, "infeasible", 0, 0, 2.0, "1"), point(5, "ok", 40, 3200, 2.0, "2"),
          point(6, "error", 0, 0, 2.0, "4")};
}

TEST(ReportsHtmlSweep, ParetoFrontierAndRateSeries) {
  const auto pts = parse_sweep_points(hand_sweep(), "hand.jsonl");
  ASSERT_EQ(pts.size(), 7u);
  EXPECT_EQ(*pts[1].rate, 1.0);
  EXPECT_EQ(pts[1].config, "decode.nodes_per_instance=2");
  EXPECT_EQ(*pts[1].throughput_per_gpu(), 75.0);
  EXPECT_EQ(pareto_frontier(pts), (std::vector<size_t>{0, 1, 5}));
  // TTFT against rate for config "=2": rates 0.5, 1, 2 → mean TTFT 1050, 1100, 1200.
  const Json c = vs_rate_chart(pts, "ttft", "TTFT (ms)");
  const Json& ds = c["data"]["datasets"];
  ASSERT_EQ(ds.size(), 4u);  // two configs × (mean, p99)
  EXPECT_EQ(ds[0]["label"], "nodes_per_instance=2 (mean)");
  EXPECT_EQ(ds[1]["pdsimNoLegend"], true);
  EXPECT_EQ(ds[0]["data"],
            Json::parse(R"([{"x":0.5,"y":1050.0},{"x":1.0,"y":1100.0},{"x":2.0,"y":1200.0}])"));
  EXPECT_EQ(ds[1]["data"][0]["y"], 2050.0);
  EXPECT_EQ(ds[3]["data"], Json::parse(R"([{"x":0.5,"y":2050.0},{"x":1.0,"y":2100.0}])"));
  const Json pc = pareto_chart(pts, pareto_frontier(pts));
  EXPECT_EQ(pc["data"]["datasets"][0]["data"],
            Json::parse(R"([{"x":20.0,"y":50.0},{"x":25.0,"y":75.0},{"x":40.0,"y":100.0}])"));
  EXPECT_EQ(pc["data"]["datasets"][1]["data"].size(), 5u);
}

TEST(ReportsHtmlSweep, MarkdownCsvAndErrors) {
  const ReportDoc d = sweep_report_doc(hand_sweep(), "hand.jsonl");
  EXPECT_EQ(d.title, "pdsim sweep: hand");
  EXPECT_EQ(sweep_report_doc(hand_sweep(), "hand.jsonl", "glm51-what-ifs").title,
            "pdsim sweep: glm51-what-ifs");
  EXPECT_EQ(d.subtitle, "7 points, 5 ok, 2 infeasible or failed; 3 on the Pareto frontier.");
  const std::string md = render_markdown(d);
  // Points by their index in the sweep (the hash id last).
  EXPECT_TRUE(
      contains(md, "| 1 | decode.nodes_per_instance=2 | 1.000 | 25.00 | 75.00 | n/a | p1 |\n"))
      << md;
  // A line that says where it stands: the envelope column names what differs.
  std::vector<Json> located = hand_sweep();
  located[0]["envelope"] = {{"inside", false}, {"differs", {"model", "concurrency"}}};
  located[1]["envelope"] = {{"inside", true}, {"differs", Json::array()}};
  const std::string lmd = render_markdown(sweep_report_doc(located, "hand.jsonl"));
  EXPECT_TRUE(contains(lmd, "| 20.00 | 50.00 | outside: model, concurrency | p0 |\n")) << lmd;
  EXPECT_TRUE(contains(lmd, "| 25.00 | 75.00 | inside | p1 |\n")) << lmd;
  EXPECT_TRUE(contains(md, "| 4 | infeasible | decode.nodes_per_instance=1 | 2.000 | 32 | n/a |"))
      << md;
  const std::string csv = render_csv(d);
  EXPECT_TRUE(contains(csv, "table,row,column,value\npareto_frontier,0,point,0\n")) << csv;
  EXPECT_TRUE(contains(csv, "sweep_points,1,output tok/s per GPU,75.0\n")) << csv;
  EXPECT_TRUE(contains(csv, "sweep_points,2,slo.meets,false\n")) << csv;
  EXPECT_TRUE(contains(csv, "sweep_points,4,reason,does not fit\n")) << csv;
  // Breakdown bars for the frontier points that carry one.
  ASSERT_EQ(d.charts.size(), 4u);
  EXPECT_EQ(d.charts[3].config["data"]["labels"],
            Json::parse(R"(["point 0: nodes_per_instance=2 at 0.5 req/s",
                            "point 1: nodes_per_instance=2 at 1 req/s",
                            "point 5: nodes_per_instance=2 at 2 req/s"])"));
  // Without an analysis: no SLO lines, no capacity or cheapest tables.
  EXPECT_FALSE(contains(md, "Cheapest")) << md;

  auto err = [](std::vector<Json> lines) -> std::string {
    try {
      sweep_report_doc(lines, "s.jsonl");
    } catch (const InputError& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_TRUE(contains(err({Json{{"status", "done"}}}), "s.jsonl line 1"))
      << err({Json{{"status", "done"}}});
  auto bad = hand_sweep();
  bad[2]["overrides"] = 3;
  EXPECT_TRUE(contains(err(bad), "s.jsonl line 3: field 'overrides'")) << err(bad);
  bad = hand_sweep();
  bad[1].erase("gpus");
  EXPECT_TRUE(contains(err(bad), "line 2")) << err(bad);
}

TEST(ReportsHtmlRun, TablesOfOneRun) {
  const SimResults r = hand_results();
  const ReportDoc d = run_report_doc({{"hand", &r, bench_summary(r)}});
  const std::string md = render_markdown(d);
  // np.percentile (linear) of 125 250 250 375 500: p90 = 375 + 0.6·125 = 450, p99 = 495,
  // p99.9 = 499.5, max 500.
  EXPECT_TRUE(contains(md, "| hand | 5 | 250.000 | 450.000 | 495.000 | 499.500 | 500.000 |\n"))
      << md;
  // Breakdown: fixture terms, largest first, and their total 1600 µs.
  EXPECT_TRUE(contains(md,
                       "| moe_compute | 500.00 |\n| dispatch | 400.00 |\n| combine | 350.00 |\n"
                       "| attention | 300.00 |\n| other | 50.00 |\n| total | 1600.00 |\n"))
      << md;
  // One KV transfer of 125 ms.
  EXPECT_TRUE(contains(md, "| hand | 1 | 125.000 | 125.000 | 125.000 | 125.000 | 1 |\n")) << md;
  const std::string csv = render_csv(d);
  EXPECT_TRUE(contains(csv, "itl_percentiles,0,samples,5\nitl_percentiles,0,p50,250.0\n")) << csv;
  EXPECT_TRUE(contains(csv, "forward_breakdown,5,term,total\nforward_breakdown,5,hand,1600.0\n"))
      << csv;
  // Charts: CDF points, stacked bar values in term order, the KV segment; then the three time
  // series (no tail attribution: the fixture's summary has no tail block).
  ASSERT_EQ(d.charts.size(), 8u);
  EXPECT_EQ(d.charts[5].id, "decode-batch");
  EXPECT_EQ(d.charts[4].config["data"]["datasets"][0]["data"],
            Json::parse(R"([{"x":1.25,"y":125.0}])"));
  EXPECT_EQ(
      d.charts[0].config["data"]["datasets"][0]["data"],
      Json::parse(
          R"([{"x":125.0,"y":0.2},{"x":250.0,"y":0.6},{"x":375.0,"y":0.8},{"x":500.0,"y":1.0}])"));
  // Tail: fraction of samples ≥ x, the two 250s counted together, down to the maximum at 1/5.
  EXPECT_EQ(
      d.charts[1].config["data"]["datasets"][0]["data"],
      Json::parse(
          R"([{"x":125.0,"y":1.0},{"x":250.0,"y":0.8},{"x":375.0,"y":0.4},{"x":500.0,"y":0.2}])"));
  EXPECT_EQ(d.charts[1].config["options"]["scales"]["y"]["min"], 0.1);  // the decade below 1/5
  EXPECT_EQ(d.charts[2].config["data"]["datasets"][0]["label"], "moe_compute");
  EXPECT_EQ(d.charts[2].config["data"]["datasets"][0]["data"], Json::array({500.0}));
  EXPECT_EQ(d.charts[3].config["data"]["datasets"][0]["data"],
            Json::parse(R"([{"x":1.25,"y":2},{"x":1.375,"y":2},{"x":1.375,"y":null}])"));
}

TEST(ReportsHtmlRun, CompareDeltas) {
  SimResults a = hand_results(), b = hand_results();
  b.scenario_name = "roce";
  b.extras["forward_breakdown_us"]["dispatch"] = 100.0;  // 300 µs less per forward
  const ReportDoc d =
      run_report_doc({{"efa", &a, bench_summary(a)}, {"roce", &b, bench_summary(b)}});
  EXPECT_EQ(d.title, "pdsim compare: efa vs roce");
  const std::string md = render_markdown(d);
  EXPECT_TRUE(contains(md, "| metric | efa | roce | delta (B - A) |")) << md;
  EXPECT_TRUE(contains(md, "| dispatch | 400.00 | 100.00 |\n")) << md;
  EXPECT_TRUE(contains(md, "| total | 1600.00 | 1300.00 |\n")) << md;
  EXPECT_TRUE(contains(md, "| mean TTFT (ms) | 1166.67 | 1166.67 | 0.00 |\n")) << md;
  EXPECT_EQ(d.charts[0].config["data"]["datasets"].size(), 2u);
  // KV segments of the two runs drawn 0.35 apart around the request id.
  EXPECT_EQ(d.charts[3].config["data"]["datasets"][0]["data"][0]["y"], 2 - 0.175);
  EXPECT_EQ(d.charts[3].config["data"]["datasets"][1]["data"][0]["y"], 2 + 0.175);
}

TEST(ReportsHtmlPage, SelfContainedAndScriptSafe) {
  ReportDoc d;
  d.title = "t <b>";
  d.charts.push_back(
      {"c1", "chart", "",
       Json{{"type", "line"}, {"data", {{"datasets", {{{"label", "</script><i>"}}}}}}}});
  d.tables.push_back({"t1",
                      "Table",
                      {"a", "b"},
                      {-1, 2},
                      {{Json("x|y"), Json(1.0 / 3)}, {Json(nullptr), Json(2)}}});
  const std::string page = render_html(d, "/* lib */ window.Chart = function(){};");
  EXPECT_TRUE(contains(page, "<title>t &lt;b&gt;</title>"));
  EXPECT_TRUE(contains(page, "<canvas id=\"c1\"></canvas>"));
  EXPECT_TRUE(contains(page, "/* lib */ window.Chart"));
  EXPECT_TRUE(contains(page, "<\\/script><i>"));  // the label cannot close the data block
  size_t closes = 0;
  for (size_t p = page.find("</script>"); p != std::string::npos; p = page.find("</script>", p + 1))
    ++closes;
  EXPECT_EQ(closes, 3u);  // library, data, page script
  EXPECT_FALSE(contains(page, "src=\"http"));
  EXPECT_TRUE(contains(page, "<td>x|y</td><td class=\"n\">0.33</td>"));
  EXPECT_EQ(render_markdown(d),
            "# t <b>\n\n## Table\n\n| a | b |\n|---|---:|\n| x\\|y | 0.33 |\n| n/a | 2 |\n\n");
  EXPECT_EQ(render_csv(d),
            "table,row,column,value\nt1,0,a,x|y\nt1,0,b,0.3333333333333333\nt1,1,a,\nt1,1,b,2\n");
}

TEST(ReportsHtmlPage, WritesByExtension) {
  const std::string dir = ::testing::TempDir() + "/pdsim_html_report";
  std::filesystem::remove_all(dir);
  const SimResults r = hand_results();
  const Json s = bench_summary(r);
  write_run_report(dir + "/r.html", {r.scenario_name, &r, s});
  write_run_report(dir + "/r.md", {r.scenario_name, &r, s});
  write_run_report(dir + "/r.csv", {r.scenario_name, &r, s});
  const std::string html = read_file(dir + "/r.html");
  EXPECT_TRUE(contains(html, "Chart.js v4.5.1"));  // the vendored library, inlined
  EXPECT_TRUE(contains(html, "<canvas id=\"itl-cdf\">"));
  EXPECT_EQ(read_file(dir + "/r.md"), render_markdown(run_report_doc({{"hand", &r, s}})));
  EXPECT_EQ(read_file(dir + "/r.csv"), render_csv(run_report_doc({{"hand", &r, s}})));
  write_run_report(dir + "/r2.html", {r.scenario_name, &r, s});
  EXPECT_EQ(read_file(dir + "/r2.html"), html);  // deterministic
  EXPECT_THROW(write_run_report(dir + "/r.pdf", {r.scenario_name, &r, s}), InputError);
  write_sweep_report(hand_sweep(), dir + "/s.html");
  EXPECT_TRUE(contains(read_file(dir + "/s.html"), "<canvas id=\"pareto\">"));
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace pdsim
