#pragma once
// A step's cost as a per-op breakdown (Vidur-style): each op carries FLOPs, HBM bytes, the
// roofline time with the profile's efficiency, and a category used by reports
// ("attention", "moe_compute", "dense_mlp", "lm_head", "comm", "overhead", "other").
#include <string_view>
#include <vector>

namespace pdsim {

// Names and categories are string literals (static storage): an op costs no allocation, and
// the thousands of ops costed per simulated second are copied as plain values.
struct OpCost {
  const char* name = "";  // e.g. "mla.q_a_proj", "indexer.scan", "experts.grouped_gemm"
  const char* category = "";
  double flops = 0;
  double bytes = 0;  // HBM bytes read + written
  double time_us = 0;
  double count = 1;  // how many times the op is included (e.g. layers)
  bool compute_bound = false;
  bool out_of_range = false;  // efficiency looked up outside the profile's measured range
};

struct StepCost {
  std::vector<OpCost> ops;
  void add(OpCost op) { ops.push_back(std::move(op)); }
  void append(const StepCost& other, double times = 1.0);  // ops scaled by `times`
  double total_us() const;                                 // Σ time_us × count
  double category_us(std::string_view category) const;
};

}  // namespace pdsim
