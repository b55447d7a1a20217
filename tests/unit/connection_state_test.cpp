// Connection state per library (models/connection_library, connection_count, connection_setup)
// and the deployment's connection table: every count below is worked by hand from the formula
// in the library's catalog entry (docs/research/connection-state.md), every time from the
// published figure in models/catalog/connection_setup.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "models/connection_count.hpp"
#include "models/connection_setup.hpp"
#include "sim/core/data_path.hpp"
#include "sim/core/error.hpp"
#include "sim/serve/actors/run_scenario.hpp"
#include "sim/serve/cost/connection_table.hpp"
#include "tests/unit/test_support.hpp"

namespace pdsim {
namespace {

const ConnObjectCount& kind(const ConnCounts& c, const std::string& k) {
  for (const auto& o : c.objects)
    if (o.kind == k) return o;
  throw std::runtime_error("no object " + k);
}

ConnGroup ep_group(int ranks, int nics_per_host, int experts = 256) {
  ConnGroup g;
  g.ranks = ranks;
  g.ranks_per_host = 8;
  g.nics_per_host = nics_per_host;
  g.num_experts = experts;
  return g;
}

TEST(ConnectionCount, SglangDeepepQpRule) {
  // SGLang's DeepEPBuffer: low_latency experts / group size, normal num_sms, auto the larger.
  EXPECT_EQ(deepep_num_qps_per_rank("low_latency", 256, 16, 20), 16);
  EXPECT_EQ(deepep_num_qps_per_rank("normal", 256, 16, 20), 20);
  EXPECT_EQ(deepep_num_qps_per_rank("auto", 256, 16, 20), 20);
  EXPECT_EQ(deepep_num_qps_per_rank("auto", 256, 8, 20), 32);
}

TEST(ConnectionCount, NcclChannelsPerNetPeer) {
  // ceil(GB/s / 14) rounded up to a power of two: p5en's 2 x 200 Gb/s per GPU = 50 GB/s -> 4.
  EXPECT_EQ(nccl_p2p_channels_per_peer(50, 14), 4);
  EXPECT_EQ(nccl_p2p_channels_per_peer(100, 14), 8);  // ceil(7.14) = 8
  EXPECT_EQ(nccl_p2p_channels_per_peer(12.5, 14), 1);
  EXPECT_EQ(nccl_p2p_channels_per_peer(28.1, 14), 4);  // ceil(2.007) = 3 -> 4
}

TEST(ConnectionCount, UcclEpSrdSharesQpsAcrossPeers) {
  // EP16 on 2 p5en hosts, 16 NICs each: 12 SRD QPs per GPU whatever the peers; 4 AHs (one per
  // proxy thread) per peer on another host: 4 x 8 = 32 per GPU.
  const ConnCounts c = count_connections(load_connection_library("uccl-ep-efa"), ep_group(16, 16));
  EXPECT_EQ(c.peers_per_rank, 8);
  EXPECT_DOUBLE_EQ(kind(c, "srd_qp").per_host, 96);
  EXPECT_DOUBLE_EQ(kind(c, "srd_qp").per_nic, 6);
  EXPECT_DOUBLE_EQ(kind(c, "address_handle").per_rank, 32);
  EXPECT_DOUBLE_EQ(kind(c, "address_handle").per_host, 256);
  EXPECT_DOUBLE_EQ(kind(c, "cq").per_host, 32);
  EXPECT_TRUE(c.memory_uncounted);
  EXPECT_DOUBLE_EQ(c.host_bytes_per_host, 0);
  // EP256 on 32 hosts: the QPs stay at 96 per host, the AHs grow: 4 x 248 x 8.
  const ConnCounts big =
      count_connections(load_connection_library("uccl-ep-efa"), ep_group(256, 16));
  EXPECT_DOUBLE_EQ(big.per_host("srd_qp"), 96);
  EXPECT_DOUBLE_EQ(big.per_host("address_handle"), 7936);
}

TEST(ConnectionCount, UcclEpRcQpsPerPeer) {
  // 4 threads x 3 QPs per peer on another host: 12 x 8 = 96 per GPU, 768 per host; memory:
  // 768 x 544 KiB + 32 CQs x 512 KiB (mlx5-rule estimates).
  const ConnCounts c = count_connections(load_connection_library("uccl-ep-rc"), ep_group(16, 8));
  EXPECT_DOUBLE_EQ(kind(c, "rc_qp").per_rank, 96);
  EXPECT_DOUBLE_EQ(c.per_host("rc_qp"), 768);
  EXPECT_DOUBLE_EQ(kind(c, "rc_qp").per_nic, 96);
  EXPECT_DOUBLE_EQ(c.host_bytes_per_host, 768.0 * 557056 + 32.0 * 524288);
  EXPECT_TRUE(c.memory_estimated);
  EXPECT_FALSE(c.memory_uncounted);
}

TEST(ConnectionCount, NvshmemIbgdaQpsToEveryOtherPe) {
  // GLM-5.1's 256 experts on EP16, low-latency: 16 QPs to each of the 15 other PEs (same host
  // included) = 240 per GPU; 2 DCT + 1 DCI; 704 KiB of GPU memory per RC QP.
  const ConnCounts c = count_connections(load_connection_library("nvshmem-ibgda"), ep_group(16, 8));
  EXPECT_EQ(c.num_qps_per_rank, 16);
  EXPECT_EQ(c.peers_per_rank, 15);
  EXPECT_DOUBLE_EQ(kind(c, "rc_qp").per_rank, 240);
  EXPECT_DOUBLE_EQ(c.per_host("rc_qp"), 1920);
  EXPECT_DOUBLE_EQ(c.per_host("dc_qp"), 24);
  EXPECT_DOUBLE_EQ(c.queue_pairs_per_host(), 1944);
  EXPECT_DOUBLE_EQ(c.gpu_bytes_per_host, 1920.0 * 720896);
  // EP256: one QP per peer, 255 peers: the count is bounded by the experts, not the ranks.
  const ConnCounts big =
      count_connections(load_connection_library("nvshmem-ibgda"), ep_group(256, 8));
  EXPECT_EQ(big.num_qps_per_rank, 1);
  EXPECT_DOUBLE_EQ(big.per_host("rc_qp"), 255 * 8);
}

TEST(ConnectionCount, NvshmemLibfabricAvHoldsEveryPe) {
  // Two endpoints per PE; two AVs of 2 addresses per PE of the job (self included): 4 x 16.
  const ConnCounts c =
      count_connections(load_connection_library("nvshmem-libfabric"), ep_group(16, 16));
  EXPECT_DOUBLE_EQ(c.per_host("fi_endpoint"), 16);
  EXPECT_DOUBLE_EQ(kind(c, "av_entry").per_rank, 64);
  EXPECT_DOUBLE_EQ(c.per_host("av_entry"), 512);
}

TEST(ConnectionCount, PplxGardenEndpointPerNicAvEntryPerPeerNic) {
  // EP64 on p5en (8 GPUs, 16 EFA NICs: 2 per rank). Per rank: one RDM endpoint and one CQ per
  // NIC = 2 each; one AV entry per (peer, NIC) over all 63 other ranks = 126. Per host x8, per
  // NIC / 16.
  const ConnCounts efa =
      count_connections(load_connection_library("pplx-garden-efa"), ep_group(64, 16));
  EXPECT_EQ(efa.peers_per_rank, 63);
  EXPECT_DOUBLE_EQ(kind(efa, "fi_endpoint").per_rank, 2);
  EXPECT_DOUBLE_EQ(kind(efa, "cq").per_host, 16);
  EXPECT_DOUBLE_EQ(kind(efa, "av_entry").per_rank, 126);
  EXPECT_DOUBLE_EQ(kind(efa, "av_entry").per_host, 1008);
  EXPECT_DOUBLE_EQ(kind(efa, "av_entry").per_nic, 63);
  // Over verbs (8 NICs, 1 per rank): a message QP and an RMA QP per peer = 126 RC QPs per rank,
  // 1008 per host.
  const ConnCounts rc =
      count_connections(load_connection_library("pplx-garden-rc"), ep_group(64, 8));
  EXPECT_DOUBLE_EQ(kind(rc, "rc_qp").per_rank, 126);
  EXPECT_DOUBLE_EQ(rc.queue_pairs_per_host(), 1008);
}

TEST(ConnectionCount, NixlAgentsOpenEveryNicOfTheirHost) {
  // Prefill of 2 p5en hosts (16 ranks, 16 EFA NICs each) sending to 16 decode ranks: every NIXL
  // agent opens all 16 NICs of its host (16 endpoints and CQs per rank, x8 agents = 128 per host)
  // and inserts 16 x 16 = 256 AV entries per peer agent: 16 peers x 256 = 4096 per rank.
  ConnGroup g;
  g.ranks = 16;
  g.ranks_per_host = 8;
  g.nics_per_host = 16;
  g.peer_ranks = 16;
  g.peer_nics_per_rank = 2;
  g.peer_nics_per_host = 16;
  const ConnCounts c = count_connections(load_connection_library("nixl-libfabric"), g);
  EXPECT_DOUBLE_EQ(kind(c, "fi_endpoint").per_rank, 16);
  EXPECT_DOUBLE_EQ(kind(c, "fi_endpoint").per_host, 128);
  EXPECT_DOUBLE_EQ(kind(c, "fi_endpoint").per_nic, 8);  // one from each of the 8 agents
  EXPECT_DOUBLE_EQ(kind(c, "av_entry").per_rank, 4096);
  EXPECT_DOUBLE_EQ(kind(c, "av_entry").per_host, 32768);
}

TEST(ConnectionCount, MooncakeEndpointsPerNicPair) {
  // RDMA on ConnectX (one NIC per GPU): each prefill rank talks to 16 decode ranks through one
  // NIC pair each, an endpoint of 2 RC QPs: 32 per rank, 256 per host, 32 per NIC.
  ConnGroup g = ep_group(16, 8);
  g.peer_ranks = 16;
  g.peer_nics_per_rank = 1;
  const ConnCounts rc = count_connections(load_connection_library("mooncake-rdma"), g);
  EXPECT_DOUBLE_EQ(rc.per_host("rc_qp"), 256);
  EXPECT_DOUBLE_EQ(kind(rc, "rc_qp").per_nic, 32);
  EXPECT_DOUBLE_EQ(rc.per_host("cq"), 8);
  EXPECT_DOUBLE_EQ(rc.host_bytes_per_host, 256.0 * 147456 + 8.0 * 524288);
  // EFA on p5en (2 NICs per GPU at both ends): one shared endpoint per NIC and an AV entry per
  // NIC pair: 16 peers x 2 x 2 = 64 per rank.
  g.nics_per_host = 16;
  g.peer_nics_per_rank = 2;
  const ConnCounts efa = count_connections(load_connection_library("mooncake-efa"), g);
  EXPECT_DOUBLE_EQ(efa.per_host("fi_endpoint"), 16);
  EXPECT_DOUBLE_EQ(kind(efa, "av_entry").per_rank, 64);
  EXPECT_DOUBLE_EQ(efa.per_host("av_entry"), 512);
  EXPECT_DOUBLE_EQ(efa.queue_pairs_per_host(), 0);
}

TEST(ConnectionCount, NcclPipelineNeighbour) {
  // One neighbouring stage, 4 channels per peer: nccl-ib 4 QPs per GPU; aws-ofi-nccl on 2 rails:
  // 2 endpoints per rail, AV entries 2 (data + control) x 4 channels x 1 peer x 2 rails.
  ConnGroup g = ep_group(16, 16);
  g.peer_ranks = 1;
  g.rank_nic_GBps = 50;
  const ConnCounts ofi = count_connections(load_connection_library("aws-ofi-nccl"), g);
  EXPECT_EQ(ofi.channels_per_peer, 4);
  EXPECT_DOUBLE_EQ(kind(ofi, "fi_endpoint").per_rank, 4);
  EXPECT_DOUBLE_EQ(kind(ofi, "av_entry").per_rank, 16);
  g.nics_per_host = 8;
  const ConnCounts ib = count_connections(load_connection_library("nccl-ib"), g);
  EXPECT_DOUBLE_EQ(kind(ib, "rc_qp").per_rank, 4);
  EXPECT_DOUBLE_EQ(ib.per_host("rc_qp"), 32);
}

TEST(ConnectionSetup, ColdStartAndJoinFromPublishedFigures) {
  // NVSHMEM IBGDA, EP16 on ConnectX: 240 RC QPs per rank x 890 us (rdma-core cmtime) = 213.6 ms,
  // a lower bound (no figure for DC QPs); a join rebuilds them and adds 16 QPs to each of the
  // 8 new ranks: 213.6 + 8 x 16 x 0.89 = 327.52 ms.
  const ConnectionLibrary lib = load_connection_library("nvshmem-ibgda");
  const ConnGroup g = ep_group(16, 8);
  const ConnCounts c = count_connections(lib, g);
  const ConnSetupTimes t = setup_times(lib, c, g, load_connection_setup("roce"), 8);
  EXPECT_NEAR(t.cold_start_us, 213600, 1e-6);
  EXPECT_FALSE(t.cold_known);
  ASSERT_EQ(t.unknown_kinds.size(), 1u);
  EXPECT_EQ(t.unknown_kinds[0], "dc_qp");
  EXPECT_NEAR(t.join_us, 213600 + 8 * 16 * 890.0, 1e-6);
  EXPECT_DOUBLE_EQ(t.join_objects_per_host, 1944 + 8 * 16 * 8);
  // Mooncake on EFA: lazy, nothing at init; a new peer rank costs 2 x 2 NIC pairs x 4.297 ms
  // (Mooncake's 1.1 s warm-up of 256 pairs, per pair); a decode host joining: 8 such peers.
  const ConnectionLibrary mc = load_connection_library("mooncake-efa");
  ConnGroup kv = ep_group(16, 16);
  kv.peer_ranks = 16;
  kv.peer_nics_per_rank = 2;
  const ConnSetupTimes m =
      setup_times(mc, count_connections(mc, kv), kv, load_connection_setup("efa"), 8);
  EXPECT_DOUBLE_EQ(m.cold_start_us, 0);
  EXPECT_TRUE(m.peer_known);
  EXPECT_NEAR(m.peer_connect_us, 4 * 4297.0, 1e-9);
  EXPECT_NEAR(m.join_us, 8 * 4 * 4297.0, 1e-9);
  EXPECT_DOUBLE_EQ(m.join_objects_per_host, 8.0 * 4 * 8);
}

TEST(ConnectionSetup, LibraryFigureBeforeTheNics) {
  const ConnectionSetup roce = load_connection_setup("roce");
  EXPECT_DOUBLE_EQ(roce.cost("rc_qp", "mooncake-rdma")->us, 24500);
  EXPECT_DOUBLE_EQ(roce.cost("rc_qp", "nccl-ib")->us, 890);
  EXPECT_FALSE(roce.cost("dc_qp", "nvshmem-ibgda")->known);
  EXPECT_EQ(roce.cost("srd_qp", ""), nullptr);
}

TEST(ConnectionLibrary, BadEntryNamesTheField) {
  const std::string dir = ::testing::TempDir() + "/connlib";
  std::filesystem::create_directories(dir);
  const std::string f = dir + "/bad.json";
  std::ofstream(f) << R"({"schema": "pdsim.connection_library/1", "name": "x", "library": "x",
    "transport": "rc", "peers": "all_other_ranks", "objects": [{"kind": "rc_qp",
    "per": "rank_pair", "count": 1, "source": "s"}], "memory": [], "established": "eager",
    "join": "incremental", "join_source": "s", "provenance": {"source": "s"}})";
  const std::string e = testing::input_error_of([&] { load_connection_library(f); });
  EXPECT_NE(e.find("objects[0].per"), std::string::npos) << e;
  EXPECT_NE(e.find("rank_peer_nic_pair"), std::string::npos) << e;
  std::ofstream(f) << R"({"schema": "pdsim.connection_library/1", "name": "x", "library": "x",
    "transport": "rc", "peers": "all_other_ranks", "objects": [{"kind": "rc_qp",
    "per": "rank_peer", "count": "deepep_num_qps_per_rank", "source": "s"}], "memory": [],
    "established": "eager", "join": "incremental", "join_source": "s",
    "provenance": {"source": "s"}})";
  const std::string e2 = testing::input_error_of([&] { load_connection_library(f); });
  EXPECT_NE(e2.find("objects[0].count"), std::string::npos) << e2;
  EXPECT_NE(e2.find("num_sms"), std::string::npos) << e2;
}

