// pdsim: one binary, subcommands registered by their own files (see command.hpp).
#include <algorithm>
#include <iostream>

#include "sim/cli/command.hpp"
#include "sim/core/error.hpp"
#include "sim/core/exit_status.hpp"
#include "sim/core/malloc_hugepages.hpp"

namespace pdsim::cli {
std::vector<Command>& commands() {
  static std::vector<Command> c;
  return c;
}
bool register_command(Command c) {
  commands().push_back(std::move(c));
  return true;
}
}  // namespace pdsim::cli

int main(int argc, char** argv) {
  using namespace pdsim;
  reexec_with_malloc_hugepages(argv);
  CLI::App app{"pdsim: prefill-decode disaggregated MoE inference simulator"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("pdsim ") + PDSIM_VERSION);
  auto& cmds = cli::commands();
  std::sort(cmds.begin(), cmds.end(), [](auto& a, auto& b) { return a.name < b.name; });
  std::vector<std::pair<CLI::App*, std::function<int()>>> actions;
  for (auto& c : cmds) {
    CLI::App* sub = app.add_subcommand(c.name, c.description);
    actions.emplace_back(sub, c.setup(*sub));
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);  // prints the message (or the help)
    return rc == 0 ? kExitOk
                   : kExitBadInput;  // every bad command line exits 2, like other bad input
  }
  // Every failure leaves through here with its documented exit code (sim/core/exit_status).
  try {
    for (auto& [sub, action] : actions)
      if (sub->parsed()) return action();
  } catch (...) {
    const ExitStatus st = classify_current_exception();
    std::cerr << "error: " << st.message << "\n";
    return st.code;
  }
  return kExitOk;
}
