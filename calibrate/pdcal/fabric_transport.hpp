#pragma once
// Transport over libfabric RDM endpoints (any provider: efa, verbs;ofi_rxm, tcp;ofi_rxm, shm).
// Tagged messages carry the sender's rank in the upper tag bits; writes use FI_RMA into the
// peer's registered buffer. With `stripe_domains`, endpoint i opens the i-th distinct domain the
// provider reports (one per NIC on EFA), otherwise all endpoints share the first domain.
#include <memory>
#include <string>

#include "calibrate/pdcal/bootstrap.hpp"
#include "calibrate/pdcal/transport.hpp"

namespace pdsim::pdcal {

struct FabricOptions {
  std::string provider = "tcp";
  std::string src_addr;  // local address for the provider (FI_SOURCE); empty: provider default
  int endpoints = 1;
  bool stripe_domains = false;
  size_t buffer_bytes = 0;
  double timeout_s = 10;
};

// Throws NoDeviceError when the provider (and --src-addr) offers no usable endpoint here: called
// before bootstrapping, so a mistyped --provider fails at once, not after the peers' timeout.
void fabric_check_provider(const FabricOptions& opt);
std::unique_ptr<Transport> make_fabric_transport(const FabricOptions& opt, Bootstrap& boot);

}  // namespace pdsim::pdcal
