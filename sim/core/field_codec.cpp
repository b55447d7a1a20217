#include "sim/core/field_codec.hpp"

#include <cmath>
#include <limits>
#include <utility>

#include "sim/core/excerpt.hpp"
#include "sim/core/plugin_catalog.hpp"
#include "sim/core/provenance.hpp"
#include "sim/core/time_bound.hpp"

namespace pdsim {
namespace {

constexpr int64_t kMaxInt = int64_t{1} << 30;

std::string num(double v) {
  Json j = v;
  if (std::trunc(v) == v && std::fabs(v) < 1e15) j = static_cast<int64_t>(v);
  return j.dump();
}

// The choices of a string field: declared, or registered in a plug-in family.
std::vector<std::string> choices_of(const FieldSpec& s) {
  if (s.plugins) return PluginCatalog::instance().names(s.plugins);
  return s.choices;
}

std::string joined(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& x : v) out += (out.empty() ? "" : ", ") + x;
  return out;
}

// An integer field's range: the declared one within [-2^30, 2^30].
std::pair<double, double> int_range(const FieldSpec& s) {
  return {s.min.value_or(-static_cast<double>(kMaxInt)),
          std::min(upper_bound(s).value_or(static_cast<double>(kMaxInt)), double(kMaxInt))};
}

int64_t checked_int(const JsonNode& n, const FieldSpec& s) {
  const int64_t v = n.integer();
  const auto [lo, hi] = int_range(s);
  if (static_cast<double>(v) < lo || (s.above_min && static_cast<double>(v) <= lo)) {
    if (lo == 1 || (lo == 0 && s.above_min))
      n.fail("expected a positive integer, got " + std::to_string(v));
    if (lo == 0) n.fail("expected a non-negative integer, got " + std::to_string(v));
    n.fail("expected an integer " + range_text(s, true) + ", got " + std::to_string(v));
  }
  if (static_cast<double>(v) > hi) {
    if (hi == static_cast<double>(kMaxInt))
      n.fail("expected an integer below 2^30, got " + std::to_string(v));
    n.fail("expected an integer " + range_text(s, true) + ", got " + std::to_string(v));
  }
  return v;
}

// Long arrays (a run's 10^6 chunk times crossing the worker boundary) are checked element by
// element without building a JsonNode and its path for each: an element that passes these
// checks is exactly one the JsonNode path accepts; any other goes through that path, which
// fails with its message. `time_cap` is the element key's time bound (JsonNode::check_time).
struct ElementBounds {
  std::optional<double> min, max, time_cap;
  bool above_min = false;
  ElementBounds(const JsonNode& n, const FieldSpec& s, std::optional<double> lo,
                std::optional<double> hi)
      : min(lo), max(hi), above_min(s.above_min) {
    if (const auto unit = key_time_unit(n.path())) time_cap = seconds_in_unit(kMaxTimeS, *unit);
  }
  bool accepts(double v) const {
    if (time_cap && !(std::fabs(v) <= *time_cap)) return false;
    if (min && (above_min ? !(v > *min) : !(v >= *min))) return false;
    return !(max && !(v <= *max));
  }
};

}  // namespace

std::optional<double> upper_bound(const FieldSpec& s) {
  if (s.max) return s.max;
  if (seconds_per_unit(s.unit)) return seconds_in_unit(kMaxTimeS, s.unit);
  return std::nullopt;
}

std::string range_text(const FieldSpec& s, bool integer) {
  const auto c = choices_of(s);
  if (!c.empty()) return "one of " + joined(c);
  const auto max = upper_bound(s);
  std::string lo, hi;
  if (s.min) lo = (s.above_min ? "> " : ">= ") + num(*s.min);
  if (max) hi = "<= " + num(*max);
  if (s.min && max)
    return "in " + std::string(s.above_min ? "(" : "[") + num(*s.min) + ", " + num(*max) + "]";
  std::string out = lo.empty() ? hi : (hi.empty() ? lo : lo + ", " + hi);
  if (s.inf_ok) out += std::string(out.empty() ? "" : ", ") + "or \"inf\"";
  (void)integer;
  return out;
}

int FieldCodec<int>::read(const JsonNode& n, const FieldSpec& s) {
  return static_cast<int>(checked_int(n, s));
}

Json FieldCodec<int>::schema(const FieldSpec& s) {
  Json j = {{"type", "integer"}};
  if (s.min) j[s.above_min ? "exclusiveMinimum" : "minimum"] = static_cast<int64_t>(*s.min);
  j["maximum"] =
      static_cast<int64_t>(std::min(upper_bound(s).value_or(double(kMaxInt)), double(kMaxInt)));
  return j;
}

uint64_t FieldCodec<uint64_t>::read(const JsonNode& n, const FieldSpec&) {
  const int64_t v = n.integer();
  if (v < 0) n.fail("expected a non-negative integer");
  return static_cast<uint64_t>(v);
}

