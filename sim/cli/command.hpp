#pragma once
// Subcommands of `pdsim` register themselves (one file per subcommand, cmd_<name>.cpp):
//   PDSIM_CLI_COMMAND(my_cmd, "name", "one-line description",
//                     [](CLI::App& app) -> std::function<int()> { ...add options...; return run;
//                     });
// `setup` adds the subcommand's options to `app` and returns the action to run after parsing.
// Actions throw pdsim::InputError / InfeasibleError for bad input; main prints them and exits 2.
#include <CLI/CLI.hpp>
#include <functional>
#include <string>
#include <vector>

namespace pdsim::cli {

struct Command {
  std::string name, description;
  std::function<std::function<int()>(CLI::App&)> setup;
};

std::vector<Command>& commands();  // sorted by name when main builds the CLI
bool register_command(Command c);

}  // namespace pdsim::cli

#define PDSIM_CLI_COMMAND(ID, NAME, DESC, ...)                   \
  namespace {                                                    \
  [[maybe_unused]] const bool pdsim_cli_##ID =                   \
      ::pdsim::cli::register_command({NAME, DESC, __VA_ARGS__}); \
  }
