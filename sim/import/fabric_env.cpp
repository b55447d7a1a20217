#include "sim/import/fabric_env.hpp"

#include <cctype>

#include "sim/core/error.hpp"
#include "sim/core/excerpt.hpp"

namespace pdsim {
namespace {

const char* const kTransport = "NVSHMEM_REMOTE_TRANSPORT";
const char* const kIbgda = "NVSHMEM_IB_ENABLE_IBGDA";
const char* const kMooncake = "MOONCAKE_PROTOCOL";
const char* const kForceTcp = "MC_FORCE_TCP";
const char* const kNcclNet = "NCCL_NET";
// NCCL's algorithm and protocol overrides: the collective profiles were fitted to nccl-tests
// runs under NCCL's own choice (tuner), so a forced one is noted, not modelled.
const char* const kNcclForced[] = {"NCCL_ALGO", "NCCL_PROTO"};

// Environment values are matched case-insensitively, as the libraries read them.
std::string lowered(std::string v) {
  for (char& c : v) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return v;
}

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

// The KV protocol a role's Mooncake settings select: "tcp", "rdma", or "" (not set).
std::string mooncake_protocol(const RoleEnv& r) {
  if (const std::string* f = find(r, kForceTcp)) {
    if (*f != "0" && *f != "false" && *f != "1" && *f != "true")
      throw InputError(r.what, kForceTcp, "0, 1, true or false, got \"" + excerpt(*f) + "\"");
    if (*f == "1" || *f == "true") return "tcp";
  }
  const std::string* m = find(r, kMooncake);
  if (!m) return "";
  const std::string v = lowered(*m);
  if (v == "rdma" || v == "efa") return "rdma";
  if (v == "tcp") return "tcp";
  throw InputError(r.what, kMooncake, "\"rdma\", \"efa\" or \"tcp\", got \"" + excerpt(*m) + "\"");
}

}  // namespace

bool is_fabric_env(const std::string& var) {
  for (const char* v : kNcclForced)
    if (var == v) return true;
  return var == kTransport || var == kIbgda || var == kMooncake || var == kForceTcp ||
         var == kNcclNet;
}

std::vector<std::string> collective_env_notes(const RoleEnv& r) {
  if (const std::string* n = find(r, kNcclNet)) {
    if (lowered(*n) == "socket")
      throw InputError(r.what, kNcclNet,
                       "a network plugin or NCCL's IB transport (NCCL_NET=Socket runs the "
                       "collectives over TCP sockets, which no collective profile models)");
  }
  std::vector<std::string> notes;
  for (const char* v : kNcclForced)
    if (const std::string* x = find(r, v))
      notes.push_back(std::string(v) + "=" + excerpt(*x) +
                      " recorded: the collective profiles were fitted under NCCL's own algorithm "
                      "and protocol choice, which pdsim keeps");
  return notes;
}

Json import_fabric_env(const RoleEnv& prefill, const RoleEnv& decode) {
  // Both roles' values are checked; the decode's choice is fabric.a2a_backend, the prefill's is
  // prefill.a2a_backend when it differs (import_prefill_a2a_backend).
  a2a_backend(prefill);
  const std::string d = a2a_backend(decode);
  Json out = Json::object();
  if (decode.deepep && !d.empty()) out["a2a_backend"] = d;
  return out;
}

std::string import_prefill_a2a_backend(const RoleEnv& prefill, const RoleEnv& decode) {
  if (!prefill.deepep) return "";
  const std::string p = a2a_backend(prefill);
  if (p.empty()) return "";
  return decode.deepep && a2a_backend(decode) == p ? "" : p;
}

std::string import_kv_protocol(const RoleEnv& prefill, const RoleEnv& decode) {
  const std::string p = mooncake_protocol(prefill), d = mooncake_protocol(decode);
  if (!p.empty() && !d.empty() && p != d)
    throw InputError(decode.what, d == "tcp" && find(decode, kForceTcp) ? kForceTcp : kMooncake,
                     "the prefill's KV protocol (" + p +
                         "): Mooncake's two ends must speak the "
                         "same transport, got " +
                         d);
  return p.empty() ? d : p;
}

}  // namespace pdsim
