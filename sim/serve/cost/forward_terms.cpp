#include "sim/serve/cost/forward_terms.hpp"

namespace pdsim {

double ForwardTerms::total_us() const {
  return attention_us + moe_compute_us + dispatch_us + combine_us + collective_us + draft_us +
         other_us + launch_us + scheduler_us + host_us;
}

void ForwardTerms::add(const ForwardTerms& o) {
  attention_us += o.attention_us;
  moe_compute_us += o.moe_compute_us;
  dispatch_us += o.dispatch_us;
  combine_us += o.combine_us;
  collective_us += o.collective_us;
  draft_us += o.draft_us;
  other_us += o.other_us;
  launch_us += o.launch_us;
  scheduler_us += o.scheduler_us;
  host_us += o.host_us;
}

std::map<std::string, double> ForwardTerms::named() const {
  return {{"attention", attention_us},   {"moe_compute", moe_compute_us},
          {"dispatch", dispatch_us},     {"combine", combine_us},
          {"collective", collective_us}, {"draft", draft_us},
          {"other", other_us},           {"launch", launch_us},
          {"scheduler", scheduler_us},   {"host", host_us}};
}

}  // namespace pdsim
