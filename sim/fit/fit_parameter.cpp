#include "sim/fit/fit_parameter.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "sim/core/error.hpp"
#include "sim/core/excerpt.hpp"
#include "sim/core/fields.hpp"
#include "sim/core/time_bound.hpp"
#include "sim/fabric/collective_profile.hpp"
#include "sim/serve/cost/serving_profile.hpp"

namespace pdsim {
namespace {

const char* profile_key(const std::string& kind) {
  if (kind == "fabric") return "fabric_profile";
  if (kind == "gpu") return "gpu_profile";
  if (kind == "serving") return "serving_profile";
  if (kind == "collective") return "collective_profile";
  return "acceptance_profile";
}

bool to_double(const std::string& s, double& out) {
  if (s.empty()) return false;
  errno = 0;
  char* end = nullptr;
  out = std::strtod(s.c_str(), &end);
  return errno == 0 && end == s.c_str() + s.size() && std::isfinite(out);
}

// The declared fields of a profile kind whose reader is a declaration (serving_profile.hpp); empty
// for the kinds still read by hand (fabric, gpu, acceptance: their fields are found in the
// document).
std::vector<FieldInfo> declared_fields(const std::string& kind) {
  if (kind == "serving") return list_fields<ServingProfile>();
  if (kind == "collective") return list_fields<CollectiveProfile>();
  return {};
}

// A declared field: a number, and [lo, hi] inside its declared range.
void check_declared(const FitParameter& p, const std::vector<FieldInfo>& fields) {
  std::string path, names;
  for (const auto& k : p.field) path += (path.empty() ? "" : ".") + k;
  for (const auto& f : fields) {
    if (f.type != "number") continue;
    names += (names.empty() ? "" : ", ") + f.path;
    if (f.path != path) continue;
    const FieldSpec& s = f.spec;
    const bool below = s.min && (s.above_min ? p.lo <= *s.min : p.lo < *s.min);
    const auto max = upper_bound(s);
    if (below || (max && p.hi > *max))
      throw InputError("--fit", p.path,
                       "a range inside the field's declared range (" + f.range() + "), got [" +
                           Json(p.lo).dump() + ", " + Json(p.hi).dump() + "]");
    return;
  }
  throw InputError("--fit", p.path, "a number field of the " + p.kind + " profile (" + names + ")");
}

}  // namespace

FitParameter parse_fit_parameter(const std::string& spec) {
  auto bad = [&](const std::string& why) { throw InputError("--fit", spec, why); };
  const size_t eq = spec.rfind('=');
  if (eq == std::string::npos) bad("expected PATH=LO:HI");
  FitParameter p;
  p.path = spec.substr(0, eq);
  const std::string range = spec.substr(eq + 1);
  const size_t colon = range.find(':');
  if (colon == std::string::npos) bad("expected PATH=LO:HI (no ':' in the range)");
  if (!to_double(range.substr(0, colon), p.lo) || !to_double(range.substr(colon + 1), p.hi))
    bad("expected numbers LO and HI in PATH=LO:HI");
  if (!(p.lo < p.hi)) bad("expected LO < HI");
  size_t start = 0;
  while (start <= p.path.size()) {
    const size_t dot = p.path.find('.', start);
    const std::string key =
        p.path.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    if (key.empty()) bad("expected PATH as <kind>.<field>[.<field>...], got an empty key");
    if (p.kind.empty())
      p.kind = key;
    else
      p.field.push_back(key);
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  if (p.kind != "fabric" && p.kind != "gpu" && p.kind != "serving" && p.kind != "acceptance" &&
      p.kind != "collective")
    bad("expected PATH to start with fabric., gpu., serving., acceptance. or collective., got '" +
        excerpt(p.kind) + "'");
  if (p.field.empty()) bad("expected a field after '" + p.kind + ".'");
  if (const auto unit = key_time_unit(p.field.back());
      unit && !(time_within(p.lo, *unit, kMaxTimeS) && time_within(p.hi, *unit, kMaxTimeS)))
    bad("expected LO and HI each " + time_cap_text(*unit, kMaxTimeS));
  return p;
}

void bind_fit_parameter(FitParameter& p, const std::vector<const Deployment*>& deployments,
                        const std::vector<std::string>& where) {
  if (const auto fields = declared_fields(p.kind); !fields.empty()) check_declared(p, fields);
  bool bound = false;
  for (size_t i = 0; i < deployments.size(); ++i) {
    const Json& profiles = deployments[i]->profiles;
    const char* key = profile_key(p.kind);
    if (!profiles.contains(key)) continue;  // e.g. no acceptance profile without speculation
    const Json& doc = profiles.at(key);
    const Json* v = &doc;
    for (const auto& k : p.field) {
      if (!v->is_object() || !v->contains(k))
        throw InputError("--fit", p.path,
                         "not a field of " + p.kind + " profile '" + doc.value("name", "") + "'");
      v = &v->at(k);
    }
    if (!v->is_number())
      throw InputError("--fit", p.path,
                       "expected a number field, it is " + std::string(v->type_name()));
    const std::string name = doc.value("name", "");
    if (bound && name != p.profile)
      throw InputError("--fit", p.path,
                       "runs use different " + p.kind + " profiles ('" + p.profile + "', '" + name +
                           "'): one fitted value cannot belong to both");
    if (!bound) {
      p.start = std::clamp(v->get<double>(), p.lo, p.hi);
      p.run = i;
    }
    p.profile = name;
    bound = true;
  }
  if (!bound)
    throw InputError("--fit", p.path,
                     "no run uses a " + p.kind +
                         " profile (acceptance: none of the runs is "
                         "speculative, or every one overrides accept_prob; collective: none sets "
                         "fabric.collective_profile)");
  (void)where;
}

ProfileOverlay make_overlay(const std::vector<FitParameter>& params,
                            const std::vector<double>& theta, const std::string& name,
                            const Json& provenance, const Json& fit) {
  Json profiles = Json::object();
  for (size_t i = 0; i < params.size(); ++i) {
    const FitParameter& p = params[i];
    Json& sec = profiles[p.kind];
    sec["profile"] = p.profile;
    Json* node = &sec["set"];
    for (size_t k = 0; k + 1 < p.field.size(); ++k) node = &(*node)[p.field[k]];
    (*node)[p.field.back()] = theta[i];
  }
  Json doc = {{"schema", kProfileOverlaySchema},
              {"name", name},
              {"provenance", provenance.is_null() ? Json::object() : provenance},
              {"profiles", profiles}};
  if (!fit.is_null()) doc["fit"] = fit;
  return ProfileOverlay{"", doc};
}

}  // namespace pdsim
