// libFuzzer target for the scenario reader: the input is a scenario file's content, taken
// through the path `pdsim run` takes — parse_json (bounded) → JsonNode → parse_scenario →
// build_deployment (catalogs and profiles from the source tree) — and both documents it yields
// are serialized as pdsim writes them. Any input must end in a deployment, an InputError or an
// InfeasibleError: never a crash, a hang or another exception.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "sim/core/bounded_json.hpp"
#include "sim/core/error.hpp"
#include "sim/scenario/scenario.hpp"
#include "sim/serve/cost/deployment.hpp"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  ::setenv("PDSIM_DATA_DIR", PDSIM_SOURCE_DIR, /*overwrite=*/0);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string file = "fuzz-scenario.json";
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const pdsim::Scenario s =
        pdsim::parse_scenario(pdsim::JsonNode::from_json(pdsim::parse_json(text, file), file));
    (void)s.resolved_json().dump(2, ' ', false, pdsim::Json::error_handler_t::strict);
    const pdsim::Deployment d = pdsim::build_deployment(s);
    (void)d.profiles.dump(2, ' ', false, pdsim::Json::error_handler_t::strict);
  } catch (const pdsim::InputError&) {
  } catch (const pdsim::InfeasibleError&) {
  }
  return 0;
}
