#pragma once
// A scenario: model + cluster + fabric + deployment (prefill, decode) + workload + tail. Each
// field is declared once, beside its member (sim/core/fields.hpp): type and default are the
// member's; unit, range, help and the SGLang flag are its declaration. The reader, `--set`, the
// resolved output, `pdsim explain`, the field tables of scenarios/README.md,
// docs/scenario.schema.json and the SGLang import and export all come from these declarations.
// `tail` holds the sections the tail mechanisms declare in their own files
// (sim/core/config_sections.hpp). A file may name a `base` scenario it is merged onto; loading
// merges it away (sim/scenario/scenario_base.hpp), so a Scenario never has one.
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "models/kv_dtype.hpp"
#include "sim/core/config_sections.hpp"
#include "sim/core/fields.hpp"
#include "sim/core/time_bound.hpp"

namespace pdsim {

// The SGLang flag of a field that maps verbatim.
constexpr SglangName flag(const char* f) {
  return SglangName{.flag = f};
}

struct WorkloadConfig {
  std::string dataset = "random";
  int input_len = 1024;
  int output_len = 128;
  double range_ratio = 0.0;
  int num_prompts = 1000;
  double request_rate = std::numeric_limits<double>::infinity();  // inf = all at once
  int max_concurrency = 0;                                        // 0 = not set
  int warmup_requests = 1;
  bool flush_cache = false;
  // Earlier bench_serving runs against the same servers (a sweep), in the order they ran.
  std::vector<int> prior_input_lens{}, prior_num_prompts{};

  template <class V>
  static void declare(V& v) {
    using W = WorkloadConfig;
    v.field(&W::dataset, "dataset",
            {.help = "bench_serving dataset (only the random dataset is modelled)",
             .choices = {"random"},
             .sglang = flag("--dataset-name")});
    v.field(&W::input_len, "input_len",
            {.help = "prompt length (the longest, with range_ratio)",
             .unit = "tokens",
             .min = 1,
             .sglang = flag("--random-input-len")});
    v.field(&W::output_len, "output_len",
            {.help = "output length (the longest, with range_ratio)",
             .unit = "tokens",
             .min = 1,
             .sglang = flag("--random-output-len")});
    v.field(
        &W::range_ratio, "range_ratio",
        {.help = "lengths uniform in [max(floor(len*ratio), 1), len] (bench_serving's default 0)",
         .min = 0,
         .max = 1,
         .sglang = flag("--random-range-ratio")});
    v.field(&W::num_prompts, "num_prompts",
            {.help = "requests sent", .min = 1, .max = 1e6, .sglang = flag("--num-prompts")});
    v.field(&W::request_rate, "request_rate",
            {.help = "Poisson arrival rate; \"inf\" sends every request at t = 0",
             .unit = "requests/s",
             .min = 0,
             .above_min = true,
             .inf_ok = true,
             .sglang = flag("--request-rate")});
    v.field(&W::max_concurrency, "max_concurrency",
            {.help = "client-side semaphore on requests in flight; null = none",
             .unit = "requests",
             .min = 0,
             .nullable = true,
             .sglang = flag("--max-concurrency")});
    v.field(&W::warmup_requests, "warmup_requests",
            {.help = "requests bench_serving sends before the measured run, each with the first "
                     "request's prompt (not measured); with the prefill's radix cache on and no "
                     "flush, the first measured request finds its prompt cached "
                     "(sim/serve/entities/prefix_cache_at_start.hpp)",
             .unit = "requests",
             .min = 0,
             .sglang = flag("--warmup-requests")});
    v.field(&W::flush_cache, "flush_cache",
            {.help = "bench_serving flushes the server's prefix cache after the warmup",
             .sglang = {.flag = "--flush-cache", .absent = "false"}});
    v.field(&W::prior_input_lens, "prior_input_lens",
            {.help = "input lengths of the bench_serving runs sent to the same servers before "
                     "this one, in order, with the same --seed and no cache flush (a sweep "
                     "script's earlier points); the random dataset repeats the same prompts on "
                     "every such run, so with the prefill's radix cache on they are found cached "
                     "(sim/serve/entities/prefix_cache_at_start.hpp); empty = a fresh server",
             .unit = "tokens",
             .min = 1});
    v.field(&W::prior_num_prompts, "prior_num_prompts",
            {.help = "the --num-prompts of each run in prior_input_lens, in the same order",
             .unit = "requests",
             .min = 1});
  }
  static void validate(WorkloadConfig& w, const JsonNode& n);
};

struct AcceptanceConfig {
  std::string model = "chain-geometric";
  // Where the per-token acceptance probability comes from: the acceptance profile (default: the
  // one named after the model) for the workload's dataset, unless `accept_prob` overrides it.
  std::string profile;                // "" = the model's name
  std::optional<double> accept_prob;  // a what-if override, with `provenance`
  Json provenance;

