// libFuzzer target for one importer (PDSIM_FUZZ_FORMAT, set per target by run_fuzz.sh): any
// input must either parse or raise InputError — never crash, hang or throw anything else.
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
    importer->parse(text, "fuzz-input");
  } catch (const pdsim::InputError&) {
  }
  return 0;
}
