#include "sim/scenario/profiled_section.hpp"

#include "sim/core/data_path.hpp"
#include "sim/core/field_codec.hpp"
#include "sim/core/provenance.hpp"

namespace pdsim::profiled {

std::map<std::string, double> load(const std::string& mechanism, const std::string& profile,
                                   const std::vector<std::string>& names,
                                   const std::vector<FieldSpec>& specs, const std::string& from,
                                   const std::string& field, Json& provenance) {
  JsonNode f = load_named("models/profiles/tail", profile, from, field);
  f.expect_only({"schema", "name", "mechanism", "set", "provenance"});
  if (f.at("schema").string() != "pdsim.tail_profile/1")
    f.at("schema").fail("expected \"pdsim.tail_profile/1\"");
  if (f.at("mechanism").string() != mechanism)
    f.at("mechanism").fail("expected \"" + mechanism + "\" (named by " + field + ")");
  const JsonNode set = f.at("set");
  set.expect_only(names);
  std::map<std::string, double> v;
  for (size_t i = 0; i < names.size(); ++i)
    v[names[i]] = FieldCodec<double>::read(set.at(names[i]), specs[i]);
  provenance = read_provenance(f.at("provenance"));
  return v;
}

void need_provenance(const JsonNode& n, bool enabled, const Json& prov, bool profile_ok) {
  if (enabled && (prov.is_null() || (prov.is_object() && prov.empty())))
    (n.has("provenance") ? n.at("provenance") : n)
        .fail(std::string("expected a 'provenance' (published figure or measurement) for the "
                          "parameters of an enabled mechanism") +
              (profile_ok ? ", or a 'profile' (models/profiles/tail) that carries one" : ""));
}

}  // namespace pdsim::profiled
