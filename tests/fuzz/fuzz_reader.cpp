// libFuzzer target for the readers of issue 31's newer surfaces, one per build
// (-DPDSIM_FUZZ_READER=...): "validation_set" (load_validation_set), "sweep_spec" (load_sweep),
// "overlay" (profile_overlay_from_json, the reader of `--profile-overlay` and fit blocks'
// home) and "experiment" (parse_experiment, `pdsim fabric`). The file readers get the input as a
// file in a private directory, so relative names in it resolve there. Any input must end in a
// value or an InputError / InfeasibleError: never a crash, a hang or another exception.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "sim/core/bounded_json.hpp"
#include "sim/core/error.hpp"

#if defined(PDSIM_FUZZ_VALIDATION_SET)
#include "sim/fit/validation_set.hpp"
#elif defined(PDSIM_FUZZ_SWEEP_SPEC)
#include "sim/sweep/sweep_spec.hpp"
#elif defined(PDSIM_FUZZ_OVERLAY)
#include "sim/serve/cost/profile_overlay.hpp"
#else
#include "sim/packet/experiment_reader.hpp"
#endif

namespace {
std::string dir;
}

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  ::setenv("PDSIM_DATA_DIR", PDSIM_SOURCE_DIR, /*overwrite=*/0);
  dir = (std::filesystem::temp_directory_path() / ("pdsim_fuzz_" + std::to_string(::getpid())))
            .string();
  std::filesystem::create_directories(dir);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string file = dir + "/input.json";
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
#if defined(PDSIM_FUZZ_VALIDATION_SET) || defined(PDSIM_FUZZ_SWEEP_SPEC)
    std::ofstream(file, std::ios::binary | std::ios::trunc) << text;
#endif
#if defined(PDSIM_FUZZ_VALIDATION_SET)
    (void)pdsim::load_validation_set(file);
#elif defined(PDSIM_FUZZ_SWEEP_SPEC)
    const pdsim::SweepSpec s = pdsim::load_sweep(file);
    (void)s.base.dump(2, ' ', false, pdsim::Json::error_handler_t::strict);
#elif defined(PDSIM_FUZZ_OVERLAY)
    const auto o = pdsim::profile_overlay_from_json(pdsim::parse_json(text, file), file);
    (void)o.doc.dump(2, ' ', false, pdsim::Json::error_handler_t::strict);
#else
    (void)pdsim::packet::parse_experiment(
        pdsim::JsonNode::from_json(pdsim::parse_json(text, file), file));
#endif
  } catch (const pdsim::InputError&) {
  } catch (const pdsim::InfeasibleError&) {
  }
  return 0;
}
