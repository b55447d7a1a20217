#include "calibrate/collective_row_noise.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <string>
#include <tuple>

namespace pdsim {

double printed_unit(double v) {
  char buf[64];
  const auto res = std::to_chars(buf, buf + sizeof buf, v);
  const std::string s(buf, res.ptr);
  if (s.find_first_of("eE") != std::string::npos) {
    // Exponent form: the unit of the last mantissa digit times the power of ten.
    const size_t e = s.find_first_of("eE");
    const std::string mant = s.substr(0, e);
    const size_t dot = mant.find('.');
    const int dec = dot == std::string::npos ? 0 : static_cast<int>(mant.size() - dot - 1);
    return std::pow(10.0, std::stoi(s.substr(e + 1)) - dec);
  }
  const size_t dot = s.find('.');
  if (dot == std::string::npos) return 1.0;
  return std::pow(10.0, -static_cast<double>(s.size() - dot - 1));
}

std::vector<double> collective_row_variances(const std::vector<CollectiveRow>& rows) {
  // Repeatability per (instance, size): sample variance of ln(time) over its rows.
  std::map<std::pair<std::string, double>, std::vector<double>> logs;
  for (const auto& r : rows) logs[{r.instance, r.bytes}].push_back(std::log(r.time_us));
  std::map<std::pair<std::string, double>, double> rep;
  std::map<double, std::vector<double>> by_size;
  std::vector<double> all;
  for (const auto& [key, v] : logs) {
    if (v.size() < 2) continue;
    double mean = 0;
    for (double x : v) mean += x;
    mean /= static_cast<double>(v.size());
    double ss = 0;
    for (double x : v) ss += (x - mean) * (x - mean);
    const double var = ss / static_cast<double>(v.size() - 1);
    rep[key] = var;
    by_size[key.second].push_back(var);
    all.push_back(var);
  }
  auto median = [](std::vector<double> v) {
    if (v.empty()) return 0.0;
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
  };
  const double fallback = median(all);
  std::vector<double> out;
  for (const auto& r : rows) {
    double var = fallback;
    if (auto it = rep.find({r.instance, r.bytes}); it != rep.end())
      var = it->second;
    else if (auto s = by_size.find(r.bytes); s != by_size.end())
      var = median(s->second);
    const double u = r.print_unit_rel;
    out.push_back(var + u * u / 12.0);
  }
  return out;
}

}  // namespace pdsim
