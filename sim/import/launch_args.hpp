#pragma once
// Command lines as users paste them ("SGLANG_X=1 python3 -m sglang.launch_server --tp-size 8
// --pp-size=2 ..."), split like a POSIX shell and parsed against a table of known flags with
// argparse semantics: `--flag value` and `--flag=value`, store_true switches, list flags that
// take values up to the next flag, last occurrence wins. Unknown flags are kept (with the
// value that follows them, if any) so callers can list them as ignored, never drop them.
// `occurrences` counts repeated flags (the router's `--prefill URL --prefill URL`).
#include <map>
#include <string>
#include <vector>

namespace pdsim {

enum class ArgKind { kSwitch, kValue, kList };

struct ArgSpec {
  std::string name;  // canonical, e.g. "--tp-size"
  ArgKind kind = ArgKind::kValue;
  std::vector<std::string> aliases;  // e.g. "--tp", "--tensor-parallel-size"
};

struct UnknownArg {
  std::string flag;   // as written, without "=value"
  std::string value;  // "" when none followed
};

struct ParsedArgs {
  std::map<std::string, std::vector<std::string>>
      values;                              // canonical name → value(s); switches: {}
  std::map<std::string, int> occurrences;  // canonical name → times given
  std::map<std::string, std::string> env;  // VAR=value tokens
  std::vector<UnknownArg> unknown;
  std::vector<std::string>
      program;  // leading launcher words ("python3", "-m", "sglang.launch_server")
  bool has(const std::string& name) const { return values.count(name) > 0; }
};

// Shell-like split: blanks separate words; single quotes, double quotes (with \" \\ \$ \`
// escapes) and backslash escapes as in sh; a backslash-newline joins lines. `what` names the
// command line in errors (e.g. "--prefill").
std::vector<std::string> split_command_line(const std::string& text, const std::string& what);

// Parses words against `specs`; errors (InputError with `what` as the file and the flag as the
// field) for a switch given a value and a value flag without one.
ParsedArgs parse_args(const std::vector<std::string>& words, const std::vector<ArgSpec>& specs,
                      const std::string& what);

}  // namespace pdsim
