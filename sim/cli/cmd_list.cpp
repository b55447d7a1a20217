// pdsim list: every registered plug-in (name and one-line description) and the catalog entries.
#include <algorithm>
#include <filesystem>
#include <iostream>

#include "calibrate/measurement.hpp"
#include "reports/report_writer.hpp"
#include "sim/cli/command.hpp"
#include "sim/core/data_path.hpp"
#include "sim/core/json_reader.hpp"
#include "sim/core/text_align.hpp"
#include "sim/fabric/alltoall.hpp"
#include "sim/packet/workload.hpp"
#include "sim/scenario/scenario_base.hpp"
#include "sim/serve/cost/fabric_fidelity.hpp"
#include "sim/serve/mechanisms/tail_mechanism.hpp"
#include "sim/serve/policies/admission_policy.hpp"
#include "sim/serve/policies/router_policy.hpp"

namespace {
template <class R>
void print_registry(const char* title) {
  std::cout << title << ":\n";
  for (const auto& e : R::instance().entries()) {
    std::cout << "  " << pdsim::column(e.name, 18) << e.description << "\n";
  }
}
void print_commands() {
  std::cout << "commands (pdsim COMMAND --help):\n";
  for (const auto& c : pdsim::cli::commands()) {
    std::cout << "  " << pdsim::column(c.name, 18) << c.description << "\n";
  }
}
void print_dir(const char* title, const std::string& rel) {
  namespace fs = std::filesystem;
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(fs::path(pdsim::data_root()) / rel, ec))
    if (e.path().extension() == ".json") names.push_back(e.path().stem().string());
  std::sort(names.begin(), names.end());
  std::cout << title << " (" << rel << "):\n";
  for (const auto& n : names) std::cout << "  " << n << "\n";
}
// Serving scenarios by the name `pdsim run` accepts (scenario_file): every file under scenarios/
// whose schema is pdsim.scenario/1, with its subfolder (dsr1/..., whatif/...).
void print_scenarios() {
  namespace fs = std::filesystem;
  const fs::path root = fs::path(pdsim::data_root()) / "scenarios";
  std::vector<std::string> names;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(root, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (it->path().extension() != ".json" || !it->is_regular_file(ec)) continue;
    try {
      const pdsim::JsonNode file = pdsim::JsonNode::load_file(it->path().string());
      // A variant may leave its schema to its base (scenario_base.hpp).
      const bool variant = file.is_object() && !file.has("schema") && file.raw().contains("base");
      const pdsim::JsonNode n = variant ? pdsim::load_scenario_document(it->path().string()) : file;
      if (!n.is_object() || n.str_or("schema", "") != "pdsim.scenario/1") continue;
    } catch (const std::exception&) {
      continue;  // not a scenario this listing can name
    }
    names.push_back(fs::relative(it->path(), root).replace_extension().generic_string());
  }
  std::sort(names.begin(), names.end());
  std::cout << "scenarios (scenarios; pdsim run NAME):\n";
  for (const auto& n : names) std::cout << "  " << n << "\n";
}
}  // namespace

PDSIM_CLI_COMMAND(
    list, "list", "list registered plug-ins and catalog entries",
    [](CLI::App&) -> std::function<int()> {
      return [] {
        print_commands();
        print_registry<pdsim::A2ABackendRegistry>("all-to-all backends (fabric.a2a_backend)");
        print_registry<pdsim::FabricFidelityRegistry>("fabric fidelities (fabric.fidelity)");
        print_registry<pdsim::RouterPolicyRegistry>("router policies (router.policy)");
        print_registry<pdsim::AdmissionPolicyRegistry>(
            "decode admission policies (tail.batch_jumps: true all-arrived, false one-per-rank)");
        print_registry<pdsim::TailMechanismRegistry>("ITL-tail mechanisms (scenario section tail)");
        print_registry<pdsim::ReportWriterRegistry>("report writers");
        print_registry<pdsim::MeasurementImporterRegistry>(
            "measurement importers (calibrate import --format)");
        print_registry<pdsim::packet::WorkloadRegistry>(
            "packet-engine workloads (pdsim fabric: workloads[].kind)");
        print_dir("models", "models/catalog/llm");
        print_dir("GPUs", "models/catalog/gpu");
        print_dir("instance types", "models/catalog/instance");
        print_dir("KV transports over TCP (prefill.kv_tcp_transport)",
                  "models/catalog/kv_transport");
        print_dir("connection state per library (pdsim connections)",
                  "models/catalog/connection_library");
        print_dir("connection setup costs per NIC family (pdsim connections)",
                  "models/catalog/connection_setup");
        print_dir("GPU profiles", "models/profiles/gpu");
        print_dir("fabric profiles", "models/profiles/fabric");
        print_dir("collective profiles (pdsim collective)", "models/profiles/collective");
        print_dir("serving-stack profiles", "models/profiles/serving");
        print_dir("acceptance profiles", "models/profiles/acceptance");
        print_dir("profile overlays", "calibrate/overlays");
        print_dir("validation sets", "calibrate/validation");
        print_dir("calibration corpora (pdsim run --corpus)", "calibrate/corpus");
        print_scenarios();
        std::cout << "data directory: " << pdsim::data_root()
                  << " (the names above; PDSIM_DATA_DIR overrides it)\n";
        return 0;
      };
    })
