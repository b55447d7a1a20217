#pragma once
// The summary's "elastic" block (summary.json pdsim.elastic, only when instances join): for each
// join (cost/elastic_joins.hpp: when it joined, its cold start, when it served), TTFT and ITL of
// the requests that arrived before the join, while the instance was joining, and once it served,
// and how many requests the joined instance took.
#include <vector>

#include "sim/core/json_reader.hpp"
#include "sim/serve/cost/deployment.hpp"
#include "sim/serve/entities/request.hpp"

namespace pdsim {

Json elastic_summary(const Deployment& d, const std::vector<Request>& requests);

}  // namespace pdsim
