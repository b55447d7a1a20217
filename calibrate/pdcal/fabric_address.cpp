#include "calibrate/pdcal/fabric_address.hpp"

#include <cstring>

#include "calibrate/pdcal/probe_error.hpp"

namespace pdsim::pdcal {
namespace {

void put_u64(std::string& s, uint64_t v) {
  s.append(reinterpret_cast<const char*>(&v), sizeof v);
}

class Reader {
 public:
  Reader(std::string_view blob, std::string_view from) : blob_(blob), from_(from) {}
  std::string_view take(size_t n, const std::string& field) {
    if (n > blob_.size() - pos_)
      throw PeerMessageError("fabric address", from_, field,
                             "expected " + std::to_string(n) + " more bytes at offset " +
                                 std::to_string(pos_) + ", the blob has " +
                                 std::to_string(blob_.size()) + " bytes (truncated)");
    std::string_view out = blob_.substr(pos_, n);
    pos_ += n;
    return out;
  }
  uint64_t u64(const std::string& field) {
    uint64_t v = 0;
    std::memcpy(&v, take(sizeof v, field).data(), sizeof v);
    return v;
  }
  size_t left() const { return blob_.size() - pos_; }

 private:
  std::string_view blob_, from_;
  size_t pos_ = 0;
};

}  // namespace

std::string encode_fabric_address(const std::vector<FabricEpAddress>& eps) {
  std::string blob;
  for (const auto& e : eps) {
    put_u64(blob, e.name.size());
    blob += e.name;
    put_u64(blob, e.key);
    put_u64(blob, e.base);
  }
  return blob;
}

std::vector<FabricEpAddress> decode_fabric_address(std::string_view blob,
                                                   std::span<const FabricNameRule> rules,
                                                   std::string_view from) {
  Reader r(blob, from);
  std::vector<FabricEpAddress> out;
  out.reserve(rules.size());
  for (size_t e = 0; e < rules.size(); ++e) {
    const std::string ep = "endpoints[" + std::to_string(e) + "].";
    const uint64_t len = r.u64(ep + "name_length");
    if (rules[e].string_format && (len == 0 || len > kMaxFabricNameBytes))
      throw PeerMessageError("fabric address", from, ep + "name_length",
                             "expected 1 to " + std::to_string(kMaxFabricNameBytes) +
                                 " (a string address), got " + std::to_string(len));
    if (!rules[e].string_format && len != rules[e].own_length)
      throw PeerMessageError("fabric address", from, ep + "name_length",
                             "expected " + std::to_string(rules[e].own_length) +
                                 " (this rank's, same provider), got " + std::to_string(len));
    FabricEpAddress a;
    a.name = std::string(r.take(len, ep + "name"));
    a.key = r.u64(ep + "key");
    a.base = r.u64(ep + "base");
    out.push_back(std::move(a));
  }
  if (r.left() != 0)
    throw PeerMessageError("fabric address", from, "length",
                           "expected " + std::to_string(rules.size()) +
                               " endpoint(s) and nothing after them, got " +
                               std::to_string(r.left()) + " extra bytes");
  return out;
}

}  // namespace pdsim::pdcal