  template <class V>
  static void declare(V& v) {
    using A = AcceptanceConfig;
    v.field(&A::model, "model",
            {.help = "draft token i is accepted with accept_prob given token i-1 was",
             .choices = {"chain-geometric"}});
    v.field(
        &A::profile, "profile",
        {.help = "models/profiles/acceptance entry; \"\" = the model's name. The probability "
                 "is the profile's figure for workload.dataset (a property of model and text)"});
    v.field(&A::accept_prob, "accept_prob",
            {.help = "a what-if override of the profile's per-token acceptance probability",
             .min = 0,
             .max = 1,
             .nullable = true});
    v.field(&A::provenance, "provenance", {.help = "the source of accept_prob", .nullable = true});
  }
};

struct SpeculativeConfig {
  std::string algorithm = "none";  // "none" | "eagle"
  int num_steps = 3;
  int topk = 1;
  int num_draft_tokens = 4;
  AcceptanceConfig acceptance;
  bool enabled() const { return algorithm != "none"; }

  template <class V>
  static void declare(V& v) {
    using S = SpeculativeConfig;
    v.field(&S::algorithm, "algorithm",
            {.help = "speculative decoding: EAGLE with the model's MTP layer, or none",
             .choices = {"none", "eagle"},
             .sglang = {.flag = "--speculative-algorithm",
                        .values = {{"eagle", "EAGLE"}, {"eagle", "NEXTN"}},
                        .absent = "none",
                        .how = "EAGLE or NEXTN (SGLang runs NEXTN as EAGLE with the MTP layer)"}});
    v.field(&S::num_steps, "num_steps",
            {.help = "draft steps per iteration: num_steps - 1 draft forwards, the verify forward "
                     "and the draft-extend, each with its own all-to-alls",
             .min = 1,
             .sglang = flag("--speculative-num-steps")});
    v.field(&S::topk, "topk",
            {.help = "draft branching (only chain drafts, topk 1, are modelled)",
             .min = 1,
             .max = 1,
             .sglang = flag("--speculative-eagle-topk")});
    v.field(&S::num_draft_tokens, "num_draft_tokens",
            {.help = "tokens verified per request and iteration (num_steps + 1 for a chain)",
             .unit = "tokens",
             .min = 1,
             .sglang = flag("--speculative-num-draft-tokens")});
    v.section(&S::acceptance, "acceptance", {.help = "the acceptance model"});
  }
  static void validate(SpeculativeConfig& s, const JsonNode& n);
};

struct PrefillConfig {
  int instances = 1;
  int nodes_per_instance = 2;
  int tp = 8, pp = 2, cp = 8, ep = 8;
  int dp = 1;
  bool dp_attention = false;
  bool enable_dp_lm_head = false;
  std::string moe_a2a_backend = "deepep";
  std::string a2a_backend;  // "" = fabric.a2a_backend
  int chunked_prefill_size = 16384;
  bool disable_radix_cache = false;
  int max_running_requests = 128;
  double mem_fraction_static = 0.85;
  std::string kv_transfer_backend = "mooncake";
  int kv_page_size = 64;      // tokens per KV page
  double kv_block_bytes = 0;  // 0 = one page of one layer (page_size × per-layer KV bytes)
  int kv_nics = 0;            // NICs per node used by KV transfer; 0 = all
  int kv_first_nic = 0;       // KV uses NICs [kv_first_nic, kv_first_nic + kv_nics)
  std::string kv_protocol = "rdma";
  std::string kv_tcp_transport = "mooncake-tcp";

