// The pure checks behind pdcal's hostile-input handling, case by case: bootstrap messages
// (wire.hpp), fabric address blobs, peer text and the command-line validators.
#include <gtest/gtest.h>

#include <climits>
#include <cstring>
#include <nlohmann/json.hpp>

#include "calibrate/pdcal/cli_checks.hpp"
#include "calibrate/pdcal/fabric_address.hpp"
#include "calibrate/pdcal/peer_text.hpp"
#include "calibrate/pdcal/probe_error.hpp"
#include "calibrate/pdcal/wire.hpp"

namespace pdcal = pdsim::pdcal;

namespace {

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const pdcal::PeerMessageError& e) {
    return e.what();
  }
  return "";
}

pdcal::Hello hello(int32_t rank, int32_t nranks) {
  const auto bytes = pdcal::encode_hello({rank, nranks});
  return pdcal::decode_hello(bytes, "rank 0");
}

// A validator's verdict on `text`: "" when accepted (and `text` then holds what the option gets).
std::string verdict(CLI::Validator v, std::string& text) {
  return v(text);
}

}  // namespace

TEST(PdcalWire, HelloWithinBoundsIsAccepted) {
  EXPECT_EQ(hello(1, 2).rank, 1);
  EXPECT_EQ(hello(4095, 4096).nranks, 4096);
}

TEST(PdcalWire, HelloOutOfBoundsNamesTheField) {
  EXPECT_NE(error_of([] {
              hello(1, INT32_MAX);
            }).find("field 'nranks': expected 2..4096, got 2147483647"),
            std::string::npos);
  EXPECT_NE(error_of([] { hello(1, -1); }).find("got -1"), std::string::npos);
  EXPECT_NE(error_of([] { hello(0, 1); }).find("field 'nranks'"), std::string::npos);
  EXPECT_NE(error_of([] { hello(0, 2); }).find("field 'rank': expected 1..1"), std::string::npos);
  EXPECT_NE(error_of([] { hello(2, 2); }).find("field 'rank'"), std::string::npos);
  const uint8_t short_hello[4] = {1, 0, 0, 0};
  EXPECT_NE(
      error_of([&] { pdcal::decode_hello(short_hello, "x"); }).find("expected 8 bytes, got 4"),
      std::string::npos);
}

TEST(PdcalWire, FrameLengthIsBounded) {
  EXPECT_EQ(pdcal::decode_frame_length(pdcal::encode_frame_length(pdcal::kMaxFrameBytes), "x"),
            pdcal::kMaxFrameBytes);
  for (uint64_t n : {pdcal::kMaxFrameBytes + 1, uint64_t{1} << 30, UINT64_MAX})
    EXPECT_NE(error_of([&] {
                pdcal::decode_frame_length(pdcal::encode_frame_length(n), "x");
              }).find("field 'length': expected at most 4194304 bytes"),
              std::string::npos);
}

TEST(PdcalWire, ParametersMustBePrintableUtf8) {
  pdcal::check_parameters(R"({"api":"fabric","provider":"tcp"})", "rank 1");
  pdcal::check_parameters("{\"provider\":\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"}", "rank 1");
  for (std::string bad :
       {std::string("{\"a\":\"\xff\"}"), std::string("\xc0\x80"), std::string("\xed\xa0\x80"),
        std::string("a\x01"), std::string("\xc2\x85"), std::string("\xe2\x82"), std::string("\x7f"),
        std::string("\xf4\x90\x80\x80")}) {
    const std::string e = error_of([&] { pdcal::check_parameters(bad, "rank 1"); });
    EXPECT_NE(e.find("peer message 'parameters' from rank 1: field 'text'"), std::string::npos)
        << e;
    // What reaches the user is ASCII: the strict JSON writer takes it.
    EXPECT_NO_THROW((void)nlohmann::json(e).dump()) << e;
  }
  EXPECT_NE(error_of([] {
              pdcal::check_parameters(std::string(20000, 'a'), "r");
            }).find("expected at most 16384 bytes"),
            std::string::npos);
}

TEST(PdcalPeerText, ExcerptIsEscapedAndTruncated) {
  EXPECT_EQ(pdcal::escaped_excerpt("a\"b\\c\xff\n"), "\"a\\\"b\\\\c\\xff\\x0a\"");
  EXPECT_EQ(pdcal::escaped_excerpt(std::string(100, 'x'), 4), "\"xxxx\"... (100 bytes)");
}

