#include "sim/serve/actors/kv_transfer_actor.hpp"

#include "sim/serve/cost/cluster_fabric.hpp"
#include "sim/serve/cost/kv_engine.hpp"

namespace pdsim {
namespace sg4 = simgrid::s4u;

void KvTransferActor::operator()() {
  Request& q = w_.request(id_);
  const double now = sg4::Engine::get_clock();
  if (q.rec.kv_start_s < 0 || now < q.rec.kv_start_s) q.rec.kv_start_s = now;
  const int dnode = (q.rec.decode_instance * w_.d.scenario.decode.nodes_per_instance) +
                    q.rec.decode_rank / w_.d.instance.gpus_per_node;
  const ElasticJoins& joins = w_.d.joins;
  if (joins.kv_connect_s > 0 && (joins.prefill_joined[static_cast<size_t>(pi_)] ||
                                 joins.decode_joined[static_cast<size_t>(q.rec.decode_instance)])) {
    // The first transfer of a pair connects it (lazily, as Mooncake does); a transfer that finds
    // the connection being made waits for it.
    const std::array<int, 4> pair{pi_, stage_, q.rec.decode_instance, q.rec.decode_rank};
    auto it = w_.kv_connected_s.find(pair);
    if (it == w_.kv_connected_s.end())
      it = w_.kv_connected_s.emplace(pair, now + joins.kv_connect_s).first;
    if (it->second > now) sg4::this_actor::sleep_until(it->second);
  }
  const double bytes = kv_request_bytes(w_.d, q.spec.input_len) * timer_.layer_share(stage_);
  sg4::CommPtr comm = sg4::Comm::sendto_async(w_.stage_host(pi_, stage_),
                                              w_.plat.decode_nodes[static_cast<size_t>(dnode)],
                                              static_cast<uint64_t>(bytes));
  // Over TCP the KV leaves through the hosts' stack, not the RDMA NICs the all-to-all uses.
  const long flow = w_.d.kv_tcp ? -1
                                : w_.flows.track(w_.stage_node(pi_, stage_),
                                                 decode_node_index(w_.d, 0, dnode), true, comm);
  comm->wait();
  if (flow >= 0) w_.flows.erase(flow);
  stats_.kv_part(bytes, sg4::Engine::get_clock() - now);
  if (++q.kv_parts < w_.d.scenario.prefill.pp) return;
  q.rec.kv_end_s = sg4::Engine::get_clock();
  stats_.kv_complete(q.rec.kv_end_s - q.rec.kv_start_s);
  DecodeInstance& di = w_.decode_of(q);
  di.arrived.push_back(id_);
  di.cv->notify_all();
}

}  // namespace pdsim
