#!/usr/bin/env python3
"""RC vs SRD connection state of the reference stack at 4, 16 and 64 nodes (issue 29's what-if).

The reference deployment (GLM-5.1-FP8, SGLang 2P2D: prefill TP8 x PP2 instances of 2 nodes,
decode one DP-attention EP instance) scaled the way a larger cluster would run it: half the
nodes decode, as one EP instance over all of them (EP16, EP64, EP256), half prefill, as
instances of 2 nodes. EFA side: UCCL-EP over SRD and Mooncake's EFA transport on p5en; RoCE side:
DeepEP over NVSHMEM IBGDA and Mooncake's RDMA transport on ConnectX-7 (one 400G NIC per GPU).
Each figure comes from `pdsim connections --json` (models/catalog/connection_library for the
counts, from each library's source; models/catalog/connection_setup for times, published
figures only): a time that lacks a figure for some object kind is a lower bound ("≥") or
unknown ("?").

Usage: scenarios/connections_table.py [--pdsim build/pdsim]
"""
import argparse
import json
import os
import subprocess
import tempfile

FABRICS = [("EFA (SRD)", "glm51-2p2d-efa"), ("RoCE (RC)", "glm51-2p2d-roce")]


def sets(nodes):
    decode_hosts = nodes // 2
    ranks = decode_hosts * 8
    return ["decode.nodes_per_instance=%d" % decode_hosts, "decode.tp=%d" % ranks,
            "decode.dp=%d" % ranks, "decode.ep=%d" % ranks, "prefill.instances=%d" % (nodes // 4)]


def table(pdsim, scenario, nodes):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "c.json")
        cmd = [pdsim, "connections", scenario, "--json", out]
        for s in sets(nodes):
            cmd += ["--set", s]
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        with open(out) as f:
            return json.load(f)


def fmt_us(us, complete):
    if us <= 0:
        return "?" if not complete else "0"
    text = "%.2f s" % (us / 1e6) if us >= 1e6 else "%.0f ms" % (us / 1e3)
    return text if complete else "≥ " + text


def objects(row):
    return ", ".join("%g %s" % (o["per_host"], o["kind"]) for o in row["objects"])


def memory(row):
    parts = []
    if row["host_bytes_per_host"] > 0:
        parts.append("%.0f MiB host" % (row["host_bytes_per_host"] / 2**20))
    if row["gpu_bytes_per_host"] > 0:
        parts.append("%.2f GiB GPU" % (row["gpu_bytes_per_host"] / 2**30))
    if not parts:
        return "provider-sized"
    return ", ".join(parts) + (" (est.)" if row["memory_estimated"] else "")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pdsim", default="build/pdsim")
    a = ap.parse_args()
    a2a, kv = [], []
    for nodes in (4, 16, 64):
        for label, scenario in FABRICS:
            rows = table(a.pdsim, scenario, nodes)
            for r in rows:
                if r.get("missing"):
                    continue
                if r["purpose"] == "decode all-to-all":
                    a2a.append("| %d | %s | %s | %d | %s | %g | %s | %s | %s |" % (
                        nodes, label, r["library"], r["peers_per_rank"], objects(r),
                        r["qps_per_nic"], memory(r),
                        fmt_us(r["cold_start_us"], r["cold_start_complete"]),
                        fmt_us(r["join_us"], r["join_complete"])))
                if r["purpose"] == "KV transfer" and r["side"] == "prefill":
                    kv.append("| %d | %s | %s | %d | %s | %g | %s | %s | %s |" % (
                        nodes, label, r["library"], r["peers_per_rank"], objects(r),
                        r["qps_per_nic"], memory(r),
                        fmt_us(r["peer_connect_us"], r["peer_connect_complete"]),
                        fmt_us(r["join_us"], r["join_complete"])))
    print("Decode all-to-all (per decode host; eager: made at init, rebuilt on every rank when a "
          "node joins):\n")
    print("| nodes | fabric | library | peers per rank | objects per host | QPs per NIC | "
          "memory per host | cold start | node join (every rank, serving stopped) |")
    print("|---|---|---|---|---|---|---|---|---|")
    print("\n".join(a2a))
    print("\nKV transfer (per prefill host; lazy: made on a rank's first transfer to a peer):\n")
    print("| nodes | fabric | library | peers per rank | objects per host | QPs per NIC | "
          "memory per host | first transfer to a new peer rank | decode node join (per prefill "
          "rank, over its first transfers) |")
    print("|---|---|---|---|---|---|---|---|---|")
    print("\n".join(kv))


if __name__ == "__main__":
    main()
