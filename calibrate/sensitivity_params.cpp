#include "calibrate/sensitivity_params.hpp"

#include <cmath>
#include <set>

namespace pdsim {
namespace {

// Identification members of the document itself.
const std::set<std::string>& left_out_top(const std::string& profile) {
  static const std::set<std::string> fabric = {"schema", "name", "transport"};
  static const std::set<std::string> gpu = {"schema", "name", "gpu"};
  return profile == "gpu" ? gpu : fabric;
}
// Bookkeeping at any depth: sources, fit residuals, raw hwkernels data the values came from, the
// priors of held parameters (what --param-samples draws from; no run reads them).
bool bookkeeping(const std::string& key) {
  return key == "provenance" || key == "fit" || key == "measurements" || key == "priors";
}

std::string join(const std::vector<std::string>& path) {
  std::string s;
  for (const auto& k : path) s += (s.empty() ? "" : ".") + k;
  return s;
}

bool is_curve(const Json& j) {
  return j.is_object() && j.contains("x") && j.contains("eff") && j["x"].is_array() &&
         j["eff"].is_array();
}

void walk(const std::string& profile, const Json& node, std::vector<std::string>& path,
          std::vector<SensitivityParam>& out) {
  for (const auto& [key, v] : node.items()) {
    if ((path.empty() && left_out_top(profile).count(key)) || bookkeeping(key)) continue;
    path.push_back(key);
    if (v.is_number()) {
      SensitivityParam p;
      p.profile = profile;
      p.path = path;
      p.name = profile + ":" + join(path);
      p.integer = v.is_number_integer();
      p.base = v.get<double>();
      out.push_back(p);
    } else if (is_curve(v)) {
      SensitivityParam p;
      p.profile = profile;
      p.path = path;
      p.path.push_back("eff");
      p.name = profile + ":" + join(p.path);
      p.curve = true;
      p.base = 1;
      out.push_back(p);
    } else if (v.is_object()) {
      walk(profile, v, path, out);
    }
    path.pop_back();
  }
}

}  // namespace

std::vector<SensitivityParam> sensitivity_parameters(const std::string& profile, const Json& doc) {
  std::vector<SensitivityParam> out;
  std::vector<std::string> path;
  if (doc.is_object()) walk(profile, doc, path, out);
  return out;
}

std::optional<Perturbed> perturb_parameter(const Json& doc, const SensitivityParam& p, double rel) {
  Perturbed r{doc, 0};
  Json* node = &r.doc;
  for (const auto& k : p.path) node = &(*node)[k];
  if (p.curve) {
    for (auto& e : *node) e = e.get<double>() * (1 + rel);
    r.value = 1 + rel;
    return r;
  }
  if (p.base == 0) return std::nullopt;
  if (p.integer) {
    const auto base = static_cast<int64_t>(std::llround(p.base));
    int64_t v = std::llround(p.base * (1 + rel));
    if (v == base) v = base + (rel > 0 ? 1 : -1);
    *node = v;
    r.value = static_cast<double>(v);
  } else {
    r.value = p.base * (1 + rel);
    *node = r.value;
  }
  return r;
}

}  // namespace pdsim
