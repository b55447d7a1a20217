#include "sim/serve/actors/simulation.hpp"

#include <algorithm>
#include <simgrid/s4u.hpp>
#include <stdexcept>
#include <string>

#include "sim/serve/actors/client_actor.hpp"
#include "sim/serve/actors/decode_actor.hpp"
#include "sim/serve/actors/elastic_router.hpp"
#include "sim/serve/actors/elastic_summary.hpp"
#include "sim/serve/actors/prefill_stage_actor.hpp"
#include "sim/serve/entities/prefix_cache_at_start.hpp"

namespace pdsim {
namespace sg4 = simgrid::s4u;
namespace {

// One simulation: the world, the policies, timers and statistics, and the actors on them.
class ServingSim {
 public:
  ServingSim(const Deployment& d, uint64_t seed)
      : d_(d),
        seed_(seed),
        world_(d),
        router_(make_router(world_)),
        admission_(AdmissionPolicyRegistry::instance().create(
            admission_policy_name(d.scenario.tail.get<bool>("batch_jumps")), d.scenario.file,
            "tail.batch_jumps", d.decode_ranks)),
        prefill_timer_(d),
        decode_timer_(d, seed),
        acceptance_(d.scenario.decode.speculative, d.accept_prob,
                    d.scenario.tail.get<bool>("acceptance_variance")) {}
  SimResults run();

 private:
  void build_world();

  const Deployment& d_;
  uint64_t seed_;
  ServingWorld world_;
  std::unique_ptr<RouterPolicy> router_;
  std::unique_ptr<AdmissionPolicy> admission_;
  PrefillChunkTimer prefill_timer_;
  DecodeIterationTimer decode_timer_;
  AcceptanceModel acceptance_;
  ServingStats stats_;
  PrefixCacheAtStart cache_;
};

void ServingSim::build_world() {
  Rng rng = Rng(seed_).fork(1);
  Rng rooms = Rng(seed_).fork(7);  // the router's bootstrap rooms: a stream of their own
  const uint64_t prefill_dp = static_cast<uint64_t>(d_.prefill_layout.attn_dp);
  for (const RequestSpec& s : generate_requests(d_.scenario.workload, rng)) {
    Request q;
    q.spec = s;
    q.bootstrap_room = rooms.next_u64();
    q.prefill_dp_rank = static_cast<int>(q.bootstrap_room % prefill_dp);
    q.rec.id = s.id;
    q.rec.input_len = s.input_len;
    q.rec.output_len = q.remaining = s.output_len;
    world_.requests.push_back(std::move(q));
  }
  std::vector<int> input_lens;
  for (const Request& q : world_.requests) input_lens.push_back(q.spec.input_len);
  cache_ = prefix_cache_at_start(d_.scenario, d_.prefill_layout.attn_dp,
                                 d_.prefill_memory.kv_capacity_tokens, input_lens);
  for (size_t i = 0; i < world_.requests.size(); ++i)
    world_.requests[i].prefilled = cache_.cached_tokens[i];
  world_.plat = build_platform(d_);
  world_.mu = sg4::Mutex::create();
  world_.client_cv = sg4::ConditionVariable::create();
  const auto& s = d_.scenario;
  for (int i = 0; i < s.prefill.instances; ++i)
    world_.prefill.push_back(std::make_unique<PrefillInstance>());
  for (int i = 0; i < s.decode.instances; ++i) {
    auto inst = std::make_unique<DecodeInstance>();
    inst->ranks.resize(static_cast<size_t>(d_.decode_ranks));
    inst->states.resize(static_cast<size_t>(d_.decode_ranks));
    for (auto& r : inst->ranks) {
      r.kv_free_tokens = d_.decode_memory.kv_capacity_tokens;
      r.slots_free = d_.max_requests_per_rank;
    }
    world_.decode.push_back(std::move(inst));
  }
}

SimResults ServingSim::run() {
  build_world();
  const auto& s = d_.scenario;
  sg4::Actor::create("client", world_.plat.router, ClientActor(world_, *router_));
  for (int i = 0; i < s.prefill.instances; ++i)
    for (int st = 0; st < s.prefill.pp; ++st)
      sg4::Actor::create("prefill", world_.stage_host(i, st),
                         PrefillStageActor(world_, prefill_timer_, stats_, i, st));
  for (int i = 0; i < s.decode.instances; ++i)
    sg4::Actor::create(
        "decode", world_.plat.decode_nodes[static_cast<size_t>(i * s.decode.nodes_per_instance)],
        DecodeActor(world_, *admission_, decode_timer_, acceptance_, stats_, i, seed_));
  sg4::Engine::get_instance()->run();

  SimResults out;
  out.scenario_name = s.name;
  out.resolved_scenario = s.resolved_json();
  out.workload = s.workload;
  out.profiles = d_.profiles;
  out.seed = seed_;
  out.speculative = d_.passes.speculative;
  for (const auto& q : world_.requests) {
    if (!q.rec.completed)
      throw std::logic_error("simulation ended with request " + std::to_string(q.rec.id) +
                             " incomplete");
    out.duration_s = std::max(out.duration_s, q.rec.finish_s);
  }
  out.failure = decode_timer_.failure();
  out.extras = stats_.extras(d_, world_.requests, decode_timer_, prefill_timer_);
  out.extras["prefix_cache"] = {{"requests_hit", cache_.requests_hit()},
                                {"cached_tokens", cache_.tokens()},
                                {"first_request_cached_tokens", cache_.cached_tokens.front()},
                                {"reason", cache_.reason}};
  if (d_.joins.any())
    out.extras["elastic"] = elastic_summary(d_, world_.autoscale_joins, world_.requests);
  for (auto& q : world_.requests) out.requests.push_back(std::move(q.rec));
  return out;
}

}  // namespace

SimResults simulate(const Deployment& d, uint64_t seed) {
  // SimGrid keeps its clock across engines: a second simulation in one process would start where
  // the first ended (every time shifted, and the results with them; seen 2026-12-06). Each
  // simulation runs in a process of its own (run_scenario.hpp, process_pool.hpp); this refuses a
  // caller that forgot.
  if (sg4::Engine::get_clock() != 0.0)
    throw std::logic_error("simulate() needs a fresh process: SimGrid's clock is at " +
                           std::to_string(sg4::Engine::get_clock()) +
                           " s from an earlier simulation in this one");
  std::vector<std::string> args = {"pdsim", "--log=root.thres:critical", "--cfg=network/model:CM02",
                                   "--cfg=network/crosstraffic:0",
                                   // Shallow actors keep the thousands of short KV-transfer
                                   // actors cheap: each stack is zeroed (calloc) on creation,
                                   // and a guard page costs an mprotect (a TLB flush). The
                                   // reference and quick scenarios (analytic and packet) run in
                                   // 16 KiB stacks with guard pages on (4 KiB overflows), so
                                   // 64 KiB without a guard page leaves a 4x margin. Nothing
                                   // reachable from an actor may put large buffers on the stack
                                   // (read_file once did: a topology file read at packet
                                   // fidelity overflowed silently into the heap).
                                   "--cfg=contexts/stack-size:64", "--cfg=contexts/guard-size:0"};
#ifdef PDSIM_SANITIZE
  args.push_back("--cfg=contexts/factory:thread");  // raw context switches confuse ASan
#endif
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  int argc = static_cast<int>(argv.size());
  sg4::Engine engine(&argc, argv.data());
  ServingSim sim(d, seed);
  return sim.run();
}

}  // namespace pdsim
