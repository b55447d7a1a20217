// Report sections added for engineers: the tail to the worst sample, the run's state over time
// from its records, fixed colours, and intervals as bands; values computed by hand.
#include <gtest/gtest.h>

#include "reports/html_charts.hpp"
#include "reports/html_report.hpp"
#include "reports/html_series.hpp"
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

}  // namespace sections_test
}  // namespace pdsim
