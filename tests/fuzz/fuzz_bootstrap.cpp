// libFuzzer target for pdcal's bootstrap messages, in process, no network: the input is what a
// connector reads from a hostile "rank 0" — a hello, then frames (length + payload, the last one
// possibly cut short) — and each frame goes through the decoder pdcal applies to it in that
// position (parameters, fabric address blob, barrier, in turn). Each must accept or raise
// PeerMessageError, whose message must be printable ASCII (peer bytes escaped), so that it can
// never break the terminal or the JSON writer. Also checked: text first_unprintable() accepts is
// valid UTF-8 for nlohmann's strict dump, and escaped_excerpt() output is printable ASCII.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "calibrate/pdcal/fabric_address.hpp"
#include "calibrate/pdcal/peer_text.hpp"
#include "calibrate/pdcal/probe_error.hpp"
#include "calibrate/pdcal/wire.hpp"

namespace pdcal = pdsim::pdcal;

namespace {

void require_ascii(std::string_view s) {
  for (char c : s)
    if (c < 0x20 || c > 0x7e) std::abort();
}

template <class F>
bool decodes(F&& f) {
  try {
    f();
    return true;
  } catch (const pdcal::PeerMessageError& e) {
    require_ascii(e.what());
    return false;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::span<const uint8_t> in(data, size);
  auto take = [&](size_t n) {
    auto s = in.first(n < in.size() ? n : in.size());
    in = in.subspan(s.size());
    return s;
  };
  // The address decoder checks against this rank's endpoints: 1..4 of them, with a name
  // length (16: sockaddr_in, 28: sockaddr_in6, or odd) or a string format (shm) taken from the
  // hello's first byte.
  const uint8_t shape = size > 0 ? data[0] : 0;
  const pdcal::FabricNameRule rule{(shape & 4) != 0   ? 28u
                                   : (shape & 8) != 0 ? 1u
                                                      : 16u,
                                   (shape & 16) != 0};
  const std::vector<pdcal::FabricNameRule> name_lengths(1 + (shape & 3), rule);
  decodes([&] { pdcal::decode_hello(take(pdcal::kHelloBytes), "rank 0"); });
  // Frames in the order a connector meets them: parameters, address, barrier, then again.
  for (int frame = 0; !in.empty(); ++frame) {
    uint64_t n = 0;
    if (!decodes([&] { n = pdcal::decode_frame_length(take(pdcal::kFrameHeaderBytes), "rank 0"); }))
      break;
    const auto payload = take(n);
    const std::string_view text(reinterpret_cast<const char*>(payload.data()), payload.size());
    switch (frame % 3) {
      case 0:
        if (decodes([&] { pdcal::check_parameters(text, "rank 0"); }))
          (void)nlohmann::json(std::string(text))
              .dump(-1, ' ', false, nlohmann::json::error_handler_t::strict);
        break;
      case 1:
        decodes([&] { pdcal::decode_fabric_address(text, name_lengths, "rank 0"); });
        break;
      default:
        decodes([&] { pdcal::check_barrier(text, "rank 0"); });
        require_ascii(pdcal::escaped_excerpt(text, n % 97));
    }
  }
  return 0;
}
