// `pdsim connections SCENARIO [--set path=value]... [--json FILE]`: the connection state each
// library in play holds on one host (sim/serve/cost/connection_table): QPs, endpoints, address
// handles and AV entries per host and per NIC, their memory, the cold start and what a node
// joining costs; every figure from the library's source or a published measurement
// (models/catalog/connection_library, models/catalog/connection_setup), "unknown" otherwise.
#include <iostream>
#include <memory>

#include "reports/connection_report.hpp"
#include "sim/cli/command.hpp"
#include "sim/core/atomic_file.hpp"
#include "sim/serve/actors/run_scenario.hpp"

namespace {

struct ConnectionsArgs {
  std::string scenario, json;
  std::vector<std::string> sets;
};

}  // namespace

PDSIM_CLI_COMMAND(
    connections, "connections",
    "the connection state (QPs, endpoints, AV entries) each library holds per host, cold start "
    "and node join",
    [](CLI::App& app) -> std::function<int()> {
      auto a = std::make_shared<ConnectionsArgs>();
      app.add_option("scenario", a->scenario, "scenario JSON file or shipped name")->required();
      app.add_option("--set", a->sets, "override a scenario field: dotted.path=value");
      app.add_option("--json", a->json, "also write the table as JSON to FILE");
      return [a]() -> int {
        const pdsim::Scenario s = pdsim::load_scenario(a->scenario, a->sets);
        const pdsim::Deployment d = pdsim::build_deployment(s);
        const auto rows = pdsim::connection_table(d);
        std::cout << pdsim::connection_text(rows, "Connection state of " + s.name + " (" +
                                                      d.instance.name + ", " + d.fabric.transport +
                                                      ")");
        if (!a->json.empty())
          pdsim::write_file_atomic(a->json, pdsim::connection_json(rows).dump(2) + "\n");
        return 0;
      };
    });
