#!/usr/bin/env python3
"""Predicted vs measured for every published point of the DeepSeek-R1 2P2D sweep on 4 x p5en.

Reads the measurement folder's decode.csv and prefill.csv (one row per published table cell;
deduplicated on point_id as its README says), runs `pdsim run` on this folder's scenario of the
row's configuration with the row's workload (input and output length, concurrency, prompts, all
released at once; the KV over Mooncake's TCP transport for the tcp_vs_efa table's TCP rows),
and prints a Markdown table: decode rows compare mean TPOT, prefill rows mean TTFT and input
throughput. A peak published without its concurrency (the DP rows of the dp_effect table) is
predicted as the best input throughput over the sweep_1k concurrencies of its input length. A row
without a prediction says why; a prediction beyond the concurrency where a
published run of its transport failed says so. The medians of |error| per configuration close the
table.

Nothing here is fitted: the scenarios take their parameters from the profiles they name (the TCP
transport's sharing rule was chosen with the TCP rows at concurrency 1 and 8; its rate is
published, models/catalog/kv_transport/mooncake-tcp.json).

Usage: scenarios/dsr1/whatif_table.py MEASUREMENTS_DIR [--pdsim build/pdsim] [--sweep-cache]
"""
import argparse
import csv
import json
import os
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))

# (backend label in the CSV, DP attention) -> scenario of this folder
SCENARIOS = {
    ("baseline", "0"): "dsr1-2p2d-p5en-baseline.json",
    ("tp", "0"): "dsr1-2p2d-p5en-tp.json",
    ("baseline", "1"): "dsr1-2p2d-p5en-baseline-dp.json",
    ("tp", "1"): "dsr1-2p2d-p5en-tp-dp.json",
    ("deepep", "0"): "dsr1-2p2d-p5en-deepep.json",
    ("deepep", "1"): "dsr1-2p2d-p5en-deepep-dp.json",
}


# The order recipe/benchmark-pd.sh@911c runs its points (the measurement folder's README, section
# 3; in_len:out_len:concurrency:num_prompts): the decode sweep, then the prefill sweep, against
# servers relaunched for each configuration and never flushed, all with bench_serving's default
# seed. Its random dataset sends the same prompts on every such run, so each point would start
# with the earlier points' prompts in the prefill's radix cache where the cache is on (the non-DP
# rows; sim/serve/entities/prefix_cache_at_start.hpp). With --sweep-cache the table runs each
# point so (assumed for the KV/TCP rows too: the source says only that they were taken with the
# environment variable alone differing); by default each point runs on a fresh server, because
# the published non-DP points do not show the cache's effect (scenarios/README.md).
DECODE_POINTS = ["256:256:32:64", "256:512:32:64", "256:1024:32:64", "256:2048:24:48",
                 "256:512:16:32", "256:512:64:128", "256:512:96:192", "256:512:128:256"]
PREFILL_POINTS = ["1024:1:1:8", "1024:1:8:64", "1024:1:64:192", "1024:1:256:512",
                  "1024:1:512:1024", "4096:1:1:8", "4096:1:8:32", "4096:1:32:128",
                  "4096:1:128:256", "16384:1:1:4", "16384:1:4:16", "16384:1:16:64",
                  "16384:1:32:128", "32768:1:1:4", "32768:1:4:16", "32768:1:8:32",
                  "65536:1:1:2", "65536:1:2:4"]


def earlier_runs(r, role):
    """The runs the script sent before row r's point: (input lengths, prompt counts), or None
    where the point is not in the script."""
    seq = DECODE_POINTS + (PREFILL_POINTS if role == "prefill" else [])
    key = f"{r['input_len']}:{r['output_len']}:{r['concurrency']}:"
    at = [k for k, p in enumerate(seq) if p.startswith(key)]
    if not at:
        return None
    before = [p.split(":") for p in seq[:at[0]]]
    return [int(p[0]) for p in before], [int(p[3]) for p in before]


def rows(path):
    seen, out = set(), []
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            if r["point_id"] in seen:
                continue
            seen.add(r["point_id"])
            out.append(r)
    return out


def why_not(r, role):
    if role == "prefill" and not r["concurrency"] and r["table"] != "dp_effect":
        return "no concurrency published"
    return None


def peak_points(prefill_rows, r):
    """The sweep_1k points (concurrency, prompts) of r's input length: a peak published without
    its concurrency (the DP rows of dp_effect) is predicted as the best of them."""
    pts = sorted({(int(x["concurrency"]), x["num_prompts"]) for x in prefill_rows
                  if x["table"] == "sweep_1k" and x["input_len"] == r["input_len"]})
    return [dict(r, concurrency=str(c), num_prompts=n) for c, n in pts]


