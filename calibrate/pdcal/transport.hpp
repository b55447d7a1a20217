#pragma once
// What the probes need from a network API (libfabric or libibverbs): one registered buffer per
// rank, two-sided messages between ranks (tag-matched, so control and data never mix), one-sided
// writes into a peer's buffer over one of several endpoints (striping), and completion polling
// with a deadline. The probes are written once against this interface.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace pdsim::pdcal {

// One outstanding operation. `ctx` must stay first: providers hand its address back.
struct Op {
  alignas(8) unsigned char ctx[64] = {};
  bool done = false;
};

using Clock = std::chrono::steady_clock;

class Transport {
 public:
  virtual ~Transport() = default;
  virtual int rank() const = 0;
  virtual int nranks() const = 0;
  virtual int endpoints() const = 0;
  virtual char* buffer() = 0;  // registered, buffer_bytes() long, same size on every rank
  virtual size_t buffer_bytes() const = 0;

  // Two-sided message of `bytes` from/to buffer()+offset, matched by `tag` (< 2^32) and peer.
  virtual void post_send(int peer, uint32_t tag, size_t offset, size_t bytes, Op& op) = 0;
  virtual void post_recv(int peer, uint32_t tag, size_t offset, size_t bytes, Op& op) = 0;
  // One-sided write of `bytes` from local offset to the peer's buffer at remote offset, over
  // endpoint `ep` (0..endpoints()-1). Completion means it is visible at the target
  // (delivery-complete, or writes ordered before the next message; see describe()).
  virtual void post_write(int peer, int ep, size_t local_offset, size_t remote_offset, size_t bytes,
                          Op& op) = 0;
  // Polls completions once; marks finished ops done. Throws ProbeError on a fabric error.
  virtual void progress() = 0;
  // Provider, device, library version, completion semantics ... for the output's "context".
  virtual nlohmann::json describe() const = 0;

  // Waits until `op` is done; ProbeError naming `what` if `timeout_s` passes first.
  void wait(Op& op, double timeout_s, const std::string& what);
  void wait_all(std::vector<Op>& ops, double timeout_s, const std::string& what);
  void wait_ptrs(const std::vector<Op*>& ops, double timeout_s, const std::string& what);

  // 0 (default): waiting spins and yields, as a dedicated core should. N > 0: after a few
  // thousand empty polls sleep N µs between polls, so that ranks sharing few cores (CI) let
  // each other run; latencies then include up to N µs of wake-up delay.
  void set_idle_sleep_us(int us) { idle_sleep_us_ = us; }

 private:
  int idle_sleep_us_ = 0;
};

}  // namespace pdsim::pdcal
