#pragma once
// What each tail mechanism added to one decode iteration (µs), recorded for attribution
// (tail_log.hpp). Each value is the iteration's time minus what it would have been with that
// mechanism alone switched off, as the cost model computes it; none is a noise term.
// Mechanisms are the registered entries of TailMechanismRegistry (tail_mechanism.hpp); a
// mechanism's slot is its position in their name order, so adding one is a registration, not an
// edit here.
#include <array>
#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace pdsim {

using MechanismId = size_t;

// Every registered mechanism, in name order (the slot order of MechanismTerms).
const std::vector<std::string>& mechanism_names();
// The slot of a registered mechanism; std::logic_error for a name nobody registered.
MechanismId mechanism_id(std::string_view name);

class MechanismTerms {
 public:
  static constexpr size_t kMaxMechanisms = 16;

  double& operator[](MechanismId id) { return us_[id]; }
  double operator[](MechanismId id) const { return us_[id]; }
  double& operator[](std::string_view name) { return us_[mechanism_id(name)]; }
  double operator[](std::string_view name) const { return us_[mechanism_id(name)]; }
  std::map<std::string, double> named() const;  // every registered mechanism by name

  int admitted = 0;       // requests that joined at this iteration's start
  int loaded_phases = 0;  // a2a phase pairs that saw a background flow

 private:
  std::array<double, kMaxMechanisms> us_{};
};

}  // namespace pdsim
