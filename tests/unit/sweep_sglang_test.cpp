#include <gtest/gtest.h>

#include "sim/core/data_path.hpp"
#include "sim/import/sglang_import.hpp"
#include "sim/sweep/sglang_flags.hpp"

namespace pdsim {
namespace {

Scenario reference() {
  return load_scenario(data_root() + "/scenarios/glm51-2p2d-efa.json");
}

// The launch flags of mission.md's reference deployment, verbatim.
const std::string kMissionPrefill =
    "--tp-size 8 --pp-size 2 --nnodes 2 --chunked-prefill-size 16384 --attention-backend nsa "
    "--enable-nsa-prefill-context-parallel --nsa-prefill-cp-mode round-robin-split "
    "--moe-a2a-backend deepep --deepep-mode normal --ep-dispatch-algorithm dynamic "
    "--eplb-algorithm deepseek --moe-dense-tp-size 1 --mem-fraction-static 0.85 "
    "--max-running-requests 128 --disaggregation-mode prefill --disaggregation-transfer-backend "
    "mooncake";
const std::string kMissionDecode =
    "--tp-size 16 --dp-size 16 --nnodes 2 --enable-dp-attention --enable-dp-lm-head "
    "--moe-dense-tp-size 1 --moe-a2a-backend deepep --deepep-mode low_latency "
    "--ep-dispatch-algorithm dynamic --eplb-algorithm deepseek --attention-backend nsa "
    "--mem-fraction-static 0.74 --max-running-requests 256 --cuda-graph-max-bs 16 "
    "--speculative-algorithm EAGLE --speculative-num-steps 3 --speculative-eagle-topk 1 "
    "--speculative-num-draft-tokens 4";

TEST(SweepSglang, ReferenceScenarioGivesMissionFlags) {
  const SglangFlags f = sglang_flags(reference());
  // The declared fields in declaration order (values SGLang takes by default left out: the
  // transfer backend mooncake, the DeepEP dispatch cap 128), then the rules: --model-path, NSA's
  // attention backend and prefill CP, the MoE backend and the reference's placement settings,
  // the disaggregation role.
  EXPECT_EQ(f.prefill,
            "--model-path zai-org/GLM-5.1-FP8 --nnodes 2 --tp-size 8 --pp-size 2 "
            "--chunked-prefill-size 16384 --max-running-requests 128 --mem-fraction-static 0.85 "
            "--attention-backend nsa --enable-nsa-prefill-context-parallel --nsa-prefill-cp-mode "
            "round-robin-split --moe-a2a-backend deepep --deepep-mode normal "
            "--ep-dispatch-algorithm dynamic --eplb-algorithm deepseek --moe-dense-tp-size 1 "
            "--disaggregation-mode prefill");
  EXPECT_EQ(f.decode,
            "--model-path zai-org/GLM-5.1-FP8 --nnodes 2 --tp-size 16 --dp-size 16 "
            "--enable-dp-attention --enable-dp-lm-head --max-running-requests 256 "
            "--mem-fraction-static 0.74 --cuda-graph-max-bs 16 --speculative-algorithm EAGLE "
            "--speculative-num-steps 3 --speculative-eagle-topk 1 "
            "--speculative-num-draft-tokens 4 --moe-a2a-backend deepep --deepep-mode low_latency "
            "--ep-dispatch-algorithm dynamic --eplb-algorithm deepseek --moe-dense-tp-size 1 "
            "--attention-backend nsa --disaggregation-mode decode");
  EXPECT_EQ(f.decode_env, "");
  EXPECT_EQ(f.router,
            "--pd-disaggregation --mini-lb --prefill http://<prefill-0-node-0>:30000 8998 "
            "--decode http://<decode-0-node-0>:30000");
  // The same deployment as mission.md's flags (in its order, with SGLang's defaults spelt out).
  const Json ours = import_sglang({f.prefill, f.decode, f.router});
  const Json mission =
      import_sglang({kMissionPrefill + " --model-path zai-org/GLM-5.1-FP8",
                     "SGLANG_DEEPEP_NUM_MAX_DISPATCH_TOKENS_PER_RANK=128 " + kMissionDecode +
                         " --disaggregation-mode decode --model-path zai-org/GLM-5.1-FP8",
                     f.router});
  EXPECT_EQ(deployment_sections(ours), deployment_sections(mission));
}

TEST(SweepSglang, WhatIfsChangeTheirFlags) {
  Scenario s = reference();
  s.decode.speculative.algorithm = "none";
  s.decode.nodes_per_instance = 4;
  s.decode.tp = s.decode.dp = s.decode.ep = 32;
  s.decode.kv_cache_dtype = KvDtype::fp8;
  s.prefill.instances = 2;
  s.prefill.chunked_prefill_size = 32768;
  const SglangFlags f = sglang_flags(s);
  EXPECT_EQ(f.decode.find("--speculative"), std::string::npos);
  EXPECT_NE(f.decode.find("--nnodes 4 --tp-size 32 --dp-size 32"), std::string::npos) << f.decode;
  EXPECT_NE(f.decode.find("--kv-cache-dtype fp8_e4m3"), std::string::npos);
  EXPECT_NE(f.prefill.find("--kv-cache-dtype fp8_e4m3"), std::string::npos);
  EXPECT_NE(f.prefill.find("--chunked-prefill-size 32768"), std::string::npos);
  EXPECT_NE(f.router.find("--prefill http://<prefill-1-node-0>:30000 8998"), std::string::npos);
}

// The MoE path without an all-to-all exports --ep-size (pure TP: none) and no DeepEP flags, and
// imports back to the same layout.
TEST(SweepSglang, MoePathWithoutAllToAllRoundTrips) {
  for (const char* config : {"baseline", "tp-dp"}) {
    const Scenario s =
        load_scenario(data_root() + "/scenarios/dsr1/dsr1-2p2d-p5en-" + config + ".json", {});
    const SglangFlags f = sglang_flags(s);
    EXPECT_EQ(f.decode.find("deepep"), std::string::npos) << f.decode;
    EXPECT_EQ(f.decode.find("--ep-size 16") != std::string::npos, s.decode.ep == 16) << f.decode;
    const Json back = import_sglang({f.prefill, f.decode, f.router});
    for (const char* role : {"prefill", "decode"})
      for (const char* k : {"tp", "ep", "moe_a2a_backend"})
        EXPECT_EQ(back.at(role).at(k), s.resolved_json().at(role).at(k)) << config << role << k;
    EXPECT_EQ(back.at("decode").at("dp_attention"), s.decode.dp_attention) << config;
  }
}

}  // namespace
}  // namespace pdsim
