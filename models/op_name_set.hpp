#pragma once
// A set of op names (OpCost::name, string literals) that is cheap to add the same name to again:
// a pointer comparison over the few names already seen, and a string only for a new one. The
// cost models note the ops costed outside the GPU profile's measured range on every prefill
// chunk and rank refresh, almost always the same handful.
#include <set>
#include <string>
#include <vector>

namespace pdsim {

class OpNameSet {
 public:
  void insert(const char* name) {
    for (const char* p : seen_)
      if (p == name) return;
    seen_.push_back(name);
    names_.insert(name);  // the same literal may sit at two addresses (two translation units)
  }
  const std::set<std::string>& names() const { return names_; }

 private:
  std::vector<const char*> seen_;
  std::set<std::string> names_;
};

}  // namespace pdsim
