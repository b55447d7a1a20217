#pragma once
// One serving role's parallel layout as SGLang builds it (models/sglang_parallel.hpp), from the
// scenario's role fields: --tp/--dp/--ep/--pp-size, --nnodes, --enable-dp-attention,
// --enable-dp-lm-head, --moe-a2a-backend. What pdsim fixes rather than reads: the decode role runs
// DeepEP in low_latency mode and prefill in normal mode (SGLang's per-role practice; `auto` picks
// the same by batch kind: DeepEPMode.resolve in python/sglang/srt/layers/moe/utils.py returns
// NORMAL when any rank of the step has an extend batch, the flag OR-reduced across ranks, else
// LOW_LATENCY; a PD decode role runs decode batches, a prefill role extend batches), and DP
// attention uses --moe-dense-tp-size 1 (the only value SGLang
// accepts besides unset, and what the import requires).
#include "models/model_config.hpp"
#include "models/sglang_parallel.hpp"
#include "sim/scenario/scenario.hpp"

namespace pdsim {

SglangParallel decode_parallel(const Scenario& s, const ModelConfig& m);
SglangParallel prefill_parallel(const Scenario& s, const ModelConfig& m);
// The prefill's all-to-all mechanism: prefill.a2a_backend, or fabric.a2a_backend when "" (a role
// may run DeepEP over another transport than the other role). InputError naming
// prefill.a2a_backend for a name no backend registered.
std::string prefill_a2a_backend(const Scenario& s);

}  // namespace pdsim
