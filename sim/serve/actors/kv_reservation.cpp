#include "sim/serve/actors/kv_reservation.hpp"

namespace pdsim {
namespace {

bool try_reserve(ServingWorld& w, int id) {
  Request& q = w.request(id);
  DecodeRank& r = w.rank_of(q);
  const double need = q.spec.input_len + q.spec.output_len;
  if (r.slots_free <= 0 || r.kv_free_tokens < need) return false;
  r.slots_free -= 1;
  r.kv_free_tokens -= need;
  q.rec.decode_reserved_s = simgrid::s4u::Engine::get_clock();
  PrefillInstance& p = w.prefill_of(q);
  p.queue.push_back(id);
  p.cv->notify_all();
  return true;
}

}  // namespace

void reserve_or_wait(ServingWorld& w, int id) {
  DecodeRank& r = w.rank_of(w.request(id));
  if (!r.waiting.empty() || !try_reserve(w, id)) r.waiting.push_back(id);
}

void release_reservation(ServingWorld& w, int id) {
  const Request& q = w.request(id);
  DecodeRank& r = w.rank_of(q);
  r.slots_free += 1;
  r.kv_free_tokens += q.spec.input_len + q.spec.output_len;
  while (!r.waiting.empty() && try_reserve(w, r.waiting.front())) r.waiting.pop_front();
}

}  // namespace pdsim
