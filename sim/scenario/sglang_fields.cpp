#include "sim/scenario/sglang_fields.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <memory>

#include "sim/core/error.hpp"
#include "sim/core/excerpt.hpp"
#include "sim/scenario/scenario.hpp"

namespace pdsim::sglang_fields {
namespace {

bool under(const std::string& path, const std::string& prefix) {
  return !prefix.empty() && path.rfind(prefix + ".", 0) == 0;
}

bool same_ignoring_case(const std::string& a, const std::string& b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

[[noreturn]] void refuse(const FieldInfo& f, const std::string& what, const std::string& text,
                         const std::string& expected) {
  throw InputError(what, name_of(f), "expected " + expected + ", got \"" + excerpt(text) + "\"");
}

std::string expected_of(const FieldInfo& f) {
  const std::string r = f.range(), a = f.type == "number" ? "a number" : "an integer";
  return r.empty() ? a : a + " " + r;
}

Json integer_of(const FieldInfo& f, const std::string& text, const std::string& what) {
  errno = 0;
  char* end = nullptr;
  const long long x = std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || errno == ERANGE) refuse(f, what, text, expected_of(f));
  return Json(x);
}

// One value's text as JSON of the field's type (the range is checked by the field's codec).
Json json_of(const FieldInfo& f, const std::string& text, const std::string& what) {
  if (f.type == "integer") return integer_of(f, text, what);
  if (f.type == "number") {
    char* end = nullptr;
    const double x = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0' || !std::isfinite(x)) refuse(f, what, text, expected_of(f));
    return Json(x);
  }
  const SglangName& g = f.spec.sglang;
  if (g.values.empty()) return Json(text);
  std::string names;
  for (const auto& [ours, theirs] : g.values) {
    if (same_ignoring_case(theirs, text)) return Json(ours);
    names += (names.empty() ? "" : ", ") + theirs;
  }
  if (g.absent && text == g.absent) return Json(text);  // SGLang's default, unmapped: verbatim
  refuse(f, what, text, "one of " + names + " (the values pdsim models)");
}

}  // namespace

std::vector<FieldInfo> mapped(const std::string& prefix, const std::string& skip) {
  std::vector<FieldInfo> out;
  for (FieldInfo& f : scenario_fields()) {
    const SglangName& g = f.spec.sglang;
    if (f.type == "object" || g.by_rule || (!g.flag && !g.env)) continue;
    if (under(f.path, prefix) && !under(f.path, skip)) out.push_back(std::move(f));
  }
  return out;
}

std::vector<ServerFlag> server_flags() {
  std::vector<ServerFlag> out;
  for (const FieldInfo& f : scenario_fields()) {
    if (!f.spec.sglang.flag || f.spec.sglang.by_rule || under(f.path, "workload")) continue;
    const std::string flag = f.spec.sglang.flag;
    if (std::any_of(out.begin(), out.end(), [&](const ServerFlag& s) { return s.flag == flag; }))
      continue;
    const auto kind = f.type == "boolean"             ? ServerFlag::kSwitch
                      : f.type.rfind("array", 0) == 0 ? ServerFlag::kList
                                                      : ServerFlag::kValue;
    out.push_back({flag, kind});
  }
  return out;
}

std::vector<std::string> server_env() {
  std::vector<std::string> out;
  for (const FieldInfo& f : scenario_fields())
    if (f.spec.sglang.env) out.emplace_back(f.spec.sglang.env);
  return out;
}

std::string name_of(const FieldInfo& f) {
  const SglangName& g = f.spec.sglang;
  return g.flag ? g.flag : g.env ? g.env : "";
}

std::optional<std::string> export_text(const FieldInfo& f, const Json& value) {
  if (value.is_null()) return std::nullopt;
  if (value.is_boolean()) return value.get<bool>() ? std::optional<std::string>("") : std::nullopt;
  std::string text;
  if (value.is_array()) {
    for (const auto& x : value) text += (text.empty() ? "" : " ") + x.dump();
  } else if (value.is_string()) {
    text = value.get<std::string>();
    const auto& vals = f.spec.sglang.values;
    auto it =
        std::find_if(vals.begin(), vals.end(), [&](const auto& p) { return p.first == text; });
    if (it != vals.end()) text = it->second;
  } else {
    text = value.dump();
  }
  const char* absent = f.spec.sglang.absent;
  if (text.empty() || (absent && text == absent)) return std::nullopt;
  return text;
}

std::optional<Json> import_value(const FieldInfo& f,
                                 const std::optional<std::vector<std::string>>& texts,
                                 const std::string& what) {
  const SglangName& g = f.spec.sglang;
  Json v;
  if (f.type == "boolean") {
    if (!texts && !g.absent) return std::nullopt;
    v = texts ? true : std::string(g.absent) == "true";
  } else if (f.type.rfind("array", 0) == 0) {
    if (!texts && !g.absent) return std::nullopt;
    v = Json::array();
    if (texts)
      for (const auto& t : *texts)
        v.push_back(f.type == "array of integers" ? integer_of(f, t, what) : Json(t));
    // SGLang takes sorted(set(...)) of such a list (cuda_graph_runner.py,
    // get_batch_sizes_to_capture).
    if (f.spec.increasing) {
      std::sort(v.begin(), v.end());
      v.erase(std::unique(v.begin(), v.end()), v.end());
    }
  } else if (texts && !texts->empty()) {
    v = json_of(f, texts->back(), what);
  } else {
    if (!g.absent) return std::nullopt;
    v = json_of(f, g.absent, what);
  }
  auto doc = std::make_shared<const Json>(std::move(v));
  return f.normalize(JsonNode(doc, doc.get(), what, name_of(f)), f.spec);
}

}  // namespace pdsim::sglang_fields
