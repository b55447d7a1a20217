#pragma once
// --progress, declared once for every command whose work is many simulations (run and compare with
// --seeds / --param-samples, validate, sensitivity, sweep): one spelling, one default (`auto`: a
// bar on a terminal, nothing otherwise), the same modes (sim/core/progress.hpp).
#include <CLI/CLI.hpp>
#include <string>

namespace pdsim::cli {

inline CLI::Option* add_progress_option(CLI::App& app, std::string& mode) {
  mode = "auto";
  return app
      .add_option("--progress", mode,
                  "how finished simulations are shown on stderr: auto (a bar on a terminal, "
                  "else nothing), bar, lines (a line per tenth, for logs) or off")
      ->check(CLI::IsMember({"auto", "bar", "lines", "off"}));
}

}  // namespace pdsim::cli
