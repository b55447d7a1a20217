#pragma once
// Known artefacts of SGLang bench_serving result records: which metrics a record cannot be trusted
// for, and why. A tool that compares predictions with such records must not score these.
//   - Reasoning parser (`--reasoning-parser` on the server, the chat backend on the client): the
//     client timestamps only chunks with visible `content`, so an answer that stays in
//     `reasoning_content` gets TTFT 0 and TPOT = E2E / (output − 1). Signature: median TTFT 0 and
//     `total_output_tokens_retokenized` below half of `total_output_tokens`. TTFT and TPOT
//     statistics are invalid; E2E, duration, throughputs and ITL (gaps between content chunks)
//     stay valid.
//   - Median TTFT 0 with a positive mean and no retokenized count: some builds report this under
//     PD disaggregation; the median TTFT alone is invalid.
//   - accept_length null: acceptance was not measured (not an artefact; the metric is missing).
#include <map>
#include <string>

#include "sim/core/json_reader.hpp"

namespace pdsim {

// metric key → why it is not compared.
std::map<std::string, std::string> bench_serving_artefacts(const Json& record);

}  // namespace pdsim
