#pragma once
// What the decode cost model sees of one DP-attention rank: the KV length of each running
// request, and a version that changes whenever the set of requests changes.
#include <cstdint>
#include <vector>

namespace pdsim {

struct RankState {
  std::vector<int> contexts;  // KV length of each running request
  uint64_t version = 0;       // changes whenever the set of requests changes
};

}  // namespace pdsim
