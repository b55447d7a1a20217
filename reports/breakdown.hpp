#pragma once
// Read-only access to the summary's "pdsim" block for reports: the per-forward breakdown and
// the KV-transfer / queueing figures. Missing or non-numeric entries read as absent.
#include <optional>
#include <string>
#include <vector>

#include "sim/core/json_reader.hpp"

namespace pdsim {

struct BreakdownTerm {
  std::string name;
  double us = 0;  // mean µs per decode forward
};

// summary.pdsim.forward_breakdown_us, largest first (ties by name), numeric entries only.
std::vector<BreakdownTerm> forward_terms(const Json& summary);
// A number at summary.pdsim.<path...>, if present.
std::optional<double> pdsim_number(const Json& summary, const std::vector<std::string>& path);
// A top-level summary number, if present.
std::optional<double> summary_number(const Json& summary, const std::string& key);

}  // namespace pdsim
