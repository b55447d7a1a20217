#pragma once
// The "provenance" object every catalog, profile, overlay, measurement and validation set (and a
// scenario's tail mechanisms and acceptance override) carries. Free-form — each tool records
// what it knows — but its well-known members are text, so a number for "source" or "note" is a
// mistake, not a record: kind, source, note, tool, reference, via, command, host, machine, code,
// date, method, cluster, instance, gpu, driver, cuda, libfabric, nccl must be strings.
#include "sim/core/json_reader.hpp"

namespace pdsim {

// `n` is the provenance member itself: an object whose well-known members are strings, else
// one InputError naming the member. Returns the object verbatim.
Json read_provenance(const JsonNode& n);

}  // namespace pdsim
