#include "sim/fit/fit_starts.hpp"

#include <stdexcept>

namespace pdsim {
namespace {
constexpr unsigned kPrimes[] = {2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53};
}  // namespace

double halton(unsigned k, unsigned base) {
  double f = 1, r = 0;
  while (k > 0) {
    f /= base;
    r += f * (k % base);
    k /= base;
  }
  return r;
}

std::vector<std::vector<double>> fit_starts(const std::vector<FitParameter>& params, int count) {
  if (count < 1) throw std::invalid_argument("fit_starts: expected at least one start");
  if (params.size() > std::size(kPrimes))
    throw std::invalid_argument("fit_starts: at most " + std::to_string(std::size(kPrimes)) +
                                " parameters");
  std::vector<std::vector<double>> out;
  std::vector<double> first;
  for (const auto& p : params) first.push_back(p.start);
  out.push_back(first);
  for (unsigned k = 1; k < static_cast<unsigned>(count); ++k) {
    std::vector<double> theta;
    for (size_t j = 0; j < params.size(); ++j)
      theta.push_back(params[j].lo + halton(k, kPrimes[j]) * (params[j].hi - params[j].lo));
    out.push_back(theta);
  }
  return out;
}

}  // namespace pdsim
