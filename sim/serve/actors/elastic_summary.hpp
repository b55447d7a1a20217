#pragma once
// The summary's "elastic" block (summary.json pdsim.elastic, only when instances join or leave):
// for each join, scheduled (cost/elastic_joins.hpp) or started by the autoscaling rule
// (elastic_router.hpp) — when it joined, its cold start, when it served — TTFT and ITL of the
// requests that arrived before the join, while the instance was joining, and once it served; for
// each leave, when the instance had drained and TTFT and ITL before and after; and how many
// requests each instance took.
#include <vector>

#include "sim/core/json_reader.hpp"
#include "sim/serve/cost/deployment.hpp"
#include "sim/serve/entities/request.hpp"

namespace pdsim {

Json elastic_summary(const Deployment& d, const Json& autoscale_joins,
                     const std::vector<Request>& requests);

}  // namespace pdsim