def run(pdsim, scenario, r, out_dir, role, sweep_cache):
    sets = {
        "workload.input_len": r["input_len"],
        "workload.output_len": r["output_len"],
        "workload.range_ratio": "1",
        "workload.max_concurrency": r["concurrency"],
        "workload.num_prompts": r["num_prompts"],
        # MOONCAKE_PROTOCOL=tcp instead of efa: Mooncake's TCP transport (models/catalog/kv_transport)
        "prefill.kv_protocol": "tcp" if r["kv_transport"] == "tcp" else "rdma",
    }
    prior = earlier_runs(r, role) if sweep_cache else None
    if prior:
        sets["workload.prior_input_lens"] = json.dumps(prior[0], separators=(",", ":"))
        sets["workload.prior_num_prompts"] = json.dumps(prior[1], separators=(",", ":"))
    cmd = [pdsim, "run", os.path.join(HERE, scenario), "--out", out_dir]
    for k, v in sets.items():
        cmd += ["--set", f"{k}={v}"]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        last = (p.stderr.strip().splitlines() or ["failed"])[-1]
        return None, last
    with open(os.path.join(out_dir, "summary.json")) as f:
        return json.load(f), None


def pct(pred, meas):
    return 100.0 * (pred - meas) / meas


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("measurements")
    ap.add_argument("--pdsim", default="pdsim")
    ap.add_argument("--sweep-cache", action="store_true",
                    help="each point starts with the script's earlier points in the prefill's "
                         "radix cache (workload.prior_input_lens / prior_num_prompts)")
    a = ap.parse_args()
    errors = {}
    lines = [
        "| role | table | config | in | out | conc | measured | predicted | error |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    with tempfile.TemporaryDirectory() as tmp:
        for role in ("decode", "prefill"):
            table = rows(os.path.join(a.measurements, role + ".csv"))
            for i, r in enumerate(table):
                cfg = r["backend"] + ("+DP" if r["dp_attention"] == "1" else "")
                if r["kv_transport"] == "tcp":
                    cfg += " KV/TCP"
                head = (f"| {role} | {r['table']} | {cfg} | {r['input_len']} | "
                        f"{r['output_len']} | {r['concurrency'] or '-'} |")
                reason = why_not(r, role)
                s = None
                scenario = SCENARIOS[(r["backend"], r["dp_attention"])]
                if not reason and role == "prefill" and not r["concurrency"]:
                    best = None
                    for k, pt in enumerate(peak_points(table, r)):
                        got, reason = run(a.pdsim, scenario, pt, os.path.join(tmp, f"{role}{i}p{k}"),
                                          role, a.sweep_cache)
                        if got and (best is None or
                                    got["input_throughput"] > best[0]["input_throughput"]):
                            best = (got, pt["concurrency"])
                    if best:
                        s, reason = best[0], None
                        head = head.replace("| - |", f"| peak (best at {best[1]}) |")
                elif not reason:
                    s, reason = run(a.pdsim, scenario, r, os.path.join(tmp, f"{role}{i}"), role,
                                    a.sweep_cache)
                if role == "decode":
                    meas = f"TPOT {r['mean_tpot_ms']} ms"
                    if s is None:
                        lines.append(f"{head} {meas} | - | {reason} |")
                        continue
                    e = pct(s["mean_tpot_ms"], float(r["mean_tpot_ms"]))
                    errors.setdefault(("decode TPOT", cfg), []).append(abs(e))
                    lines.append(f"{head} {meas} | {s['mean_tpot_ms']:.1f} ms | {e:+.0f} % |")
                else:
                    meas_tok = float(r["input_tok_s"]) if r["input_tok_s"] else None
                    meas_ttft = float(r["mean_ttft_ms"]) if r["mean_ttft_ms"] else None
                    meas = " / ".join(
                        x for x in (f"TTFT {meas_ttft:.0f} ms" if meas_ttft else "",
                                    f"{meas_tok:.0f} tok/s" if meas_tok else "") if x)
                    if s is None:
                        lines.append(f"{head} {meas or '-'} | - | {reason} |")
                        continue
                    if not meas and r["notes"].startswith("wedged"):
                        meas = "wedged, no result"
                    pred, errs = [], []
                    if meas_ttft:
                        e = pct(s["mean_ttft_ms"], meas_ttft)
                        errors.setdefault(("prefill TTFT", cfg), []).append(abs(e))
                        pred.append(f"TTFT {s['mean_ttft_ms']:.0f} ms")
                        errs.append(f"{e:+.0f} %")
                    if meas_tok:
                        e = pct(s["input_throughput"], meas_tok)
                        errors.setdefault(("prefill tok/s", cfg), []).append(abs(e))
                        pred.append(f"{s['input_throughput']:.0f} tok/s")
                        errs.append(f"{e:+.0f} %")
                    if not pred:
                        pred.append(f"TTFT {s['mean_ttft_ms']:.0f} ms / "
                                    f"{s['input_throughput']:.0f} tok/s")
                    tcp = s.get("pdsim", {}).get("kv_transfer", {}).get("tcp_transport") or {}
                    if tcp.get("outside_measured"):
                        errs.append("outside what was measured: above concurrency "
                                    f"{tcp['failed_above_concurrency']}, where the published "
                                    "run failed")
                    lines.append(f"{head} {meas} | {' / '.join(pred)} | {' / '.join(errs)} |")
    print("\n".join(lines))
    print()
    print("| metric | config | points | median abs error |")
    print("|---|---|---|---|")
    for (metric, cfg), v in sorted(errors.items()):
        print(f"| {metric} | {cfg} | {len(v)} | {statistics.median(v):.0f} % |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
