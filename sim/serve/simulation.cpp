#include "sim/serve/simulation.hpp"

#include <algorithm>
#include <cmath>
#include <deque>
#include <map>
#include <memory>
#include <set>
#include <simgrid/s4u.hpp>
#include <stdexcept>
#include <string>

#include "sim/core/stats.hpp"
#include "sim/core/units.hpp"
#include "sim/fabric/transfers.hpp"
#include "sim/serve/acceptance.hpp"
#include "sim/serve/cluster_fabric.hpp"
#include "sim/serve/decode_cost.hpp"
#include "sim/serve/decode_tail.hpp"
#include "sim/serve/platform.hpp"
#include "sim/serve/prefill_cost.hpp"
#include "sim/serve/serving_state.hpp"
#include "sim/serve/tail_log.hpp"
#include "sim/serve/workload.hpp"

namespace pdsim {
namespace sg4 = simgrid::s4u;
namespace {

using Lock = std::unique_lock<sg4::Mutex>;
using namespace serving;

class ServingSim {
 public:
  ServingSim(const Deployment& d, uint64_t seed)
      : d_(d), seed_(seed), prefill_cost_(d), decode_cost_(d, seed), accept_(d.scenario.decode.speculative), tail_(d, seed) {}
  SimResults run();

 private:
  void client();
  void route(int id);
  bool try_reserve(int di, int rank, int id);
  void prefill_stage(int pi, int stage);
  Chunk form_chunk(PrefillInstance& p);
  void kv_transfer(int id, int pi, int stage);
  void decode(int di);
  void emit(int id, int tokens, double now);
  void finish(int di, int rank, int id, double now);
  sg4::Host* stage_host(int pi, int stage) const;
  int stage_node(int pi, int stage) const;  // cluster node index (cluster_fabric.hpp)
  Json extras() const;
  // Flows in flight (KV transfers, PP sends) as the packet fidelity's background.
  struct Flow {
    int src, dst;
    bool kv;
    sg4::CommPtr comm;
  };
  long track(int src, int dst, bool kv, sg4::CommPtr c) {
    flows_[next_flow_] = Flow{src, dst, kv, std::move(c)};
    return next_flow_++;
  }
  void record_iteration(int di, ForwardTerms& t, MechanismTerms& m, Rng& rng);

