#pragma once
// Bounds on every number and name pdcal and pdcal-gpu-proxy take from the command line, checked
// before anything uses them (sizes feed buffer arithmetic, seconds feed deadlines). A bad value
// is one error naming the flag, what was expected and (escaped) what was given; exit code 2.
#include <CLI/CLI.hpp>
#include <cstdint>

#include "calibrate/pdcal/probes.hpp"

namespace pdsim::pdcal {

// One message: 1 GiB. Every probe's registered buffer holds one to a few messages per rank and
// slot, so this keeps a 2-rank sweep within a few GiB of pinned memory; fabrics reach their
// peak bandwidth well below it (a few MiB).
inline constexpr uint64_t kMaxMessageBytes = uint64_t{1} << 30;
// The buffer each rank allocates and registers (scatter and a2a-loop: a slot per rank): 16 GiB,
// far above the documented runs (a2a-loop at 4096 ranks, 14 KiB × 8: 0.5 GiB), below the host
// memory of any GPU node.
inline constexpr uint64_t kMaxBufferBytes = uint64_t{16} << 30;
// --budget-bytes: 1 TiB per size is hours at 100 GB/s; iterations stay within --iters anyway.
inline constexpr uint64_t kMaxBudgetBytes = uint64_t{1} << 40;
// Iterations and samples per size (or a2a-loop phase): each keeps a double, so 10^7 is 80 MB.
inline constexpr int kMaxIterations = 10'000'000;
// Every timeout: one day. Longer, NaN or infinite values would disable the deadline.
inline constexpr double kMaxSeconds = 86400;

// A whole number of bytes in [lo, hi], optionally with a k/M/G/T suffix (powers of 1024; kb, KiB
// and friends as well). Use with ->transform(): the option then receives the decimal byte count.
CLI::Validator byte_count(uint64_t lo, uint64_t hi);
// An integer in [lo, hi], decimal, nothing around it.
CLI::Validator int_in(int64_t lo, int64_t hi);
// A finite number in [lo, hi]; with lo_open, in (lo, hi].
CLI::Validator real_in(double lo, double hi, bool lo_open = false);
// Seconds for a timeout: finite, in (0, kMaxSeconds].
CLI::Validator seconds();
// A name handed to libfabric or libibverbs: 1..255 printable ASCII characters.
CLI::Validator name_text();

// Relations between flags that each passed its own bound; InputError naming the flag.
void check_sweep(const SweepOptions& o);
void check_loop(const A2aLoopOptions& o);
// The registered buffer a probe needs at `nranks` ranks, at most kMaxBufferBytes; `flags` names
// the flags that make it up.
void check_buffer_bytes(uint64_t bytes, int nranks, const std::string& flags);

}  // namespace pdsim::pdcal
