// The recommended serving-fit list comes from the shipped overlay's provenance command.
#include <gtest/gtest.h>

#include "sim/fit/recommended_fit.hpp"

namespace pdsim {
namespace recommended_fit_test {

TEST(RecommendedFit, SpecsOfACommand) {
  EXPECT_EQ(fit_specs_of_command("pdsim calibrate serving s.json --fit a.b=0:1 --starts 4 "
                                 "--fit c.d=2:3"),
            (std::vector<std::string>{"a.b=0:1", "c.d=2:3"}));
  EXPECT_TRUE(fit_specs_of_command("pdsim calibrate serving s.json --fit").empty());
}

TEST(RecommendedFit, TheShippedOverlaysFit) {
  // calibrate/overlays/glm51-2p2d-p5en-20260430.json was fitted with these five (its
  // provenance.command; calibrate/README.md "The shipped fit").
  const auto fit = recommended_serving_fit();
  ASSERT_EQ(fit.size(), 5u);
  EXPECT_EQ(fit.front(), "fabric.a2a.cpu-proxy.fixed_us=0:500");
  EXPECT_EQ(fit.back(), "serving.prefill.host_us_per_chunk=0:1000000");
}

}  // namespace recommended_fit_test
}  // namespace pdsim
