#include "sim/scenario/record_workload.hpp"

#include <algorithm>

#include "sim/scenario/scenario.hpp"
#include "sim/scenario/sglang_fields.hpp"

namespace pdsim {

std::string record_key_of_flag(const std::string& flag) {
  if (flag == "--num-prompts") return "completed";
  std::string key = flag.rfind("--", 0) == 0 ? flag.substr(2) : flag;
  std::replace(key.begin(), key.end(), '-', '_');
  return key;
}

std::vector<std::string> workload_from_record(const JsonNode& record) {
  std::vector<std::string> out;
  for (const FieldInfo& f : sglang_fields::mapped("workload")) {
    if (!f.spec.sglang.flag || !f.normalize) continue;
    const std::string key = record_key_of_flag(f.spec.sglang.flag);
    const Json& raw = record.raw();
    if (!raw.is_object() || !raw.contains(key)) continue;
    // null in a record is "not set" (max_concurrency): the field's default where the field
    // allows null, else the scenario's value.
    if (raw.at(key).is_null()) {
      if (f.spec.nullable) out.push_back(f.path + "=null");
      continue;
    }
    out.push_back(f.path + "=" + f.normalize(record.at(key), f.spec).dump());
  }
  return out;
}

}  // namespace pdsim
