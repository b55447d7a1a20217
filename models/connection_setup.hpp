#pragma once
// What creating connection state costs in time (models/catalog/connection_setup): per object
// kind on one NIC family, a published figure with its conditions, or none ("no published
// figure": the time is then unknown and printed as such, never guessed). From those and a
// library's counts (connection_count.hpp): the cold start of one host, and what a node joining
// the group costs the ranks already there.
//   cold start: the objects a rank creates at init (eager libraries), one after another in the
//     rank's process, ranks in parallel: time = sum over kinds of per-rank count x cost. Lazy
//     libraries create theirs on first use: their cost lands on the first requests, not here.
//   node join, global_reinit (NVSHMEM, UCCL-EP): every rank of the group tears down and rebuilds
//     all of its objects: the cold start again on every host of the group, serving stopped.
//   node join, new_communicator (NCCL): the ranks build a new communicator; connections follow
//     lazily on first use.
//   node join, incremental (Mooncake): the ranks already there add objects toward the new host's
//     ranks on their first transfer to it; nothing else changes.
#include <string>
#include <vector>

#include "models/connection_count.hpp"
#include "sim/core/json_reader.hpp"

namespace pdsim {

struct ConnCost {
  std::string kind;
  std::string library;  // "" = any library on this NIC; else this library's own figure
  bool known = false;
  double us = 0;       // per object, when known
  std::string source;  // the figure's source and conditions, or why there is none
};

struct ConnectionSetup {
  std::string name, nic;  // "connectx-7", "efa"
  std::vector<ConnCost> costs;
  int qp_limit_per_nic = 0;  // a published cap on QPs per NIC (0: none published)
  std::string qp_limit_source;
  // A published measurement of how the NIC slows as QPs per NIC grow (its context cache), in
  // words with its conditions; pdsim's timings do not apply it (off: one figure, one workload).
  std::string context_cache;
  Json provenance;
  // The library's own figure for `kind` when listed, else the NIC's; nullptr: neither.
  const ConnCost* cost(const std::string& kind, const std::string& library) const;
};

ConnectionSetup load_connection_setup(const std::string& name_or_path,
                                      const std::string& from_file = "",
                                      const std::string& field = "connection_setup");

struct ConnSetupTimes {
  bool cold_known = false;   // every kind has a figure (else cold_start_us is a lower bound)
  double cold_start_us = 0;  // one host's eager objects (0 for a lazy library)
  std::vector<std::string> unknown_kinds;  // kinds without a published cost
  bool peer_known = false;
  double peer_connect_us = 0;        // one rank's objects toward one new peer rank (lazy: on the
                                     // first transfer to it), a lower bound unless peer_known
  double join_objects_per_host = 0;  // objects a host already in the group creates for a join
  bool join_known = false;
  double join_us = 0;     // its time (global_reinit: the cold start; else lazy, 0 now)
  std::string join_what;  // in words
};

// `new_host_ranks`: ranks the joining host adds to the group (its GPUs).
ConnSetupTimes setup_times(const ConnectionLibrary& lib, const ConnCounts& counts,
                           const ConnGroup& g, const ConnectionSetup& costs, int new_host_ranks);

}  // namespace pdsim
