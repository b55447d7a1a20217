#include "sim/packet/packet.hpp"

namespace pdsim::packet {

void PacketPool::grow() {
  blocks_.push_back(std::make_unique<Packet[]>(kBlock));
  Packet* b = blocks_.back().get();
  for (size_t i = 0; i < kBlock; ++i) put(&b[i]);
}

}  // namespace pdsim::packet
