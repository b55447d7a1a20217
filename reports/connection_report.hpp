#pragma once
// The connection table (sim/serve/cost/connection_table.hpp) as stdout text and as JSON: per
// library in play, objects per host and per NIC, their memory, the cold start and what a node
// joining costs, each figure's origin named (library source, mlx5-rule estimate, published
// figure, or none).
#include <string>
#include <vector>

#include "sim/core/json_reader.hpp"
#include "sim/serve/cost/connection_table.hpp"

namespace pdsim {

std::string connection_text(const std::vector<ConnectionRow>& rows, const std::string& title);
Json connection_json(const std::vector<ConnectionRow>& rows);
// One line per library and side, for `pdsim compare` (both deployments, one after the other).
std::string connection_brief(const std::vector<ConnectionRow>& rows, const std::string& name);

}  // namespace pdsim
