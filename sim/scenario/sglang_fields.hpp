#pragma once
// The scenario fields an SGLang command line sets, taken from their declarations (SglangName in
// sim/core/field_spec.hpp): which launch_server flags exist, the text a value exports as and the
// value a flag's text imports as. `pdsim import sglang` (sim/import) and the sweep's SGLang export
// (sim/sweep/sglang_flags.cpp) map these generically; the flags declared `by_rule` and the flags
// that set no field stay with them as rules.
#include <optional>
#include <string>
#include <vector>

#include "sim/core/fields.hpp"

namespace pdsim::sglang_fields {

// Declared fields under `prefix` ("decode", "decode.speculative") whose flag or environment
// variable maps verbatim, in declaration order; those under `skip` are left out.
std::vector<FieldInfo> mapped(const std::string& prefix, const std::string& skip = "");

// A launch_server flag a field declares as mapping verbatim, and whether it takes a value,
// a list of values or none (a switch). Fields of `workload` map to bench_serving, not here.
struct ServerFlag {
  std::string flag;
  enum Kind { kValue, kSwitch, kList } kind = kValue;
};
std::vector<ServerFlag> server_flags();

// The environment variables of the servers some field declares.
std::vector<std::string> server_env();

// The name a field has on the command line: its flag, else its environment variable.
std::string name_of(const FieldInfo& f);

// A field's value as command-line text ("8", "fp8_e4m3", "1 2 4"); nullopt when SGLang takes it
// without being told (the value is the declared `absent`, a false switch, an empty list).
std::optional<std::string> export_text(const FieldInfo& f, const Json& value);

// The field's value from a flag's text (`texts`: each value given, empty for a switch; nullopt
// when the flag or variable is absent: then the declared `absent` applies, and nullopt comes
// back when SGLang picks the value itself). InputError naming `what` (the command line) and the
// flag when the text is not of the field's type and range.
std::optional<Json> import_value(const FieldInfo& f,
                                 const std::optional<std::vector<std::string>>& texts,
                                 const std::string& what);

}  // namespace pdsim::sglang_fields
