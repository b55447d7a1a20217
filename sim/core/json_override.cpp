#include "sim/core/json_override.hpp"

#include <vector>

#include "sim/core/bounded_json.hpp"
#include "sim/core/error.hpp"
#include "sim/core/excerpt.hpp"

namespace pdsim {
namespace {

struct Step {
  std::string key;  // object member, or the index text for an array step
  bool index = false;
};

// "a.b[2].c" → a, b, [2], c. Malformed paths are InputErrors naming the whole path.
std::vector<Step> split_path(const std::string& path, const std::string& file) {
  const std::string where = excerpt(path, 120);  // a --set path is input: keep errors short
  std::vector<Step> steps;
  size_t pos = 0;
  bool expect_key = true;  // after '.' or at the start a key must follow
  while (pos < path.size()) {
    if (path[pos] == '[') {
      if (expect_key && !steps.empty()) throw InputError(file, where, "empty key in path");
      const size_t close = path.find(']', pos);
      if (close == std::string::npos) throw InputError(file, where, "unterminated '[' in path");
      steps.push_back({path.substr(pos + 1, close - pos - 1), true});
      pos = close + 1;
      if (pos < path.size() && path[pos] != '.' && path[pos] != '[')
        throw InputError(file, where, "expected '.' or '[' after ']' in path");
      expect_key = false;
      if (pos < path.size() && path[pos] == '.') {
        ++pos;
        expect_key = true;
      }
      continue;
    }
    const size_t end = path.find_first_of(".[", pos);
    const std::string key =
        path.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
    if (key.empty()) throw InputError(file, where, "empty key in path");
    steps.push_back({key, false});
    expect_key = false;
    if (end == std::string::npos) break;
    pos = end;
    if (path[pos] == '.') {
      ++pos;
      expect_key = true;
    }
  }
  if (steps.empty() || expect_key) throw InputError(file, where, "empty key in path");
  return steps;
}

bool parse_index(const std::string& text, size_t& out) {
  if (text.empty() || text.size() > 9) return false;
  out = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
    out = out * 10 + static_cast<size_t>(c - '0');
  }
  return true;
}

}  // namespace

std::pair<std::string, Json> split_assignment(const std::string& assignment,
                                              const std::string& file) {
  const size_t eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0)
    throw InputError(file, excerpt(assignment, 120), "expected dotted.path=value");
  const std::string path = assignment.substr(0, eq), text = assignment.substr(eq + 1);
  Json value;
  try {
    value = parse_json(text, file, excerpt(path, 120));
  } catch (const JsonSyntaxError&) {
    value = text;  // bare words are strings; too deep or a repeated key is still an error
  }
  return {path, std::move(value)};
}

Json& json_at_path(Json& doc, const std::string& path, const std::string& file,
                   const JsonPathOptions& opt) {
  const std::vector<Step> steps = split_path(path, file);
  const std::string where = excerpt(path, 120);
  Json* node = &doc;
  for (size_t s = 0; s < steps.size(); ++s) {
    const Step& st = steps[s];
    if (st.index) {
      size_t i = 0;
      if (!node->is_array())
        throw InputError(
            file, where,
            "unknown " + opt.what + " (not an array before [" + excerpt(st.key, 40) + "])");
      if (!parse_index(st.key, i))
        throw InputError(file, where, "expected an array index, got '" + excerpt(st.key, 40) + "'");
      if (i >= node->size())
        throw InputError(file, where,
                         "unknown " + opt.what + " (no element [" + excerpt(st.key, 40) + "])");
      node = &(*node)[i];
      continue;
    }
    if (!node->is_object())
      throw InputError(file, where,
                       "unknown " + opt.what + " (no field '" + excerpt(st.key, 40) + "')");
    if (!node->contains(st.key)) {
      if (!opt.create_missing)
        throw InputError(file, where,
                         "unknown " + opt.what + " (no field '" + excerpt(st.key, 40) + "')");
      // Intermediate members become objects; the leaf is assigned by the caller.
      (*node)[st.key] = s + 1 < steps.size() ? Json::object() : Json();
    }
    node = &(*node)[st.key];
  }
  return *node;
}

const Json* find_json_path(const Json& doc, const std::string& path) {
  std::vector<Step> steps;
  try {
    steps = split_path(path, "");
  } catch (const InputError&) {
    return nullptr;
  }
  const Json* node = &doc;
  for (const Step& st : steps) {
    if (st.index) {
      size_t i = 0;
      if (!node->is_array() || !parse_index(st.key, i) || i >= node->size()) return nullptr;
      node = &(*node)[i];
    } else {
      if (!node->is_object() || !node->contains(st.key)) return nullptr;
      node = &(*node)[st.key];
    }
  }
  return node;
}

void set_json_path(Json& doc, const std::string& path, Json value, const std::string& file,
                   const JsonPathOptions& opt) {
  json_at_path(doc, path, file, opt) = std::move(value);
}

void apply_json_override(Json& doc, const std::string& assignment, const std::string& file,
                         const JsonPathOptions& opt) {
  auto [path, value] = split_assignment(assignment, file);
  set_json_path(doc, path, std::move(value), file, opt);
}

}  // namespace pdsim
