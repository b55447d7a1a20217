#pragma once
// What a configuration field declares besides its C++ type and default (which are the member's):
// unit, range, one-line help and, where one exists, the SGLang flag or environment variable it
// maps to. A config struct declares each of its fields once, next to the member, in its
// `declare(V&)` (fields.hpp); the reader with field-path errors, the resolved output, `--set`,
// `pdsim explain`, the generated field table and JSON Schema, and the SGLang import and export
// all come from that declaration. SimGrid's config::Flag and Vidur's dataclass fields are the
// models.
#include <optional>
#include <string>
#include <vector>

namespace pdsim {

// How a field maps to SGLang 0.5.x. `flag` is a `launch_server` flag of the role whose section
// holds the field (prefill / decode; for `workload` a `bench_serving` flag), `env` an environment
// variable of that role's servers. A value passes verbatim unless `values` maps it ({pdsim value,
// SGLang value} pairs: the export writes a pdsim value's first pair, the import accepts every pair,
// case-insensitively). A bool field with a flag is a store_true switch. `absent` is what SGLang
// uses when the flag is not given (the export leaves out a value equal to it, the import takes
// it); nullptr when SGLang picks one itself (from GPU memory, per model): then the import keeps
// pdsim's default and says so. `by_rule` marks a flag that does not map verbatim (ep = tp with
// DeepEP, the model's Hugging Face id): the importer and exporter map it by a rule that `how`
// states.
struct SglangName {
  const char* flag = nullptr;
  const char* env = nullptr;
  std::vector<std::pair<std::string, std::string>> values{};
  const char* absent = nullptr;
  bool by_rule = false;
  const char* how = nullptr;
};

struct FieldSpec {
  const char* help = "";
  const char* unit = "";               // "tokens", "us", "requests/s", "bytes", ... ("" = none)
  std::optional<double> min{};         // inclusive lower bound (numbers, integers, list elements)
  std::optional<double> max{};         // inclusive upper bound
  bool above_min = false;              // strictly greater than `min` (positive numbers)
  bool increasing = false;             // a list whose elements strictly increase
  std::vector<std::string> choices{};  // a string from this list
  const char* plugins = nullptr;       // a name registered in this plug-in family
  bool required = false;               // no default: the field must be given
  // null accepted and written: for std::optional members "unset"; for other members "the
  // default" (written as null when the value is the default), as pdsim's outputs and
  // bench_serving records write them.
  bool nullable = false;
  bool inf_ok = false;  // a number that may be "inf" / "Infinity" (written "inf")
  // A Json member that is a document carried as is (a result's resolved scenario and profiles),
  // not a provenance object.
  bool verbatim = false;
  // A path (or a list of paths) relative to the folder of the file that wrote it: a scenario
  // `base` rebases such a value from the base file's folder (sim/scenario/scenario_base.hpp).
  bool file_relative = false;
  // Read, listed and documented, never written in the resolved form: the scenario's `base` is
  // resolved when the file is loaded, so the resolved scenario has none.
  bool input_only = false;
  SglangName sglang{};
};

}  // namespace pdsim
