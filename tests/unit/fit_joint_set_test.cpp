// Several validation sets fitted as one (sim/fit/joint_validation_set.hpp).
#include <gtest/gtest.h>

#include "sim/core/data_path.hpp"
#include "sim/core/error.hpp"
#include "sim/fit/joint_validation_set.hpp"
#include "tests/unit/test_support.hpp"

namespace pdsim {
namespace {

using testing::input_error_of;

TEST(JointValidationSet, EveryRunOfEverySetWithItsOwnOverrides) {
  const std::string dir = data_root() + "/calibrate/validation/";
  const ValidationSet glm = load_validation_set(dir + "glm51-2p2d-p5en-20260430.json");
  const ValidationSet dsr1 = load_validation_set(dir + "dsr1-2p2d-p5en-20260624.json");
  const ValidationSet j = joint_validation_set({glm, dsr1});
  EXPECT_EQ(j.name, "glm51-2p2d-p5en-20260430 + dsr1-2p2d-p5en-20260624");
  EXPECT_TRUE(j.file.empty());
  EXPECT_TRUE(j.fit.empty());
  ASSERT_EQ(j.runs.size(), glm.runs.size() + dsr1.runs.size());
  EXPECT_EQ(j.runs[0].name, glm.runs[0].name);
  EXPECT_EQ(j.runs[0].sets, glm.runs[0].sets);  // the set's common overrides, then the run's
  EXPECT_EQ(j.runs[glm.runs.size()].name, dsr1.runs[0].name);
  EXPECT_EQ(j.runs[glm.runs.size()].sets, dsr1.runs[0].sets);
  EXPECT_EQ(j.provenance["kind"], "joint");
  ASSERT_EQ(j.provenance["sets"].size(), 2u);
  EXPECT_EQ(j.provenance["sets"][1]["file"], "calibrate/validation/dsr1-2p2d-p5en-20260624.json");
  EXPECT_EQ(j.provenance["sets"][0]["provenance"], glm.provenance);
  // One set twice: its runs' names collide, and the error names the second copy's first run.
  const std::string e = input_error_of([&] { joint_validation_set({glm, glm}); });
  EXPECT_NE(e.find("glm51-2p2d-p5en-20260430.json"), std::string::npos) << e;
  EXPECT_NE(e.find("runs[0].name"), std::string::npos) << e;
  EXPECT_NE(e.find("not already used by set 'glm51-2p2d-p5en-20260430'"), std::string::npos) << e;
}

}  // namespace
}  // namespace pdsim
