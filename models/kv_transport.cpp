#include "models/kv_transport.hpp"

#include "sim/core/data_path.hpp"
#include "sim/core/excerpt.hpp"
#include "sim/core/provenance.hpp"

namespace pdsim {

KvTransport load_kv_transport(const std::string& name_or_path, const std::string& from_file,
                              const std::string& field) {
  JsonNode n = load_named("models/catalog/kv_transport", name_or_path, from_file, field);
  n.expect_only({"schema", "name", "owner", "protocol", "rate_GBps", "rate_range_GBps", "sharing",
                 "failed_above_concurrency", "failure_seen", "provenance"});
  if (n.at("schema").string() != "pdsim.kv_transport/1")
    n.at("schema").fail("expected \"pdsim.kv_transport/1\"");
  KvTransport k;
  k.name = n.at("name").string();
  n.at("owner").string();
  k.protocol = n.at("protocol").string();
  if (k.protocol != "tcp")
    n.at("protocol")
        .fail(
            "expected \"tcp\" (RDMA engines take their rate from the fabric "
            "profile), got \"" +
            excerpt(k.protocol) + "\"");
  k.rate_GBps = n.at("rate_GBps").positive();
  const JsonNode range = n.at("rate_range_GBps");
  if (!range.is_array() || range.size() != 2) range.fail("expected [low, high] in GB/s");
  k.rate_low_GBps = range.at(0).positive();
  k.rate_high_GBps = range.at(1).positive();
  if (k.rate_low_GBps > k.rate_GBps || k.rate_GBps > k.rate_high_GBps)
    range.fail("expected low <= rate_GBps <= high");
  // A host TCP stack above a terabyte per second is a unit mistake, not a transport.
  if (k.rate_high_GBps > 1000) range.fail("expected at most 1000 GB/s");
  k.sharing = n.at("sharing").string();
  if (k.sharing != "per_rank" && k.sharing != "per_transfer")
    n.at("sharing").fail("expected \"per_rank\" or \"per_transfer\", got \"" + excerpt(k.sharing) +
                         "\"");
  if (n.has("failed_above_concurrency")) {
    const int64_t c = n.at("failed_above_concurrency").positive_integer();
    if (c > 1000000) n.at("failed_above_concurrency").fail("expected at most 1000000");
    k.failed_above_concurrency = static_cast<int>(c);
    k.failure_seen = n.at("failure_seen").string();
  } else if (n.has("failure_seen")) {
    n.at("failure_seen").fail("only with failed_above_concurrency");
  }
  k.provenance = read_provenance(n.at("provenance"));
  return k;
}

}  // namespace pdsim
