#pragma once
// The SGLang flags `pdsim import sglang` knows (launch_server and the PD router) and typed
// access to their values: each accessor fails with an InputError naming the command line
// ("--prefill") and the flag.
#include <optional>
#include <string>
#include <vector>

#include "sim/import/launch_args.hpp"

namespace pdsim::sglang {

// launch_server flags that map to scenario fields or are validated and recorded.
const std::vector<ArgSpec>& server_specs();
// launch_server flags known to have no effect on the performance model, with the reason.
const std::vector<std::pair<std::string, std::string>>& server_no_effect();
// server_no_effect() and the flags that set a prefill-only field, as read on the decode line.
const std::vector<std::pair<std::string, std::string>>& decode_no_effect();
// sglang_router flags (PD mode).
const std::vector<ArgSpec>& router_specs();
const std::vector<std::pair<std::string, std::string>>& router_no_effect();

// Typed views of one parsed command line.
class Flags {
 public:
  Flags(ParsedArgs args, std::string what) : args_(std::move(args)), what_(std::move(what)) {}
  const ParsedArgs& args() const { return args_; }
  const std::string& what() const { return what_; }
  bool has(const std::string& flag) const { return args_.has(flag); }
  bool on(const std::string& flag) const { return args_.has(flag); }  // store_true switch
  std::optional<std::string> str(const std::string& flag) const;
  std::optional<int> positive_int(const std::string& flag) const;
  std::optional<int> nonneg_int(const std::string& flag) const;
  std::optional<double> fraction(const std::string& flag) const;  // in (0, 1]
  std::vector<int> positive_ints(const std::string& flag) const;  // list flag
  // The value if it is one of `allowed` (compared case-sensitively after `lower` if set).
  std::optional<std::string> choice(const std::string& flag,
                                    const std::vector<std::string>& allowed,
                                    bool lower = false) const;
  [[noreturn]] void fail(const std::string& flag, const std::string& expected) const;

 private:
  std::optional<int> int_at_least(const std::string& flag, int min, const char* what) const;
  ParsedArgs args_;
  std::string what_;
};

}  // namespace pdsim::sglang
