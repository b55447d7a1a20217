#include "sim/core/provenance.hpp"

namespace pdsim {

Json read_provenance(const JsonNode& n) {
  if (!n.is_object())
    n.fail("expected an object (where the numbers come from), got " +
           std::string(n.raw().type_name()));
  for (const char* k :
       {"kind", "source", "note", "tool", "reference", "via", "command", "host", "machine", "code",
        "date", "method", "cluster", "instance", "gpu", "driver", "cuda", "libfabric", "nccl"})
    if (n.has(k)) n.at(k).string();
  return n.raw();
}

}  // namespace pdsim
