#include "sim/scenario/tail_config.hpp"

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sim/core/data_path.hpp"
#include "sim/core/provenance.hpp"

namespace pdsim {

namespace {
// {enabled, profile, <extra>, and the parameters with their provenance: inline when the scenario
// gave them, else under from_profile}.
Json section_json(bool enabled, const std::string& profile, bool inline_params, const Json& params,
                  const Json& provenance, const Json& extra) {
  Json j = {{"enabled", enabled}, {"profile", profile}};
  j.update(extra);
  Json p = params;
  p["provenance"] = provenance;
  if (inline_params || profile.empty())
    j.update(p);
  else
    j["from_profile"] = p;
  return j;
}
}  // namespace

Json TailConfig::to_json() const {
  return Json{
      {"dp_imbalance", dp_imbalance},
      {"cuda_graph_miss", cuda_graph_miss},
      {"batch_jumps", batch_jumps},
      {"acceptance_variance", acceptance_variance},
      {"fabric_background", fabric_background},
      {"expert_skew",
       {{"enabled", expert_skew.enabled},
        {"zipf_s", expert_skew.zipf_s},
        {"eplb", expert_skew.eplb},
        {"provenance", expert_skew.provenance}}},
      {"scheduler_hiccups",
       {{"enabled", scheduler_hiccups.enabled},
        {"probability", scheduler_hiccups.probability},
        {"delay_us", scheduler_hiccups.delay_us},
        {"provenance", scheduler_hiccups.provenance}}},
      {"link_errors",
       section_json(link_errors.enabled, link_errors.profile, link_errors.inline_params,
                    {{"ber", link_errors.ber}}, link_errors.provenance,
                    {{"a2a_library", link_errors.a2a_library}})},
      {"path_flaps", section_json(path_flaps.enabled, path_flaps.profile, path_flaps.inline_params,
                                  {{"per_link_per_hour", path_flaps.per_link_per_hour},
                                   {"down_ms", path_flaps.down_ms}},
                                  path_flaps.provenance, Json::object())},
      {"gc_pauses", section_json(gc_pauses.enabled, gc_pauses.profile, gc_pauses.inline_params,
                                 {{"interval_s", gc_pauses.interval_s},
                                  {"at_requests", gc_pauses.at_requests},
                                  {"pause_min_ms", gc_pauses.pause_min_ms},
                                  {"pause_max_ms", gc_pauses.pause_max_ms}},
                                 gc_pauses.provenance, Json::object())},
      {"admission_work",
       {{"enabled", admission_work.enabled},
        {"us_per_request", admission_work.us_per_request},
        {"provenance", admission_work.provenance}}}};
}

namespace {
// A mechanism switched on needs the source of its parameters (honest numbers).
void need_provenance(const JsonNode& n, bool enabled, const Json& prov) {
  if (enabled && (prov.is_null() || (prov.is_object() && prov.empty())))
    n.fail(
        "expected a 'provenance' (published figure or measurement) for the parameters of an "
        "enabled mechanism");
}
// A mechanism's parameters: from its profile file (models/profiles/tail/<profile>.json, which
// must be for this mechanism and lists exactly `params` with a provenance), then inline members,
// which override it. Returns the merged values; `prov` is the inline provenance, else the file's.
std::map<std::string, double> mechanism_params(const JsonNode* n, const std::string& mechanism,
                                               std::string& profile,
                                               const std::vector<std::string>& params, Json& prov,
                                               const std::string& from_file, bool& inline_value) {
  std::map<std::string, double> v;
  for (const auto& p : params) v[p] = 0.0;
  if (n && n->has("profile")) profile = n->at("profile").string();
  if (!profile.empty()) {
    const std::string field = "tail." + mechanism + ".profile";
    JsonNode f = JsonNode::load_file(
        resolve_named("models/profiles/tail", profile, n ? n->file() : from_file, field));
    f.expect_only({"schema", "name", "mechanism", "set", "provenance"});
    if (f.at("schema").string() != "pdsim.tail_profile/1")
      f.at("schema").fail("expected \"pdsim.tail_profile/1\"");
    if (f.at("mechanism").string() != mechanism)
      f.at("mechanism").fail("expected \"" + mechanism + "\" (named by " + field + ")");
    const JsonNode set = f.at("set");
    set.expect_only(params);
    for (const auto& p : params) v[p] = set.at(p).non_negative();
    prov = read_provenance(f.at("provenance"));
  }
  if (!n) return v;
  const Json file_prov = prov;
  bool differs = false;
  inline_value = false;
  for (const auto& p : params)
    if (n->has(p)) {
      const double x = n->at(p).non_negative();
      differs = differs || profile.empty() || x != v[p];
      v[p] = x;
      inline_value = true;
    }
  if (n->has_nullable("provenance"))
    prov = read_provenance(n->at("provenance"));
  else if (inline_value)
    prov = Json();  // values without their source
  // A value changed from the profile's (e.g. by --set on a resolved scenario) cannot keep the
  // profile's source.
  if (differs && !profile.empty() && prov == file_prov) prov = Json();
  if (!inline_value && n->has_nullable("provenance") && !profile.empty()) prov = file_prov;
  return v;
}

}  // namespace

TailConfig parse_tail(const JsonNode& n) {
  n.expect_only({"dp_imbalance", "cuda_graph_miss", "batch_jumps", "acceptance_variance",
                 "fabric_background", "expert_skew", "scheduler_hiccups", "link_errors",
                 "path_flaps", "gc_pauses", "admission_work"});
  TailConfig t;
  t.dp_imbalance = n.bool_or("dp_imbalance", t.dp_imbalance);
  t.cuda_graph_miss = n.bool_or("cuda_graph_miss", t.cuda_graph_miss);
  t.batch_jumps = n.bool_or("batch_jumps", t.batch_jumps);
  t.acceptance_variance = n.bool_or("acceptance_variance", t.acceptance_variance);
  t.fabric_background = n.bool_or("fabric_background", t.fabric_background);
  if (n.has("expert_skew")) {
    const JsonNode e = n.at("expert_skew");
    e.expect_only({"enabled", "zipf_s", "eplb", "provenance"});
    t.expert_skew.enabled = e.bool_or("enabled", false);
    t.expert_skew.zipf_s = e.has("zipf_s") ? e.at("zipf_s").non_negative() : 0.0;
    t.expert_skew.eplb = e.bool_or("eplb", true);
    // Nullable: the resolved scenario writes null for "none given" (to_json above).
    if (e.has_nullable("provenance"))
      t.expert_skew.provenance = read_provenance(e.at("provenance"));
    need_provenance(e, t.expert_skew.enabled, t.expert_skew.provenance);
  }
  if (n.has("scheduler_hiccups")) {
    const JsonNode h = n.at("scheduler_hiccups");
    h.expect_only({"enabled", "probability", "delay_us", "provenance"});
    t.scheduler_hiccups.enabled = h.bool_or("enabled", false);
    t.scheduler_hiccups.probability = h.has("probability") ? h.at("probability").fraction() : 0.0;
    t.scheduler_hiccups.delay_us = h.has("delay_us") ? h.at("delay_us").non_negative() : 0.0;
    if (h.has_nullable("provenance"))
      t.scheduler_hiccups.provenance = read_provenance(h.at("provenance"));
    need_provenance(h, t.scheduler_hiccups.enabled, t.scheduler_hiccups.provenance);
  }
  auto section = [&](const char* key, std::vector<std::string> members) -> std::optional<JsonNode> {
    if (!n.has(key)) return std::nullopt;
    JsonNode e = n.at(key);
    members.insert(members.end(), {"enabled", "provenance"});
    e.expect_only(members);
    return e;
  };
  {
    auto& m = t.link_errors;
    const auto e = section("link_errors", {"profile", "ber", "a2a_library", "from_profile"});
    if (e) m.enabled = e->bool_or("enabled", m.enabled);
    if (e && e->has("a2a_library")) m.a2a_library = e->at("a2a_library").string();
    const auto v = mechanism_params(e ? &*e : nullptr, "link_errors", m.profile, {"ber"},
                                    m.provenance, n.file(), m.inline_params);
    m.ber = v.at("ber");
    if (m.ber >= 1) (e ? *e : n).fail("expected link_errors.ber (a bit error rate) below 1");
    if (e) need_provenance(*e, m.enabled, m.provenance);
  }
  {
    auto& m = t.path_flaps;
    const auto e =
        section("path_flaps", {"profile", "per_link_per_hour", "down_ms", "from_profile"});
    if (e) m.enabled = e->bool_or("enabled", m.enabled);
    const auto v =
        mechanism_params(e ? &*e : nullptr, "path_flaps", m.profile,
                         {"per_link_per_hour", "down_ms"}, m.provenance, n.file(), m.inline_params);
    m.per_link_per_hour = v.at("per_link_per_hour");
    m.down_ms = v.at("down_ms");
    if (e) need_provenance(*e, m.enabled, m.provenance);
  }
  {
    auto& m = t.gc_pauses;
    const auto e = section("gc_pauses", {"profile", "interval_s", "at_requests", "pause_min_ms",
                                         "pause_max_ms", "from_profile"});
    if (e) m.enabled = e->bool_or("enabled", m.enabled);
    const auto v = mechanism_params(e ? &*e : nullptr, "gc_pauses", m.profile,
                                    {"interval_s", "at_requests", "pause_min_ms", "pause_max_ms"},
                                    m.provenance, n.file(), m.inline_params);
    m.interval_s = v.at("interval_s");
    m.at_requests = v.at("at_requests");
    m.pause_min_ms = v.at("pause_min_ms");
    m.pause_max_ms = v.at("pause_max_ms");
    if (e && m.enabled && m.interval_s <= 0) e->fail("expected interval_s > 0 when enabled");
    if (e && m.pause_max_ms < m.pause_min_ms) e->fail("expected pause_min_ms <= pause_max_ms");
    if (e) need_provenance(*e, m.enabled, m.provenance);
  }
  {
    auto& m = t.admission_work;
    const auto e = section("admission_work", {"us_per_request"});
    if (e) {
      m.enabled = e->bool_or("enabled", m.enabled);
      if (e->has("us_per_request")) m.us_per_request = e->at("us_per_request").non_negative();
      if (e->has_nullable("provenance")) m.provenance = read_provenance(e->at("provenance"));
      need_provenance(*e, m.enabled, m.provenance);
    }
  }
  return t;
}

}  // namespace pdsim
