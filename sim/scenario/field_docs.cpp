#include "sim/scenario/field_docs.hpp"

#include <algorithm>
#include <map>

#include "sim/core/error.hpp"
#include "sim/core/excerpt.hpp"
#include "sim/core/text_align.hpp"

namespace pdsim {
namespace {

std::string role_of(const std::string& path) {
  if (path.rfind("prefill.", 0) == 0) return "prefill launch_server";
  if (path.rfind("decode.", 0) == 0) return "decode launch_server";
  if (path.rfind("workload.", 0) == 0) return "bench_serving";
  return "launch_server";
}

std::string default_text(const FieldInfo& f) {
  if (f.spec.required) return "required";
  if (f.default_value.is_string()) return "\"" + f.default_value.get<std::string>() + "\"";
  return f.default_value.dump();
}

bool is_leaf(const FieldInfo& f) {
  return f.type != "object";
}

// "|" would end a Markdown cell.
std::string cell(std::string s) {
  for (size_t i = 0; (i = s.find('|', i)) != std::string::npos; i += 2) s.replace(i, 1, "\\|");
  return s;
}

}  // namespace

std::string sglang_text(const FieldInfo& f) {
  const SglangName& g = f.spec.sglang;
  std::string s;
  if (g.flag) s = std::string(g.flag) + " (" + role_of(f.path) + ")";
  if (g.env) s = std::string(g.env) + " (environment of the " + role_of(f.path) + " servers)";
  std::string notes;
  if (!g.values.empty()) {
    std::string map;
    for (const auto& [ours, theirs] : g.values)
      map += (map.empty() ? "" : ", ") + theirs + " -> " + ours;
    notes = "values " + map;
  }
  if (g.absent) {
    const std::string a = *g.absent ? g.absent : "empty";
    notes += std::string(notes.empty() ? "" : "; ") + "not given: " + a;
  }
  if (g.how) notes += std::string(notes.empty() ? "" : "; ") + g.how;
  if (s.empty()) return notes;
  return notes.empty() ? s : s + "; " + notes;
}

std::string explain_field(const std::vector<FieldInfo>& fields, const std::string& path) {
  auto it = std::find_if(fields.begin(), fields.end(),
                         [&](const FieldInfo& f) { return f.path == path; });
  if (it == fields.end()) {
    std::string near;
    for (const auto& f : fields)
      if (f.path.find(path) != std::string::npos && near.size() < 400)
        near += (near.empty() ? "" : ", ") + f.path;
    throw InputError("pdsim explain", excerpt(path),
                     "a declared scenario field (pdsim fields lists them)" +
                         (near.empty() ? std::string() : "; fields containing it: " + near));
  }
  const FieldInfo& f = *it;
  auto line = [](const std::string& k, const std::string& v) {
    return v.empty() ? std::string() : "  " + column(k, 9) + v + "\n";
  };
  std::string out = f.path + "\n";
  out += line("type", f.type);
  if (is_leaf(f)) {
    out += line("unit", f.spec.unit);
    out += line("default", default_text(f) + (f.spec.nullable ? " (null allowed)" : ""));
    out += line("range", f.range());
    out += line("SGLang", sglang_text(f));
  }
  out += line("help", f.spec.help);
  if (!is_leaf(f)) {
    out += "  fields:\n";
    const std::string prefix = f.path + ".";
    for (const auto& c : fields)
      if (c.path.rfind(prefix, 0) == 0 && c.path.find('.', prefix.size()) == std::string::npos)
        out += "    " + column(c.path.substr(prefix.size()), 32) +
               (is_leaf(c) ? c.type + ", default " + default_text(c) : "section") + "\n";
  }
  return out;
}

std::string fields_markdown(const std::vector<FieldInfo>& fields) {
  // Top-level leaves first, then one table per top-level section.
  std::vector<std::string> groups = {""};
  for (const auto& f : fields)
    if (f.type == "object" && f.path.find('.') == std::string::npos) groups.push_back(f.path);
  std::string out;
  for (const auto& g : groups) {
    const std::string prefix = g.empty() ? "" : g + ".";
    std::string rows;
    for (const auto& f : fields) {
      if (!is_leaf(f)) continue;
      const bool top = f.path.find('.') == std::string::npos;
      if (g.empty() ? !top : f.path.rfind(prefix, 0) != 0) continue;
      rows += "| `" + f.path.substr(prefix.size()) + "` | " + f.type + " | " + cell(f.spec.unit) +
              " | `" + cell(default_text(f)) + "` | " + cell(f.range()) + " | " +
              cell(sglang_text(f)) + " | " + cell(f.spec.help) + " |\n";
    }
    const auto sec =
        std::find_if(fields.begin(), fields.end(), [&](const FieldInfo& f) { return f.path == g; });
    out += g.empty()
               ? "Top level\n"
               : "`" + g + "`" +
                     (sec != fields.end() && *sec->spec.help ? std::string(" — ") + sec->spec.help
                                                             : std::string()) +
                     "\n";
    out += "\n| field | type | unit | default | range | SGLang | meaning |\n";
    out += "|---|---|---|---|---|---|---|\n" + rows + "\n";
  }
  return out;
}

namespace {

// Moves every "required" list of schema `s` (its own and its properties', recursively) into
// `out`, a skeleton of the same properties; false when there was none.
bool take_required(Json& s, Json& out) {
  bool any = false;
  if (s.contains("required")) {
    out["required"] = s["required"];
    s.erase("required");
    any = true;
  }
  if (s.contains("properties"))
    for (auto& [key, sub] : s["properties"].items()) {
      Json part;
      if (sub.is_object() && take_required(sub, part)) {
        out["properties"][key] = part;
        any = true;
      }
    }
  return any;
}

}  // namespace

Json fields_json_schema(const std::vector<FieldInfo>& fields) {
  Json root = {{"$schema", "https://json-schema.org/draft/2020-12/schema"},
               {"$id", "https://pdsim.example/scenario.schema.json"},
               {"title", "pdsim scenario (pdsim.scenario/1)"},
               {"description",
                "Generated by `pdsim fields --write` from the declarations in sim/scenario and "
                "the tail mechanisms; do not edit."},
               {"type", "object"},
               {"additionalProperties", false},
               {"properties", Json::object()}};
  std::map<std::string, Json*> objects = {{"", &root}};
  for (const auto& f : fields) {
    const size_t dot = f.path.rfind('.');
    const std::string parent = dot == std::string::npos ? "" : f.path.substr(0, dot);
    const std::string key = dot == std::string::npos ? f.path : f.path.substr(dot + 1);
    Json& p = *objects.at(parent);
    Json s = f.schema;
    if (f.type == "object")
      s = {{"type", "object"}, {"additionalProperties", false}, {"properties", Json::object()}};
    if (*f.spec.help) s["description"] = f.spec.help;
    if (f.spec.nullable) s = Json{{"anyOf", {s, {{"type", "null"}}}}};
    if (f.spec.required) p["required"].push_back(key);
    p["properties"][key] = s;
    if (f.type == "object") objects[f.path] = &p["properties"][key];
  }
  // A file with a base inherits what it leaves out (scenario_base.hpp): the required fields are
  // required only of a file without one, or an editor would flag every derived file.
  Json required;
  if (root["properties"].contains("base") && take_required(root, required)) {
    root["if"] = {{"required", {"base"}}};
    root["else"] = required;
  }
  return root;
}

std::string replace_generated_block(const std::string& text, const std::string& tag,
                                    const std::string& block, const std::string& file) {
  const std::string begin = "<!-- BEGIN generated: " + tag + " -->\n";
  const std::string end = "<!-- END generated: " + tag + " -->";
  const size_t b = text.find(begin);
  const size_t e = b == std::string::npos ? b : text.find(end, b);
  if (b == std::string::npos || e == std::string::npos)
    throw InputError(file, tag,
                     "the markers '" + begin.substr(0, begin.size() - 1) + "' and '" + end + "'");
  return text.substr(0, b + begin.size()) + block + text.substr(e);
}

}  // namespace pdsim
