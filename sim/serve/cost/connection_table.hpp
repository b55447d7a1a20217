#pragma once
// The connection table of a deployment: for each library in play — the decode all-to-all, the
// prefill all-to-all when its experts span nodes, the KV transfer, the pipeline stages' NCCL
// send/recv — which catalog entry (models/catalog/connection_library) describes it on this
// fabric, the group it connects, and its object counts per rank, NIC and host
// (models/connection_count.hpp), and what a node join costs it (models/connection_setup.hpp).
// A library in play without a catalog entry is a row that says so, never a silent gap.
#include <optional>
#include <string>
#include <vector>

#include "models/connection_count.hpp"
#include "models/connection_setup.hpp"
#include "sim/serve/cost/deployment.hpp"

namespace pdsim {

struct ConnectionRow {
  std::string purpose;  // "decode all-to-all", "prefill all-to-all", "KV transfer", "PP send/recv"
  std::string side;     // "decode" or "prefill": whose hosts the counts are for
  std::string library;  // catalog name, or what runs when there is no entry
  int hosts = 0;        // hosts of this side holding these objects
  std::optional<ConnectionLibrary> lib;  // nullopt: not in the catalog (`missing` says why)
  std::string missing;
  ConnGroup group;
  ConnCounts counts;
  ConnSetupTimes setup;                // cold start and node join (connection_setup.hpp)
  std::optional<ConnectionSetup> nic;  // the NIC family's figures (limits, context cache)
  // A node joining adds peers to this group; false for pipeline stages (a new instance brings
  // its own pipeline) and for what has no catalog entry.
  bool join_applies = true;
};

std::vector<ConnectionRow> connection_table(const Deployment& d);

}  // namespace pdsim
