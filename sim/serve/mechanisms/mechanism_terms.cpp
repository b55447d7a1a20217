#include "sim/serve/mechanisms/mechanism_terms.hpp"

#include <algorithm>
#include <stdexcept>

#include "sim/serve/mechanisms/tail_mechanism.hpp"

namespace pdsim {

const std::vector<std::string>& mechanism_names() {
  // Built at first use, after every static registration has run.
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n;
    for (const auto& e : TailMechanismRegistry::instance().entries()) n.push_back(e.name);
    if (n.size() > MechanismTerms::kMaxMechanisms)
      throw std::logic_error("more tail mechanisms registered than MechanismTerms holds");
    return n;  // entries() is in name order
  }();
  return names;
}

MechanismId mechanism_id(std::string_view name) {
  const auto& n = mechanism_names();
  const auto it = std::find(n.begin(), n.end(), name);
  if (it == n.end()) throw std::logic_error("no tail mechanism named '" + std::string(name) + "'");
  return static_cast<MechanismId>(it - n.begin());
}

std::map<std::string, double> MechanismTerms::named() const {
  std::map<std::string, double> m;
  const auto& n = mechanism_names();
  for (size_t k = 0; k < n.size(); ++k) m[n[k]] = us_[k];
  return m;
}

}  // namespace pdsim
