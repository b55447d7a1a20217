// Test input of the ctest `layers_includes_catches_violation`: the models layer including the
// serving layer above it, which cmake/CheckLayers.cmake must reject.
#include "sim/serve/actors/simulation.hpp"
