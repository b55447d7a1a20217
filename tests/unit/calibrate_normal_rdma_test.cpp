// Cross-node normal-mode rates of a backend from measurement files (calibrate/normal_rdma_rows):
// a phase latency at a known shape becomes RDMA bytes per rank / latency, by hand.
#include <gtest/gtest.h>

#include "calibrate/normal_rdma_rows.hpp"

namespace pdsim {
namespace normal_rdma_rows_test {

JsonNode doc(const Json& j) {
  return JsonNode::from_json(j, "m.json");
}

TEST(CalibrateNormalRdma, PhaseLatencyBecomesARateByHand) {
  const Json params = {{"hidden", 7168},          {"top_k", 8},       {"num_experts", 256},
                       {"gpus_per_node", 8},      {"mode", "normal"}, {"tokens_per_rank", 4096},
                       {"dispatch_dtype", "bf16"}};
  const Json rows = Json::array(
      {{{"ep", 8}, {"phase", "dispatch"}, {"backend", "b"}, {"mode", "normal"}, {"latency_us", 50}},
       {{"ep", 16},
        {"phase", "dispatch"},
        {"backend", "b"},
        {"mode", "normal"},
        {"latency_us", 1000}},
       {{"ep", 16},
        {"phase", "combine"},
        {"backend", "b"},
        {"mode", "normal"},
        {"latency_us", 2000}},
       {{"ep", 16},
        {"phase", "combine"},
        {"backend", "other"},
        {"mode", "normal"},
        {"latency_us", 1}}});
  const Json m = {{"schema", "pdsim.measurement/1"},
                  {"probe", "a2a_phase"},
                  {"parameters", params},
                  {"results", rows}};
  Json report;
  const Json s = normal_rdma_settings("b", {doc(m)}, &report);
  // A token crosses to the other node unless all 8 experts stay home: 1 − Π (128−i)/(256−i)
  // = 0.99651006; BF16 tokens of 14336 B both ways. Dispatch 4096 × 0.99651006 × 14336 B =
  // 58 515 326 B in 1000 µs = 58.515 GB/s; combine the same bytes in 2000 µs. The EP8 row (one
  // node) and the other backend's row are not used.
  double miss = 1;
  for (int i = 0; i < 8; ++i) miss *= (128.0 - i) / (256.0 - i);
  const double bytes = 4096 * (1 - miss) * 14336;
  EXPECT_NEAR(bytes, 58515326, 1);
  EXPECT_NEAR(s.at("normal_dispatch_rdma_GBps").get<double>(), bytes / 1000 / 1e3, 1e-9);
  EXPECT_NEAR(s.at("normal_combine_rdma_GBps").get<double>(), bytes / 2000 / 1e3, 1e-9);
  EXPECT_EQ(s.at("normal_ranks").get<int>(), 16);
  EXPECT_EQ(report.size(), 2u);
  // A backend no file measured gets nothing.
  EXPECT_TRUE(normal_rdma_settings("none", {doc(m)}, nullptr).empty());
}

}  // namespace normal_rdma_rows_test
}  // namespace pdsim
