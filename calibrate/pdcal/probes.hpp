#pragma once
// The pdcal probes, written against Transport so that libfabric and libibverbs share them. Each
// appends (or, for the loop, rewrites) result rows in `results` as soon as they are measured, so
// a probe that ends early (peer died, timeout) still leaves its finished rows for the output.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <vector>

#include "calibrate/pdcal/transport.hpp"

namespace pdsim::pdcal {

// Called after each new result row, e.g. to checkpoint the output file.
using RowCallback = std::function<void()>;

struct SweepOptions {
  size_t min_bytes = 1, max_bytes = size_t{64} << 20;
  double factor = 2;   // message sizes min, min·f, min·f², ... ≤ max (max always included)
  int iters = 1000;    // upper bound on timed iterations per size
  int min_iters = 10;  // lower bound, even for the largest sizes
  double budget_bytes = 1e9;  // per size, iterations ≈ budget / size within [min, max]
  int warmup = 10;
  double timeout_s = 10;
  bool keep_samples = false;  // also write every sample (µs), not only quantiles
};
std::vector<size_t> sweep_sizes(const SweepOptions& o);
int iterations_for(const SweepOptions& o, size_t bytes);

// Bytes of registered buffer each probe needs (same on every rank).
size_t pingpong_buffer_bytes(const SweepOptions& o, int nranks);
size_t bandwidth_buffer_bytes(const SweepOptions& o, int nranks);
size_t scatter_buffer_bytes(size_t max_msg_bytes, int msgs_per_peer, int nranks);

// Ranks 0 and 1 bounce a message; one-way latency = RTT/2. Rank 0 times send→reply, rank 1
// times reply→next ping (the same RTT seen from the other side). Other ranks idle.
void run_pingpong(Transport& t, const SweepOptions& o, nlohmann::json& results,
                  const RowCallback& on_row);

// Rank 0 writes to rank 1 with `window` writes in flight, round-robin over the endpoints;
// time from the target's "go" to its acknowledgement of "fin" (sent after all writes complete).
void run_bandwidth(Transport& t, const SweepOptions& o, int window, nlohmann::json& results,
                   const RowCallback& on_row);

// Every rank writes `msgs_per_peer` messages of each size to every peer, then tells each peer
// it is done and waits for all peers' "done" — one all-to-all exchange per iteration.
void run_scatter(Transport& t, const SweepOptions& o, int msgs_per_peer, nlohmann::json& results,
                 const RowCallback& on_row);

struct A2aLoopOptions {
  size_t dispatch_bytes = 7168, combine_bytes = 14336;  // per message
  int msgs_per_peer = 8;
  int layers = 150;  // dispatch+combine pairs per forward
  int forwards = 20;
  int warmup_forwards = 1;
  double timeout_s = 10;
  bool keep_samples = false;
};
// Repeats dispatch then combine `layers` times per forward; rows: per-phase distributions
// (dispatch, combine) and the per-forward distribution, rewritten after each forward.
void run_a2a_loop(Transport& t, const A2aLoopOptions& o, nlohmann::json& results,
                  const RowCallback& on_row);

// Best-of-several single-threaded memcpy bandwidth over `bytes` (an upper bound for any
// single copy path on this host, recorded with every measurement).
double measure_memcpy_GBps(size_t bytes);

}  // namespace pdsim::pdcal
