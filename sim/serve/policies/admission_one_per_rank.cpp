// Admission `one-per-rank` (tail.batch_jumps off): at most one new request per DP rank per
// iteration, so batches grow smoothly; the others wait for the next boundary.
#include <algorithm>

#include "sim/serve/policies/admission_policy.hpp"

namespace pdsim {
namespace {

class OnePerRank final : public AdmissionPolicy {
 public:
  explicit OnePerRank(int ranks) : joined_(static_cast<size_t>(ranks), 0) {}
  std::vector<int> admit(std::vector<int>& arrived, const std::vector<Request>& requests) override {
    std::fill(joined_.begin(), joined_.end(), 0);
    std::vector<int> join, wait;
    for (int id : arrived) {
      char& j = joined_[static_cast<size_t>(requests[static_cast<size_t>(id)].rec.decode_rank)];
      (j ? wait : join).push_back(id);
      j = 1;
    }
    arrived = std::move(wait);
    return join;
  }

 private:
  std::vector<char> joined_;
};

}  // namespace
}  // namespace pdsim

PDSIM_REGISTER(pdsim::AdmissionPolicyRegistry, "one-per-rank",
               "at most one new request per DP rank per iteration (tail.batch_jumps: false)",
               [](int ranks) { return std::make_unique<pdsim::OnePerRank>(ranks); })