  static void validate(PrefillConfig& p, const JsonNode& n);

  template <class V>
  static void declare(V& v) {
    using P = PrefillConfig;
    v.field(&P::instances, "instances",
            {.help = "prefill instances (3P2D: 3)",
             .min = 1,
             .sglang = {.by_rule = true, .how = "one --prefill URL per instance on the router"}});
    v.field(&P::nodes_per_instance, "nodes_per_instance",
            {.help = "nodes per instance; its GPUs = nodes x GPUs per node = tp x pp",
             .unit = "nodes",
             .min = 1,
             .sglang = {.flag = "--nnodes", .absent = "1"}});
    v.field(
        &P::tp, "tp",
        {.help = "tensor parallel size", .min = 1, .sglang = {.flag = "--tp-size", .absent = "1"}});
    v.field(&P::pp, "pp",
            {.help = "pipeline parallel size (stages pipeline the chunks)",
             .min = 1,
             .sglang = {.flag = "--pp-size", .absent = "1"}});
    v.field(&P::cp, "cp",
            {.help = "NSA prefill context parallel inside the node (1 = off)",
             .min = 1,
             .sglang = {.flag = "--enable-nsa-prefill-context-parallel",
                        .by_rule = true,
                        .how = "the switch (with --nsa-prefill-cp-mode round-robin-split) sets "
                               "cp = tp / dp; off: cp 1"}});
    v.field(&P::ep, "ep",
            {.help = "expert parallel size (across nodes only with moe_a2a_backend none)",
             .min = 1,
             .sglang = {.flag = "--ep-size",
                        .by_rule = true,
                        .how = "SGLang sets ep = tp with the DeepEP backend"}});
    v.field(&P::dp, "dp",
            {.help = "data parallel size; with dp_attention each of the dp groups runs attention "
                     "on its own requests over tp / dp GPUs",
             .min = 1,
             .sglang = {.flag = "--dp-size", .absent = "1"}});
    v.field(&P::dp_attention, "dp_attention",
            {.help = "DP attention in prefill: each request goes to a random DP group (SGLang's "
                     "bootstrap_room % dp), each group chunks its own queue within "
                     "chunked_prefill_size / dp tokens, the groups run each forward together at "
                     "the busiest one's pace; attention weights replicated per group, no "
                     "attention all-reduce. Optimistic: the published DP-attention prefill peaks "
                     "are 47-67 % below pdsim's (scenarios/README.md what-if)",
             .sglang = {.flag = "--enable-dp-attention", .absent = "false"}});
    v.field(&P::enable_dp_lm_head, "enable_dp_lm_head",
            {.help = "LM head over the attention-TP group (full vocab per DP group)",
             .sglang = {.flag = "--enable-dp-lm-head", .absent = "false"}});
    v.field(&P::moe_a2a_backend, "moe_a2a_backend",
            {.help = "how MoE tokens reach their experts: deepep (all-to-all, normal mode; "
                     "inside one node) or none (every rank runs its experts on all tokens, "
                     "then an all-reduce; ep 1 = pure TP MoE)",
             .choices = {"deepep", "none"},
             .sglang = {.flag = "--moe-a2a-backend",
                        .by_rule = true,
                        .how = "the flag's value; NSA prefill CP makes SGLang use deepep"}});
    v.field(&P::a2a_backend, "a2a_backend",
            {.help = "the prefill's DeepEP all-to-all mechanism when it differs from the "
                     "decode's (fabric.a2a_backend): its normal-mode rates across nodes come from "
                     "the fabric profile; \"\" = fabric.a2a_backend",
             .sglang = {.env = "NVSHMEM_REMOTE_TRANSPORT",
                        .by_rule = true,
                        .how = "the prefill line's NVSHMEM variables when they choose another "
                               "mechanism than the decode line's (sim/import/fabric_env.hpp)"}});
    v.field(&P::chunked_prefill_size, "chunked_prefill_size",
            {.help = "tokens per prefill chunk (FCFS packing)",
             .unit = "tokens",
             .min = 1,
             .sglang = flag("--chunked-prefill-size")});
    v.field(&P::disable_radix_cache, "disable_radix_cache",
            {.help = "no prefix cache on the prefill; on (SGLang's default), a prompt that "
                     "repeats one already prefilled computes only its uncached tail. The random "
                     "dataset's prompts share no prefix within a run, but bench_serving's warmup "
                     "repeats the first one (workload.warmup_requests) and runs with the same "
                     "seed repeat them all (workload.prior_input_lens)",
             .sglang = {.flag = "--disable-radix-cache", .absent = "false"}});
    v.field(&P::max_running_requests, "max_running_requests",
            {.help = "recorded; the chunk budget limits prefill first",
             .unit = "requests",
             .min = 1,
             .sglang = flag("--max-running-requests")});
    v.field(&P::mem_fraction_static, "mem_fraction_static",
            {.help = "static GPU memory fraction (weights + KV pool)",
             .min = 0,
             .max = 1,
             .above_min = true,
             .sglang = flag("--mem-fraction-static")});
    v.field(&P::kv_transfer_backend, "kv_transfer_backend",
            {.help = "KV transfer engine (recorded; the block-size curve comes from the fabric "
                     "profile)",
             .choices = {"mooncake", "nixl"},
             .sglang = {.flag = "--disaggregation-transfer-backend", .absent = "mooncake"}});
    v.field(&P::kv_page_size, "kv_page_size",
            {.help = "tokens per KV page (the NSA backend uses 64)",
             .unit = "tokens",
             .min = 1,
             .sglang = {.flag = "--page-size", .absent = "64", .how = "SGLang forces 64 for NSA"}});
    v.field(&P::kv_block_bytes, "kv_block_bytes",
            {.help = "KV transfer block; 0 = one page of one layer (page_size x KV bytes per "
                     "token per layer); at most 2 GiB, one RDMA write's limit (verbs max_msg_sz)",
             .unit = "bytes",
             .min = 0,
             .max = 2147483648.0});
    v.field(&P::kv_nics, "kv_nics",
            {.help = "NICs per node the KV transfer stripes over; 0 = all",
             .unit = "NICs",
             .min = 0,
             .sglang = {.flag = "--disaggregation-ib-device",
                        .by_rule = true,
                        .how = "the NICs it lists (not imported: set kv_nics and kv_first_nic)"}});
    v.field(&P::kv_first_nic, "kv_first_nic",
            {.help = "the KV transfer uses NICs [kv_first_nic, kv_first_nic + kv_nics); with "
                     "decode.a2a_nics this sets the rails (shared, split 8/8, ...)",
             .min = 0});
    v.field(&P::kv_protocol, "kv_protocol",
            {.help = "how the KV engine moves bytes: rdma (the fabric profile's block-size "
                     "curve over the NICs) or tcp (the hosts' TCP stack at kv_tcp_transport's "
                     "rate)",
             .choices = {"rdma", "tcp"},
             .sglang = {.env = "MOONCAKE_PROTOCOL",
                        .values = {{"rdma", "rdma"}, {"rdma", "efa"}, {"tcp", "tcp"}},
                        .absent = "rdma",
                        .how = "MC_FORCE_TCP=1 also selects tcp. On EFA, Mooncake without "
                               "MOONCAKE_PROTOCOL=efa falls back to TCP (awslabs dsr1-deepep-efa "
                               "RESULTS-2p2d L370-372); the import does not infer that"}});
    v.field(&P::kv_tcp_transport, "kv_tcp_transport",
            {.help = "models/catalog/kv_transport entry or a JSON path: the TCP transport's "
                     "per-rank rate, its spread and how concurrent transfers share it (used "
                     "when kv_protocol is tcp)"});
  }
};

struct DecodeConfig {
  int instances = 1;
  int nodes_per_instance = 2;
  int tp = 16, dp = 16, ep = 16;
  std::string moe_a2a_backend = "deepep";
  bool dp_attention = true;
  bool enable_dp_lm_head = true;
  int max_running_requests = 256;
  double mem_fraction_static = 0.74;
  int cuda_graph_max_bs = 16;
  std::vector<int> cuda_graph_bs;  // empty = SGLang's default capture list ≤ cuda_graph_max_bs
  int ll_max_dispatch_tokens_per_rank = 128;
  KvDtype kv_cache_dtype = KvDtype::bf16;
  double scheduler_overhead_us = 0;   // per iteration, CPU time not hidden by overlap
  double recompute_tolerance = 0.01;  // re-cost a rank's attention when Σcontext grew this much
  int a2a_nics = 0;                   // NICs per node used by the all-to-all; 0 = all
  SpeculativeConfig speculative;

