#pragma once
// What the collectives of one forward cost (models/layer_comms.hpp lists them): a group inside one
// node runs NCCL's ring over NVLink (sim/fabric/transfers.hpp), a group across nodes costs what
// the scenario's collective profile (fabric.collective_profile, fitted to nccl-tests) predicts.
// All-to-all ops are the MoE backend's, costed elsewhere, and skipped here.
//
// A ring all-reduce is a reduce-scatter then an all-gather of the same buffer, so where a profile
// has no all_gather or reduce_scatter curve, either op on a total buffer S is costed as half an
// all-reduce of S (by default; the profile's estimated_alpha_fraction). That is an estimate, not
// a measurement: each such use is counted in stats() ("estimated_from_all_reduce"), as is every
// prediction outside what the profile measured. Every cross-node call adds the profile's
// serving_call_us (0 unless an overlay fitted to serving runs sets it).
#include <map>
#include <optional>
#include <set>
#include <string>

#include "models/layer_comms.hpp"
#include "sim/core/json_reader.hpp"
#include "sim/fabric/collective_profile.hpp"
#include "sim/fabric/fabric_profile.hpp"

namespace pdsim {

class CollectiveCost {
 public:
  // `cross_node` null: a cross-node op is an InfeasibleError (the deployment checks first).
  CollectiveCost(const FabricProfile& fabric, const CollectiveProfile* cross_node,
                 int gpus_per_node);
  double op_us(const CommOp& op);            // one call of `op`
  double forward_us(const ForwardComms& f);  // Σ count × op_us, all-to-alls excluded
  // Ops costed by kind, estimates, predictions outside the profile, and the profile's RMS
  // relative error over the cross-node calls costed (time-weighted): how far its fit alone
  // leaves the collective term uncertain.
  Json stats() const;

 private:
  const FabricProfile& fabric_;
  const CollectiveProfile* profile_;
  int gpus_per_node_;
  std::map<std::string, long> calls_;          // "all_reduce nvlink 8 ranks", ...: ops costed (the
                                               // callers memoise, so each distinct forward once)
  std::set<std::string> estimated_, outside_;  // outside_: the first kOutsideKept reasons
  long outside_calls_ = 0;
  double weighted_time_us_ = 0, weighted_error_us_ = 0;  // cross-node calls, for the RMS error
  static constexpr size_t kOutsideKept = 6;
};

}  // namespace pdsim
