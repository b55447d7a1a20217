#include "sim/fabric/a2a_fit_evidence.hpp"

#include <cmath>
#include <set>

namespace pdsim {

Json a2a_fit_evidence(const FabricProfile& p, const std::string& backend) {
  if (!p.fit.is_object() || !p.fit.contains("a2a") || !p.fit["a2a"].contains(backend))
    return nullptr;
  const Json& f = p.fit["a2a"][backend];
  Json out = Json::object();
  out["backend"] = backend;
  out["profile"] = p.name;
  std::set<int> eps;
  double measured_sum = 0;
  int rows = 0;
  if (f.contains("residuals"))
    for (const auto& r : f["residuals"]) {
      if (r.contains("ep") && r["ep"].is_number()) eps.insert(r["ep"].get<int>());
      if (r.contains("measured_us") && r["measured_us"].is_number()) {
        measured_sum += r["measured_us"].get<double>();
        ++rows;
      }
    }
  out["fit_rows"] = rows;
  out["measured_ep"] = Json(std::vector<int>(eps.begin(), eps.end()));
  if (f.contains("rms_us") && f["rms_us"].is_number() && rows > 0) {
    out["rms_us"] = f["rms_us"];
    out["rms_rel_error"] = f["rms_us"].get<double>() / (measured_sum / rows);
  }
  // Fitted (not held) parameters, their standard errors and what each alternate gives alone.
  Json params = Json::object();
  if (f.contains("parameters"))
    for (const auto& [name, v] : f["parameters"].items()) {
      if (v.value("held", false)) continue;
      Json e = {{"value", v.value("value", 0.0)}};
      if (v.contains("std_error")) e["std_error"] = v["std_error"];
      Json alt = Json::object();
      if (p.fit.contains("alternates"))
        for (const auto& [file, a] : p.fit["alternates"].items())
          if (a.contains(backend) && a[backend].contains("block") &&
              a[backend]["block"].contains(name))
            alt[file] = a[backend]["block"][name];
      if (!alt.empty()) e["alternates"] = alt;
      params[name] = e;
    }
  out["fitted_parameters"] = params;
  return out;
}

}  // namespace pdsim
