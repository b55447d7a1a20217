// KV over Mooncake's TCP transport (sim/serve/cost/kv_engine.hpp, models/kv_transport.hpp): the
// catalog entry, the bytes one rank sends, and the transfer time through the engine link with
// each sharing rule, against hand-computed values.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "models/kv_transport.hpp"
#include "sim/serve/cost/kv_engine.hpp"
#include "test_support.hpp"

namespace pdsim {
namespace kv_tcp_test {

std::string dsr1() {
  return data_root() + "/scenarios/dsr1/dsr1-2p2d-p5en-deepep.json";
}

// Two 1024-token prompts released together, one output token each, KV over TCP.
std::vector<std::string> tcp_sets(const std::string& transport) {
  return {"prefill.kv_protocol=tcp",    "prefill.kv_tcp_transport=" + transport,
          "workload.input_len=1024",    "workload.output_len=1",
          "workload.range_ratio=1",     "workload.num_prompts=2",
          "workload.max_concurrency=2", "workload.request_rate=inf"};
}

// DeepSeek-R1's MLA latent: (512 + 64) bf16 values = 1152 bytes per token per layer, 61 layers,
// replicated on every attention-TP rank, so each rank sends all of it: 1024 × 61 × 1152.
constexpr double kRankBytes = 1024.0 * 61 * 1152;  // 71 958 528
constexpr double kAlphaS = 10e-6;                  // efa-p5en's rdma_alpha_us on the route

std::string write_copy(const std::string& sharing) {
  Json doc =
      JsonNode::load_file(data_root() + "/models/catalog/kv_transport/mooncake-tcp.json").raw();
  doc["sharing"] = sharing;
  const std::string path =
      (std::filesystem::temp_directory_path() / ("pdsim-kv-tcp-" + sharing + ".json")).string();
  std::ofstream(path) << doc.dump();
  return path;
}

TEST(KvTcp, CatalogEntryAsPublished) {
  const KvTransport k = load_kv_transport("mooncake-tcp");
  EXPECT_EQ(k.protocol, "tcp");
  EXPECT_DOUBLE_EQ(k.rate_GBps, 0.26);  // Mooncake issue #6
  EXPECT_DOUBLE_EQ(k.rate_low_GBps, 0.2);
  EXPECT_DOUBLE_EQ(k.rate_high_GBps, 0.5);
  EXPECT_EQ(k.sharing, "per_transfer");
  EXPECT_EQ(k.failed_above_concurrency, 48);
}

TEST(KvTcp, BadCatalogNamesTheField) {
  Json doc =
      JsonNode::load_file(data_root() + "/models/catalog/kv_transport/mooncake-tcp.json").raw();
  const std::string path =
      (std::filesystem::temp_directory_path() / "pdsim-kv-tcp-bad.json").string();
  auto error_with = [&](const char* key, Json v) {
    Json d = doc;
    d[key] = std::move(v);
    std::ofstream(path) << d.dump();
    return testing::input_error_of([&] { load_kv_transport(path); });
  };
  const std::string sharing = error_with("sharing", "shared");
  EXPECT_NE(sharing.find(path), std::string::npos) << sharing;
  EXPECT_NE(sharing.find("sharing"), std::string::npos) << sharing;
  EXPECT_NE(error_with("rate_range_GBps", Json::array({0.3, 0.2})).find("rate_range_GBps"),
            std::string::npos);
  EXPECT_NE(error_with("rate_range_GBps", Json::array({0.2, 5000})).find("1000"),
            std::string::npos);
  EXPECT_NE(error_with("protocol", "rdma").find("protocol"), std::string::npos);
  EXPECT_NE(error_with("rate_GBps", 0).find("rate_GBps"), std::string::npos);
}

TEST(KvTcp, OneRankSendsTheWholeLatent) {
  const Deployment d = build_deployment(load_scenario(dsr1(), tcp_sets("mooncake-tcp")));
  EXPECT_DOUBLE_EQ(kv_request_bytes(d, 1024), kRankBytes);
  const KvEngine e = kv_engine(d);
  EXPECT_DOUBLE_EQ(e.rate_Bps, 0.26e9);
  EXPECT_FALSE(e.shared);
  EXPECT_FALSE(e.on_rdma_nics);
  // Over RDMA the flow is the request's KV once (the same bytes for MLA) at the fabric's rate.
  const Deployment r = build_deployment(load_scenario(dsr1(), {"prefill.kv_protocol=rdma"}));
  EXPECT_DOUBLE_EQ(kv_request_bytes(r, 1024), kRankBytes);
  EXPECT_FALSE(r.kv_tcp);
  EXPECT_TRUE(kv_engine(r).on_rdma_nics);
}

TEST(KvTcp, TransferTimeIsBytesOverTheRate) {
  // per_transfer: each of the two concurrent transfers at the full 0.26 GB/s.
  {
    Scenario s = load_scenario(dsr1(), tcp_sets("mooncake-tcp"));
    const SimResults r = simulate_isolated(build_deployment(s), s.seed);
    ASSERT_EQ(r.requests.size(), 2u);
    for (const auto& q : r.requests)
      EXPECT_NEAR(q.kv_end_s - q.kv_start_s, kRankBytes / 0.26e9 + kAlphaS, 1e-6) << q.id;
  }
  // per_rank: transfers in flight share the engine. The second starts Δ after the first (the
  // prefill runs the two prompts one after the other): the first runs alone for Δ, then both at
  // half the rate until the first ends, then the second alone; both take 2T − Δ, T = bytes/rate.
  {
    Scenario s = load_scenario(dsr1(), tcp_sets(write_copy("per_rank")));
    const SimResults r = simulate_isolated(build_deployment(s), s.seed);
    ASSERT_EQ(r.requests.size(), 2u);
    const double delta = std::abs(r.requests[1].kv_start_s - r.requests[0].kv_start_s);
    const double T = kRankBytes / 0.26e9;
    ASSERT_GT(delta, 0.0);
    ASSERT_LT(delta, T);  // they overlap
    for (const auto& q : r.requests)
      EXPECT_NEAR(q.kv_end_s - q.kv_start_s, 2 * T - delta + kAlphaS, 1e-6) << q.id;
  }
}

TEST(KvTcp, SummarySaysWhenTheRunLeavesWhatWasMeasured) {
  auto outside = [](int conc) {
    std::vector<std::string> sets = tcp_sets("mooncake-tcp");
    sets.push_back("workload.max_concurrency=" + std::to_string(conc));
    return kv_tcp_summary(build_deployment(load_scenario(dsr1(), sets))).at("outside_measured");
  };
  EXPECT_TRUE(outside(48).is_null());
  const Json o = outside(49);
  ASSERT_TRUE(o.is_string());
  EXPECT_NE(o.get<std::string>().find("above 48"), std::string::npos) << o;
  EXPECT_TRUE(kv_tcp_summary(build_deployment(load_scenario(dsr1()))).is_null());
}

TEST(KvTcp, OnlyMooncakeHasATcpModel) {
  std::vector<std::string> sets = tcp_sets("mooncake-tcp");
  sets.push_back("prefill.kv_transfer_backend=nixl");
  const std::string e =
      testing::input_error_of([&] { build_deployment(load_scenario(dsr1(), sets)); });
  EXPECT_NE(e.find("prefill.kv_protocol"), std::string::npos) << e;
}

}  // namespace kv_tcp_test
}  // namespace pdsim