Deployment reference(const std::string& fabric, std::vector<std::string> sets = {}) {
  return build_deployment(
      load_scenario(data_root() + "/scenarios/glm51-2p2d-" + fabric + ".json", sets));
}

TEST(ConnectionTable, ReferenceDeploymentLibraries) {
  const auto efa = connection_table(reference("efa"));
  ASSERT_EQ(efa.size(), 4u);
  EXPECT_EQ(efa[0].purpose, "decode all-to-all");
  EXPECT_EQ(efa[0].library, "uccl-ep-efa");
  EXPECT_EQ(efa[0].hosts, 2);
  EXPECT_EQ(efa[1].library, "mooncake-efa");
  EXPECT_EQ(efa[1].side, "prefill");
  EXPECT_EQ(efa[2].side, "decode");
  EXPECT_EQ(efa[3].purpose, "PP send/recv");
  EXPECT_EQ(efa[3].library, "aws-ofi-nccl");
  EXPECT_FALSE(efa[3].join_applies);
  // The KV rows: 16 peer ranks of the other role, p5en's 16 NICs shared by 8 GPUs at both ends.
  EXPECT_EQ(efa[1].counts.peers_per_rank, 16);
  EXPECT_DOUBLE_EQ(efa[1].counts.per_host("av_entry"), 512);
  const auto roce = connection_table(reference("roce"));
  EXPECT_EQ(roce[0].library, "nvshmem-ibgda");
  EXPECT_DOUBLE_EQ(roce[0].counts.per_host("rc_qp"), 1920);
  EXPECT_EQ(roce[1].library, "mooncake-rdma");
  EXPECT_EQ(roce[3].library, "nccl-ib");
  // KV over TCP: a row that says it holds no RDMA state.
  const auto tcp = connection_table(reference("efa", {"prefill.kv_protocol=tcp"}));
  EXPECT_EQ(tcp[1].library, "mooncake-tcp");
  EXPECT_FALSE(tcp[1].lib.has_value());
}

}  // namespace
}  // namespace pdsim
