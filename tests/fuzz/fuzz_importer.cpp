// libFuzzer target for one importer (PDSIM_FUZZ_FORMAT, set per target by run_fuzz.sh): any
// input must either parse and serialize, or raise InputError — never crash, hang or throw
// anything else. The dump is what `pdsim calibrate import` does next (doc.dump(2), strict UTF-8
// handling): a document that parses but cannot be written (a depth bomb overflowing the
// recursive dump, a non-UTF-8 token) is a bug the parse alone would not show.
#include <cstddef>
#include <cstdint>
#include <string>

#include "calibrate/measurement.hpp"
#include "sim/core/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const auto importer =
      pdsim::MeasurementImporterRegistry::instance().create(PDSIM_FUZZ_FORMAT, "fuzz", "format");
  std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const pdsim::Json doc = importer->parse(text, "fuzz-input");
    (void)doc.dump(2, ' ', false, pdsim::Json::error_handler_t::strict);
  } catch (const pdsim::InputError&) {
  }
  return 0;
}
