#pragma once
// Queue-pair settings of the library that owns a fabric's QPs (models/catalog/qp_library): what a
// lost packet costs depends on them, not on the fabric alone. RC (RoCE / InfiniBand): the local
// ACK timeout 4.096 µs × 2^t and the retry count, set in the library's code when it moves the QP
// to RTS; SRD (EFA): retransmission lives in the Nitro card and the library sets no timeout.
#include <string>

#include "sim/core/json_reader.hpp"

namespace pdsim {

struct QpLibrary {
  std::string name;          // "nvshmem-ibgda"
  std::string transport;     // "rc" or "srd"
  int timeout_exponent = 0;  // rc: t of 4.096 µs × 2^t
  int retry_count = 0;       // rc: retries after the first timeout before the QP errors
  std::string on_qp_error;   // what the library does then (fatal, slice re-dispatch, ...)
  Json provenance;
  double ack_timeout_us() const;  // rc: 4.096 µs × 2^t
};

QpLibrary load_qp_library(const std::string& name_or_path, const std::string& from_file = "",
                          const std::string& field = "qp_library");

}  // namespace pdsim
