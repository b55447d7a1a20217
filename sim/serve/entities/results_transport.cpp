#include "sim/serve/entities/results_transport.hpp"

#include <cmath>
#include <cstring>

#include "sim/core/error.hpp"
#include "sim/core/time_bound.hpp"

namespace pdsim {
namespace {

constexpr const char* kFile = "simulation results";
constexpr const char* kChunks = "chunk_arrays";  // the byte string's member
constexpr int64_t kMaxTokens = int64_t{1} << 30;

template <class T>
void put(std::vector<uint8_t>& out, const T* v, size_t n) {
  if (n == 0) return;  // an empty vector's data() may be null
  const auto* p = reinterpret_cast<const uint8_t*>(v);
  out.insert(out.end(), p, p + n * sizeof(T));
}

// Reads the byte string front to back; any shortfall names the request it was reading.
class ChunkReader {
 public:
  explicit ChunkReader(const std::vector<uint8_t>& b) : b_(b) {}
  template <class T>
  void take(T* out, size_t n, const std::string& field) {
    if (n > (b_.size() - pos_) / sizeof(T))
      throw InputError(kFile, field,
                       "expected " + std::to_string(n) + " values in the chunk arrays, " +
                           std::to_string(b_.size() - pos_) + " bytes are left");
    if (n == 0) return;  // an empty vector's data() may be null: no memcpy from or to it
    std::memcpy(out, b_.data() + pos_, n * sizeof(T));
    pos_ += n * sizeof(T);
  }
  size_t left() const { return b_.size() - pos_; }

 private:
  const std::vector<uint8_t>& b_;
  size_t pos_ = 0;
};

}  // namespace

Json results_to_transport(SimResults r) {
  std::vector<uint8_t> bytes;
  size_t n = 0;
  for (const auto& q : r.requests) n += 16 + q.chunk_times_s.size() * 8 + q.chunk_tokens.size() * 4;
  bytes.reserve(n);
  for (auto& q : r.requests) {
    const uint64_t counts[2] = {q.chunk_times_s.size(), q.chunk_tokens.size()};
    put(bytes, counts, 2);
    put(bytes, q.chunk_times_s.data(), q.chunk_times_s.size());
    static_assert(sizeof(int) == 4);
    put(bytes, q.chunk_tokens.data(), q.chunk_tokens.size());
    q.chunk_times_s = {};
    q.chunk_tokens = {};
  }
  Json j = write_fields(r);
  j[kChunks] = Json::binary(std::move(bytes));
  return j;
}

SimResults results_from_transport(Json j) {
  if (!j.is_object() || !j.contains(kChunks) || !j[kChunks].is_binary())
    throw InputError(kFile, kChunks, "expected the chunk arrays as a byte string");
  const std::vector<uint8_t> bytes = std::move(j[kChunks].get_binary());
  j.erase(kChunks);
  SimResults r = read_fields<SimResults>(JsonNode::from_json(std::move(j), kFile));
  ChunkReader in(bytes);
  for (size_t i = 0; i < r.requests.size(); ++i) {
    RequestRecord& q = r.requests[i];
    const std::string at = "requests[" + std::to_string(i) + "].";
    uint64_t counts[2] = {0, 0};
    in.take(counts, 2, at + "chunk_times_s");
    const uint64_t most = in.left();  // each value takes at least 4 bytes: no huge allocation
    if (counts[0] > most / 8 || counts[1] > most / 4)
      throw InputError(kFile, at + "chunk_times_s",
                       "expected chunk counts that fit the " + std::to_string(most) +
                           " bytes left, got " + std::to_string(counts[0]) + " and " +
                           std::to_string(counts[1]));
    q.chunk_times_s.resize(counts[0]);
    q.chunk_tokens.resize(counts[1]);
    in.take(q.chunk_times_s.data(), q.chunk_times_s.size(), at + "chunk_times_s");
    in.take(q.chunk_tokens.data(), q.chunk_tokens.size(), at + "chunk_tokens");
    for (size_t k = 0; k < q.chunk_times_s.size(); ++k)
      if (!(std::fabs(q.chunk_times_s[k]) <= kMaxTimeS))
        throw InputError(kFile, at + "chunk_times_s[" + std::to_string(k) + "]",
                         "expected " + time_cap_text("s", kMaxTimeS));
    for (size_t k = 0; k < q.chunk_tokens.size(); ++k)
      if (q.chunk_tokens[k] < 0 || q.chunk_tokens[k] > kMaxTokens)
        throw InputError(
            kFile, at + "chunk_tokens[" + std::to_string(k) + "]",
            "expected a token count in [0, 2^30], got " + std::to_string(q.chunk_tokens[k]));
  }
  if (in.left() != 0)
    throw InputError(kFile, kChunks,
                     "expected nothing after the last request's chunks, got " +
                         std::to_string(in.left()) + " bytes");
  return r;
}

}  // namespace pdsim
