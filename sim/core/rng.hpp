#pragma once
// Seeded, platform-independent random numbers. std:: distributions are implementation-defined,
// so every distribution we need is written here on top of xoshiro256** (seeded by splitmix64):
// the same seed gives the same stream on every compiler and libstdc++.
#include <cstdint>
#include <vector>

namespace pdsim {

class Rng {
 public:
  explicit Rng(uint64_t seed);
  // An independent stream derived from this generator's seed and `stream` (does not advance this).
  Rng fork(uint64_t stream) const;

  uint64_t next_u64();
  double uniform01();                           // [0, 1), 53-bit resolution
  double uniform(double lo, double hi);         // [lo, hi)
  int64_t uniform_int(int64_t lo, int64_t hi);  // inclusive bounds, unbiased
  double exponential(double rate);              // mean 1/rate
  double normal(double mean, double stddev);    // Box–Muller, no cached second value
  bool bernoulli(double p);
  // k distinct values from [0, n) in selection order (k <= n); `scratch` avoids reallocation.
  void sample_distinct(int n, int k, std::vector<int>& out);

  uint64_t seed() const { return seed_; }

 private:
  uint64_t seed_;
  uint64_t s_[4];
};

}  // namespace pdsim
