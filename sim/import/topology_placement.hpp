#pragma once
// `pdsim import topology`: AWS describe-instance-topology output → cluster placement, i.e.
// which instances share a network node at each layer (docs/placement.md). The file is read by
// the calibrate importer "aws-topology" (calibrate/parse_aws_topology.cpp); this turns its rows
// into the placement document.
//
// Layers are numbered from the top (1) down, as AWS lists NetworkNodes. Two instances "share
// layer L" when their first L network nodes are equal; `shared_layers[i][j]` is the deepest
// such L (0: not even the top node; the diagonal is the instance's own depth). Instances with
// no network nodes (stopped) are listed under "unplaced" with the reason. "scenario_cluster" is
// what a serving scenario takes to use this placement (cluster.topology_file: the AWS file
// itself; the scenario's nodes are the placed instances in order, prefill nodes first).
#include <string>

#include "sim/core/json_reader.hpp"

namespace pdsim {

// `text` is the file's content; `file` names it in errors and in "source".
Json placement_from_aws_topology(const std::string& text, const std::string& file);

}  // namespace pdsim
