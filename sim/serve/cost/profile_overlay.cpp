#include "sim/serve/cost/profile_overlay.hpp"

#include <algorithm>
#include <iterator>

#include "sim/core/data_path.hpp"
#include "sim/core/error.hpp"
#include "sim/core/excerpt.hpp"
#include "sim/core/provenance.hpp"

namespace pdsim {
namespace {

bool known_kind(const std::string& k) {
  return std::find(std::begin(kOverlayKinds), std::end(kOverlayKinds), k) !=
         std::end(kOverlayKinds);
}

// Every leaf of `set` must be a number replacing a number of the profile document, or a list of
// numbers replacing one of the same length (a curve's points).
void check_fields(const JsonNode& set, const Json& profile, const std::string& profile_name,
                  const std::string& path) {
  for (const auto& key : set.keys()) {
    const JsonNode v = set.at(key);
    const std::string p = path.empty() ? key : path + "." + key;
    if (!profile.is_object() || !profile.contains(key))
      v.fail("not a field of profile '" + excerpt(profile_name) + "' (" + excerpt(p, 160) + ")");
    if (v.is_object()) {
      check_fields(v, profile.at(key), profile_name, p);
    } else if (v.is_array()) {  // a curve: every point replaced, the grid kept
      const Json& old = profile.at(key);
      if (!old.is_array() || old.size() != v.size())
        v.fail("profile '" + excerpt(profile_name) + "' field " + excerpt(p, 160) +
               " is not a list of " + std::to_string(v.size()) + " numbers");
      for (size_t i = 0; i < v.size(); ++i) {
        v.at(i).number();
        if (!old.at(i).is_number())
          v.fail("profile '" + excerpt(profile_name) + "' field " + excerpt(p, 160) +
                 " is not a list of numbers");
      }
    } else {
      v.number();  // InputError naming the field when it is not a number
      if (!profile.at(key).is_number())
        v.fail("profile '" + excerpt(profile_name) + "' field " + excerpt(p, 160) +
               " is not a number");
    }
  }
}

}  // namespace

ProfileOverlay profile_overlay_from_json(Json doc, const std::string& file) {
  JsonNode n = JsonNode::from_json(doc, file);
  n.expect_only({"schema", "name", "description", "provenance", "profiles", "fit"});
  if (n.at("schema").string() != kProfileOverlaySchema)
    n.at("schema").fail(std::string("expected \"") + kProfileOverlaySchema + "\"");
  n.at("name").string();
  read_provenance(n.at("provenance"));
  const JsonNode profiles = n.at("profiles");
  if (!profiles.is_object()) profiles.fail("expected an object");
  for (const auto& kind : profiles.keys()) {
    const JsonNode sec = profiles.at(kind);
    if (!known_kind(kind)) sec.fail("expected one of fabric, gpu, serving, acceptance, collective");
    sec.expect_only({"profile", "set"});
    // A catalog name that names no profile would make the section apply nowhere, silently
    // (issue 31); a path is the user's own profile file and is checked where a scenario uses it.
    const std::string fitted_on = sec.at("profile").string();
    if (fitted_on.find('/') == std::string::npos && !fitted_on.ends_with(".json"))
      resolve_named("models/profiles/" + kind, fitted_on, file, "profiles." + kind + ".profile");
    if (!sec.at("set").is_object()) sec.at("set").fail("expected an object");
  }
  return ProfileOverlay{file, std::move(doc)};
}

ProfileOverlay load_profile_overlay(const std::string& arg) {
  const std::string path = file_or_named(arg, "calibrate/overlays").value_or(arg);
  return profile_overlay_from_json(JsonNode::load_file(path).raw(), path);
}

Json apply_profile_overlays(const std::vector<ProfileOverlay>& overlays, const std::string& kind,
                            const std::string& profile_name, const std::string& profile_file,
                            Json& doc) {
  Json log = Json::array();
  for (const auto& o : overlays) {
    const Json& profiles = o.doc.at("profiles");
    if (!profiles.contains(kind)) continue;
    const Json& sec = profiles.at(kind);
    const std::string fitted_on = sec.at("profile").get<std::string>();
    const std::string name = o.doc.at("name").get<std::string>();
    const std::string where = o.file.empty() ? name : o.file;
    if (fitted_on != profile_name) {
      log.push_back({{"overlay", where},
                     {"kind", kind},
                     {"skipped", "fitted on profile '" + fitted_on + "', this run uses '" +
                                     profile_name + "'"}});
      continue;
    }
    JsonNode set = JsonNode::from_json(o.doc, where).at("profiles").at(kind).at("set");
    check_fields(set, doc, profile_name + "' (" + profile_file + ")", "");
    doc.merge_patch(sec.at("set"));
    log.push_back({{"overlay", where}, {"kind", kind}, {"applied", sec.at("set")}});
  }
  return log;
}

std::vector<std::string> overlays_applying_nowhere(const std::vector<ProfileOverlay>& overlays,
                                                   const Json& log) {
  std::vector<std::string> out;
  for (const auto& o : overlays) {
    const std::string where = o.file.empty() ? o.doc.at("name").get<std::string>() : o.file;
    bool applied = false;
    std::string why;
    for (const auto& e : log) {
      if (e.value("overlay", "") != where) continue;
      applied = applied || e.contains("applied");
      if (e.contains("skipped"))
        why += (why.empty() ? "" : "; ") + e.at("kind").get<std::string>() + ": " +
               e.at("skipped").get<std::string>();
    }
    if (!applied)
      out.push_back("profile overlay " + where + " has no effect: it fits none of this run's " +
                    "profiles" + (why.empty() ? "" : " (" + why + ")"));
  }
  return out;
}

}  // namespace pdsim
