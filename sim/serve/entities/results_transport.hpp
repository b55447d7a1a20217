#pragma once
// SimResults across the worker-process boundary (sim/core/process_pool carries CBOR). The
// per-chunk arrays, 10^6 numbers at the reference scale, travel as one CBOR byte string of raw
// doubles and ints: as 10^6 JSON numbers written, encoded, parsed and checked one by one they
// were about a third of a reference run's CPU. Everything else is the declared fields
// (SimResults::declare), read back with their checks.
#include "sim/serve/entities/results.hpp"

namespace pdsim {

// By value: the chunk arrays are moved into the byte string.
Json results_to_transport(SimResults r);
// Every chunk time finite and within ±kMaxTimeS, every token count in [0, 2^30], the byte
// string exactly as long as its counts say; else an InputError naming "simulation results" and
// the request's field.
SimResults results_from_transport(Json j);

}  // namespace pdsim