  const Deployment& d_;
  uint64_t seed_;
  PrefillCostModel prefill_cost_;
  DecodeCostModel decode_cost_;
  AcceptanceModel accept_;
  ServePlatform plat_;
  // Only for waiting on the condition variables (a wait needs a held mutex). The engine runs one
  // actor at a time and switches only at simcalls, so shared state needs no lock: every actor
  // takes mu_ just before it waits and re-checks its predicate under it.
  sg4::MutexPtr mu_;
  sg4::ConditionVariablePtr client_cv_;
  std::vector<RequestSpec> specs_;
  std::vector<RequestRecord> rec_;
  std::vector<int> prefilled_;   // tokens prefilled so far, per request
  std::vector<int> kv_parts_;    // KV parts (PP stages) delivered, per request
  std::vector<int> remaining_, decode_of_, rank_of_;
  std::vector<std::unique_ptr<PrefillInstance>> prefill_;
  std::vector<std::unique_ptr<DecodeInstance>> decode_;
  int in_flight_ = 0;
  long rr_prefill_ = 0, rr_decode_ = 0;
  // statistics
  ForwardTerms terms_sum_;
  long iterations_ = 0, graph_iterations_ = 0;
  double batch_sum_ = 0;
  long chunks_ = 0;
  ChunkCost chunk_sum_;
  OpNameSet prefill_out_of_range_;
  std::vector<double> kv_times_s_, kv_bytes_, kv_part_s_;  // per request; per PP-stage part
  std::map<long, Flow> flows_;
  long next_flow_ = 0;
  DecodeTail tail_;
  std::deque<IterationRecord> iter_log_;
  std::vector<double> accept_carry_;  // per request (tail.acceptance_variance off)
};

sg4::Host* ServingSim::stage_host(int pi, int stage) const {
  return plat_.prefill_nodes[static_cast<size_t>(stage_node(pi, stage))];
}

int ServingSim::stage_node(int pi, int stage) const {
  const auto& p = d_.scenario.prefill;
  return prefill_node_index(d_, pi, stage * p.tp / d_.instance.gpus_per_node);
}

void ServingSim::client() {
  const int max_conc = d_.scenario.workload.max_concurrency;
  for (const auto& s : specs_) {
    if (s.gap_s > 0) sg4::this_actor::sleep_for(s.gap_s);
    if (max_conc > 0 && in_flight_ >= max_conc) {
      Lock lk(*mu_);
      while (in_flight_ >= max_conc) client_cv_->wait(lk);
    }
    ++in_flight_;
    rec_[static_cast<size_t>(s.id)].arrival_s = sg4::Engine::get_clock();
    route(s.id);
  }
}

void ServingSim::route(int id) {
  const size_t i = static_cast<size_t>(id);
  const int ranks = d_.decode_ranks;
  const long g = rr_decode_++ % (static_cast<long>(decode_.size()) * ranks);
  rec_[i].prefill_instance = static_cast<int>(rr_prefill_++ % static_cast<long>(prefill_.size()));
  decode_of_[i] = rec_[i].decode_instance = static_cast<int>(g / ranks);
  rank_of_[i] = rec_[i].decode_rank = static_cast<int>(g % ranks);
  DecodeRank& r = decode_[static_cast<size_t>(decode_of_[i])]->ranks[static_cast<size_t>(rank_of_[i])];
  if (!r.waiting.empty() || !try_reserve(decode_of_[i], rank_of_[i], id)) r.waiting.push_back(id);
}

bool ServingSim::try_reserve(int di, int rank, int id) {
  const size_t i = static_cast<size_t>(id);
  DecodeRank& r = decode_[static_cast<size_t>(di)]->ranks[static_cast<size_t>(rank)];
  const double need = specs_[i].input_len + specs_[i].output_len;
  if (r.slots_free <= 0 || r.kv_free_tokens < need) return false;
  r.slots_free -= 1;
  r.kv_free_tokens -= need;
  rec_[i].decode_reserved_s = sg4::Engine::get_clock();
  PrefillInstance& p = *prefill_[static_cast<size_t>(rec_[i].prefill_instance)];
  p.queue.push_back(id);
  p.cv->notify_all();
  return true;
}

Chunk ServingSim::form_chunk(PrefillInstance& p) {
  Chunk c;
  int budget = d_.scenario.prefill.chunked_prefill_size;
  while (budget > 0 && !p.queue.empty()) {
    const int id = p.queue.front();
    const size_t i = static_cast<size_t>(id);
    if (prefilled_[i] == 0) rec_[i].prefill_start_s = sg4::Engine::get_clock();
    const int left = specs_[i].input_len - prefilled_[i];
    const int take = std::min(left, budget);
    c.pieces.push_back({id, {prefilled_[i], take}, take == left});
    prefilled_[i] += take;
    budget -= take;
    if (take == left) {
      p.queue.pop_front();
      ++p.taken;
    }
  }
  return c;
}

void ServingSim::prefill_stage(int pi, int stage) {
  PrefillInstance& p = *prefill_[static_cast<size_t>(pi)];
  const int pp = d_.scenario.prefill.pp;
  const std::string prefix = "prefill" + std::to_string(pi) + ".stage";
  sg4::Mailbox* in = stage > 0 ? sg4::Mailbox::by_name(prefix + std::to_string(stage)) : nullptr;
  sg4::Mailbox* out = stage + 1 < pp ? sg4::Mailbox::by_name(prefix + std::to_string(stage + 1)) : nullptr;
  sg4::CommPtr pending;  // at most one activation send in flight to the next stage
  long pp_flow = -1;      // its entry in flows_
  while (true) {
    Chunk* chunk = nullptr;
    if (stage == 0) {
      if (p.queue.empty() && p.taken < p.expected) {
        Lock lk(*mu_);
        while (p.queue.empty() && p.taken < p.expected) p.cv->wait(lk);
      }
      chunk = new Chunk(p.queue.empty() ? Chunk{{}, true} : form_chunk(p));
    } else {
      chunk = in->get<Chunk>();
    }
    if (!chunk->end) {
      std::vector<PrefillSegment> segs;
      double new_tokens = 0;
      for (const auto& pc : chunk->pieces) {
        segs.push_back(pc.seg);
        new_tokens += pc.seg.new_tokens;
      }
      const ChunkCost c = prefill_cost_.stage_chunk(stage, segs, &prefill_out_of_range_);
      sg4::this_actor::sleep_for(us_to_s(c.total_us()));
      chunk_sum_.compute_us += c.compute_us;
      chunk_sum_.cp_exchange_us += c.cp_exchange_us;
      chunk_sum_.a2a_us += c.a2a_us;
      ++chunks_;
      for (const auto& pc : chunk->pieces) {
        if (!pc.last) continue;
        if (stage == pp - 1) rec_[static_cast<size_t>(pc.id)].prefill_end_s = sg4::Engine::get_clock();
        const int id = pc.id;
        sg4::Actor::create("kv", stage_host(pi, stage), [this, id, pi, stage] { kv_transfer(id, pi, stage); });
      }
      if (out) {
        if (pending) pending->wait();
        const double act_bytes = new_tokens * d_.model.hidden * 2.0;  // BF16 hidden states
        if (pp_flow >= 0) flows_.erase(pp_flow);
        pending = out->put_async(chunk, static_cast<uint64_t>(act_bytes));
        pp_flow = stage_node(pi, stage) == stage_node(pi, stage + 1)
                      ? -1
                      : track(stage_node(pi, stage), stage_node(pi, stage + 1), false, pending);
        continue;
      }
    } else if (out) {
      if (pending) pending->wait();
      out->put(chunk, 1);
      break;
    }
    const bool end = chunk->end;
    delete chunk;
    if (end) break;
  }
  if (pending) pending->wait();
  if (pp_flow >= 0) flows_.erase(pp_flow);
}

void ServingSim::kv_transfer(int id, int pi, int stage) {
  const size_t i = static_cast<size_t>(id);
  const double now = sg4::Engine::get_clock();
  if (rec_[i].kv_start_s < 0 || now < rec_[i].kv_start_s) rec_[i].kv_start_s = now;
  const int dnode = (decode_of_[i] * d_.scenario.decode.nodes_per_instance) +
                    rank_of_[i] / d_.instance.gpus_per_node;
  const double bytes = specs_[i].input_len * d_.kv_bytes_per_token * prefill_cost_.layer_share(stage);
  sg4::CommPtr comm = sg4::Comm::sendto_async(stage_host(pi, stage), plat_.decode_nodes[static_cast<size_t>(dnode)],
                                              static_cast<uint64_t>(bytes));
  const long flow = track(stage_node(pi, stage), decode_node_index(d_, 0, dnode), true, comm);
  comm->wait();
  flows_.erase(flow);
  kv_bytes_.push_back(bytes);
  kv_part_s_.push_back(sg4::Engine::get_clock() - now);
  if (++kv_parts_[i] < d_.scenario.prefill.pp) return;
  rec_[i].kv_end_s = sg4::Engine::get_clock();
  kv_times_s_.push_back(rec_[i].kv_end_s - rec_[i].kv_start_s);
  DecodeInstance& di = *decode_[static_cast<size_t>(decode_of_[i])];
  di.arrived.push_back(id);
  di.cv->notify_all();
}

void ServingSim::emit(int id, int tokens, double now) {
  auto& r = rec_[static_cast<size_t>(id)];
  r.chunk_times_s.push_back(now);
  r.chunk_tokens.push_back(tokens);
  remaining_[static_cast<size_t>(id)] -= tokens;
}

void ServingSim::finish(int di, int rank, int id, double now) {
  const size_t i = static_cast<size_t>(id);
  rec_[i].finish_s = now;
  rec_[i].completed = true;
  DecodeInstance& inst = *decode_[static_cast<size_t>(di)];
  DecodeRank& r = inst.ranks[static_cast<size_t>(rank)];
  r.slots_free += 1;
  r.kv_free_tokens += specs_[i].input_len + specs_[i].output_len;
  while (!r.waiting.empty() && try_reserve(di, rank, r.waiting.front())) r.waiting.pop_front();
  ++inst.finished;
  --in_flight_;
  client_cv_->notify_all();
}

void ServingSim::decode(int di) {
  DecodeInstance& inst = *decode_[static_cast<size_t>(di)];
  Rng rng = Rng(seed_).fork(1000 + static_cast<uint64_t>(di));
  Rng tail_rng = Rng(seed_).fork(2000 + static_cast<uint64_t>(di));  // packet draws, hiccups
  const bool one_per_rank = !d_.scenario.tail.batch_jumps;
  MechanismTerms mech;
  // No lock around admission and the iteration's bookkeeping (see mu_): taking one is a simcall,
  // and two per iteration were ~20 % of a run.
  while (true) {
    {
      const double now = sg4::Engine::get_clock();
      std::vector<int> deferred;  // tail.batch_jumps off: one admission per rank per iteration
      std::vector<char> joined(inst.ranks.size(), 0);
      mech = MechanismTerms{};
      for (int id : inst.arrived) {
        const size_t i = static_cast<size_t>(id);
        if (one_per_rank && joined[static_cast<size_t>(rank_of_[i])]) {
          deferred.push_back(id);
          continue;
        }
        joined[static_cast<size_t>(rank_of_[i])] = 1;
        ++mech.admitted;
        emit(id, 1, now);  // the first token, computed by prefill, streams on admission
        DecodeRank& r = inst.ranks[static_cast<size_t>(rank_of_[i])];
        if (remaining_[i] <= 0) {
          finish(di, rank_of_[i], id, now);
          continue;
        }
        r.running.push_back(id);
        RankState& st = inst.states[static_cast<size_t>(rank_of_[i])];
        st.contexts.push_back(specs_[i].input_len + 1);
        ++st.version;
      }
      inst.arrived = std::move(deferred);
      bool busy = false;
      for (const auto& r : inst.ranks) busy = busy || !r.running.empty();
      if (!busy) {
        if (inst.finished == inst.expected) break;
        Lock lk(*mu_);
        if (inst.arrived.empty()) inst.cv->wait(lk);
        continue;
      }
    }
    ForwardTerms t = decode_cost_.iteration(inst.states, &mech);
    record_iteration(di, t, mech, tail_rng);
    sg4::this_actor::sleep_for(us_to_s(t.total_us()));
    const double now = sg4::Engine::get_clock();
    terms_sum_.add(t);
    ++iterations_;
    int max_batch = 0, served = 0;
    for (size_t k = 0; k < inst.ranks.size(); ++k) {
      served += static_cast<int>(inst.ranks[k].running.size());
      DecodeRank& r = inst.ranks[k];
      RankState& st = inst.states[k];
      max_batch = std::max(max_batch, static_cast<int>(r.running.size()));
      batch_sum_ += static_cast<double>(r.running.size());
      for (size_t j = 0; j < r.running.size();) {
        const int id = r.running[j];
        const size_t i = static_cast<size_t>(id);
        const int tokens = std::min(tail_.accepted_tokens(accept_, rng, accept_carry_[i]), remaining_[i]);
        emit(id, tokens, now);
        st.contexts[j] += tokens;
        if (remaining_[i] > 0) {
          ++j;
          continue;
        }
        r.running.erase(r.running.begin() + static_cast<long>(j));
        st.contexts.erase(st.contexts.begin() + static_cast<long>(j));
        ++st.version;
        finish(di, static_cast<int>(k), id, now);
      }
    }
    if (decode_cost_.cuda_graph_used(max_batch)) ++graph_iterations_;
    iter_log_.push_back(IterationRecord{di, now, t.total_us(), served, t, mech});
  }
}

void ServingSim::record_iteration(int di, ForwardTerms& t, MechanismTerms& m, Rng& rng) {
  std::vector<InFlight> flows;
  if (tail_.reads_flows())
    for (const auto& [id, f] : flows_) flows.push_back(InFlight{f.src, f.dst, f.kv, f.comm->get_remaining()});
  tail_.apply(di, decode_[static_cast<size_t>(di)]->states, flows, t, m, rng);
}

Json ServingSim::extras() const {
  Json breakdown = Json::object();
  const double n = std::max<double>(1.0, static_cast<double>(iterations_));
  for (const auto& [k, v] : terms_sum_.named()) breakdown[k] = v / n;
  auto mean_gap = [&](auto from, auto to) {
    std::vector<double> v;
    for (const auto& r : rec_) v.push_back(to(r) - from(r));
    return mean_of(v);
  };
  const Distribution kv = describe(kv_times_s_);
  const double chunks = std::max<double>(1.0, static_cast<double>(chunks_));
  double kv_bytes_total = 0;
  for (double b : kv_bytes_) kv_bytes_total += b;
  double kv_part_total_s = 0;
  for (double t : kv_part_s_) kv_part_total_s += t;
  return Json{
      {"forward_breakdown_us", breakdown},
      {"decode",
       {{"iterations", iterations_},
        {"mean_batch_per_rank", batch_sum_ / (n * d_.decode_ranks)},
        {"cuda_graph_fraction", static_cast<double>(graph_iterations_) / n},
        {"max_requests_per_rank", d_.max_requests_per_rank},
        {"cost_model", decode_cost_.stats()}}},
      {"prefill",
       {{"stage_chunks", chunks_},
        {"ops_outside_gpu_profile_range", prefill_out_of_range_.names()},
        {"mean_stage_chunk_us",
         {{"compute", chunk_sum_.compute_us / chunks}, {"cp_exchange", chunk_sum_.cp_exchange_us / chunks},
          {"a2a", chunk_sum_.a2a_us / chunks}}}}},
      // A request's KV leaves in one part per PP stage; mean_s runs from the first part's start
      // to the last part's end (so it includes the pipeline lag between stages).
      {"kv_transfer",
       {{"mean_s", kv.mean}, {"p99_s", kv.p99}, {"max_s", kv.max}, {"block_bytes", d_.kv_block_bytes},
        {"rate_cap_GBps", kv_transfer_rate(d_.fabric, d_.kv_block_bytes, d_.kv_nics, d_.instance.nic_gbps) / 1e9},
        {"part_mean_s", kv_part_total_s / std::max<double>(1.0, static_cast<double>(kv_part_s_.size()))},
        {"part_achieved_GBps", kv_part_total_s > 0 ? kv_bytes_total / kv_part_total_s / 1e9 : 0.0},
        {"kv_bytes_per_token", d_.kv_bytes_per_token}}},
      {"queueing",
       {{"decode_wait_mean_s", mean_gap([](auto& r) { return r.arrival_s; }, [](auto& r) { return r.decode_reserved_s; })},
        {"prefill_wait_mean_s", mean_gap([](auto& r) { return r.decode_reserved_s; }, [](auto& r) { return r.prefill_start_s; })},
        {"prefill_mean_s", mean_gap([](auto& r) { return r.prefill_start_s; }, [](auto& r) { return r.prefill_end_s; })},
        {"admission_wait_mean_s", mean_gap([](auto& r) { return r.kv_end_s; }, [](auto& r) { return r.chunk_times_s.front(); })}}},
      {"tail", tail_summary(iter_log_)},
      {"packet_fidelity", tail_.packet_stats()},
      {"memory",
       {{"prefill", d_.prefill_memory.breakdown}, {"decode", d_.decode_memory.breakdown},
        {"decode_kv_capacity_tokens_per_rank", d_.decode_memory.kv_capacity_tokens}}}};
}

SimResults ServingSim::run() {
  Rng rng = Rng(seed_).fork(1);
  specs_ = generate_requests(d_.scenario.workload, rng);
  const size_t n = specs_.size();
  rec_.resize(n);
  prefilled_.assign(n, 0);
  kv_parts_.assign(n, 0);
  decode_of_.assign(n, -1);
  rank_of_.assign(n, -1);
  remaining_.resize(n);
  accept_carry_.assign(n, 0.0);
  for (size_t i = 0; i < n; ++i) {
    rec_[i].id = specs_[i].id;
    rec_[i].input_len = specs_[i].input_len;
    rec_[i].output_len = remaining_[i] = specs_[i].output_len;
  }
  plat_ = build_platform(d_);
  mu_ = sg4::Mutex::create();
  client_cv_ = sg4::ConditionVariable::create();
  const auto& s = d_.scenario;
  for (int i = 0; i < s.prefill.instances; ++i) prefill_.push_back(std::make_unique<PrefillInstance>());
  for (int i = 0; i < s.decode.instances; ++i) {
    auto inst = std::make_unique<DecodeInstance>();
    inst->ranks.resize(static_cast<size_t>(d_.decode_ranks));
    inst->states.resize(static_cast<size_t>(d_.decode_ranks));
    for (auto& r : inst->ranks) {
      r.kv_free_tokens = d_.decode_memory.kv_capacity_tokens;
      r.slots_free = d_.max_requests_per_rank;
    }
    decode_.push_back(std::move(inst));
  }
  // Round-robin routing is fixed in advance, so each instance knows how many requests it serves.
  const long ranks_total = static_cast<long>(decode_.size()) * d_.decode_ranks;
  for (long id = 0; id < static_cast<long>(n); ++id) {
    prefill_[static_cast<size_t>(id % static_cast<long>(prefill_.size()))]->expected++;
    decode_[static_cast<size_t>((id % ranks_total) / d_.decode_ranks)]->expected++;
  }
  sg4::Actor::create("client", plat_.router, [this] { client(); });
  for (int i = 0; i < s.prefill.instances; ++i)
    for (int st = 0; st < s.prefill.pp; ++st)
      sg4::Actor::create("prefill", stage_host(i, st), [this, i, st] { prefill_stage(i, st); });
  for (int i = 0; i < s.decode.instances; ++i)
    sg4::Actor::create("decode", plat_.decode_nodes[static_cast<size_t>(i * s.decode.nodes_per_instance)],
                       [this, i] { decode(i); });
  sg4::Engine::get_instance()->run();

  SimResults out;
  out.scenario_name = s.name;
  out.resolved_scenario = s.resolved_json();
  out.profiles = d_.profiles;
  out.seed = seed_;
  out.speculative = s.decode.speculative.enabled();
  for (const auto& r : rec_) {
    if (!r.completed)
      throw std::logic_error("simulation ended with request " + std::to_string(r.id) + " incomplete");
    out.duration_s = std::max(out.duration_s, r.finish_s);
  }
  out.extras = extras();
  out.requests = std::move(rec_);
  return out;
}

}  // namespace

SimResults simulate(const Deployment& d, uint64_t seed) {
  std::vector<std::string> args = {"pdsim", "--log=root.thres:critical", "--cfg=network/model:CM02",
                                   "--cfg=network/crosstraffic:0",
                                   // Shallow actors keep the thousands of short KV-transfer
                                   // actors cheap: each stack is zeroed (calloc) on creation,
                                   // and a guard page costs an mprotect (a TLB flush). The
                                   // reference and quick scenarios (analytic and packet) run in
                                   // 16 KiB stacks with guard pages on (4 KiB overflows), so
                                   // 64 KiB without a guard page leaves a 4x margin.
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
