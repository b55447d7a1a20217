// pdsim import sglang --prefill "<args>" --decode "<args>" [--router "<args>"] [--base S] [-o F]
// pdsim import topology FILE.json [-o F]
// SGLang launch flags → a scenario's deployment sections; describe-instance-topology output →
// cluster placement. What an import cannot use is listed (stderr and the "ignored" field).
#include <filesystem>
#include <iostream>
#include <memory>

#include "sim/cli/command.hpp"
#include "sim/core/atomic_file.hpp"
#include "sim/import/sglang_import.hpp"
#include "sim/import/topology_placement.hpp"
#include "sim/scenario/scenario.hpp"

namespace {

struct ImportArgs {
  pdsim::SglangCommandLines lines;
  std::string base, out, topology;
};

void emit(const std::string& text, const std::string& out) {
  if (out.empty()) {
    std::cout << text;
  } else {
    pdsim::write_file_atomic(out, text);
    std::cerr << "wrote " << out << "\n";
  }
}

// Imported fields replace the base scenario's; fields the flags do not set (acceptance model,
// NIC rails, workload, fabric) stay as the base has them. The result must parse as a scenario.
// The base's profile_overlays are relative to the base's folder; the written scenario names them
// relative to its own folder (`out`; the working directory for stdout), so it runs where it is.
void rebase_overlays(pdsim::Json& doc, const std::string& base_file, const std::string& out) {
  namespace fs = std::filesystem;
  if (!doc.contains("profile_overlays")) return;
  fs::path to = (fs::current_path() / fs::path(out).parent_path()).lexically_normal();
  if (!to.has_filename()) to = to.parent_path();
  for (auto& f : doc["profile_overlays"]) {
    const fs::path p(f.get<std::string>());
    if (p.is_absolute()) continue;
    const fs::path abs = fs::absolute(fs::path(base_file).parent_path() / p).lexically_normal();
    const fs::path rel = abs.lexically_relative(to);
    f = rel.empty() ? abs.generic_string() : rel.generic_string();
  }
}

pdsim::Json merge_into_base(const pdsim::Json& imported, const std::string& base_arg,
                            const std::string& out) {
  const pdsim::Scenario base = pdsim::load_scenario(base_arg);
  pdsim::Json doc = base.resolved_json();
  rebase_overlays(doc, base.file, out);
  doc.merge_patch(pdsim::deployment_sections(imported));
  std::string ignored;
  for (const auto& i : imported.at("ignored")) ignored += " " + i.at("flag").get<std::string>();
  doc["description"] = doc.at("description").get<std::string>() +
                       " [deployment imported from SGLang flags" +
                       (ignored.empty() ? "" : "; ignored:" + ignored) + "]";
  pdsim::parse_scenario(pdsim::JsonNode::from_json(doc, base_arg + " (with imported deployment)"));
  return doc;
}

}  // namespace

PDSIM_CLI_COMMAND(
    import, "import", "SGLang launch flags → deployment; AWS instance topology → placement",
    [](CLI::App& app) -> std::function<int()> {
      auto a = std::make_shared<ImportArgs>();
      app.require_subcommand(1);
      CLI::App* sg = app.add_subcommand(
          "sglang", "launch_server / router flags → scenario deployment sections");
      sg->add_option("--prefill", a->lines.prefill,
                     "prefill launch_server arguments (one quoted string)")
          ->required();
      sg->add_option("--decode", a->lines.decode,
                     "decode launch_server arguments (one quoted string)")
          ->required();
      sg->add_option("--router", a->lines.router, "sglang_router arguments (one quoted string)");
      sg->add_option("--base", a->base,
                     "scenario to merge the deployment into (writes a whole scenario)");
      sg->add_option("-o,--output", a->out, "file to write (default: stdout)");
      CLI::App* topo =
          app.add_subcommand("topology", "describe-instance-topology JSON → cluster placement");
      topo->add_option("file", a->topology, "aws ec2 describe-instance-topology output")
          ->required();
      topo->add_option("-o,--output", a->out, "file to write (default: stdout)");
      return [a, sg, topo]() -> int {
        if (sg->parsed()) {
          pdsim::Json imported = pdsim::import_sglang(a->lines);
          for (const auto& i : imported.at("ignored"))
            std::cerr << "ignored (" << i.at("role").get<std::string>()
                      << "): " << i.at("flag").get<std::string>()
                      << (i.at("value").get<std::string>().empty()
                              ? ""
                              : " " + i.at("value").get<std::string>())
                      << " — " << i.at("reason").get<std::string>() << "\n";
          for (const auto& n : imported.at("notes"))
            std::cerr << "note: " << n.get<std::string>() << "\n";
          const pdsim::Json doc =
              a->base.empty() ? imported : merge_into_base(imported, a->base, a->out);
          emit(doc.dump(2) + "\n", a->out);
          return 0;
        }
        if (topo->parsed()) {
          const pdsim::Json p =
              pdsim::placement_from_aws_topology(pdsim::read_file(a->topology), a->topology);
          for (const auto& u : p.at("unplaced"))
            std::cerr << "unplaced: " << u.at("instance_id").get<std::string>() << " — "
                      << u.at("reason").get<std::string>() << "\n";
          emit(p.dump(2) + "\n", a->out);
          return 0;
        }
        return 1;
      };
    })