TEST(PdcalFabricAddress, RoundTripAndEveryViolation) {
  const std::vector<pdcal::FabricEpAddress> eps = {{"0123456789abcdef", 7, 0x1000},
                                                   {"fedcba9876543210", 8, 0x2000}};
  const std::string blob = pdcal::encode_fabric_address(eps);
  using Rules = std::vector<pdcal::FabricNameRule>;
  const Rules lens = {{16, false}, {16, false}};
  auto back = pdcal::decode_fabric_address(blob, lens, "rank 1");
  ASSERT_EQ(back.size(), 2u);
  EXPECT_EQ(back[1].name, eps[1].name);
  EXPECT_EQ(back[1].base, 0x2000u);
  auto err = [&](const std::string& b, Rules l) {
    return error_of([&] { pdcal::decode_fabric_address(b, l, "rank 1"); });
  };
  EXPECT_NE(err(blob.substr(0, 5), lens).find("(truncated)"), std::string::npos);
  EXPECT_NE(err(blob.substr(0, blob.size() - 1), lens).find("(truncated)"), std::string::npos);
  EXPECT_NE(err(blob + "x", lens).find("1 extra bytes"), std::string::npos);
  EXPECT_NE(err(blob, {{16, false}}).find("extra bytes"), std::string::npos);
  EXPECT_NE(err(blob, {{28, false}, {28, false}}).find("name_length': expected 28"),
            std::string::npos);
  // A string address (shm's "fi_shm://<pid>") differs in length between ranks: a peer's 16-byte
  // name is accepted where this rank's own is 19 bytes, a 0-byte or 257-byte one is not.
  EXPECT_EQ(pdcal::decode_fabric_address(blob, Rules{{19, true}, {14, true}}, "rank 1")[0].name,
            eps[0].name);
  const std::string long_name = pdcal::encode_fabric_address({{std::string(257, 'a'), 1, 2}});
  EXPECT_NE(err(long_name, {{19, true}}).find("expected 1 to 256 (a string address), got 257"),
            std::string::npos);
  const std::string empty_name = pdcal::encode_fabric_address({{"", 1, 2}});
  EXPECT_NE(err(empty_name, {{19, true}}).find("got 0"), std::string::npos);
  std::string huge = blob;
  const uint64_t n = UINT64_MAX - 4;
  std::memcpy(huge.data(), &n, 8);
  EXPECT_NE(err(huge, lens).find("name_length"), std::string::npos);
}

TEST(PdcalCliChecks, ByteCounts) {
  const auto v = pdcal::byte_count(1, pdcal::kMaxMessageBytes);
  for (auto [in, out] : {std::pair{"1", "1"},
                         {"1k", "1024"},
                         {"4KiB", "4096"},
                         {"1G", "1073741824"},
                         {"64 M", "67108864"}}) {
    std::string s = in;
    EXPECT_EQ(verdict(v, s), "") << in;
    EXPECT_EQ(s, out);
  }
  for (const char* in : {"-1", "0", "2G", "1.5G", "18446744073709551616", "16E", "0x10", "1kk",
                         "9223372036854775808", "17179869184T", ""}) {
    std::string s = in;
    EXPECT_NE(verdict(v, s).find("expected a byte count in [1, 1073741824]"), std::string::npos)
        << in;
  }
}

TEST(PdcalCliChecks, IntegersAndSeconds) {
  const auto i = pdcal::int_in(2, 4096);
  for (const char* in : {"1", "4097", "99999999999", "-5", "+3", "3 ", "3.0", "x"}) {
    std::string s = in;
    EXPECT_NE(verdict(i, s), "") << in;
  }
  std::string ok = "4096";
  EXPECT_EQ(verdict(i, ok), "");
  const auto t = pdcal::seconds();
  for (const char* in : {"nan", "inf", "-inf", "1e300", "0", "-1", "86400.5"}) {
    std::string s = in;
    EXPECT_NE(verdict(t, s).find("expected a finite number in (0, 86400]"), std::string::npos)
        << in;
  }
  for (const char* in : {"0.001", "60", "86400"}) {
    std::string s = in;
    EXPECT_EQ(verdict(t, s), "") << in;
  }
}