double FieldCodec<double>::read(const JsonNode& n, const FieldSpec& s) {
  if (s.inf_ok && n.is_string()) {
    const std::string v = n.string();
    if (v != "inf" && v != "Infinity")
      n.fail("expected a positive number or \"inf\", got \"" + excerpt(v) + "\"");
    return std::numeric_limits<double>::infinity();
  }
  // The common ranges keep the JsonNode accessors' messages.
  const auto max = upper_bound(s);
  if (s.min == 0.0 && !max) return s.above_min ? n.positive() : n.non_negative();
  if (s.min == 0.0 && max == 1.0 && !s.above_min) return n.fraction();
  const double v = n.number();
  const bool low = s.min && (s.above_min ? !(v > *s.min) : !(v >= *s.min));
  const bool high = max && !(v <= *max);
  if (low || high) n.fail("expected a number " + range_text(s, false) + ", got " + n.raw().dump());
  return v;
}

Json FieldCodec<double>::write(double v, const FieldSpec& s) {
  if (s.inf_ok && std::isinf(v)) return "inf";
  return v;
}

Json FieldCodec<double>::schema(const FieldSpec& s) {
  Json j = {{"type", "number"}};
  if (s.min) j[s.above_min ? "exclusiveMinimum" : "minimum"] = *s.min;
  if (const auto max = upper_bound(s)) j["maximum"] = *max;
  if (s.inf_ok) return Json{{"oneOf", {j, {{"enum", {"inf", "Infinity"}}}}}};
  return j;
}

std::string FieldCodec<std::string>::read(const JsonNode& n, const FieldSpec& s) {
  std::string v = n.string();
  const auto c = choices_of(s);
  if (!c.empty() || s.plugins) {
    for (const auto& a : c)
      if (v == a) return v;
    n.fail("expected one of " + joined(c) + ", got \"" + excerpt(v) + "\"");
  }
  return v;
}

Json FieldCodec<std::string>::schema(const FieldSpec& s) {
  Json j = {{"type", "string"}};
  const auto c = choices_of(s);
  if (!c.empty()) j["enum"] = c;
  return j;
}

std::vector<int> FieldCodec<std::vector<int>>::read(const JsonNode& n, const FieldSpec& s) {
  if (!n.is_array())
    n.fail(std::string("expected an array of integers, got ") + n.raw().type_name());
  std::vector<int> out;
  out.reserve(n.size());
  const auto [lo, hi] = int_range(s);
  const ElementBounds bounds(n, s, lo, hi);
  for (size_t i = 0; i < n.size(); ++i) {
    const Json& e = n.raw()[i];
    // Unsigned (CBOR's positive integers) too: an accepted one is at most 2^30.
    if (e.is_number_integer() && bounds.accepts(e.get<double>()))
      out.push_back(static_cast<int>(e.get<int64_t>()));
    else
      out.push_back(static_cast<int>(checked_int(n.at(i), s)));
    if (s.increasing && i > 0 && out[i] <= out[i - 1])
      n.at(i).fail("expected a value above the previous element " + std::to_string(out[i - 1]) +
                   " (the list strictly increases), got " + std::to_string(out[i]));
  }
  return out;
}

Json FieldCodec<std::vector<int>>::schema(const FieldSpec& s) {
  Json j = {{"type", "array"}, {"items", FieldCodec<int>::schema(s)}};
  if (s.increasing) j["uniqueItems"] = true;
  return j;
}

std::vector<std::string> FieldCodec<std::vector<std::string>>::read(const JsonNode& n,
                                                                    const FieldSpec&) {
  if (!n.is_array())
    n.fail(std::string("expected an array of strings, got ") + n.raw().type_name());
  std::vector<std::string> out;
  for (size_t i = 0; i < n.size(); ++i) out.push_back(n.at(i).string());
  return out;
}

Json FieldCodec<Json>::read(const JsonNode& n, const FieldSpec& s) {
  if (s.verbatim) return n.raw();
  return read_provenance(n);
}

std::vector<double> FieldCodec<std::vector<double>>::read(const JsonNode& n, const FieldSpec& s) {
  if (!n.is_array())
    n.fail(std::string("expected an array of numbers, got ") + n.raw().type_name());
  std::vector<double> out;
  out.reserve(n.size());
  const ElementBounds bounds(n, s, s.min, upper_bound(s));
  for (size_t i = 0; i < n.size(); ++i) {
    const Json& e = n.raw()[i];
    if (e.is_number() && bounds.accepts(e.get<double>()))
      out.push_back(e.get<double>());
    else
      out.push_back(FieldCodec<double>::read(n.at(i), s));
  }
  return out;
}

}  // namespace pdsim
