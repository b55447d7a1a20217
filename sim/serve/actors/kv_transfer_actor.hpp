#pragma once
// One KV transfer part: when a prefill PP stage finishes a request's last chunk it sends its
// layers' share of the request's KV cache from its node to the decode rank's node (a SimGrid flow
// capped by the transfer engine's rate at its block size, platform.hpp). When every stage's part
// has arrived, the request waits for admission on its decode instance.
#include "sim/serve/actors/prefill_chunk_timer.hpp"
#include "sim/serve/actors/serving_stats.hpp"
#include "sim/serve/actors/serving_world.hpp"

namespace pdsim {

class KvTransferActor {
 public:
  KvTransferActor(ServingWorld& w, const PrefillChunkTimer& timer, ServingStats& stats, int id,
                  int instance, int stage)
      : w_(w), timer_(timer), stats_(stats), id_(id), pi_(instance), stage_(stage) {}
  void operator()();

 private:
  ServingWorld& w_;
  const PrefillChunkTimer& timer_;  // the stage's share of layers
  ServingStats& stats_;
  int id_, pi_, stage_;
};

}  // namespace pdsim