  template <class V>
  static void declare(V& v) {
    using D = DecodeConfig;
    v.field(&D::instances, "instances",
            {.help = "decode instances",
             .min = 1,
             .sglang = {.by_rule = true, .how = "one --decode URL per instance on the router"}});
    v.field(&D::nodes_per_instance, "nodes_per_instance",
            {.help = "nodes per instance",
             .unit = "nodes",
             .min = 1,
             .sglang = {.flag = "--nnodes", .absent = "1"}});
    v.field(
        &D::tp, "tp",
        {.help = "tensor parallel size", .min = 1, .sglang = {.flag = "--tp-size", .absent = "1"}});
    v.field(&D::dp, "dp",
            {.help = "data parallel size (DP attention: one rank per GPU)",
             .min = 1,
             .sglang = {.flag = "--dp-size", .absent = "1"}});
    v.field(&D::ep, "ep",
            {.help = "expert parallel size",
             .min = 1,
             .sglang = {.flag = "--ep-size",
                        .by_rule = true,
                        .how = "SGLang sets ep = tp with the DeepEP backend"}});
    v.field(&D::moe_a2a_backend, "moe_a2a_backend",
            {.help = "how MoE tokens reach their experts: deepep (low-latency all-to-all by "
                     "fabric.a2a_backend) or none (every rank runs its experts on all tokens, "
                     "then an all-reduce over TP; ep 1 = pure TP MoE)",
             .choices = {"deepep", "none"},
             .sglang = {.flag = "--moe-a2a-backend", .by_rule = true, .how = "the flag's value"}});
    v.field(&D::dp_attention, "dp_attention",
            {.help = "DP attention (dp = tp: one attention rank per GPU); off: attention TP "
                     "over all tp GPUs, dp 1",
             .sglang = {.flag = "--enable-dp-attention", .absent = "false"}});
    v.field(&D::enable_dp_lm_head, "enable_dp_lm_head",
            {.help = "LM head over the attention-TP group (full vocab per DP rank), as pdsim "
                     "costs it; off (SGLang's default) splits the vocab over TP, not modelled yet",
             .sglang = {.flag = "--enable-dp-lm-head", .absent = "false"}});
    v.field(&D::max_running_requests, "max_running_requests",
            {.help = "running requests per instance, split evenly over DP ranks",
             .unit = "requests",
             .min = 1,
             .sglang = flag("--max-running-requests")});
    v.field(&D::mem_fraction_static, "mem_fraction_static",
            {.help = "KV pool = HBM x fraction - weights - DeepEP buffers",
             .min = 0,
             .max = 1,
             .above_min = true,
             .sglang = flag("--mem-fraction-static")});
    v.field(
        &D::cuda_graph_max_bs, "cuda_graph_max_bs",
        {.help = "largest captured CUDA-graph batch; 0 = no graphs",
         .unit = "requests",
         .min = 0,
         .sglang = {.flag = "--cuda-graph-max-bs", .how = "--disable-cuda-graph imports as 0"}});
    v.field(&D::cuda_graph_bs, "cuda_graph_bs",
            {.help = "capture list, increasing; empty = SGLang's default list cut at "
                     "cuda_graph_max_bs (the import sorts and de-duplicates as SGLang does)",
             .unit = "requests",
             .min = 1,
             .increasing = true,
             .sglang = {.flag = "--cuda-graph-bs", .absent = ""}});
    v.field(&D::ll_max_dispatch_tokens_per_rank, "ll_max_dispatch_tokens_per_rank",
            {.help = "DeepEP low-latency buffer: caps requests per rank x query tokens",
             .unit = "tokens",
             .min = 1,
             .sglang = {.env = "SGLANG_DEEPEP_NUM_MAX_DISPATCH_TOKENS_PER_RANK", .absent = "128"}});
    v.field(&D::kv_cache_dtype, "kv_cache_dtype",
            {.help = "KV cache element type (latent + rope; indexer keys are FP8 either way)",
             .choices = {"bf16", "fp8"},
             .sglang = {.flag = "--kv-cache-dtype",
                        .values = {{"fp8", "fp8_e4m3"},
                                   {"fp8", "fp8_e5m2"},
                                   {"bf16", "auto"},
                                   {"bf16", "bf16"},
                                   {"bf16", "bfloat16"}},
                        .absent = "auto"}});
    v.field(&D::scheduler_overhead_us, "scheduler_overhead_us",
            {.help = "a what-if: extra CPU time per iteration on top of the serving profile's "
                     "host work",
             .unit = "us",
             .min = 0,
             .max = kMaxStepS * 1e6});
    v.field(&D::recompute_tolerance, "recompute_tolerance",
            {.help = "a rank's attention cost is recomputed when its total context grew by this "
                     "fraction",
             .min = 0,
             .max = 1});
    v.field(&D::a2a_nics, "a2a_nics",
            {.help = "NICs per node the all-to-all uses; 0 = all (with 16 NICs on 8 GPUs the CPU "
                     "proxy drives two per GPU)",
             .unit = "NICs",
             .min = 0,
             .sglang = {.env = "UCCL_IB_HCA",
                        .by_rule = true,
                        .how = "the NICs it lists (not imported: set a2a_nics)"}});
    v.section(&D::speculative, "speculative", {.help = "speculative decoding"});
  }
};

struct FabricConfig {
  std::string profile = "efa-p5en";
  std::string fidelity = "analytic";
  std::string a2a_backend = "cpu-proxy";
  std::string collective_profile;  // "" = none: layouts with cross-node collectives refused
  int routing_samples = 4;         // routing draws averaged per all-to-all memo entry
  int packet_samples = 8;          // packet fidelity: phases simulated per background key

