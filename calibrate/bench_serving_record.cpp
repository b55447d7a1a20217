#include "calibrate/bench_serving_record.hpp"

#include <cmath>

#include "sim/core/error.hpp"
#include "sim/core/excerpt.hpp"

namespace pdsim {
namespace {

bool ends_with(const std::string& s, const char* suffix) {
  const std::string t(suffix);
  return s.size() >= t.size() && s.compare(s.size() - t.size(), t.size(), t) == 0;
}

}  // namespace

bool is_bench_serving_measured_key(const std::string& key) {
  for (const char* suffix : {"_ms", "_throughput", "_per_s"})
    if (ends_with(key, suffix)) return true;
  if (key.rfind("total_", 0) == 0) return true;  // total_input_tokens, total_output_tokens, ...
  for (const char* k :
       {"duration", "completed", "concurrency", "accept_length", "max_concurrent_requests"})
    if (key == k) return true;
  return false;
}

void check_bench_serving_values(const Json& record, const std::string& file,
                                const std::string& field) {
  if (!record.is_object()) return;
  for (const auto& [key, v] : record.items()) {
    if (v.is_null() || !is_bench_serving_measured_key(key)) continue;
    if (v.is_number() && std::isfinite(v.get<double>()) && v.get<double>() >= 0) continue;
    throw InputError(file, field.empty() ? excerpt(key) : field + ": " + excerpt(key),
                     "expected a finite non-negative number (a measured latency, throughput, "
                     "count or duration) or null, got " +
                         excerpt(v.dump()));
  }
}

}  // namespace pdsim
