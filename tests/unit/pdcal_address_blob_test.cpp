#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "calibrate/pdcal/address_blob.hpp"

namespace pdsim::pdcal {
namespace {

TEST(AddressBlob, FieldsComeBackInOrder) {
  const uint16_t lid = 0x1234;
  const uint32_t rkey = 0xdeadbeef;
  const uint64_t addr = 0x00007f0012345678ULL;
  std::string blob;
  blob_put(blob, &lid, sizeof lid);
  blob_put(blob, &rkey, sizeof rkey);
  blob_put(blob, &addr, sizeof addr);
  ASSERT_EQ(blob.size(), 2u + 4u + 8u);
  size_t pos = 0;
  EXPECT_EQ(blob_get<uint16_t>(blob, pos, "verbs"), lid);
  EXPECT_EQ(blob_get<uint32_t>(blob, pos, "verbs"), rkey);
  EXPECT_EQ(blob_get<uint64_t>(blob, pos, "verbs"), addr);
  EXPECT_EQ(pos, blob.size());
}

TEST(AddressBlob, ShortBlobNamesTheTransport) {
  const uint32_t qpn = 7;
  std::string blob;
  blob_put(blob, &qpn, sizeof qpn);
  size_t pos = 0;
  try {
    blob_get<uint64_t>(blob, pos, "SRD");
    FAIL() << "no exception";
  } catch (const ProbeError& e) {
    EXPECT_STREQ(e.what(),
                 "bootstrap: peer message 'SRD address' from a peer: field 'length': expected at "
                 "least 8 bytes, got 4 (truncated)");
  }
  EXPECT_EQ(pos, 0u);
}

}  // namespace
}  // namespace pdsim::pdcal
