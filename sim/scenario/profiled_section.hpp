#pragma once
// A tail mechanism's section whose parameters come from a profile file
// (models/profiles/tail/<profile>.json, schema "pdsim.tail_profile/1", which records its source)
// or inline with their own provenance:
//   {"enabled": ..., "profile": "...", <extra fields>, <parameters>, "provenance": {...}}
// Inline values override the profile's; a value changed from the profile's cannot keep the
// profile's source. The resolved form writes a profile's values under `from_profile` with the
// profile's name (information only, ignored when read back: an edit there is a no-effect
// warning), so that --set on a resolved scenario can change the profile without keeping its old
// values. A mechanism switched on needs a provenance.
//
// Params is a declared struct of the mechanism's parameters (numbers in their declared ranges,
// exactly the profile's `set`), with `static constexpr const char* kMechanism` (the profile's
// "mechanism"), and optionally `static void check(const Params&, bool enabled, const JsonNode&
// section)` for rules between them. Extra is a declared struct of fields that are not parameters.
#include <map>
#include <string>
#include <vector>

#include "sim/core/config_sections.hpp"
#include "sim/core/provenance.hpp"

namespace pdsim {

struct NoExtraFields {
  template <class V>
  static void declare(V&) {}
};

namespace profiled {
// The parameters named by a profile file (every one of `names`, each in its declared range) and
// its provenance. `field` names the scenario field that named it, `from` the scenario file.
std::map<std::string, double> load(const std::string& mechanism, const std::string& profile,
                                   const std::vector<std::string>& names,
                                   const std::vector<FieldSpec>& specs, const std::string& from,
                                   const std::string& field, Json& provenance);
// "expected a 'provenance' ..." when an enabled mechanism has none.
void need_provenance(const JsonNode& n, bool enabled, const Json& provenance,
                     bool profile_ok = false);

// Reads and writes a declared struct of numbers as name → value.
template <class P>
struct NumberFields {
  std::vector<std::string> names;
  std::vector<double P::*> members;
  std::vector<FieldSpec> specs;
  template <class T>
  void field(T P::*m, const char* key, const FieldSpec& spec = {}) {
    static_assert(std::is_same_v<T, double>, "profiled parameters are numbers");
    names.emplace_back(key);
    members.push_back(m);
    specs.push_back(spec);
  }
};
}  // namespace profiled

template <class Params, class Extra = NoExtraFields>
class ProfiledSection : public ConfigSection {
 public:
  static constexpr bool kCustomSection = true;
  ProfiledSection(bool on, std::string profile_name, std::string help)
      : enabled(on),
        profile(profile_name),
        help_(std::move(help)),
        def_enabled_(on),
        def_profile_(std::move(profile_name)) {}

  bool enabled;
  std::string profile;  // "" = parameters inline only
  Params params{};
  Extra extra{};
  Json provenance;
  bool inline_params = false;  // parameters given in the scenario (else the profile's)

  std::unique_ptr<ConfigSection> fresh() const override {
    return std::make_unique<ProfiledSection>(def_enabled_, def_profile_, help_);
  }
  const std::string& help() const override { return help_; }

  void read(const JsonNode& n, bool given) override {
    profiled::NumberFields<Params> nf;
    Params::declare(nf);
    std::vector<std::string> keys = nf.names;
    detail::KeyList extra_keys;
    Extra::declare(extra_keys);
    keys.insert(keys.end(), {"profile"});
    keys.insert(keys.end(), extra_keys.keys.begin(), extra_keys.keys.end());
    keys.insert(keys.end(), {"from_profile", "enabled", "provenance"});
    n.expect_only(keys);
    if (given) enabled = n.bool_or("enabled", enabled);
    detail::Reader<Extra> er{n, extra};
    Extra::declare(er);
    if (n.has("profile")) profile = n.at("profile").string();
    if (!profile.empty()) {
      const auto v = profiled::load(Params::kMechanism, profile, nf.names, nf.specs, n.file(),
                                    n.path() + ".profile", provenance);
      for (size_t i = 0; i < nf.names.size(); ++i) params.*nf.members[i] = v.at(nf.names[i]);
    }
    if (given) read_inline(n, nf);
    if (given) note_from_profile(n, nf);
    if constexpr (requires { Params::check(params, enabled, n); })
      Params::check(params, enabled, n);
    if (given) profiled::need_provenance(n, enabled, provenance, true);
  }

