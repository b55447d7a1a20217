// `pdsim import sglang` against pdsim's own SGLang export, and the shell splitting of pasted
// launch commands.
#include <gtest/gtest.h>

#include "sim/core/data_path.hpp"
#include "sim/import/launch_args.hpp"
#include "sim/import/sglang_import.hpp"
#include "sim/scenario/scenario.hpp"
#include "sim/sweep/sglang_flags.hpp"

namespace pdsim {
namespace {

// `pdsim sweep`'s SGLang export (sim/sweep/sglang_flags.hpp) and this import are inverses on
// every field a launch flag carries: export a scenario, import the flags, get the scenario back.
TEST(ImportSglang, RoundTripsTheSweepExport) {
  const std::vector<std::vector<std::string>> variants = {
      {},
      {"decode.kv_cache_dtype=fp8", "prefill.instances=3", "prefill.nodes_per_instance=1",
       "prefill.pp=1", "decode.speculative.algorithm=none", "decode.cuda_graph_bs=[1,2,4,8]",
       "prefill.chunked_prefill_size=32768", "decode.ll_max_dispatch_tokens_per_rank=256",
       "prefill.kv_transfer_backend=nixl", "decode.enable_dp_lm_head=false"}};
  for (const char* file : {"glm51-2p2d-efa.json", "glm51-2p2d-roce.json"}) {
    for (const auto& sets : variants) {
      const Scenario s = load_scenario(data_root() + "/scenarios/" + file, sets);
      const SglangFlags f = sglang_flags(s);
      const Json out = import_sglang({f.prefill, f.decode_env + " " + f.decode, f.router});
      const Json ref = s.resolved_json();
      for (const char* section : {"prefill", "decode"})
        for (const auto& [k, v] : out.at(section).items()) {
          if (k == "speculative") continue;
          EXPECT_EQ(v, ref.at(section).at(k)) << file << " " << section << "." << k;
        }
      for (const auto& [k, v] : out.at("decode").at("speculative").items())
        EXPECT_EQ(v, ref.at("decode").at("speculative").at(k)) << file << " speculative." << k;
      EXPECT_EQ(out.at("model"), ref.at("model")) << file;
    }
  }
}

TEST(ImportSglang, ShellSplit) {
  EXPECT_EQ(split_command_line("a 'b c' \"d \\\"e\\\"\" f\\ g \\\n h", "t"),
            (std::vector<std::string>{"a", "b c", "d \"e\"", "f g", "h"}));
  EXPECT_EQ(split_command_line("x='' y", "t"), (std::vector<std::string>{"x=", "y"}));
}

}  // namespace
}  // namespace pdsim
