#include "sim/core/json_reader.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "sim/core/bounded_json.hpp"
#include "sim/core/error.hpp"
#include "sim/core/excerpt.hpp"
#include "sim/core/parsed_file_cache.hpp"
#include "sim/core/read_file.hpp"
#include "sim/core/time_bound.hpp"

namespace pdsim {

JsonNode::JsonNode(std::shared_ptr<const Json> root, const Json* node, std::string file,
                   std::string path)
    : root_(std::move(root)), node_(node), file_(std::move(file)), path_(std::move(path)) {}

JsonNode JsonNode::load_file(const std::string& path) {
  auto root = parsed_file(path, read_file(path),
                          [&](const std::string& bytes) { return parse_json(bytes, path); });
  const Json* p = root.get();
  return JsonNode(std::move(root), p, path, "");
}

JsonNode JsonNode::from_json(Json doc, std::string file) {
  auto root = std::make_shared<const Json>(std::move(doc));
  const Json* p = root.get();
  return JsonNode(std::move(root), p, std::move(file), "");
}

std::string JsonNode::type_name() const {
  return node_->type_name();
}

void JsonNode::fail(const std::string& expected) const {
  throw InputError(file_, path_.empty() ? "<root>" : path_, expected);
}

std::string JsonNode::sub_path(std::string_view key) const {
  const std::string k = excerpt(key, 40);  // keys from the file end up in messages
  return path_.empty() ? k : path_ + "." + k;
}

// null would otherwise read as "absent" and silently select the default (request_rate: null
// sending everything at t = 0); only fields documented as nullable go through has_nullable.
static constexpr const char* kNoNull = "null is not allowed; omit the field to use its default";

bool JsonNode::has(std::string_view key) const {
  if (!node_->is_object()) return false;
  auto it = node_->find(key);
  if (it == node_->end()) return false;
  if (it->is_null()) throw InputError(file_, sub_path(key), kNoNull);
  return true;
}

bool JsonNode::has_nullable(std::string_view key) const {
  if (!node_->is_object()) return false;
  auto it = node_->find(key);
  return it != node_->end() && !it->is_null();
}

JsonNode JsonNode::at(std::string_view key) const {
  if (!node_->is_object()) fail("expected an object, got " + type_name());
  auto it = node_->find(key);
  if (it == node_->end()) throw InputError(file_, sub_path(key), "missing required field");
  if (it->is_null()) throw InputError(file_, sub_path(key), kNoNull);
  return JsonNode(root_, &*it, file_, sub_path(key));
}

JsonNode JsonNode::at(size_t index) const {
  if (!node_->is_array()) fail("expected an array, got " + type_name());
  std::string sub = path_ + "[" + std::to_string(index) + "]";
  if (index >= node_->size()) throw InputError(file_, sub, "index out of range");
  return JsonNode(root_, &(*node_)[index], file_, sub);
}

size_t JsonNode::size() const {
  if (!node_->is_array() && !node_->is_object())
    fail("expected an array or object, got " + type_name());
  return node_->size();
}

std::vector<std::string> JsonNode::keys() const {
  if (!node_->is_object()) fail("expected an object, got " + type_name());
  std::vector<std::string> out;
  for (auto it = node_->begin(); it != node_->end(); ++it) out.push_back(it.key());
  return out;
}

double JsonNode::number() const {
  if (!node_->is_number()) fail("expected a number, got " + type_name());
  const double v = node_->get<double>();
  check_time(v);
  return v;
}

void JsonNode::check_time(double v) const {
  if (const auto unit = key_time_unit(path_); unit && !time_within(v, *unit, kMaxTimeS))
    fail("expected " + time_cap_text(*unit, kMaxTimeS) + ", got " + node_->dump() + " " + *unit);
}
double JsonNode::positive() const {
  double v = number();
  if (!(v > 0)) fail("expected a positive number, got " + node_->dump());
  return v;
}
double JsonNode::non_negative() const {
  double v = number();
  if (!(v >= 0)) fail("expected a non-negative number, got " + node_->dump());
  return v;
}
double JsonNode::fraction() const {
  double v = number();
  if (!(v >= 0 && v <= 1)) fail("expected a number in [0, 1], got " + node_->dump());
  return v;
}
int64_t JsonNode::integer() const {
  if (node_->is_number_unsigned() && node_->get<uint64_t>() > uint64_t{INT64_MAX}) {
    // nlohmann keeps 2^63..2^64-1 unsigned; read as int64 they would wrap to negative values.
    fail("expected an integer below 2^63, got " + node_->dump());
  }
  if (node_->is_number_integer()) {
    check_time(node_->get<double>());
    return node_->get<int64_t>();
  }
  if (node_->is_number_float()) {
    check_time(node_->get<double>());
    // In range before the cast: converting a double outside int64's range is undefined.
    constexpr double kTwo63 = 9223372036854775808.0;
    const double d = node_->get<double>();
    if (d >= -kTwo63 && d < kTwo63 && std::trunc(d) == d) return static_cast<int64_t>(d);
  }
  fail("expected an integer, got " + (node_->is_number() ? node_->dump() : type_name()));
}
uint64_t JsonNode::unsigned_integer() const {
  if (node_->is_number_unsigned()) return node_->get<uint64_t>();
  const int64_t v = integer();
  if (v < 0) fail("expected a non-negative integer, got " + std::to_string(v));
  return static_cast<uint64_t>(v);
}
int64_t JsonNode::positive_integer() const {
  int64_t v = integer();
  if (v <= 0) fail("expected a positive integer, got " + std::to_string(v));
  return v;
}
std::string JsonNode::string() const {
  if (!node_->is_string()) fail("expected a string, got " + type_name());
  return node_->get<std::string>();
}
bool JsonNode::boolean() const {
  if (!node_->is_boolean()) fail("expected true or false, got " + type_name());
  return node_->get<bool>();
}
std::vector<double> JsonNode::numbers() const {
  std::vector<double> out;
  for (size_t i = 0, n = size(); i < n; ++i) out.push_back(at(i).number());
  if (!is_array()) fail("expected an array of numbers");
  return out;
}
std::vector<int64_t> JsonNode::integers() const {
  if (!is_array()) fail("expected an array of integers, got " + type_name());
  std::vector<int64_t> out;
  for (size_t i = 0, n = size(); i < n; ++i) out.push_back(at(i).integer());
  return out;
}
double JsonNode::num_or(std::string_view key, double def) const {
  return has(key) ? at(key).number() : def;
}
int64_t JsonNode::int_or(std::string_view key, int64_t def) const {
  return has(key) ? at(key).integer() : def;
}
std::string JsonNode::str_or(std::string_view key, std::string def) const {
  return has(key) ? at(key).string() : def;
}
bool JsonNode::bool_or(std::string_view key, bool def) const {
  return has(key) ? at(key).boolean() : def;
}

void JsonNode::expect_only(std::initializer_list<std::string_view> allowed) const {
  expect_only(std::vector<std::string>(allowed.begin(), allowed.end()));
}

void JsonNode::expect_only(const std::vector<std::string>& allowed) const {
  for (const auto& k : keys()) {
    if (std::find(allowed.begin(), allowed.end(), k) != allowed.end()) continue;
    std::string list;
    for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
    throw InputError(file_, sub_path(k), "unknown field (expected one of: " + list + ")");
  }
}

}  // namespace pdsim
