#include "sim/core/stats.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace pdsim {

double mean_of(const std::vector<double>& v) {
  if (v.empty()) return 0.0;
  return std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
}

double std_of(const std::vector<double>& v) {
  if (v.empty()) return 0.0;
  const double m = mean_of(v);
  double acc = 0.0;
  for (double x : v) acc += (x - m) * (x - m);
  return std::sqrt(acc / static_cast<double>(v.size()));
}

double percentile_sorted(const std::vector<double>& s, double pct) {
  if (s.empty()) return 0.0;
  if (pct < 0 || pct > 100) throw std::invalid_argument("percentile outside [0, 100]");
  const double rank = pct / 100.0 * static_cast<double>(s.size() - 1);
  const auto lo = static_cast<size_t>(std::floor(rank));
  const size_t hi = std::min(lo + 1, s.size() - 1);
  const double frac = rank - static_cast<double>(lo);
  return s[lo] + (s[hi] - s[lo]) * frac;
}

double percentile_of(std::vector<double> v, double pct) {
  std::sort(v.begin(), v.end());
  return percentile_sorted(v, pct);
}

double max_of(const std::vector<double>& v) {
  return v.empty() ? 0.0 : *std::max_element(v.begin(), v.end());
}

Distribution describe(std::vector<double> v) {
  Distribution d;
  if (v.empty()) return d;
  d.count = v.size();
  d.mean = mean_of(v);
  d.std = std_of(v);
  // Only the ranks the percentiles read are put in place (nth_element, each over what is past
  // the previous one), not the whole vector sorted: the same values, O(n) for 10^5-10^6 ITLs.
  const double pcts[] = {50, 90, 95, 99};
  std::vector<size_t> ranks = {0, v.size() - 1};
  for (double p : pcts) {
    const double rank = p / 100.0 * static_cast<double>(v.size() - 1);
    const auto lo = static_cast<size_t>(std::floor(rank));
    ranks.push_back(lo);
    ranks.push_back(std::min(lo + 1, v.size() - 1));
  }
  std::sort(ranks.begin(), ranks.end());
  size_t from = 0;
  for (size_t r : ranks) {
    if (r < from) continue;  // already in place
    std::nth_element(v.begin() + static_cast<std::ptrdiff_t>(from),
                     v.begin() + static_cast<std::ptrdiff_t>(r), v.end());
    from = r + 1;
  }
  d.median = percentile_sorted(v, pcts[0]);
  d.p90 = percentile_sorted(v, pcts[1]);
  d.p95 = percentile_sorted(v, pcts[2]);
  d.p99 = percentile_sorted(v, pcts[3]);
  d.min = v.front();
  d.max = v.back();
  return d;
}

Band band_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return {percentile_sorted(v, 5), percentile_sorted(v, 50), percentile_sorted(v, 95)};
}

}  // namespace pdsim
