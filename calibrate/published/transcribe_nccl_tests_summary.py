#!/usr/bin/env python3
"""Writes the two-node nccl-tests all_reduce measurement files (one per instance type) from the
published summary table, as transcribed in the measurements folder's all_reduce.csv
(KevinZhao/efa-validation@7c986758, results/stage1{,-p5en}/SUMMARY.md). The raw nccl-tests logs
are not published, so rows carry busbw only (time = S_bus / busbw, nccl-tests' convention).
Usage: transcribe_nccl_tests_summary.py ALL_REDUCE_CSV OUT_DIR"""
import csv
import json
import sys

SOURCE = {
    "p5.48xlarge": "results/stage1/SUMMARY.md",
    "p5en.48xlarge": "results/stage1-p5en/SUMMARY.md",
}
SHORT = {"p5.48xlarge": "p5", "p5en.48xlarge": "p5en"}

def main(csv_path, out_dir):
    rows = list(csv.DictReader(open(csv_path)))
    for inst in SOURCE:
        sel = [r for r in rows if r["instance_type"] == inst]
        r0 = sel[0]
        results = []
        for r in sel:
            for col, place in (("busbw_gbs_out_of_place", "out-of-place"),
                               ("busbw_gbs_in_place", "in-place")):
                if r[col]:
                    results.append({"op": "all_reduce", "bytes": int(r["size_bytes"]),
                                    "placement": place, "busbw_GBps": float(r[col])})
        doc = {
            "schema": "pdsim.measurement/1",
            "probe": "collective",
            "provenance": {
                "kind": "published",
                "source": "nccl-tests all_reduce_perf -b 8K -e 8G -f 2 -g 1 -c 1 -n 20 -w 5, "
                          "16 ranks on 2 x " + inst + ", NCCL over EFA (aws-ofi-nccl)",
                "reference": "github.com/KevinZhao/efa-validation@7c986758ecc3b8aee79a1e640bd0749126237f70 "
                             + SOURCE[inst],
                "via": "../shared/measurements/nccl-tests-p5-p5en-20260421/all_reduce.csv",
                "measured_at": r0["date"],
                "note": "summary table only (no raw log); busbw as printed, both placements where "
                        "published" + ("; only sizes >= 128 MB published" if inst.startswith("p5en") else ""),
            },
            "context": {
                "instance": inst,
                "nodes": int(r0["nodes"]),
                "efa_nics_per_node": int(r0["efa_nics_per_node"]),
                "nic_gbps": int(r0["nic_gbps"]),
                "library": "NCCL 2.23.4, aws-ofi-nccl v1.19.0, FI_PROVIDER=efa, FI_EFA_USE_DEVICE_RDMA=1",
            },
            "parameters": {"ranks": int(r0["gpus"]), "nodes": int(r0["nodes"]), "gpus_per_node": 8},
            "results": results,
        }
        path = f"{out_dir}/nccl-allreduce-2node-{SHORT[inst]}.json"
        with open(path, "w") as f:
            json.dump(doc, f, indent=2)
            f.write("\n")
        print("wrote", path)

if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
