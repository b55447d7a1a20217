#include "sim/serve/actors/platform.hpp"

#include <string>

#include "sim/core/units.hpp"
#include "sim/fabric/transfers.hpp"
#include "sim/serve/cost/kv_engine.hpp"

namespace pdsim {

namespace sg4 = simgrid::s4u;

ServePlatform build_platform(const Deployment& d) {
  sg4::NetZone* zone = sg4::create_full_zone("cluster");
  const double node_rate =
      d.instance.nics_per_node * nic_effective_rate(d.fabric, d.instance.nic_gbps);
  sg4::Link* core = zone->create_link("core", 1e15);
  core->set_sharing_policy(sg4::Link::SharingPolicy::FATPIPE);
  core->set_latency(us_to_s(d.fabric.rdma_alpha_us));

  // The KV transfer engine (kv_engine.hpp) caps everything a prefill node sends to decode nodes:
  // over RDMA the published block-size curve (a node-to-node figure), over TCP one rank's
  // transport.
  const KvEngine kv = kv_engine(d);
  ServePlatform p;
  std::vector<sg4::Host*> hosts;
  std::vector<sg4::SplitDuplexLink*> nics;
  std::vector<sg4::Link*> kv_engine;  // only prefill nodes have one
  auto add_node = [&](const std::string& name, bool prefill) {
    sg4::Host* h = zone->create_host(name, 1e9);
    sg4::SplitDuplexLink* l = zone->create_split_duplex_link(name + ".nics", node_rate);
    hosts.push_back(h);
    nics.push_back(l);
    sg4::Link* engine = nullptr;
    if (prefill) {
      engine = zone->create_link(name + ".kv_engine", kv.rate_Bps);
      if (!kv.shared) engine->set_sharing_policy(sg4::Link::SharingPolicy::FATPIPE);
      engine->seal();
    }
    kv_engine.push_back(engine);
    return h;
  };
  const auto& s = d.scenario;
  for (int i = 0; i < s.prefill.instances; ++i)
    for (int n = 0; n < s.prefill.nodes_per_instance; ++n)
      p.prefill_nodes.push_back(
          add_node("prefill" + std::to_string(i) + ".node" + std::to_string(n), true));
  for (int i = 0; i < s.decode.instances; ++i)
    for (int n = 0; n < s.decode.nodes_per_instance; ++n)
      p.decode_nodes.push_back(
          add_node("decode" + std::to_string(i) + ".node" + std::to_string(n), false));
  p.router = add_node("router", false);
  const size_t first_decode = p.prefill_nodes.size(),
               end_decode = first_decode + p.decode_nodes.size();
  for (size_t a = 0; a < hosts.size(); ++a)
    for (size_t b = 0; b < hosts.size(); ++b) {
      if (a == b) continue;
      std::vector<sg4::LinkInRoute> route{
          sg4::LinkInRoute(nics[a], sg4::LinkInRoute::Direction::UP)};
      if (kv_engine[a] && b >= first_decode && b < end_decode) route.emplace_back(kv_engine[a]);
      route.emplace_back(core);
      route.emplace_back(nics[b], sg4::LinkInRoute::Direction::DOWN);
      zone->add_route(hosts[a]->get_netpoint(), hosts[b]->get_netpoint(), nullptr, nullptr, route,
                      false);
    }
  for (auto* l : nics) l->seal();
  core->seal();
  zone->seal();
  return p;
}

}  // namespace pdsim
