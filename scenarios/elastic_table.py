#!/usr/bin/env python3
"""Elastic scale-out, RoCE/RC vs EFA/SRD, at 4, 16 and 64 nodes (issue 29's what-if).

The reference deployment (GLM-5.1-FP8, SGLang, prefill TP8 x PP2 instances of 2 nodes, decode
DP-attention EP16 instances of 2 nodes) at N nodes, half prefill and half decode, and one more
2-node decode instance joining 240 s into a run of 256 prompts per prefill instance at 0.4 req/s
per prefill instance (the reference's per-instance load). The joining instance is a new EP
group: it serves once its own all-to-all connections are up (cold start from `pdsim
connections`, a lower bound where no figure is published) and each prefill rank connects to its
ranks on its first KV transfer (Mooncake's per-peer connection). No warm-up time is published:
elastic.join_warmup_s stays 0. Each row is `pdsim run whatif/elastic-decode-join-FABRIC --set ...`.

Usage: scenarios/elastic_table.py [--pdsim build/pdsim]
"""
import argparse
import json
import os
import subprocess
import tempfile

FABRICS = [("EFA (SRD)", "whatif/elastic-decode-join-efa"),
           ("RoCE (RC)", "whatif/elastic-decode-join-roce")]
JOIN_S = 240


def sets(nodes):
    k = nodes // 4  # prefill instances = decode instances before the join
    return ["prefill.instances=%d" % k, "decode.instances=%d" % (k + 1),
            "elastic.decode_joins_s=[%d]" % JOIN_S, "workload.num_prompts=%d" % (256 * k),
            "workload.request_rate=%g" % (0.4 * k)]


def run(pdsim, scenario, nodes, here):
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [pdsim, "run", os.path.join(here, scenario + ".json"), "--out", tmp]
        for s in sets(nodes):
            cmd += ["--set", s]
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        with open(os.path.join(tmp, "summary.json")) as f:
            summary = json.load(f)
    return summary["pdsim"]["elastic"][0]


def window(w):
    if w.get("requests", 0) == 0:
        return "no request"
    return "%.0f ms / %.1f ms" % (w["mean_ttft_ms"], w["mean_itl_ms"])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pdsim", default="build/pdsim")
    a = ap.parse_args()
    here = os.path.dirname(os.path.abspath(__file__))
    print("| nodes before the join | fabric | cold start of the new instance | serves from | "
          "first KV transfer per peer pair | before: TTFT / ITL mean | after: TTFT / ITL mean | "
          "requests to it |")
    print("|---|---|---|---|---|---|---|---|")
    for nodes in (4, 16, 64):
        for label, scenario in FABRICS:
            e = run(a.pdsim, scenario, nodes, here)
            c = e["cold_start"]
            cold = "%.0f ms" % (c["s"] * 1e3) if c["s"] > 0 else "?"
            if c["s"] > 0 and not c["complete"]:
                cold = "≥ " + cold
            print("| %d | %s | %s (%s) | %+.3f s | +%.0f ms | %s | %s | %d |" % (
                nodes, label, cold, ", ".join(c["libraries"]) or "none",
                e["ready_s"] - e["join_s"], e["kv_connect_s"] * 1e3, window(e["before_join"]),
                window(e["after_ready"]), e["requests_served"]))


if __name__ == "__main__":
    main()
