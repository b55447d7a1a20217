#pragma once
// Environment variables of the SGLang servers that choose the fabric libraries, read by
// `pdsim import sglang` from the `VAR=value` words before each launch line:
//   NVSHMEM_REMOTE_TRANSPORT=libfabric (with --moe-a2a-backend deepep): DeepEP's all-to-all goes
//     through NVSHMEM's libfabric proxy → fabric.a2a_backend "nvshmem-proxy";
//   NVSHMEM_IB_ENABLE_IBGDA=1 (over the ibrc transport): GPU-initiated → "ibgda";
//   MOONCAKE_PROTOCOL: "rdma" or "efa" → prefill.kv_protocol "rdma", "tcp" (Mooncake's TCP
//     transport, also its silent fallback) → "tcp" (the field's own import reads the prefill's);
//   MC_FORCE_TCP=1 (Mooncake transfer engine: TCP even with RDMA devices; transfer_engine_impl.cpp
//     at 3b5a5941 L209-218, and what newer SGLang's --disaggregation-transfer-backend mooncake_tcp
//     sets) → "tcp".
//   NCCL_NET=Socket (NCCL's collectives over TCP sockets) is refused: no collective profile
//     models it; NCCL_ALGO / NCCL_PROTO are recorded with a note (the collective profiles were
//     fitted under NCCL's own choice).
// Each role that runs DeepEP has its own mechanism: the decode's is fabric.a2a_backend, the
// prefill's is prefill.a2a_backend when it differs from the decode's (DeepEP over NVSHMEM on the
// prefill, UCCL-EP on the decode: the source's "DeepEP prefill + UCCL decode" split). Mooncake's
// settings must agree between the roles that give them. import_fabric_env returns the scenario's
// "fabric" section patch (empty when nothing applies).
#include <map>
#include <string>
#include <vector>

#include "sim/core/json_reader.hpp"

namespace pdsim {

struct RoleEnv {
  std::string what;  // "--prefill" / "--decode": names the command line in errors
  const std::map<std::string, std::string>* env = nullptr;
  bool deepep = false;  // the role runs --moe-a2a-backend deepep
};

// Whether `var` is one of the variables above (recorded, not listed as ignored).
bool is_fabric_env(const std::string& var);

// InputError (file = the role's command line, field = the variable) for a value pdsim does not
// model or roles that disagree.
Json import_fabric_env(const RoleEnv& prefill, const RoleEnv& decode);
// prefill.a2a_backend as the roles' NVSHMEM variables set it ("" = the decode's, fabric's).
std::string import_prefill_a2a_backend(const RoleEnv& prefill, const RoleEnv& decode);
// Notes on a role's NCCL variables; InputError for NCCL_NET=Socket.
std::vector<std::string> collective_env_notes(const RoleEnv& r);
// prefill.kv_protocol as the two roles' Mooncake variables set it ("" when neither does);
// InputError when they disagree.
std::string import_kv_protocol(const RoleEnv& prefill, const RoleEnv& decode);

}  // namespace pdsim
