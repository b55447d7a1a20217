#include "sim/core/rng.hpp"

#include <cmath>
#include <stdexcept>

namespace pdsim {
namespace {
uint64_t splitmix64(uint64_t& x) {
  uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}
inline uint64_t rotl(uint64_t x, int k) {
  return (x << k) | (x >> (64 - k));
}
}  // namespace

Rng::Rng(uint64_t seed) : seed_(seed) {
  uint64_t x = seed;
  for (auto& s : s_) s = splitmix64(x);
}

Rng Rng::fork(uint64_t stream) const {
  uint64_t x = seed_ ^ (0xd1b54a32d192ed03ULL * (stream + 1));
  return Rng(splitmix64(x));
}

uint64_t Rng::next_u64() {
  const uint64_t result = rotl(s_[1] * 5, 7) * 9;
  const uint64_t t = s_[1] << 17;
  s_[2] ^= s_[0];
  s_[3] ^= s_[1];
  s_[1] ^= s_[2];
  s_[0] ^= s_[3];
  s_[2] ^= t;
  s_[3] = rotl(s_[3], 45);
  return result;
}

double Rng::uniform01() {
  return static_cast<double>(next_u64() >> 11) * 0x1.0p-53;
}

double Rng::uniform(double lo, double hi) {
  return lo + (hi - lo) * uniform01();
}

int64_t Rng::uniform_int(int64_t lo, int64_t hi) {
  if (hi < lo) throw std::invalid_argument("Rng::uniform_int: hi < lo");
  const uint64_t range = static_cast<uint64_t>(hi - lo) + 1;
  if (range == 0) return static_cast<int64_t>(next_u64());
  // Lemire's multiply-shift with rejection: unbiased.
  uint64_t x = next_u64();
  __uint128_t m = static_cast<__uint128_t>(x) * range;
  uint64_t l = static_cast<uint64_t>(m);
  if (l < range) {
    const uint64_t t = (0 - range) % range;
    while (l < t) {
      x = next_u64();
      m = static_cast<__uint128_t>(x) * range;
      l = static_cast<uint64_t>(m);
    }
  }
  return lo + static_cast<int64_t>(m >> 64);
}

double Rng::exponential(double rate) {
  return -std::log1p(-uniform01()) / rate;
}

double Rng::normal(double mean, double stddev) {
  double u1 = uniform01();
  double u2 = uniform01();
  if (u1 < 1e-300) u1 = 1e-300;
  return mean + stddev * std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * M_PI * u2);
}

bool Rng::bernoulli(double p) {
  return uniform01() < p;
}

void Rng::sample_distinct(int n, int k, std::vector<int>& out) {
  if (k > n || k < 0) throw std::invalid_argument("Rng::sample_distinct: k > n");
  out.clear();
  // Rejection against the (small) set chosen so far: k is a top-k (<= 16), n is #experts.
  while (static_cast<int>(out.size()) < k) {
    int v = static_cast<int>(uniform_int(0, n - 1));
    bool dup = false;
    for (int c : out) dup = dup || c == v;
    if (!dup) out.push_back(v);
  }
}

}  // namespace pdsim