  template <class V>
  static void declare(V& v) {
    using F = FabricConfig;
    v.field(&F::profile, "profile",
            {.help = "models/profiles/fabric entry (fitted by pdsim calibrate fit)"});
    v.field(&F::fidelity, "fidelity",
            {.help = "analytic, or packet: each decode all-to-all phase also gets the extra "
                     "latency the packet engine measures under the KV / PP flows in flight",
             .plugins = "fabric.fidelity"});
    v.field(&F::a2a_backend, "a2a_backend",
            {.help = "decode all-to-all mechanism; its parameters come from the fabric profile",
             .sglang = {.flag = "--moe-a2a-backend",
                        .by_rule = true,
                        .how = "deepep (--deepep-mode low_latency on decode, normal on prefill); "
                               "on EFA UCCL-EP takes DeepEP's place"}});
    v.field(&F::collective_profile, "collective_profile",
            {.help = "models/profiles/collective entry costing the NCCL collectives that cross "
                     "nodes (TP across nodes, MoE without all-to-all); \"\" = none, such "
                     "layouts are refused"});
    v.field(&F::routing_samples, "routing_samples",
            {.help = "top-k routing draws averaged for each memoised MoE-layer cost",
             .min = 1,
             .max = 10000});
    v.field(&F::packet_samples, "packet_samples",
            {.help = "packet fidelity: packet runs (routing + path draws) per memoised background "
                     "key",
             .min = 1,
             .max = 10000});
  }
};

struct ClusterConfig {
  std::string instance_type;
  std::string network = "leaf-spine";  // packet fidelity: "leaf-spine" | "rail"
  std::string topology_file;  // describe-instance-topology JSON (placement); "" = one leaf per node

