#include "models/qp_library.hpp"

#include <cmath>

#include "sim/core/data_path.hpp"
#include "sim/core/excerpt.hpp"
#include "sim/core/provenance.hpp"

namespace pdsim {

double QpLibrary::ack_timeout_us() const {
  return 4.096 * std::ldexp(1.0, timeout_exponent);
}

QpLibrary load_qp_library(const std::string& name_or_path, const std::string& from_file,
                          const std::string& field) {
  JsonNode n = load_named("models/catalog/qp_library", name_or_path, from_file, field);
  n.expect_only({"schema", "name", "owner", "transport", "timeout_exponent", "retry_count",
                 "on_qp_error", "provenance"});
  if (n.at("schema").string() != "pdsim.qp_library/1")
    n.at("schema").fail("expected \"pdsim.qp_library/1\"");
  QpLibrary q;
  q.name = n.at("name").string();
  n.at("owner").string();
  q.transport = n.at("transport").string();
  if (q.transport != "rc" && q.transport != "srd")
    n.at("transport").fail("expected \"rc\" or \"srd\", got \"" + excerpt(q.transport) + "\"");
  if (q.transport == "rc") {
    // The IB verbs field is 5 bits (0 = infinite, not used by any library we model).
    const int64_t t = n.at("timeout_exponent").positive_integer();
    if (t > 31) n.at("timeout_exponent").fail("expected 1..31 (5-bit verbs field)");
    const int64_t r = n.at("retry_count").integer();
    if (r < 0 || r > 7) n.at("retry_count").fail("expected 0..7 (3-bit verbs field)");
    q.timeout_exponent = static_cast<int>(t);
    q.retry_count = static_cast<int>(r);
  } else if (n.has("timeout_exponent") || n.has("retry_count")) {
    n.fail("an srd library sets no QP timeout or retry count (SRD retransmits in the NIC)");
  }
  q.on_qp_error = n.at("on_qp_error").string();
  q.provenance = read_provenance(n.at("provenance"));
  return q;
}

}  // namespace pdsim
