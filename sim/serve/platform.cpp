#include "sim/serve/platform.hpp"

#include <string>

#include "sim/core/units.hpp"
#include "sim/fabric/transfers.hpp"

namespace pdsim {

namespace sg4 = simgrid::s4u;

ServePlatform build_platform(const Deployment& d) {
  sg4::NetZone* zone = sg4::create_full_zone("cluster");
  const double node_rate = d.instance.nics_per_node * nic_effective_rate(d.fabric, d.instance.nic_gbps);
  sg4::Link* core = zone->create_link("core", 1e15);
  core->set_sharing_policy(sg4::Link::SharingPolicy::FATPIPE);
  core->set_latency(us_to_s(d.fabric.rdma_alpha_us));

  ServePlatform p;
  std::vector<sg4::Host*> hosts;
  std::vector<sg4::SplitDuplexLink*> nics;
  auto add_node = [&](const std::string& name) {
    sg4::Host* h = zone->create_host(name, 1e9);
    sg4::SplitDuplexLink* l = zone->create_split_duplex_link(name + ".nics", node_rate);
    hosts.push_back(h);
    nics.push_back(l);
    return h;
  };
  const auto& s = d.scenario;
  for (int i = 0; i < s.prefill.instances; ++i)
    for (int n = 0; n < s.prefill.nodes_per_instance; ++n)
      p.prefill_nodes.push_back(add_node("prefill" + std::to_string(i) + ".node" + std::to_string(n)));
  for (int i = 0; i < s.decode.instances; ++i)
    for (int n = 0; n < s.decode.nodes_per_instance; ++n)
      p.decode_nodes.push_back(add_node("decode" + std::to_string(i) + ".node" + std::to_string(n)));
  p.router = add_node("router");
  for (size_t a = 0; a < hosts.size(); ++a)
    for (size_t b = 0; b < hosts.size(); ++b) {
      if (a == b) continue;
      zone->add_route(hosts[a]->get_netpoint(), hosts[b]->get_netpoint(), nullptr, nullptr,
                      {sg4::LinkInRoute(nics[a], sg4::LinkInRoute::Direction::UP), sg4::LinkInRoute(core),
                       sg4::LinkInRoute(nics[b], sg4::LinkInRoute::Direction::DOWN)},
                      false);
    }
  for (auto* l : nics) l->seal();
  core->seal();
  zone->seal();
  return p;
}

}  // namespace pdsim
