#include "sim/serve/actors/client_actor.hpp"

#include "sim/serve/actors/kv_reservation.hpp"

namespace pdsim {
namespace sg4 = simgrid::s4u;

void ClientActor::operator()() {
  const int max_conc = w_.d.scenario.workload.max_concurrency;
  for (Request& q : w_.requests) {
    if (q.spec.gap_s > 0) sg4::this_actor::sleep_for(q.spec.gap_s);
    if (max_conc > 0 && w_.in_flight >= max_conc) {
      std::unique_lock<sg4::Mutex> lk(*w_.mu);
      while (w_.in_flight >= max_conc) w_.client_cv->wait(lk);
    }
    ++w_.in_flight;
    q.rec.arrival_s = sg4::Engine::get_clock();
    const Route r = router_.route(q);
    q.rec.prefill_instance = r.prefill_instance;
    q.rec.decode_instance = r.decode_instance;
    q.rec.decode_rank = r.decode_rank;
    ++w_.prefill_of(q).routed;
    ++w_.decode_of(q).routed;
    reserve_or_wait(w_, q.spec.id);
  }
  // Instances waiting idle with all their requests done learn that no more will come.
  w_.all_routed = true;
  for (auto& p : w_.prefill)
    if (p->queue.empty() && p->taken == p->routed) p->cv->notify_all();
  for (auto& d : w_.decode)
    if (d->finished == d->routed) d->cv->notify_all();
}

}  // namespace pdsim
