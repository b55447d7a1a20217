#pragma once
// Where a deployment stands, as the calibration corpus records it: the facts that decide which
// measured runs speak for a prediction. Categorical coordinates (model, platform, serving stack,
// fabric, each role's layout and MoE path, NICs per GPU of the all-to-all, KV transport,
// speculative decoding) must match a measured run's exactly; numeric ones (client concurrency,
// input and output length, decode requests per rank) must lie within the range of the matching
// runs. Derived from the resolved deployment, so a --set or an import changes them as it changes
// the simulation.
#include <string>
#include <vector>

#include "sim/core/json_reader.hpp"
#include "sim/serve/cost/deployment.hpp"

namespace pdsim {

struct Coordinate {
  std::string key;    // stable id, e.g. "decode.layout"
  std::string label;  // for people, e.g. "decode layout"
  bool numeric = false;
  std::string text;           // categorical value
  double number = 0;          // numeric value
  std::string value() const;  // the value as printed
};

using Coordinates = std::vector<Coordinate>;

// How a prediction differs from measured runs on one coordinate (envelope.hpp).
struct CoordinateGap {
  std::string key, label, value, measured;  // measured: the values or range the runs cover
};

Coordinates deployment_coordinates(const Deployment& d);
// Every coordinate's key, in deployment_coordinates' order.
std::vector<std::string> coordinate_keys();

// {"key": value, ...}: strings for categorical, numbers for numeric ones, in declaration order.
Json coordinates_json(const Coordinates& c);
// The inverse, for the corpus file; InputError naming `file` and `path` for an unknown key or a
// value of the wrong kind.
Coordinates coordinates_from_json(const JsonNode& n);

}  // namespace pdsim
