// pdsim calibrate fit|check|import|serving|collective: measurement files → fabric profile,
// prediction error of a profile on measurements (held-out ones marked), third-party tool outputs
// → measurement files, measured serving runs → a profile overlay (cmd_calibrate_serving.cpp),
// nccl-tests rows → a collective profile (cmd_collective.cpp).
#include <filesystem>
#include <iostream>

#include "calibrate/check_profile.hpp"
#include "calibrate/fit_profile.hpp"
#include "calibrate/import_parameters.hpp"
#include "calibrate/measurement.hpp"
#include "sim/cli/calibrate_collective.hpp"
#include "sim/cli/calibrate_corpus.hpp"
#include "sim/cli/calibrate_serving.hpp"
#include "sim/cli/command.hpp"
#include "sim/cli/seed_option.hpp"
#include "sim/core/atomic_file.hpp"
#include "sim/core/error.hpp"
#include "sim/core/excerpt.hpp"

namespace {

struct CalibrateArgs {
  pdsim::ProfileFitOptions fit;
  std::string out, profile, format, import_file, import_out, import_instance;
  std::vector<std::string> import_params;
  std::vector<std::string> fixes, check_files;
  int samples = 8;
  uint64_t seed = 1;
};

// "--fix backend.param=value" → opt.fixed[backend][param] = value.
void parse_fixes(CalibrateArgs& a) {
  for (const auto& f : a.fixes) {
    const auto dot = f.find('.'), eq = f.find('=');
    if (dot == std::string::npos || eq == std::string::npos || eq < dot)
      throw pdsim::InputError("<command line>", "--fix",
                              "BACKEND.PARAM=VALUE, got '" + pdsim::excerpt(f) + "'");
    try {
      a.fit.fixed[f.substr(0, dot)][f.substr(dot + 1, eq - dot - 1)] = std::stod(f.substr(eq + 1));
    } catch (const std::exception&) {
      throw pdsim::InputError("<command line>", "--fix",
                              "a number after '=', got '" + pdsim::excerpt(f) + "'");
    }
  }
}

}  // namespace

PDSIM_CLI_COMMAND(
    calibrate, "calibrate",
    "Fit fabric and collective profiles to measurements and check them; fit the serving model to "
    "measured runs",
    [](CLI::App& app) -> std::function<int()> {
      auto a = std::make_shared<CalibrateArgs>();
      app.require_subcommand(1);
      CLI::App* fit = app.add_subcommand("fit", "Fit a fabric profile");
      fit->add_option("measurements", a->fit.files, "measurement files")->required();
      fit->add_option("-o,--output", a->out, "profile to write")->required();
      fit->add_option("--name", a->fit.name, "profile name (default: the output file's stem)");
      fit->add_option("--transport", a->fit.transport, "srd or rc")->required();
      fit->add_option("--instance", a->fit.instance, "instance type (provenance)");
      fit->add_option("--alternate", a->fit.alternates,
                      "measurement files fitted separately and compared");
      fit->add_option("--fix", a->fixes, "hold BACKEND.PARAM=VALUE");
      fit->add_option("--samples", a->samples, "routing samples per row");
      fit->add_option("--seed", a->seed, "routing seed")->check(pdsim::cli::kNonNegativeSeed);
      CLI::App* check = app.add_subcommand("check", "Prediction error per row");
      check->add_option("profile", a->profile, "fabric profile")->required();
      check->add_option("measurements", a->check_files, "measurement files")->required();
      check->add_option("--samples", a->samples, "routing samples per row");
      check->add_option("--seed", a->seed, "routing seed")->check(pdsim::cli::kNonNegativeSeed);
      CLI::App* imp =
          app.add_subcommand("import", "Convert a tool's output into a measurement file");
      imp->add_option("--format", a->format,
                      "input format: " + pdsim::MeasurementImporterRegistry::instance().names())
          ->required();
      imp->add_option("file", a->import_file, "the tool's output")->required();
      imp->add_option("-o,--output", a->import_out, "measurement file to write (default: stdout)");
      imp->add_option("--instance-type", a->import_instance,
                      "add gpus_per_node, nics_per_gpu and nic_gbps from this instance type "
                      "(models/catalog/instance) where the output lacks them");
      imp->add_option("--param", a->import_params,
                      "add a parameter KEY=VALUE (repeatable), e.g. backend=cpu-proxy ep=16 "
                      "num_experts=256");
      CLI::App* serving = app.add_subcommand(
          "serving", "Fit mechanism parameters to measured serving runs (a validation set)");
      auto serving_run = pdsim::cli::setup_calibrate_serving(serving);
      CLI::App* collective = app.add_subcommand(
          "collective", "Fit a collective profile (NCCL by message size) to nccl-tests rows");
      auto collective_run = pdsim::cli::setup_calibrate_collective(collective);
      CLI::App* corpus = app.add_subcommand(
          "corpus",
          "Build the calibration corpus: every validation set's runs, where each deployment "
          "stands, and the spread of the error between deployments");
      auto corpus_run = pdsim::cli::setup_calibrate_corpus(corpus);
      return [a, fit, check, imp, serving, serving_run, collective, collective_run, corpus,
              corpus_run]() -> int {
        if (serving->parsed()) return serving_run();
        if (corpus->parsed()) return corpus_run();
        if (collective->parsed()) return collective_run();
        a->fit.a2a.samples = a->samples;
        a->fit.a2a.seed = a->seed;
        if (fit->parsed()) {
          parse_fixes(*a);
          if (a->fit.name.empty()) a->fit.name = std::filesystem::path(a->out).stem().string();
          pdsim::FabricProfile p = pdsim::fit_fabric_profile(a->fit);
          pdsim::write_file_atomic(a->out, pdsim::fabric_profile_to_json(p).dump(2) + "\n");
          for (const auto& w : pdsim::unidentified_parameters(p))
            std::cout << "warning: " << w << "\n";
          std::cout << "wrote " << a->out << "\n";
          return 0;
        }
        if (check->parsed()) {
          pdsim::FabricProfile p = pdsim::load_fabric_profile(a->profile);
          std::cout << pdsim::format_check(
              pdsim::check_profile(p, a->check_files, a->samples, a->seed));
          return 0;
        }
        if (imp->parsed()) {
          auto importer = pdsim::MeasurementImporterRegistry::instance().create(
              a->format, "<command line>", "--format");
          const std::string text = pdsim::read_file(a->import_file);
          pdsim::Json doc = importer->parse(text, a->import_file);
          pdsim::add_import_parameters(doc, a->import_instance, a->import_params);
          const std::string json = doc.dump(2) + "\n";
          if (a->import_out.empty()) {
            std::cout << json;
          } else {
            pdsim::write_file_atomic(a->import_out, json);
            std::cout << "wrote " << a->import_out << "\n";
          }
          return 0;
        }
        return 1;
      };
    })
