// pdsim list: every registered plug-in (name and one-line description) and the catalog entries.
#include <algorithm>
#include <filesystem>
#include <iostream>

#include "calibrate/measurement.hpp"
#include "reports/report_writer.hpp"
#include "sim/cli/command.hpp"
#include "sim/core/data_path.hpp"
#include "sim/core/text_align.hpp"
#include "sim/fabric/alltoall.hpp"
#include "sim/packet/workload.hpp"
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
        print_dir("GPU profiles", "models/profiles/gpu");
        print_dir("fabric profiles", "models/profiles/fabric");
        print_dir("collective profiles (pdsim collective)", "models/profiles/collective");
        print_dir("serving-stack profiles", "models/profiles/serving");
        print_dir("acceptance profiles", "models/profiles/acceptance");
        print_dir("profile overlays", "calibrate/overlays");
        print_dir("validation sets", "calibrate/validation");
        print_dir("scenarios", "scenarios");
        return 0;
      };
    })