  Json write() const override {
    Json j = {{"enabled", enabled}, {"profile", profile}};
    j.update(write_fields(extra));
    Json p = write_fields(params);
    p["provenance"] = provenance;
    if (inline_params || profile.empty()) {
      j.update(p);
    } else {
      p["profile"] = profile;  // whose values these are: a later --set may change the profile
      j["from_profile"] = p;
    }
    return j;
  }

  std::vector<std::string> ignored_inputs(const std::string& path) const override {
    std::vector<std::string> out;
    for (const auto& k : ignored_)
      out.push_back(path + ".from_profile." + k +
                    " has no effect: from_profile only shows the profile's values; write " + path +
                    "." + k + " in the scenario to override");
    return out;
  }

  void list(const std::string& path, std::vector<FieldInfo>& out) const override {
    FieldSpec on{.help = "switches the mechanism on"};
    FieldSpec prof{.help = "models/profiles/tail entry the parameters come from (\"\" = inline)"};
    out.push_back(
        {path, "object", FieldSpec{.help = help_.c_str()}, nullptr, {{"type", "object"}}, nullptr});
    out.push_back({path + ".enabled",
                   "boolean",
                   on,
                   def_enabled_,
                   {{"type", "boolean"}},
                   &normalize_as<bool>});
    out.push_back({path + ".profile",
                   "string",
                   prof,
                   def_profile_,
                   {{"type", "string"}},
                   &normalize_as<std::string>});
    for (auto& f : list_fields<Extra>(path)) out.push_back(std::move(f));
    for (auto& f : list_fields<Params>(path)) {
      if (!def_profile_.empty()) f.default_value = "from profile " + def_profile_;
      out.push_back(std::move(f));
    }
    FieldSpec pv{.help = "the source of inline parameters", .nullable = true};
    out.push_back({path + ".provenance",
                   "provenance object",
                   pv,
                   nullptr,
                   {{"type", "object"}},
                   &normalize_as<Json>});
  }

 private:
  // Inline members override the profile's values; the provenance follows the values.
  void read_inline(const JsonNode& n, const profiled::NumberFields<Params>& nf) {
    const Json file_prov = provenance;
    bool differs = false;
    inline_params = false;
    for (size_t i = 0; i < nf.names.size(); ++i) {
      const std::string& k = nf.names[i];
      if (!n.has(k)) continue;
      const double x = FieldCodec<double>::read(n.at(k), nf.specs[i]);
      differs = differs || profile.empty() || x != params.*nf.members[i];
      params.*nf.members[i] = x;
      inline_params = true;
    }
    if (n.has_nullable("provenance"))
      provenance = read_provenance(n.at("provenance"));
    else if (inline_params)
      provenance = Json();  // values without their source
    if (differs && !profile.empty() && provenance == file_prov) provenance = Json();
    if (!inline_params && n.has_nullable("provenance") && !profile.empty()) provenance = file_prov;
  }

  // Values under `from_profile` that differ from the profile's own: an edit that would be
  // ignored. Only a block written for this same profile is compared (one left by a --set that
  // changed the profile is stale by design).
  void note_from_profile(const JsonNode& n, const profiled::NumberFields<Params>& nf) {
    ignored_.clear();
    if (!n.has_nullable("from_profile") || profile.empty() || inline_params) return;
    const Json& fp = n.at("from_profile").raw();
    if (!fp.is_object() || fp.value("profile", std::string()) != profile) return;
    for (size_t i = 0; i < nf.names.size(); ++i) {
      const auto it = fp.find(nf.names[i]);
      if (it != fp.end() &&
          (!it->is_number() || it->template get<double>() != params.*nf.members[i]))
        ignored_.push_back(nf.names[i]);
    }
  }

  std::vector<std::string> ignored_;
  std::string help_;
  bool def_enabled_;
  std::string def_profile_;
};

}  // namespace pdsim
