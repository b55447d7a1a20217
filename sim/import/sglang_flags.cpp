#include "sim/import/sglang_flags.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "sim/core/error.hpp"
#include "sim/core/excerpt.hpp"
#include "sim/scenario/sglang_fields.hpp"

namespace pdsim::sglang {
namespace {

ArgSpec v(std::string name, std::vector<std::string> aliases = {}) {
  return {std::move(name), ArgKind::kValue, std::move(aliases)};
}
ArgSpec sw(std::string name) {
  return {std::move(name), ArgKind::kSwitch, {}};
}
ArgSpec list(std::string name) {
  return {std::move(name), ArgKind::kList, {}};
}

std::vector<ArgSpec> with_no_effect(std::vector<ArgSpec> specs,
                                    const std::vector<std::pair<std::string, std::string>>& extra,
                                    const std::vector<std::string>& switches) {
  for (const auto& [flag, why] : extra) {
    (void)why;
    const bool is_switch = std::find(switches.begin(), switches.end(), flag) != switches.end();
    specs.push_back(is_switch ? sw(flag) : v(flag));
  }
  return specs;
}

}  // namespace

const std::vector<std::pair<std::string, std::string>>& server_no_effect() {
  static const std::vector<std::pair<std::string, std::string>> list_ = {
      {"--host", "network address of the server"},
      {"--port", "network address of the server"},
      {"--dist-init-addr", "rendezvous address of the nodes"},
      {"--node-rank", "which node of the instance this command starts"},
      {"--trust-remote-code", "model loading"},
      {"--served-model-name", "API name of the model"},
      {"--tokenizer-path", "tokenizer location"},
      {"--disaggregation-bootstrap-port", "KV bootstrap address"},
      {"--disaggregation-ib-device",
       "NIC names (rails are scenario fields: prefill.kv_nics, decode.a2a_nics)"},
      {"--speculative-draft-model-path", "the draft is the model's own MTP layer in pdsim"},
      {"--log-level", "logging"},
      {"--decode-log-interval", "logging"},
      {"--watchdog-timeout", "failure handling"},
  };
  return list_;
}

// Flags the importer's rules read (fields declared `by_rule`, and flags that set no field but
// are validated or recorded), and SGLang's other spellings of flags (argparse aliases in
// server_args.py).
const std::vector<ArgSpec>& rule_flags() {
  static const std::vector<ArgSpec> specs = {v("--model-path", {"--model"}),
                                             v("--attention-backend"),
                                             v("--moe-a2a-backend"),
                                             sw("--enable-nsa-prefill-context-parallel"),
                                             v("--nsa-prefill-cp-mode"),
                                             v("--deepep-mode"),
                                             v("--ep-dispatch-algorithm"),
                                             v("--eplb-algorithm"),
                                             sw("--enable-eplb"),
                                             v("--moe-dense-tp-size"),
                                             sw("--disable-cuda-graph"),
                                             v("--disaggregation-mode"),
                                             v("--dp-size", {"--dp", "--data-parallel-size"}),
                                             v("--tp-size", {"--tp", "--tensor-parallel-size"}),
                                             v("--pp-size", {"--pp", "--pipeline-parallel-size"}),
                                             v("--ep-size", {"--ep", "--expert-parallel-size"})};
  return specs;
}

const std::vector<ArgSpec>& server_specs() {
  static const std::vector<ArgSpec> specs = [] {
    std::vector<ArgSpec> out = rule_flags();
    auto known = [&](const std::string& flag) {
      return std::any_of(out.begin(), out.end(), [&](const ArgSpec& a) { return a.name == flag; });
    };
    for (const auto& f : sglang_fields::server_flags()) {
      if (known(f.flag)) continue;
      out.push_back(f.kind == sglang_fields::ServerFlag::kSwitch ? sw(f.flag)
                    : f.kind == sglang_fields::ServerFlag::kList ? list(f.flag)
                                                                 : v(f.flag));
    }
    return with_no_effect(std::move(out), server_no_effect(), {"--trust-remote-code"});
  }();
  return specs;
}

const std::vector<std::pair<std::string, std::string>>& decode_no_effect() {
  static const std::vector<std::pair<std::string, std::string>> list_ = [] {
    auto out = server_no_effect();
    // prefill.disable_radix_cache reads it from the prefill line.
    out.emplace_back("--disable-radix-cache",
                     "SGLang forces it on a PD decode server, server_args.py "
                     "_handle_disaggregation; the decode role prefills nothing");
    return out;
  }();
  return list_;
}

const std::vector<std::pair<std::string, std::string>>& router_no_effect() {
  static const std::vector<std::pair<std::string, std::string>> list_ = {
      {"--host", "network address of the router"},
      {"--port", "network address of the router"},
      {"--pd-disaggregation", "PD mode is what pdsim simulates"},
      {"--log-level", "logging"},
  };
  return list_;
}

const std::vector<ArgSpec>& router_specs() {
  static const std::vector<ArgSpec> specs =
      with_no_effect({list("--prefill"), list("--decode"), sw("--mini-lb"), v("--policy"),
                      v("--prefill-policy"), v("--decode-policy")},
                     router_no_effect(), {"--pd-disaggregation"});
  return specs;
}

void Flags::fail(const std::string& flag, const std::string& expected) const {
  throw InputError(what_, flag, expected);
}

std::optional<std::string> Flags::str(const std::string& flag) const {
  auto it = args_.values.find(flag);
  if (it == args_.values.end() || it->second.empty()) return std::nullopt;
  return it->second.back();
}

std::optional<int> Flags::int_at_least(const std::string& flag, int min, const char* what) const {
  auto s = str(flag);
  if (!s) return std::nullopt;
  errno = 0;
  char* end = nullptr;
  const long long x = std::strtoll(s->c_str(), &end, 10);
  if (s->empty() || *end != '\0' || errno == ERANGE || x < min || x > (1 << 30))
    fail(flag, std::string(what) + ", got \"" + excerpt(*s) + "\"");
  return static_cast<int>(x);
}

std::optional<int> Flags::nonneg_int(const std::string& flag) const {
  return int_at_least(flag, 0, "a non-negative integer");
}

std::optional<int> Flags::positive_int(const std::string& flag) const {
  return int_at_least(flag, 1, "a positive integer");
}

std::optional<double> Flags::fraction(const std::string& flag) const {
  auto s = str(flag);
  if (!s) return std::nullopt;
  char* end = nullptr;
  const double x = std::strtod(s->c_str(), &end);
  if (s->empty() || *end != '\0' || !std::isfinite(x) || x <= 0 || x > 1)
    fail(flag, "a fraction in (0, 1], got \"" + excerpt(*s) + "\"");
  return x;
}

std::vector<int> Flags::positive_ints(const std::string& flag) const {
  std::vector<int> out;
  auto it = args_.values.find(flag);
  if (it == args_.values.end()) return out;
  for (const auto& s : it->second) {
    char* end = nullptr;
    const long long x = std::strtoll(s.c_str(), &end, 10);
    if (s.empty() || *end != '\0' || x <= 0 || x > (1 << 30))
      fail(flag, "positive integers, got \"" + excerpt(s) + "\"");
    out.push_back(static_cast<int>(x));
  }
  return out;
}

std::optional<std::string> Flags::choice(const std::string& flag,
                                         const std::vector<std::string>& allowed,
                                         bool lower) const {
  auto s = str(flag);
  if (!s) return std::nullopt;
  std::string key = *s;
  if (lower)
    std::transform(key.begin(), key.end(), key.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  std::string names;
  for (const auto& a : allowed) {
    if (a == key) return key;
    names += (names.empty() ? "" : ", ") + a;
  }
  fail(flag, "one of " + names + " (the values pdsim models), got \"" + excerpt(*s) + "\"");
}

}  // namespace pdsim::sglang
