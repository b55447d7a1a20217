#pragma once
// `--shard i/N`: splits a sweep over N machines. Point p belongs to shard p mod N (0-based i),
// so every point is in exactly one shard, neighbouring (similar-cost) points are spread evenly,
// and the assignment depends only on the point index.
#include <string>

namespace pdsim {

struct Shard {
  int index = 0, count = 1;
  bool contains(int point) const { return point % count == index; }
  std::string suffix() const;  // "" for 0/1, else ".shard-<i>-of-<N>"
};

// "i/N" with 0 ≤ i < N; anything else is an InputError naming --shard.
Shard parse_shard(const std::string& text);

}  // namespace pdsim
