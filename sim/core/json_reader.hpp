#pragma once
// JsonNode: a read-only view into a JSON document that remembers the file and the field path it
// came from, so every accessor can fail with one clear InputError ("file: field 'a.b[2].c':
// expected a positive number, got string"). All config structs are read through it.
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace pdsim {

using Json = nlohmann::json;

class JsonNode {
 public:
  JsonNode(std::shared_ptr<const Json> root, const Json* node, std::string file, std::string path);

  // Reads (read_file: bounded, regular files only) and parses (parse_json: bounded depth, no
  // duplicate keys) a file; every failure is an InputError naming the file.
  static JsonNode load_file(const std::string& path);
  // Wraps an in-memory document (`file` is used only in messages).
  static JsonNode from_json(Json doc, std::string file);

  // A member present with the value null is an error for has(), at() and the *_or shorthands:
  // null never stands for "use the default" (omit the field for that).
  bool has(std::string_view key) const;
  // Present and not null, for the few fields where null means "unset": those the resolved
  // scenario writes as null so their --set path exists (workload.max_concurrency, acceptance
  // accept_prob / provenance, tail provenances) and pdsim's own outputs read back.
  bool has_nullable(std::string_view key) const;
  JsonNode at(std::string_view key) const;  // missing key → "missing required field"
  JsonNode at(size_t index) const;
  size_t size() const;  // array or object size
  bool is_array() const { return node_->is_array(); }
  bool is_object() const { return node_->is_object(); }
  bool is_null() const { return node_->is_null(); }
  bool is_string() const { return node_->is_string(); }
  bool is_number() const { return node_->is_number(); }
  std::vector<std::string> keys() const;

  // Every number whose key names a time unit (sim/core/time_bound.hpp) is at most kMaxTimeS.
  double number() const;
  double positive() const;      // > 0
  double non_negative() const;  // >= 0
  double fraction() const;      // in [0, 1]
  int64_t integer() const;
  int64_t positive_integer() const;
  // 0 .. 2^64 - 1, for seeds and hashes that use the whole unsigned range.
  uint64_t unsigned_integer() const;
  std::string string() const;
  bool boolean() const;
  std::vector<double> numbers() const;
  std::vector<int64_t> integers() const;

  // Shorthands for a member: num("x") == at("x").number(); *_or returns def when absent.
  double num(std::string_view key) const { return at(key).number(); }
  double num_or(std::string_view key, double def) const;
  int64_t int_or(std::string_view key, int64_t def) const;
  std::string str_or(std::string_view key, std::string def) const;
  bool bool_or(std::string_view key, bool def) const;

  // Rejects members other than `allowed` (catches typos in hand-written files).
  void expect_only(std::initializer_list<std::string_view> allowed) const;
  void expect_only(const std::vector<std::string>& allowed) const;

  [[noreturn]] void fail(const std::string& expected) const;
  const Json& raw() const { return *node_; }
  const std::string& file() const { return file_; }
  const std::string& path() const { return path_; }

 private:
  std::string type_name() const;
  std::string sub_path(std::string_view key) const;
  void check_time(double v) const;  // the bound of time_bound.hpp when the key names a time
  std::shared_ptr<const Json> root_;
  const Json* node_;
  std::string file_, path_;
};

}  // namespace pdsim
