#include "sim/serve/cost/acceptance.hpp"

#include <cmath>

#include "sim/core/config_sections.hpp"

namespace pdsim {

AcceptanceModel::AcceptanceModel(const SpeculativeConfig& c, double accept_prob, bool variance)
    : enabled_(c.enabled()), steps_(c.num_steps), p_(accept_prob), variance_(variance) {}

int AcceptanceModel::sample_tokens(Rng& rng) const {
  if (!enabled_) return 1;
  int k = 1;
  for (int i = 0; i < steps_ && rng.bernoulli(p_); ++i) ++k;
  return k;
}

double AcceptanceModel::mean_tokens() const {
  if (!enabled_) return 1.0;
  double s = 0;
  for (int i = 0; i <= steps_; ++i) s += std::pow(p_, i);
  return s;
}

int AcceptanceModel::chunk_tokens(Rng& rng, double& carry) const {
  if (variance_) return sample_tokens(rng);
  carry += mean_tokens();
  const int n = static_cast<int>(std::floor(carry));
  carry -= n;
  return n;
}

}  // namespace pdsim

PDSIM_CONFIG_LEAF("tail", "acceptance_variance", bool, true,
                  pdsim::FieldSpec{.help = "accepted tokens drawn per request and step; off: "
                                           "every chunk carries the expected count (fractions "
                                           "carried)"})
