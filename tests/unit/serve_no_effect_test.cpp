// Inputs that change nothing are warnings with the field, its value and the reason
// (sim/scenario/no_effect.hpp), in the run's provenance too.
#include <gtest/gtest.h>

#include "sim/core/data_path.hpp"
#include "sim/scenario/no_effect.hpp"
#include "sim/serve/cost/deployment.hpp"
#include "sim/serve/cost/profile_overlay.hpp"

namespace pdsim {
namespace no_effect_test {

Scenario quick(const std::vector<std::string>& sets) {
  return load_scenario(data_root() + "/scenarios/glm51-2p2d-efa-quick.json", sets);
}

TEST(NoEffect, TheShippedScenarioHasNone) {
  EXPECT_EQ(no_effect_warnings(quick({})), std::vector<std::string>{});
}

TEST(NoEffect, SettingsOfASwitchedOffMechanism) {
  const auto w = no_effect_warnings(quick({"tail.scheduler_hiccups.delay_us=500"}));
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0],
            "tail.scheduler_hiccups.delay_us = 500.0 has no effect: tail.scheduler_hiccups is "
            "switched off (enabled: false)");
  // Switched on, the same value is used: no warning (its provenance is then required).
  EXPECT_EQ(no_effect_warnings(
                quick({"tail.scheduler_hiccups.delay_us=500", "tail.scheduler_hiccups.enabled=true",
                       "tail.scheduler_hiccups.probability=0.001",
                       R"(tail.scheduler_hiccups.provenance={"kind":"assumed",)"
                       R"("source":"a test"})"}))
                .size(),
            0u);
}

TEST(NoEffect, SettingsThatAnotherFieldSwitchesOff) {
  const auto w = no_effect_warnings(
      quick({"decode.speculative.algorithm=none", "decode.speculative.num_steps=5",
             "prefill.kv_tcp_transport=my-tcp", "fabric.packet_samples=4"}));
  ASSERT_EQ(w.size(), 3u);
  EXPECT_EQ(w[0],
            "decode.speculative.num_steps = 5 has no effect: decode.speculative.algorithm is "
            "\"none\"");
  EXPECT_EQ(w[1],
            "prefill.kv_tcp_transport = \"my-tcp\" has no effect: prefill.kv_protocol is "
            "\"rdma\"");
  EXPECT_EQ(w[2], "fabric.packet_samples = 4 has no effect: fabric.fidelity is \"analytic\"");
}

TEST(NoEffect, AnEditedFromProfileValueIsIgnoredAndSaysSo) {
  Json doc = quick({}).resolved_json();
  ASSERT_EQ(doc["tail"]["link_errors"]["from_profile"]["profile"], "link-ber-nvidia-cable");
  doc["tail"]["link_errors"]["from_profile"]["ber"] = 1e-10;
  doc["profile_overlays"] = Json::array();
  const Scenario s = parse_scenario(JsonNode::from_json(doc, "edited.json"));
  const auto w = no_effect_warnings(s);
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0],
            "tail.link_errors.from_profile.ber has no effect: from_profile only shows the "
            "profile's values; write tail.link_errors.ber in the scenario to override");
  // A from_profile block left by another profile (a --set that changed the profile) is stale by
  // design: no warning.
  doc["tail"]["link_errors"]["from_profile"]["profile"] = "another";
  EXPECT_EQ(no_effect_warnings(parse_scenario(JsonNode::from_json(doc, "e.json"))).size(), 0u);
}

TEST(NoEffect, AnOverlayThatFitsNoProfileOfTheRun) {
  Json o = {{"schema", "pdsim.profile_overlay/1"}, {"name", "elsewhere"}};
  const ProfileOverlay ov{"ov.json", o};
  const Json log = {{{"overlay", "ov.json"}, {"kind", "fabric"}, {"skipped", "fitted on 'a'"}},
                    {{"overlay", "other.json"}, {"kind", "serving"}, {"applied", Json::object()}}};
  EXPECT_EQ(overlays_applying_nowhere({ov}, log),
            std::vector<std::string>{"profile overlay ov.json has no effect: it fits none of this "
                                     "run's profiles (fabric: fitted on 'a')"});
  const Json applied = {{{"overlay", "ov.json"}, {"kind", "serving"}, {"applied", Json::object()}}};
  EXPECT_EQ(overlays_applying_nowhere({ov}, applied).size(), 0u);
}

TEST(NoEffect, TheRunsProvenanceCarriesThem) {
  const Deployment d = build_deployment(quick({"fabric.packet_samples=4"}));
  EXPECT_EQ(d.profiles.at("input_warnings"),
            Json::array({"fabric.packet_samples = 4 has no effect: fabric.fidelity is "
                         "\"analytic\""}));
  EXPECT_FALSE(build_deployment(quick({})).profiles.contains("input_warnings"));
}

}  // namespace no_effect_test
}  // namespace pdsim
