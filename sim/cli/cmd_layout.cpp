// `pdsim layout --flags "SGLANG FLAGS" --model M [--tokens N]... [--collective PROFILE]`: one
// role's parallelism as SGLang builds it from its launch flags (models/sglang_parallel: the groups,
// the adjustments SGLang makes on its own, its refusals by rule), the collectives one forward
// issues under it (models/layer_comms), and, with a collective profile, what those that cross
// nodes cost (sim/fabric/collective_profile). Groups inside one node run over NVLink and are not
// costed here.
#include <algorithm>
#include <iomanip>
#include <iostream>
#include <limits>
#include <sstream>

#include "models/cuda_graph_capture.hpp"
#include "models/hardware.hpp"
#include "models/layer_comms.hpp"
#include "sim/cli/command.hpp"
#include "sim/core/error.hpp"
#include "sim/fabric/collective_profile.hpp"
#include "sim/import/launch_args.hpp"

namespace {

struct LayoutArgs {
  std::string flags, model = "deepseek-v3", instance = "p5en.48xlarge", collective;
  std::vector<int> tokens{32}, lm_tokens;
  bool extend = false, no_graph = false;
};

int int_value(const std::string& name, const std::string& v) {
  if (v.empty() || v.find_first_not_of("0123456789") != std::string::npos || v.size() > 6)
    throw pdsim::InputError("<flags>", name, "a positive integer, got '" + v + "'");
  return std::stoi(v);
}

int int_flag(const pdsim::ParsedArgs& a, const std::string& name, int def) {
  auto it = a.values.find(name);
  if (it == a.values.end() || it->second.empty()) return def;
  return int_value(name, it->second.back());
}

pdsim::ParsedArgs parse_launch(const std::string& text) {
  using pdsim::ArgKind;
  const std::vector<pdsim::ArgSpec> specs = {
      {"--tp-size", ArgKind::kValue, {"--tp", "--tensor-parallel-size"}},
      {"--dp-size", ArgKind::kValue, {"--dp", "--data-parallel-size"}},
      {"--ep-size", ArgKind::kValue, {"--ep", "--expert-parallel-size"}},
      {"--pp-size", ArgKind::kValue, {"--pp", "--pipeline-parallel-size"}},
      {"--nnodes", ArgKind::kValue, {}},
      {"--enable-dp-attention", ArgKind::kSwitch, {}},
      {"--enable-dp-lm-head", ArgKind::kSwitch, {}},
      {"--moe-a2a-backend", ArgKind::kValue, {}},
      {"--deepep-mode", ArgKind::kValue, {}},
      {"--moe-dense-tp-size", ArgKind::kValue, {}},
      {"--speculative-algorithm", ArgKind::kValue, {}},
      {"--cuda-graph-bs", ArgKind::kList, {}},
      {"--max-running-requests", ArgKind::kValue, {}},
      {"--disable-cuda-graph", ArgKind::kSwitch, {}}};
  return pdsim::parse_args(pdsim::split_command_line(text, "<flags>"), specs, "<flags>");
}

pdsim::SglangParallelFlags parallel_flags(const pdsim::ParsedArgs& a) {
  pdsim::SglangParallelFlags f;
  f.tp = int_flag(a, "--tp-size", 1);
  f.dp = int_flag(a, "--dp-size", 1);
  f.ep = int_flag(a, "--ep-size", 1);
  f.pp = int_flag(a, "--pp-size", 1);
  f.nnodes = int_flag(a, "--nnodes", 1);
  f.dp_attention = a.has("--enable-dp-attention");
  f.dp_lm_head = a.has("--enable-dp-lm-head");
  if (a.has("--moe-a2a-backend")) f.moe_a2a_backend = a.values.at("--moe-a2a-backend").back();
  if (a.has("--deepep-mode")) f.deepep_mode = a.values.at("--deepep-mode").back();
  if (a.has("--moe-dense-tp-size")) f.moe_dense_tp = int_flag(a, "--moe-dense-tp-size", 1);
  if (a.has("--speculative-algorithm"))
    f.speculative_algorithm = a.values.at("--speculative-algorithm").back();
  return f;
}

// With --cuda-graph-bs, a decode replay pads every group to the smallest captured size that
// holds the largest group (SGLang pads to the maximum over DP ranks); the list is cut to the
// request pool as SGLang cuts it. Returns the line to print ("" without --cuda-graph-bs).
std::string pad_to_graph(const pdsim::ParsedArgs& a, const pdsim::SglangParallel& p,
                         std::vector<int>& tokens, bool& graph) {
  if (!graph || !a.has("--cuda-graph-bs")) return "";
  if (a.has("--speculative-algorithm"))  // a replay holds requests x draft tokens: not padded here
    return "CUDA graph: --tokens taken as given (a speculative replay pads requests, not tokens)";
  std::vector<int> bs;
  for (const auto& v : a.values.at("--cuda-graph-bs"))
    bs.push_back(int_value("--cuda-graph-bs", v));
  const int mrr = int_flag(a, "--max-running-requests", 0);
  const int pool = mrr > 0 ? mrr / p.attn_dp : std::numeric_limits<int>::max();
  bs = pdsim::capture_bs_within_pool(bs, pool, p.attn_dp > 1 ? p.attn_tp : 1);
  std::ostringstream o;
  o << "CUDA graph: captures [";
  for (size_t i = 0; i < bs.size(); ++i) o << (i ? ", " : "") << bs[i];
  o << "]" << (mrr > 0 ? " (request pool " + std::to_string(pool) + " per DP rank)" : "");
  const int most = *std::max_element(tokens.begin(), tokens.end());
  if (most > bs.back()) {
    graph = false;
    o << "; " << most << " tokens exceed it: the forward runs eagerly";
  } else {
    const int pad = *std::lower_bound(bs.begin(), bs.end(), most);
    tokens.assign(tokens.size(), pad);
    o << "; the replay pads every group to " << pad;
  }
  return o.str();
}

std::string bytes_text(double b) {
  std::ostringstream o;
  o << std::fixed << std::setprecision(0) << b;
  return o.str();
}

}  // namespace

