#pragma once
// Statistics with the exact semantics bench_serving uses (numpy): mean, population std (ddof 0),
// percentiles by linear interpolation between closest ranks (np.percentile default).
#include <cstddef>
#include <vector>

namespace pdsim {

double mean_of(const std::vector<double>& v);
double std_of(const std::vector<double>& v);              // population (ddof = 0)
double percentile_of(std::vector<double> v, double pct);  // pct in [0, 100]
double percentile_sorted(const std::vector<double>& sorted, double pct);
double max_of(const std::vector<double>& v);

// The 5, 50 and 95 % points of a sample (the bands of seed and parameter intervals).
struct Band {
  double p05 = 0, p50 = 0, p95 = 0;
};
Band band_of(std::vector<double> v);  // v non-empty

struct Distribution {
  double mean = 0, std = 0, median = 0, p90 = 0, p95 = 0, p99 = 0, min = 0, max = 0;
  std::size_t count = 0;
};
// Empty input gives all zeros (bench_serving reports 0 for empty lists).
Distribution describe(std::vector<double> v);

}  // namespace pdsim
