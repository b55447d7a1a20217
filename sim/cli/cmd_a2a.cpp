// `pdsim a2a --profile FABRIC --backend B [--ep N]... [--tokens T] [--model M] [--instance I]`:
// what one low-latency dispatch and one combine cost at analytic fidelity for an EP size and a
// batch per rank — the microbenchmark a user compares with DeepEP's `test_low_latency.py`,
// UCCL-EP's or pplx's bench — from the fabric profile's fitted backend parameters (sim/fabric),
// routing sampled uniformly (calibrate/a2a_rows: the same sampling `pdsim calibrate check` uses).
#include <cstdio>
#include <iostream>
#include <memory>

#include "calibrate/a2a_rows.hpp"
#include "models/hardware.hpp"
#include "models/model_config.hpp"
#include "sim/cli/command.hpp"
#include "sim/cli/seed_option.hpp"
#include "sim/core/error.hpp"
#include "sim/fabric/alltoall.hpp"
#include "sim/fabric/linear_a2a_backend.hpp"

namespace {

struct A2aArgs {
  std::string profile, backend, model = "deepseek-v3", instance = "p5en.48xlarge";
  std::vector<int> ep{16};
  int tokens = 128, samples = 16;
  double nics_per_gpu = 0;
  int64_t seed = 1;
};

}  // namespace

PDSIM_CLI_COMMAND(
    a2a, "a2a",
    "one low-latency dispatch and combine at given EP sizes and tokens per rank (analytic)",
    [](CLI::App& app) -> std::function<int()> {
      auto a = std::make_shared<A2aArgs>();
      app.add_option("--profile", a->profile, "fabric profile (name or file)")->required();
      app.add_option("--backend", a->backend, "all-to-all backend (pdsim list)")->required();
      app.add_option("--ep", a->ep, "EP sizes (repeatable; each divides the model's experts)")
          ->check(CLI::Range(2, 4096));
      app.add_option("--tokens", a->tokens, "tokens per rank")->check(CLI::Range(1, 4096));
      app.add_option("--model", a->model, "model catalog entry (experts, top-k, hidden)");
      app.add_option("--instance", a->instance, "instance type (GPUs and NICs per node)");
      app.add_option("--nics-per-gpu", a->nics_per_gpu,
                     "NICs an EP rank uses (default: the instance's NICs / GPUs)")
          ->check(CLI::Range(0.125, 64.0));
      app.add_option("--samples", a->samples, "routing samples averaged")
          ->check(CLI::Range(1, 1024));
      app.add_option("--seed", a->seed, "routing seed")->check(pdsim::cli::kNonNegativeSeed);
      return [a]() -> int {
        using namespace pdsim;
        const FabricProfile fp = load_fabric_profile(a->profile, "", "--profile");
        const auto backend =
            A2ABackendRegistry::instance().create(a->backend, "<flags>", "--backend", fp);
        const ModelConfig m = load_model(a->model, "", "--model");
        const InstanceType inst = load_instance(a->instance, "", "--instance");
        if (!m.is_moe()) throw InputError("<flags>", "--model", "a mixture-of-experts model");
        std::printf(
            "%s over %s (%s, %d GPUs and %d NICs per node), %s: %d experts, top-%d, "
            "hidden %d; %d tokens per rank, mean of %d routing samples\n",
            a->backend.c_str(), fp.name.c_str(), inst.name.c_str(), inst.gpus_per_node,
            inst.nics_per_node, m.name.c_str(), m.n_routed_experts, m.top_k, m.hidden, a->tokens,
            a->samples);
        std::printf("%6s  %14s  %14s\n", "EP", "dispatch (us)", "combine (us)");
        for (const int ep : a->ep) {
          if (m.n_routed_experts % ep != 0)
            throw InputError("<flags>", "--ep",
                             "an EP size that divides the " + std::to_string(m.n_routed_experts) +
                                 " routed experts, got " + std::to_string(ep));
          A2ARow row;
          row.backend = a->backend;
          row.cfg.ep_ranks = ep;
          row.cfg.gpus_per_node = inst.gpus_per_node;
          row.cfg.num_experts = m.n_routed_experts;
          row.cfg.top_k = m.top_k;
          row.cfg.hidden = m.hidden;
          row.cfg.nics_per_gpu = a->nics_per_gpu > 0
                                     ? a->nics_per_gpu
                                     : static_cast<double>(inst.nics_per_node) / inst.gpus_per_node;
          row.cfg.nic_gbps = inst.nic_gbps;
          row.tokens_per_rank = a->tokens;
          row.phase = A2APhase::dispatch;
          const double disp =
              simulate_a2a_row(*backend, row, a->samples, static_cast<uint64_t>(a->seed));
          row.phase = A2APhase::combine;
          const double comb =
              simulate_a2a_row(*backend, row, a->samples, static_cast<uint64_t>(a->seed));
          std::printf("%6d  %14.1f  %14.1f\n", ep, disp, comb);
        }
        std::printf(
            "Beyond the EP sizes, batch sizes and instance of the rows the profile's backend "
            "was fitted to (its provenance names them), these extrapolate.\n");
        // What a microbenchmark leaves out and a serving run adds (calibrate/a2a_rows.hpp).
        const auto* lin = dynamic_cast<const LinearA2ABackend*>(backend.get());
        if (lin && lin->params()[lin->fixed_cost_index()] > 0) {
          const double v = lin->params()[lin->fixed_cost_index()];
          const auto& pr = lin->priors()[lin->fixed_cost_index()];
          std::printf(
              "As a microbenchmark measures them: in serving, every phase also pays the "
              "profile's in-serving fixed cost fixed_us = %g us",
              v);
          if (pr) std::printf(" (prior %g-%g us)", pr->lower, pr->upper);
          std::printf(".\n");
        }
        return 0;
      };
    });