PDSIM_CLI_COMMAND(
    layout, "layout",
    "SGLang flags → process groups, SGLang's adjustments and refusals, each layer's collectives",
    [](CLI::App& app) -> std::function<int()> {
      auto a = std::make_shared<LayoutArgs>();
      app.add_option("--flags", a->flags, "one role's launch_server flags, quoted")->required();
      app.add_option("--model", a->model, "model (models/catalog/llm; default deepseek-v3)");
      app.add_option("--instance-type", a->instance,
                     "instance type: GPUs per node (default p5en.48xlarge)");
      app.add_option("--tokens", a->tokens,
                     "tokens per DP-attention group this forward (one value: every group)")
          ->check(CLI::Range(0, 1 << 24));
      app.add_option("--lm-tokens", a->lm_tokens,
                     "tokens per group whose logits are computed (default: --tokens)")
          ->check(CLI::Range(0, 1 << 24));
      app.add_flag("--extend", a->extend, "a prefill (extend) forward");
      app.add_flag("--no-cuda-graph", a->no_graph, "a decode forward run eagerly");
      app.add_option("--collective", a->collective,
                     "collective profile (models/profiles/collective) to cost cross-node groups");
      return [a]() -> int {
        using namespace pdsim;
        const ModelConfig m = load_model(a->model, "<command line>", "--model");
        const InstanceType inst = load_instance(a->instance, "<command line>", "--instance-type");
        const ParsedArgs launch = parse_launch(a->flags);
        const SglangParallel p =
            resolve_sglang_parallel(parallel_flags(launch), m, "<flags>", "launch_server");
        const auto per_group = [&](std::vector<int> v) {
          if (v.size() == 1) v.assign(static_cast<size_t>(p.attn_dp), v[0]);
          if (static_cast<int>(v.size()) != p.attn_dp)
            throw InputError(
                "<command line>", "--tokens",
                "one value, or one per DP-attention group (" + std::to_string(p.attn_dp) + ")");
          return v;
        };
        std::vector<int> tokens = per_group(a->tokens);
        bool graph = !a->no_graph && !a->extend && !launch.has("--disable-cuda-graph");
        const std::string graph_line = pad_to_graph(launch, p, tokens, graph);
        const std::vector<int> lm = a->lm_tokens.empty() ? tokens : per_group(a->lm_tokens);
        const ForwardComms c = forward_comms(p, m, tokens, lm, a->extend, graph);
        std::optional<CollectiveProfile> prof;
        if (!a->collective.empty())
          prof = load_collective_profile(a->collective, "<command line>", "--collective");
        const int gpn = inst.gpus_per_node;
        // Every row costed before anything is printed: an error is the only output.
        std::vector<std::string> costs, notes;
        double total_us = 0;
        bool estimated = false;
        for (const CommOp& o : c.ops) {
          std::string cost = "NVLink";
          const int nodes = (o.ranks + gpn - 1) / gpn;
          if (o.op == "all_to_all") {
            cost = "backend";  // the all-to-all backends cost it (sim/fabric)
          } else if (nodes > 1 && !prof) {
            cost = "-";
          } else if (nodes > 1) {
            const CollectiveEstimate e = estimate_collective(*prof, o.op, o.bytes, o.ranks, nodes);
            const CollectivePrediction& r = e.prediction;
            std::ostringstream t;
            t << std::fixed << std::setprecision(1) << r.time_us;
            cost = t.str() + (e.from_all_reduce ? "~" : "") + (r.outside.empty() ? "" : "*");
            estimated = estimated || e.from_all_reduce;
            total_us += r.time_us * o.count;
            for (const auto& n : r.outside)
              if (std::find(notes.begin(), notes.end(), n) == notes.end()) notes.push_back(n);
          }
          costs.push_back(cost);
        }
        std::cout << m.name << ": " << p.gpus << " GPUs (" << gpn << " per node); attention TP "
                  << p.attn_tp << " × DP " << p.attn_dp << ", MoE EP " << p.moe_ep << " × TP "
                  << p.moe_tp << (p.moe_a2a ? " (all-to-all: " + p.flags.moe_a2a_backend + ")" : "")
                  << ", dense MLP TP " << p.dense_tp << ", LM head TP " << p.lm_head_tp << "\n";
        for (const auto& adj : p.adjustments) std::cout << "SGLang adjusts: " << adj << "\n";
        if (!graph_line.empty()) std::cout << graph_line << "\n";
        if (!c.padding.empty()) std::cout << "DP gather padding: " << c.padding << "\n";
        std::cout << "MoE tokens per rank: " << c.moe_tokens_per_rank << "\n";
        std::cout << std::left << std::setw(13) << "step" << std::setw(7) << "layer"
                  << std::setw(15) << "op" << std::setw(9) << "group" << std::right << std::setw(6)
                  << "ranks" << std::setw(13) << "bytes" << std::setw(7) << "count" << std::setw(12)
                  << "us each"
                  << "\n";
        for (size_t i = 0; i < c.ops.size(); ++i) {
          const CommOp& o = c.ops[i];
          std::cout << std::left << std::setw(13) << o.step << std::setw(7) << o.layer
                    << std::setw(15) << o.op << std::setw(9) << o.group << std::right
                    << std::setw(6) << o.ranks << std::setw(13) << bytes_text(o.bytes)
                    << std::setw(7) << o.count << std::setw(12) << costs[i] << "\n";
        }
        if (prof)
          std::cout << "cross-node collectives per forward: " << std::fixed << std::setprecision(1)
                    << total_us << " us (" << prof->name << ")\n";
        if (estimated)
          std::cout << "~ no curve for this op in the profile: half an all-reduce of the same "
                       "buffer (as pdsim run costs it)\n";
        for (const auto& n : notes) std::cout << "* outside what was measured: " << n << "\n";
        return 0;
      };
    })