  template <class V>
  static void declare(V& v) {
    using C = ClusterConfig;
    v.field(&C::instance_type, "instance_type",
            {.help = "models/catalog/instance entry (GPUs, NICs per node, NIC rate)",
             .required = true});
    v.field(&C::network, "network",
            {.help = "packet fidelity: leaf-spine (one leaf per node, one spine per NIC, ECMP) or "
                     "rail (rail-optimised, one leaf per rail)",
             .choices = {"leaf-spine", "rail"}});
    v.field(&C::topology_file, "topology_file",
            {.help = "packet fidelity: aws ec2 describe-instance-topology JSON (relative to the "
                     "scenario); prefill nodes first, then decode nodes. \"\" = every node on its "
                     "own leaf",
             .file_relative = true});
  }
  static void validate(ClusterConfig& c, const JsonNode& n);
};

struct RouterConfig {
  std::string policy = "round-robin";
  template <class V>
  static void declare(V& v) {
    v.field(&RouterConfig::policy, "policy",
            {.help = "where the router sends each request (prefill instance, decode instance, DP "
                     "rank)",
             .plugins = "router.policy"});
  }
};

// Instances that join or leave the running deployment (elastic PD). A joining instance is one
// of the last instances of its role: in the cluster from the start, the router sends it nothing
// until it is ready — its join time, plus its own connection cold start
// (sim/serve/cost/connection_table: the eager libraries it initialises, a lower bound where a
// figure is missing), plus `join_warmup_s`. The prefill ranks' first KV transfer to each rank of
// a joined instance (or from a joined prefill instance) pays the KV library's connection (lazy in
// Mooncake). A leaving instance is drained: the router sends it nothing from its leave time, what
// it holds finishes. Autoscaling (`autoscale_*`) joins standby instances of one role when the
// role's queue grows; it only scales out (SGLang ships no autoscaler: the rule is the operator's).
struct ElasticConfig {
  std::vector<double> decode_joins_s, prefill_joins_s;
  std::vector<double> decode_leaves_s, prefill_leaves_s;
  double join_warmup_s = 0;
  std::string autoscale_role = "none";
  int autoscale_standby = 1;
  double autoscale_queue_per_instance = 8;
  template <class V>
  static void declare(V& v) {
    using E = ElasticConfig;
    v.field(&E::decode_joins_s, "decode_joins_s",
            {.help = "the last len() decode instances join at these times (after the first "
                     "request); [] = every instance serves from the start",
             .unit = "s",
             .min = 0,
             .increasing = true});
    v.field(&E::prefill_joins_s, "prefill_joins_s",
            {.help = "the last len() prefill instances join at these times; [] = none joins",
             .unit = "s",
             .min = 0,
             .increasing = true});
    v.field(&E::decode_leaves_s, "decode_leaves_s",
            {.help = "a decode instance leaves at each of these times, the newest in the "
                     "cluster first (highest index that joined by then; as a Kubernetes "
                     "ReplicaSet scales in): drained, the router sends it nothing more",
             .unit = "s",
             .min = 0,
             .increasing = true});
    v.field(&E::prefill_leaves_s, "prefill_leaves_s",
            {.help = "a prefill instance leaves at each of these times, the newest first; drained",
             .unit = "s",
             .min = 0,
             .increasing = true});
    v.field(&E::join_warmup_s, "join_warmup_s",
            {.help = "what a joining instance does after its connections and before it serves "
                     "(CUDA-graph capture, warm-up requests; weights assumed loaded): no "
                     "published figure, so 0 unless you measure it",
             .unit = "s",
             .min = 0,
             .max = 3600});
    v.field(&E::autoscale_role, "autoscale_role",
            {.help = "the role whose standby instances join when its queue grows (none: no "
                     "autoscaling); scale-out only",
             .choices = {"none", "prefill", "decode"}});
    v.field(&E::autoscale_standby, "autoscale_standby",
            {.help = "the last N instances of autoscale_role wait on standby (in the cluster, "
                     "not serving) until the rule joins them, one at a time",
             .min = 1,
             .max = 4096});
    v.field(&E::autoscale_queue_per_instance, "autoscale_queue_per_instance",
            {.help = "the rule: when a request arrives, no join is in progress and the role's "
                     "waiting requests per instance in service exceed this, the next standby "
                     "instance joins (prefill: routed, not yet taken by a prefill stage; decode: "
                     "waiting for a KV reservation or for admission); 8 is an operator's choice, "
                     "not a measured figure",
             .unit = "requests",
             .min = 0,
             .max = 1e6});
  }
};

struct Scenario {
  std::string file;  // where it was read from (for messages); not a field
  // Edits in the file itself that a --set round trip rewrites (from_profile values); not a field.
  std::vector<std::string> file_warnings;
  std::string schema = "pdsim.scenario/1";
  std::string
      base;  // read so that it is declared; load_scenario has merged it away (scenario_base)
  std::string name, description;
  std::string model;
  std::string gpu_profile = "h200-datasheet";
  std::string serving_profile = "sglang-0.5-pd";  // models/profiles/serving
  std::vector<std::string> profile_overlays;      // applied in order (profile_overlay.hpp)
  ClusterConfig cluster;
  RouterConfig router;
  FabricConfig fabric;
  PrefillConfig prefill;
  DecodeConfig decode;
  ElasticConfig elastic;
  WorkloadConfig workload;
  ConfigSections tail{"tail"};  // sections the tail mechanisms declare in their own files
  uint64_t seed = 1;

