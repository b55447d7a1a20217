#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "sim/core/rng.hpp"
#include "sim/core/stats.hpp"

namespace pdsim {
namespace {

TEST(Stats, PercentileMatchesNumpyLinearInterpolation) {
  // np.percentile([1, 2, 3, 4], 99) = 3 + 0.97 * (4 - 3) = 3.97
  EXPECT_DOUBLE_EQ(percentile_of({4, 1, 3, 2}, 99), 3.97);
  EXPECT_DOUBLE_EQ(percentile_of({4, 1, 3, 2}, 50), 2.5);
  EXPECT_DOUBLE_EQ(percentile_of({7}, 99), 7.0);
}

TEST(Stats, PopulationStd) {
  // np.std([2, 4, 4, 4, 5, 5, 7, 9]) = 2.0
  EXPECT_DOUBLE_EQ(std_of({2, 4, 4, 4, 5, 5, 7, 9}), 2.0);
  auto d = describe({});
  EXPECT_EQ(d.count, 0u);
  EXPECT_EQ(d.max, 0.0);
}

// describe() selects the ranks it reads instead of sorting: the same values as percentile_of on
// the whole sorted vector, for sizes where ranks coincide (1, 2) and with repeated values.
TEST(Stats, DescribeMatchesSortedPercentiles) {
  Rng rng(7);
  for (size_t n : {1u, 2u, 3u, 7u, 100u, 1001u, 20000u}) {
    std::vector<double> v;
    for (size_t i = 0; i < n; ++i) v.push_back(std::floor(rng.uniform(0, 50)) * 0.25);
    const Distribution d = describe(v);
    EXPECT_EQ(d.median, percentile_of(v, 50)) << n;
    EXPECT_EQ(d.p90, percentile_of(v, 90)) << n;
    EXPECT_EQ(d.p95, percentile_of(v, 95)) << n;
    EXPECT_EQ(d.p99, percentile_of(v, 99)) << n;
    EXPECT_EQ(d.min, *std::min_element(v.begin(), v.end())) << n;
    EXPECT_EQ(d.max, *std::max_element(v.begin(), v.end())) << n;
  }
}

TEST(Rng, SameSeedSameStreamAndForksDiffer) {
  Rng a(42), b(42);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(a.next_u64(), b.next_u64());
  Rng f1 = a.fork(1), f2 = a.fork(2);
  EXPECT_NE(f1.next_u64(), f2.next_u64());
}

TEST(Rng, UniformIntStaysInBoundsAndSampleDistinctIsDistinct) {
  Rng r(7);
  for (int i = 0; i < 10000; ++i) {
    auto v = r.uniform_int(3, 9);
    ASSERT_GE(v, 3);
    ASSERT_LE(v, 9);
  }
  std::vector<int> out;
  r.sample_distinct(256, 8, out);
  ASSERT_EQ(out.size(), 8u);
  std::sort(out.begin(), out.end());
  EXPECT_EQ(std::unique(out.begin(), out.end()), out.end());
}

TEST(Rng, ExponentialMeanIsOneOverRate) {
  Rng r(1);
  double s = 0;
  const int n = 200000;
  for (int i = 0; i < n; ++i) s += r.exponential(0.4);
  EXPECT_NEAR(s / n, 2.5, 0.03);  // 2.5 ± ~5 standard errors (σ/√n = 2.5/447)
}

}  // namespace
}  // namespace pdsim
