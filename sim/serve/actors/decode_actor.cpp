#include "sim/serve/actors/decode_actor.hpp"

#include <algorithm>

#include "sim/core/units.hpp"
#include "sim/serve/actors/kv_reservation.hpp"

namespace pdsim {
namespace sg4 = simgrid::s4u;

void DecodeActor::emit(Request& q, int tokens, double now) {
  q.rec.chunk_times_s.push_back(now);
  q.rec.chunk_tokens.push_back(tokens);
  q.remaining -= tokens;
}

void DecodeActor::finish(DecodeInstance& inst, Request& q, double now) {
  q.rec.finish_s = now;
  q.rec.completed = true;
  release_reservation(w_, q.spec.id);
  ++inst.finished;
  --w_.in_flight;
  w_.client_cv->notify_all();
}

int DecodeActor::admit(DecodeInstance& inst, double now) {
  const std::vector<int> join = admission_.admit(inst.arrived, w_.requests);
  for (int id : join) {
    Request& q = w_.request(id);
    emit(q, 1, now);  // the first token, computed by prefill, streams on admission
    if (q.remaining <= 0) {
      finish(inst, q, now);
      continue;
    }
    const size_t rank = static_cast<size_t>(q.rec.decode_rank);
    inst.ranks[rank].running.push_back(id);
    RankState& st = inst.states[rank];
    st.contexts.push_back(q.spec.input_len + 1);
    ++st.version;
  }
  return static_cast<int>(join.size());
}

void DecodeActor::operator()() {
  DecodeInstance& inst = *w_.decode[static_cast<size_t>(di_)];
  Rng rng = Rng(seed_).fork(1000 + static_cast<uint64_t>(di_));       // accepted tokens
  Rng tail_rng = Rng(seed_).fork(2000 + static_cast<uint64_t>(di_));  // tail mechanisms' draws
  // No lock around admission and the iteration's bookkeeping (serving_world.hpp): taking one is a
  // simcall, and two per iteration were ~20 % of a run.
  while (true) {
    const int admitted = admit(inst, sg4::Engine::get_clock());
    bool busy = false;
    for (const auto& r : inst.ranks) busy = busy || !r.running.empty();
    if (!busy) {
      if (w_.all_routed && inst.finished == inst.routed) break;
      std::unique_lock<sg4::Mutex> lk(*w_.mu);
      if (inst.arrived.empty()) inst.cv->wait(lk);
      continue;
    }
    IterationTiming it = timer_.time(
        IterationContext{di_, inst.states, w_.flows, sg4::Engine::get_clock()}, admitted, tail_rng);
    sg4::this_actor::sleep_for(us_to_s(it.terms.total_us()));
    const double now = sg4::Engine::get_clock();
    int served = 0;
    for (size_t k = 0; k < inst.ranks.size(); ++k) {
      DecodeRank& r = inst.ranks[k];
      RankState& st = inst.states[k];
      served += static_cast<int>(r.running.size());
      for (size_t j = 0; j < r.running.size();) {
        Request& q = w_.request(r.running[j]);
        const int tokens = std::min(acceptance_.chunk_tokens(rng, q.accept_carry), q.remaining);
        emit(q, tokens, now);
        st.contexts[j] += tokens;
        if (q.remaining > 0) {
          ++j;
          continue;
        }
        r.running.erase(r.running.begin() + static_cast<long>(j));
        st.contexts.erase(st.contexts.begin() + static_cast<long>(j));
        ++st.version;
        finish(inst, q, now);
      }
    }
    stats_.decode_iteration(
        IterationRecord{di_, now, it.terms.total_us(), served, it.terms, it.mech}, it.cuda_graph);
  }
}

}  // namespace pdsim
