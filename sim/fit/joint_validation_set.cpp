#include "sim/fit/joint_validation_set.hpp"

#include <map>

#include "sim/core/data_path.hpp"
#include "sim/core/error.hpp"

namespace pdsim {

ValidationSet joint_validation_set(const std::vector<ValidationSet>& sets) {
  ValidationSet j;
  j.provenance = {{"kind", "joint"}, {"sets", Json::array()}};
  std::map<std::string, std::string> owner;  // run name → the set that has it
  for (const auto& s : sets) {
    j.name += (j.name.empty() ? "" : " + ") + s.name;
    j.provenance["sets"].push_back(
        Json{{"name", s.name}, {"file", relative_to_data(s.file)}, {"provenance", s.provenance}});
    for (size_t i = 0; i < s.runs.size(); ++i) {
      const auto [it, fresh] = owner.emplace(s.runs[i].name, s.name);
      if (!fresh)
        throw InputError(s.file, "runs[" + std::to_string(i) + "].name",
                         "a run name not already used by set '" + it->second +
                             "' (the joint fit names runs across sets)");
      j.runs.push_back(s.runs[i]);
    }
  }
  return j;
}

}  // namespace pdsim
