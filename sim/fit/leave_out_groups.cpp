#include "sim/fit/leave_out_groups.hpp"

#include <algorithm>

#include "sim/core/error.hpp"
#include "sim/fit/deployment_coordinates.hpp"

namespace pdsim {

std::vector<LeaveOutGroup> leave_out_groups(const ValidationSet& set,
                                            const std::vector<Deployment>& deps,
                                            const std::string& by) {
  const std::vector<std::string> keys = coordinate_keys();
  if (by != "run" && by != "deployment" && std::find(keys.begin(), keys.end(), by) == keys.end()) {
    std::string accepted = "run, deployment";
    for (const auto& k : keys) accepted += ", " + k;
    throw InputError("--leave-out-by", by, "one of: " + accepted);
  }
  std::vector<Coordinates> coords;
  for (const auto& d : deps) coords.push_back(deployment_coordinates(d));
  // A deployment is named by the categorical coordinates that tell the set's runs apart (the
  // model, platform and stack they all share would only make every label longer).
  auto varies = [&](size_t j) {
    for (const auto& c : coords)
      if (c[j].value() != coords.front()[j].value()) return true;
    return false;
  };
  std::vector<LeaveOutGroup> groups;
  for (size_t i = 0; i < set.runs.size(); ++i) {
    std::string label;
    if (by == "run") {
      label = set.runs[i].name;
    } else {
      const Coordinates& c = coords[i];
      for (size_t j = 0; j < c.size(); ++j) {
        if (by == "deployment" ? c[j].numeric || !varies(j) : c[j].key != by) continue;
        label += (label.empty() ? "" : " | ") +
                 (by == "deployment" ? c[j].value() : c[j].key + " = " + c[j].value());
      }
    }
    auto g = std::find_if(groups.begin(), groups.end(),
                          [&](const LeaveOutGroup& x) { return x.label == label; });
    if (g == groups.end() || by == "run")
      groups.push_back({label, {i}});
    else
      g->runs.push_back(i);
  }
  if (groups.size() < 2)
    throw InputError("--leave-out-by", by,
                     "a grouping of the set's runs into at least two groups (all " +
                         std::to_string(set.runs.size()) +
                         " runs share one value: no run would "
                         "be left to fit)");
  return groups;
}

}  // namespace pdsim
