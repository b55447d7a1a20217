#include "sim/import/fabric_env.hpp"

#include "sim/core/error.hpp"
#include "sim/core/excerpt.hpp"

namespace pdsim {
namespace {

const char* const kTransport = "NVSHMEM_REMOTE_TRANSPORT";
const char* const kIbgda = "NVSHMEM_IB_ENABLE_IBGDA";
const char* const kMooncake = "MOONCAKE_PROTOCOL";
const char* const kForceTcp = "MC_FORCE_TCP";

const std::string* find(const RoleEnv& r, const char* var) {
  auto it = r.env->find(var);
  return it == r.env->end() ? nullptr : &it->second;
}

// The all-to-all backend a role's NVSHMEM settings select ("" when they select none).
std::string a2a_backend(const RoleEnv& r) {
  const std::string* t = find(r, kTransport);
  const std::string* g = find(r, kIbgda);
  if (g && *g != "0" && *g != "1")
    throw InputError(r.what, kIbgda, "0 or 1, got \"" + excerpt(*g) + "\"");
  if (t && *t == "libfabric") {
    if (g && *g == "1")
      throw InputError(r.what, kIbgda,
                       "0 with NVSHMEM_REMOTE_TRANSPORT=libfabric (EFA has no IBGDA)");
    return "nvshmem-proxy";
  }
  if (g && *g == "1") {
    if (t && *t != "ibrc")
      throw InputError(r.what, kTransport,
                       "\"ibrc\" (or unset) with IBGDA, got \"" + excerpt(*t) + "\"");
    return "ibgda";
  }
  if (!t) return "";
  throw InputError(r.what, kTransport,
                   "\"libfabric\" (DeepEP through NVSHMEM's libfabric proxy on EFA: backend "
                   "nvshmem-proxy), or NVSHMEM_IB_ENABLE_IBGDA=1 (GPU-initiated: backend ibgda), "
                   "the transports pdsim models; got \"" +
                       excerpt(*t) + "\" (its CPU proxy over verbs has no model)");
}

void check_mooncake(const RoleEnv& r) {
  if (const std::string* f = find(r, kForceTcp); f && *f != "0" && *f != "false")
    throw InputError(r.what, kForceTcp,
                     "0 or unset: Mooncake's TCP transport (the KV cache over the hosts' TCP "
                     "stack) has no model in pdsim yet, so nothing is imported");
  const std::string* m = find(r, kMooncake);
  if (!m || *m == "rdma" || *m == "efa") return;
  if (*m == "tcp")
    throw InputError(r.what, kMooncake,
                     "\"rdma\" or \"efa\": Mooncake's TCP transport (the KV cache over the "
                     "hosts' TCP stack) has no model in pdsim yet, so nothing is imported");
  throw InputError(r.what, kMooncake, "\"rdma\", \"efa\" or \"tcp\", got \"" + excerpt(*m) + "\"");
}

}  // namespace

bool is_fabric_env(const std::string& var) {
  return var == kTransport || var == kIbgda || var == kMooncake || var == kForceTcp;
}

Json import_fabric_env(const RoleEnv& prefill, const RoleEnv& decode) {
  check_mooncake(prefill);
  check_mooncake(decode);
  // pdsim has one all-to-all backend per scenario: both roles that run DeepEP must agree.
  std::string chosen;
  const RoleEnv* chosen_by = nullptr;
  for (const RoleEnv* r : {&prefill, &decode}) {
    const std::string b = a2a_backend(*r);
    if (b.empty() || !r->deepep) continue;
    if (chosen_by && b != chosen)
      throw InputError(r->what, kTransport,
                       "the same NVSHMEM transport as " + chosen_by->what + " (" + chosen +
                           "): pdsim runs one all-to-all backend per scenario, got " + b);
    chosen = b;
    chosen_by = r;
  }
  Json out = Json::object();
  if (!chosen.empty()) out["a2a_backend"] = chosen;
  return out;
}

}  // namespace pdsim
