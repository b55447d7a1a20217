#include "sim/scenario/no_effect.hpp"

#include <algorithm>

namespace pdsim {

std::vector<std::string> no_effect_warnings(const Scenario& s) {
  std::vector<std::string> out = s.tail.no_effect("tail");
  for (const auto& w : s.file_warnings)
    if (std::find(out.begin(), out.end(), w) == out.end()) out.push_back(w);
  const auto& spec = s.decode.speculative;
  if (!spec.enabled())
    for (auto& m : fields_without_effect(write_fields(spec), write_fields(SpeculativeConfig{}),
                                         "decode.speculative", {"algorithm"},
                                         "decode.speculative.algorithm is \"none\""))
      out.push_back(std::move(m));
  if (s.prefill.kv_protocol != "tcp" &&
      s.prefill.kv_tcp_transport != PrefillConfig{}.kv_tcp_transport)
    out.push_back("prefill.kv_tcp_transport = \"" + s.prefill.kv_tcp_transport +
                  "\" has no effect: prefill.kv_protocol is \"" + s.prefill.kv_protocol + "\"");
  if (s.fabric.fidelity != "packet" && s.fabric.packet_samples != FabricConfig{}.packet_samples)
    out.push_back("fabric.packet_samples = " + std::to_string(s.fabric.packet_samples) +
                  " has no effect: fabric.fidelity is \"" + s.fabric.fidelity + "\"");
  return out;
}

}  // namespace pdsim
