// `pdsim import sglang`: the reference deployment's launch flags (mission.md, verbatim)
// reproduce the deployment sections of scenarios/glm51-2p2d-efa.json field by field; both
// flag forms, quoting, env assignments, ignored flags and bad values.
#include <gtest/gtest.h>

#include "sim/core/data_path.hpp"
#include "sim/core/error.hpp"
#include "sim/import/launch_args.hpp"
#include "sim/import/sglang_import.hpp"
#include "sim/scenario/scenario.hpp"
#include "sim/scenario/sglang_fields.hpp"
#include "sim/sweep/sglang_flags.hpp"

namespace pdsim {
namespace {

const char* kPrefill =
    "python3 -m sglang.launch_server --model-path zai-org/GLM-5.1-FP8 --host 0.0.0.0 "
    "--tp-size 8 --pp-size 2 --nnodes 2 --chunked-prefill-size 16384 --attention-backend nsa "
    "--enable-nsa-prefill-context-parallel --nsa-prefill-cp-mode round-robin-split "
    "--moe-a2a-backend deepep --deepep-mode normal --ep-dispatch-algorithm dynamic "
    "--eplb-algorithm deepseek --moe-dense-tp-size 1 --mem-fraction-static 0.85 "
    "--max-running-requests 128 --disaggregation-mode prefill --disaggregation-transfer-backend "
    "mooncake";
const char* kDecode =
    "SGLANG_DEEPEP_NUM_MAX_DISPATCH_TOKENS_PER_RANK=128 python3 -m sglang.launch_server "
    "--model-path zai-org/GLM-5.1-FP8 "
    "--tp-size 16 --dp-size 16 --nnodes 2 --enable-dp-attention --enable-dp-lm-head "
    "--moe-dense-tp-size 1 --moe-a2a-backend deepep --deepep-mode low_latency "
    "--ep-dispatch-algorithm dynamic --eplb-algorithm deepseek --attention-backend nsa "
    "--mem-fraction-static 0.74 --max-running-requests 256 --cuda-graph-max-bs 16 "
    "--speculative-algorithm EAGLE --speculative-num-steps 3 --speculative-eagle-topk 1 "
    "--speculative-num-draft-tokens 4 --disaggregation-mode decode";
const char* kRouter =
    "python3 -m sglang_router.launch_router --pd-disaggregation --mini-lb "
    "--prefill http://10.0.0.1:30000 8998 --decode http://10.0.0.3:30000";

std::string error_of(const SglangCommandLines& l) {
  try {
    import_sglang(l);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

bool has_ignored(const Json& out, const std::string& role, const std::string& flag) {
  for (const auto& i : out.at("ignored"))
    if (i.at("role") == role && i.at("flag") == flag) return true;
  return false;
}

TEST(ImportSglang, MissionFlagsReproduceReferenceDeployment) {
  const Json out = import_sglang({kPrefill, kDecode, kRouter});
  const Json ref = JsonNode::load_file(data_root() + "/scenarios/glm51-2p2d-efa.json").raw();
  const Json resolved = parse_scenario(JsonNode::from_json(ref, "ref")).resolved_json();
  // Every field the import sets equals the reference's (resolved: its defaults included) ...
  for (const char* section : {"prefill", "decode"}) {
    for (const auto& [k, v] : out.at(section).items()) {
      if (k == "speculative") continue;
      EXPECT_EQ(v, resolved.at(section).at(k)) << section << "." << k;
    }
    // ... and every reference field is set by the import (speculative compared below).
    for (const auto& [k, v] : ref.at(section).items())
      EXPECT_TRUE(out.at(section).contains(k)) << section << "." << k << " not imported";
  }
  const Json& sp = out.at("decode").at("speculative");
  for (const char* k : {"algorithm", "num_steps", "topk", "num_draft_tokens"})
    EXPECT_EQ(sp.at(k), ref.at("decode").at("speculative").at(k)) << k;
  // The acceptance model is not a launch flag: the import leaves it to the scenario.
  EXPECT_FALSE(sp.contains("acceptance"));
  EXPECT_EQ(out.at("router"), ref.at("router"));
  EXPECT_EQ(out.at("model"), ref.at("model"));  // zai-org/GLM-5.1-FP8 → catalog glm-5.1-fp8

  // The whole resolved scenario is unchanged when the imported sections replace the reference's.
  Json merged = ref;
  merged.merge_patch(deployment_sections(out));
  EXPECT_EQ(parse_scenario(JsonNode::from_json(merged, "merged")).resolved_json(),
            parse_scenario(JsonNode::from_json(ref, "ref")).resolved_json());

  // Flags with no effect are listed, not dropped; understood flags are recorded.
  EXPECT_TRUE(has_ignored(out, "prefill", "--host"));
  EXPECT_TRUE(has_ignored(out, "router", "--pd-disaggregation"));
  EXPECT_EQ(out["sglang"]["decode"]["SGLANG_DEEPEP_NUM_MAX_DISPATCH_TOKENS_PER_RANK"], "128");
  EXPECT_EQ(out["sglang"]["prefill"]["--eplb-algorithm"], "deepseek");
  EXPECT_EQ(out["sglang"]["decode"]["--enable-dp-lm-head"], true);
  EXPECT_EQ(out["decode"]["enable_dp_lm_head"], true);
}

// An unknown --model-path on both lines is noted once.
TEST(ImportSglang, ANoteBothLinesRaiseIsGivenOnce) {
  auto other = [](std::string line) {
    return line.replace(line.find("zai-org/GLM-5.1-FP8"), 19, "acme/Unlisted-1B");
  };
  const Json out = import_sglang({other(kPrefill), other(kDecode), kRouter});
  int model_notes = 0;
  for (const auto& n : out.at("notes"))
    if (n.get<std::string>().rfind("model: --model-path acme/Unlisted-1B", 0) == 0) ++model_notes;
  EXPECT_EQ(model_notes, 1);
  EXPECT_FALSE(out.contains("model"));
}

// --disable-radix-cache sets the prefill's field from the prefill line (the warmup-prefix rule
// reads it); on the decode line, which prefills nothing, it is listed as without effect.
TEST(ImportSglang, RadixCacheSwitchIsAPrefillFieldAndIgnoredOnDecode) {
  const std::string off = " --disable-radix-cache";
  const Json on = import_sglang({kPrefill, kDecode, kRouter});
  EXPECT_EQ(on["prefill"]["disable_radix_cache"], false);
  const Json out = import_sglang({kPrefill + off, kDecode + off, kRouter});
  EXPECT_EQ(out["prefill"]["disable_radix_cache"], true);
  EXPECT_EQ(out["sglang"]["prefill"]["--disable-radix-cache"], true);
  EXPECT_FALSE(has_ignored(out, "prefill", "--disable-radix-cache"));
  EXPECT_TRUE(has_ignored(out, "decode", "--disable-radix-cache"));
  EXPECT_FALSE(out["sglang"]["decode"].contains("--disable-radix-cache"));
}

// The generic mapping from a field's declaration: text out, value in, SGLang's default when the
// flag is absent, nothing when SGLang picks the value itself.
TEST(ImportSglang, DeclaredFieldsMapBothWays) {
  auto field = [](const std::string& path) {
    for (const auto& f : scenario_fields())
      if (f.path == path) return f;
    throw std::runtime_error(path);
  };
  const FieldInfo kv = field("decode.kv_cache_dtype"), tp = field("decode.tp"),
                  lm = field("decode.enable_dp_lm_head"), bs = field("decode.cuda_graph_bs"),
                  mem = field("decode.mem_fraction_static");
  EXPECT_EQ(sglang_fields::export_text(kv, "fp8"), "fp8_e4m3");
  EXPECT_EQ(sglang_fields::export_text(kv, "bf16"), std::nullopt);  // "auto" is SGLang's default
  EXPECT_EQ(sglang_fields::export_text(tp, 16), "16");
  EXPECT_EQ(sglang_fields::export_text(tp, 1), std::nullopt);
  EXPECT_EQ(sglang_fields::export_text(lm, true), "");  // a switch: the flag alone
  EXPECT_EQ(sglang_fields::export_text(lm, false), std::nullopt);
  EXPECT_EQ(sglang_fields::export_text(bs, Json::array({1, 2, 4})), "1 2 4");
  EXPECT_EQ(sglang_fields::export_text(mem, 0.74), "0.74");
  using Texts = std::optional<std::vector<std::string>>;
  EXPECT_EQ(sglang_fields::import_value(kv, Texts({"FP8_E5M2"}), "d"), Json("fp8"));
  EXPECT_EQ(sglang_fields::import_value(kv, std::nullopt, "d"), Json("bf16"));
  EXPECT_EQ(sglang_fields::import_value(tp, std::nullopt, "d"), Json(1));
  EXPECT_EQ(sglang_fields::import_value(lm, Texts(std::vector<std::string>{}), "d"), Json(true));
  EXPECT_EQ(sglang_fields::import_value(lm, std::nullopt, "d"), Json(false));
  EXPECT_EQ(sglang_fields::import_value(bs, Texts({"1", "2"}), "d"), Json::array({1, 2}));
  EXPECT_EQ(sglang_fields::import_value(mem, std::nullopt, "d"), std::nullopt);
  EXPECT_THROW(sglang_fields::import_value(tp, Texts({"0"}), "d"), InputError);
  EXPECT_THROW(sglang_fields::import_value(kv, Texts({"int4"}), "d"), InputError);
}

TEST(ImportSglang, EqualsFormQuotingAndEnv) {
  const std::string p =
      "--tp-size=8 --pp-size='2' --nnodes=\"2\" --disaggregation-mode=prefill "
      "--chunked-prefill-size 8192 \\\n"
      " --enable-nsa-prefill-context-parallel --page-size=64";
  const std::string d =
      "--tp 16 --dp=16 --nnodes 2 --enable-dp-attention --moe-a2a-backend=deepep "
      "--disaggregation-mode decode --kv-cache-dtype fp8_e4m3 "
      "SGLANG_DEEPEP_NUM_MAX_DISPATCH_TOKENS_PER_RANK=256 FOO_BAR=1 --cuda-graph-bs 1 2 4 8 "
      "--frobnicate 3 --new-switch";
  const Json out = import_sglang({p, d, ""});
  EXPECT_EQ(out["prefill"]["tp"], 8);
  EXPECT_EQ(out["prefill"]["pp"], 2);
  EXPECT_EQ(out["prefill"]["nodes_per_instance"], 2);
  EXPECT_EQ(out["prefill"]["chunked_prefill_size"], 8192);
  EXPECT_EQ(out["prefill"]["cp"], 8);  // CP flag: attn_cp_size = tp / dp = 8 / 1
  EXPECT_EQ(out["prefill"]["ep"], 8);  // CP makes SGLang use DeepEP: ep = tp
  EXPECT_EQ(out["decode"]["tp"], 16);
  EXPECT_EQ(out["decode"]["dp"], 16);
  EXPECT_EQ(out["decode"]["ep"], 16);
  EXPECT_EQ(out["decode"]["kv_cache_dtype"], "fp8");
  EXPECT_EQ(out["decode"]["ll_max_dispatch_tokens_per_rank"], 256);
  EXPECT_EQ(out["decode"]["cuda_graph_bs"], Json::array({1, 2, 4, 8}));
  EXPECT_EQ(out["decode"]["speculative"]["algorithm"], "none");
  EXPECT_TRUE(has_ignored(out, "decode", "--frobnicate"));
  EXPECT_TRUE(has_ignored(out, "decode", "--new-switch"));
  EXPECT_TRUE(has_ignored(out, "decode", "FOO_BAR"));
  for (const auto& i : out["ignored"])
    if (i["flag"] == "--frobnicate") {
      EXPECT_EQ(i["value"], "3");
    }
  // Absent flags that SGLang sizes at start-up are noted, with the default used.
  bool noted = false;
  for (const auto& n : out["notes"])
    noted =
        noted || n.get<std::string>().find("--mem-fraction-static not given") != std::string::npos;
  EXPECT_TRUE(noted);
}

TEST(ImportSglang, RouterCountsInstances) {
  const Json out = import_sglang(
      {"--tp-size 8 --disaggregation-mode prefill", "--tp-size 8 --disaggregation-mode decode",
       "--pd-disaggregation --prefill http://a:1 8998 --prefill http://b:1 --prefill=http://c:1 "
       "--decode http://d:1 --decode http://e:1 --policy round_robin"});
  EXPECT_EQ(out["prefill"]["instances"], 3);
  EXPECT_EQ(out["decode"]["instances"], 2);
}

// The servers' NVSHMEM and Mooncake environment chooses the fabric libraries (fabric_env.hpp).
TEST(ImportSglang, EnvironmentChoosesTheAllToAllBackend) {
  const std::string pre = "--disaggregation-mode prefill --tp-size 16 --ep-size 16 ";
  const std::string dec = "--disaggregation-mode decode --tp-size 16 --ep-size 16 ";
  const std::string deepep = "--moe-a2a-backend deepep ";
  const std::string env =
      "NVSHMEM_REMOTE_TRANSPORT=libfabric MOONCAKE_PROTOCOL=efa FI_PROVIDER=efa python3 ";
  Json out = import_sglang({env + pre, env + dec + deepep, ""});
  EXPECT_EQ(out.at("fabric").at("a2a_backend"), "nvshmem-proxy");
  EXPECT_EQ(deployment_sections(out).at("fabric").at("a2a_backend"), "nvshmem-proxy");
  EXPECT_FALSE(has_ignored(out, "decode", "NVSHMEM_REMOTE_TRANSPORT"));  // read, not ignored
  EXPECT_TRUE(has_ignored(out, "decode", "FI_PROVIDER"));
  // No role runs DeepEP: NVSHMEM's transport chooses nothing.
  EXPECT_FALSE(import_sglang({env + pre, env + dec, ""}).contains("fabric"));
  // IBGDA over the ibrc transport.
  EXPECT_EQ(import_sglang({pre, "NVSHMEM_IB_ENABLE_IBGDA=1 " + dec + deepep, ""})
                .at("fabric")
                .at("a2a_backend"),
            "ibgda");
  auto expect = [](const std::string& msg, const std::string& what, const std::string& var) {
    EXPECT_NE(msg.find(what), std::string::npos) << msg;
    EXPECT_NE(msg.find(var), std::string::npos) << msg;
  };
  // Mooncake's protocol: efa / rdma → rdma; tcp, or MC_FORCE_TCP=1 on either role → tcp.
  auto kv = [](const std::string& p, const std::string& d) {
    return import_sglang({p, d, ""}).at("prefill").at("kv_protocol").get<std::string>();
  };
  EXPECT_EQ(kv(pre, dec), "rdma");
  EXPECT_EQ(kv("MOONCAKE_PROTOCOL=EFA " + pre, "MOONCAKE_PROTOCOL=efa " + dec), "rdma");
  EXPECT_EQ(kv("MOONCAKE_PROTOCOL=tcp " + pre, dec), "tcp");
  EXPECT_EQ(kv(pre, "MOONCAKE_PROTOCOL=tcp " + dec), "tcp");
  EXPECT_EQ(kv(pre, "MC_FORCE_TCP=1 " + dec), "tcp");
  EXPECT_EQ(kv(pre, "MC_FORCE_TCP=0 " + dec), "rdma");
  expect(error_of({"MOONCAKE_PROTOCOL=efa " + pre, "MOONCAKE_PROTOCOL=tcp " + dec, ""}), "--decode",
         "MOONCAKE_PROTOCOL");
  expect(error_of({"MOONCAKE_PROTOCOL=efa " + pre, "MC_FORCE_TCP=1 " + dec, ""}), "--decode",
         "MC_FORCE_TCP");
  expect(error_of({pre, "MC_FORCE_TCP=yes " + dec, ""}), "--decode", "MC_FORCE_TCP");
  expect(error_of({"MOONCAKE_PROTOCOL=ucx " + pre, dec, ""}), "--prefill", "MOONCAKE_PROTOCOL");
  // DP attention on the prefill role.
  const Json dpp = import_sglang(
      {pre + "--dp-size 16 --enable-dp-attention --enable-dp-lm-head --moe-dense-tp-size 1", dec,
       ""});
  EXPECT_EQ(dpp.at("prefill").at("dp"), 16);
  EXPECT_EQ(dpp.at("prefill").at("dp_attention"), true);
  EXPECT_EQ(dpp.at("prefill").at("enable_dp_lm_head"), true);
  EXPECT_EQ(dpp.at("prefill").at("cp"), 1);
  // NCCL over TCP sockets has no collective profile; forced algorithms are noted.
  expect(error_of({pre, "NCCL_NET=Socket " + dec, ""}), "--decode", "NCCL_NET");
  EXPECT_EQ(error_of({"NCCL_NET=IB " + pre, dec, ""}), "");
  const Json forced = import_sglang({"NCCL_ALGO=Tree " + pre, dec, ""});
  EXPECT_FALSE(has_ignored(forced, "prefill", "NCCL_ALGO"));
  EXPECT_NE(forced.at("notes").dump().find("prefill: NCCL_ALGO=Tree recorded"), std::string::npos)
      << forced.at("notes");
  expect(error_of({pre, "NVSHMEM_REMOTE_TRANSPORT=ucx " + dec + deepep, ""}), "--decode",
         "NVSHMEM_REMOTE_TRANSPORT");
  // Two roles on DeepEP with different transports: each role its own mechanism.
  const Json split = import_sglang({"NVSHMEM_IB_ENABLE_IBGDA=1 " + pre + deepep,
                                    "NVSHMEM_REMOTE_TRANSPORT=libfabric " + dec + deepep, ""});
  EXPECT_EQ(split.at("fabric").at("a2a_backend"), "nvshmem-proxy");
  EXPECT_EQ(split.at("prefill").at("a2a_backend"), "ibgda");
  // The same transport on both: the prefill follows the fabric's.
  EXPECT_EQ(out.at("prefill").at("a2a_backend"), "");
  // DeepEP over NVSHMEM on the prefill, the decode's mechanism unset (UCCL-EP's wrapper carries
  // no NVSHMEM variables): the prefill's own, the fabric's from the base.
  const Json mixed = import_sglang({env + pre + deepep, dec + deepep, ""});
  EXPECT_FALSE(mixed.contains("fabric"));
  EXPECT_EQ(mixed.at("prefill").at("a2a_backend"), "nvshmem-proxy");
}

TEST(ImportSglang, BadValuesNameTheFlag) {
  const std::string dec = "--disaggregation-mode decode";
  const std::string pre = "--disaggregation-mode prefill";
  auto expect = [](const std::string& msg, const std::string& what, const std::string& flag) {
    EXPECT_NE(msg.find(what), std::string::npos) << msg;
    EXPECT_NE(msg.find(flag), std::string::npos) << msg;
  };
  expect(error_of({pre + " --tp-size eight", dec, ""}), "--prefill", "--tp-size");
  expect(error_of({pre + " --tp-size 0", dec, ""}), "--prefill", "--tp-size");
  expect(error_of({pre, dec + " --mem-fraction-static 1.5", ""}), "--decode",
         "--mem-fraction-static");
  expect(error_of({pre, dec + " --deepep-mode normal --moe-a2a-backend deepep", ""}), "--decode",
         "--deepep-mode");
  expect(error_of({pre, dec + " --speculative-algorithm NGRAM", ""}), "--decode",
         "--speculative-algorithm");
  expect(error_of({pre, dec + " --speculative-algorithm EAGLE --speculative-eagle-topk 4", ""}),
         "--decode", "--speculative-eagle-topk");
  expect(
      error_of({pre + " --enable-nsa-prefill-context-parallel --nsa-prefill-cp-mode in-seq-split",
                dec, ""}),
      "--prefill", "--nsa-prefill-cp-mode");
  expect(error_of({pre + " --enable-dp-attention=true", dec, ""}), "--prefill",
         "--enable-dp-attention");
  expect(error_of({pre + " --tp-size", dec, ""}), "--prefill", "--tp-size");
  expect(error_of({"--disaggregation-mode decode", dec, ""}), "--prefill", "--disaggregation-mode");
  expect(error_of({"--tp-size 8", dec, ""}), "--prefill", "--disaggregation-mode");
  expect(error_of({pre + " --moe-a2a-backend mooncake", dec, ""}), "--prefill",
         "--moe-a2a-backend");
  expect(error_of({pre, dec + " SGLANG_DEEPEP_NUM_MAX_DISPATCH_TOKENS_PER_RANK=lots", ""}),
         "--decode", "SGLANG_DEEPEP_NUM_MAX_DISPATCH_TOKENS_PER_RANK");
  expect(error_of({pre + " --disaggregation-transfer-backend nixl",
                   dec + " --disaggregation-transfer-backend mooncake", ""}),
         "--decode", "--disaggregation-transfer-backend");
  expect(error_of({pre + " --model-path \"unterminated", dec, ""}), "--prefill",
         "closing double quote");
  expect(error_of({pre, dec, "--policy cache_aware"}), "--router", "--policy");
}

}  // namespace
}  // namespace pdsim
