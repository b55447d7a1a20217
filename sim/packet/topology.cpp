#include "sim/packet/topology.hpp"

#include <algorithm>
#include <stdexcept>

namespace pdsim::packet {

int Topology::add_switch(const SwitchParams* params, int tier) {
  Switch s;
  s.buffer = std::make_unique<SharedBuffer>();
  s.buffer->capacity_bytes = params->buffer_bytes;
  s.params = params;
  s.tier = tier;
  switches_.push_back(std::move(s));
  return static_cast<int>(switches_.size()) - 1;
}

Queue* Topology::new_queue(const LinkSpec& link, Switch* owner) {
  queues_.push_back(std::make_unique<Queue>(env_, link.gbps, link.latency_ps,
                                            owner ? owner->buffer.get() : nullptr,
                                            owner ? owner->params : nullptr));
  return queues_.back().get();
}

int Topology::add_endpoint(int sw, const LinkSpec& link) {
  const int id = static_cast<int>(endpoints_.size());
  Switch& s = switches_[static_cast<size_t>(sw)];
  Endpoint e{sw, new_queue(link, nullptr), new_queue(link, &s)};
  s.ports.push_back(Hop{e.down, -1, id});
  endpoints_.push_back(e);
  links_.push_back({e.up, "host_up", -1 - id, sw});
  links_.push_back({e.down, "host_down", sw, -1 - id});
  return id;
}

void Topology::connect(int a, int b, const LinkSpec& link, int count) {
  Switch& sa = switches_[static_cast<size_t>(a)];
  Switch& sb = switches_[static_cast<size_t>(b)];
  std::string up = "t", down = "t";  // built piecewise: GCC 12 misreports operator+ chains
  up += std::to_string(sa.tier);
  up += "-t";
  up += std::to_string(sb.tier);
  down += std::to_string(sb.tier);
  down += "-t";
  down += std::to_string(sa.tier);
  for (int i = 0; i < count; ++i) {
    Queue* ab = new_queue(link, &sa);
    Queue* ba = new_queue(link, &sb);
    sa.ports.push_back(Hop{ab, b, -1});
    sb.ports.push_back(Hop{ba, a, -1});
    links_.push_back({ab, up, a, b});
    links_.push_back({ba, down, b, a});
  }
}

Queue* Topology::switch_port(int sw, int port) const {
  if (sw < 0 || sw >= switches()) return nullptr;
  const auto& ports = switches_[static_cast<size_t>(sw)].ports;
  if (port < 0 || port >= static_cast<int>(ports.size())) return nullptr;
  return ports[static_cast<size_t>(port)].q;
}

void Topology::finalize() {
  const size_t n = switches_.size();
  leaf_index_.assign(n, -1);
  leaves_.clear();
  for (const auto& e : endpoints_) {
    if (leaf_index_[static_cast<size_t>(e.sw)] < 0) {
      leaf_index_[static_cast<size_t>(e.sw)] = static_cast<int>(leaves_.size());
      leaves_.push_back(e.sw);
    }
  }
  const size_t nl = leaves_.size();
  next_.assign(n * nl, {0, 0});
  hops_.clear();
  std::vector<int> dist(n), frontier, next_frontier;
  for (size_t li = 0; li < nl; ++li) {
    std::fill(dist.begin(), dist.end(), -1);
    dist[static_cast<size_t>(leaves_[li])] = 0;
    frontier.assign(1, leaves_[li]);
    while (!frontier.empty()) {  // links are symmetric, so BFS over out-ports suffices
      next_frontier.clear();
      for (int s : frontier)
        for (const Hop& h : switches_[static_cast<size_t>(s)].ports)
          if (h.to_switch >= 0 && dist[static_cast<size_t>(h.to_switch)] < 0) {
            dist[static_cast<size_t>(h.to_switch)] = dist[static_cast<size_t>(s)] + 1;
            next_frontier.push_back(h.to_switch);
          }
      frontier.swap(next_frontier);
    }
    for (size_t s = 0; s < n; ++s) {
      const auto begin = static_cast<uint32_t>(hops_.size());
      if (dist[s] > 0)
        for (const Hop& h : switches_[s].ports)
          if (h.to_switch >= 0 && dist[static_cast<size_t>(h.to_switch)] == dist[s] - 1)
            hops_.push_back(h);
      next_[s * nl + li] = {begin, static_cast<uint32_t>(hops_.size())};
    }
  }
}

uint64_t Topology::mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

const Route* Topology::route(int src, int dst, uint64_t entropy) {
  Route r;
  const Endpoint& s = endpoints_[static_cast<size_t>(src)];
  const Endpoint& d = endpoints_[static_cast<size_t>(dst)];
  r.push(s.up);
  const size_t nl = leaves_.size();
  const auto dleaf = static_cast<size_t>(leaf_index_[static_cast<size_t>(d.sw)]);
  int sw = s.sw;
  while (sw != d.sw) {
    const auto [b, e] = next_[static_cast<size_t>(sw) * nl + dleaf];
    if (b == e) throw std::logic_error("packet topology: destination unreachable");
    const uint64_t h = mix(entropy ^ (0x51ed270b27a3f4c9ULL * static_cast<uint64_t>(sw + 1)));
    const Hop& hop = hops_[b + h % (e - b)];
    r.push(hop.q);
    sw = hop.to_switch;
  }
  r.push(d.down);
  r.push(d.sink);
  routes_.push_back(std::move(r));
  return &routes_.back();
}

Picoseconds Topology::max_path_latency_ps(int64_t bytes) const {
  // Longest shortest path: hops between leaves plus the two endpoint links.
  Picoseconds worst = 0;
  for (size_t a = 0; a < leaves_.size(); ++a)
    for (size_t b = 0; b < leaves_.size(); ++b) {
      Picoseconds t = 0;
      int sw = leaves_[a];
      while (sw != leaves_[b]) {
        const auto [lo, hi] = next_[static_cast<size_t>(sw) * leaves_.size() + b];
        if (lo == hi) break;
        const Hop& h = hops_[lo];
        t += h.q->latency_ps() + serialisation_ps(bytes, h.q->rate_bps());
        sw = h.to_switch;
      }
      worst = std::max(worst, t);
    }
  const Endpoint& e = endpoints_.front();
  return worst + 2 * (e.up->latency_ps() + serialisation_ps(bytes, e.up->rate_bps()));
}

}  // namespace pdsim::packet
