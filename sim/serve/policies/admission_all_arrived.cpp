// Admission `all-arrived` (tail.batch_jumps on): every request whose KV arrived joins at the next
// iteration boundary, as SGLang's decode scheduler takes every prealloc-ready request.
#include "sim/serve/policies/admission_policy.hpp"

namespace pdsim {
namespace {

class AllArrived final : public AdmissionPolicy {
 public:
  std::vector<int> admit(std::vector<int>& arrived, const std::vector<Request>&) override {
    std::vector<int> join;
    join.swap(arrived);
    return join;
  }
};

}  // namespace
}  // namespace pdsim

PDSIM_REGISTER(
    pdsim::AdmissionPolicyRegistry, "all-arrived",
    "every request whose KV arrived joins at the next iteration (tail.batch_jumps: true)",
    [](int) { return std::make_unique<pdsim::AllArrived>(); })
