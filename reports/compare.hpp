#pragma once
// Side-by-side comparison of two run summaries (A, B; deltas are B − A): key bench_serving
// metrics with absolute and % deltas, and which pdsim terms explain the difference.
//
// Attribution. With F = Σ forward_breakdown_us terms (µs per decode forward) and L = tokens per
// forward (accept_length, or 1 when not speculative), TPOT ≈ F / L and mean ITL ≈ F. Term t
// contributes t_B/L_B − t_A/L_A to ΔTPOT (these sum exactly to F_B/L_B − F_A/L_A; the rest of
// ΔTPOT is reported as residual) and t_B − t_A to Δ mean ITL. TTFT-side terms are the mean KV
// transfer and the prefill / decode queue waits. Missing keys count as absent (term 0), never
// as errors.
#include <array>
#include <string>

#include "sim/core/json_reader.hpp"

namespace pdsim {

using RunNames = std::array<std::string, 2>;

Json compare_json(const Json& summary_a, const Json& summary_b, const RunNames& names);
std::string compare_text(const Json& summary_a, const Json& summary_b, const RunNames& names);

}  // namespace pdsim