  template <class V>
  static void declare(V& v) {
    using S = Scenario;
    v.field(&S::schema, "schema", {.help = "format version", .choices = {"pdsim.scenario/1"}});
    v.field(&S::base, "base",
            {.help = "a scenario this file's fields are merged onto (JSON merge patch: objects "
                     "merge, arrays and values replace, null removes a key): a path relative to "
                     "this file's folder, else a name pdsim list prints. The resolved scenario "
                     "has no base",
             .input_only = true});
    v.field(&S::name, "name",
            {.help = "names the output directory out/NAME and reports; default: the file's stem"});
    v.field(&S::description, "description", {.help = "free text"});
    v.field(&S::model, "model",
            {.help = "models/catalog/llm entry or a JSON path",
             .required = true,
             .sglang = {.flag = "--model-path",
                        .by_rule = true,
                        .how = "the catalog entry's Hugging Face id"}});
    v.field(&S::gpu_profile, "gpu_profile",
            {.help = "models/profiles/gpu entry; must be for the instance type's GPU"});
    v.field(&S::serving_profile, "serving_profile",
            {.help = "models/profiles/serving entry: host-side costs of the serving stack"});
    v.field(&S::profile_overlays, "profile_overlays",
            {.help = "profile overlays applied in order (relative to the scenario); each section "
                     "applies only to the profile it was fitted on",
             .file_relative = true});
    v.section(&S::cluster, "cluster", {.help = "the nodes and their network", .required = true});
    v.section(&S::router, "router", {.help = "the PD router"});
    v.section(&S::fabric, "fabric", {.help = "the network model", .required = true});
    v.section(&S::prefill, "prefill", {.help = "per prefill instance", .required = true});
    v.section(&S::decode, "decode", {.help = "per decode instance", .required = true});
    v.section(
        &S::elastic, "elastic",
        {.help = "instances that join or leave mid-run (elastic PD): when, their warm-up, and an "
                 "autoscaling rule on queue length"});
    v.section(&S::workload, "workload",
              {.help = "the client: SGLang bench_serving --dataset-name random", .required = true});
    v.sections(&S::tail, "tail",
               {.help = "ITL-tail mechanisms of the decode simulation, each declared by its "
                        "mechanism"});
    v.field(&S::seed, "seed",
            {.help = "all randomness (arrivals, lengths, routing samples, acceptance); --seed "
                     "overrides"});
  }
  static void validate(Scenario& s, const JsonNode& n);

  Json resolved_json() const { return write_fields(*this); }
};

// Reads a scenario; `overrides` are "dotted.path=value" strings (value parsed as JSON, else
// taken as a string). Unknown paths and ill-typed values raise InputError.
// `arg`: a scenario file, or a name `pdsim list` prints (scenarios/NAME.json under the data
// directory, e.g. "glm51-2p2d-efa" or "dsr1/dsr1-2p2d-p5en-deepep"); a path that exists, or ends
// in .json, is used as given.
std::string scenario_file(const std::string& arg);
Scenario load_scenario(const std::string& arg, const std::vector<std::string>& overrides = {});
Scenario parse_scenario(const JsonNode& node);
// Applies one override to a resolved scenario document (exposed for other JSON-driven tools).
void apply_override(Json& doc, const std::string& assignment, const std::string& file);

// Every declared scenario field, the tail mechanisms' included (those linked into the program).
std::vector<FieldInfo> scenario_fields();

}  // namespace pdsim
