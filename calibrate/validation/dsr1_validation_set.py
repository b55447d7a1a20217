#!/usr/bin/env python3
"""Write calibrate/validation/dsr1-2p2d-p5en-20260624.json: the published DeepSeek-R1 2P2D sweep on
4 x p5en as a validation set (pdsim.validation_set/1) that `pdsim validate` reads.

Reads the measurement folder's decode.csv and prefill.csv (one row per published table cell) and
writes one run per published point (rows deduplicated on point_id, as the folder's README says),
with the semantics of scenarios/dsr1/whatif_table.py: the scenario of the row's (backend,
DP attention) from that script's SCENARIOS, the workload of the point's first row (input and
output length, range ratio 1, max concurrency, prompts, all released at once), and the KV over
Mooncake's TCP transport for the tcp_vs_efa table's TCP rows. The measured figures are the
published ones, merged over every row of the point (the same point appears in several tables;
their shared figures must agree): decode mean TPOT and output tok/s, prefill mean TTFT, input
tok/s and completed requests where printed.

Left out (not runs; counted in the set's description and printed here): a DP prefill peak
published without its concurrency (the best over a sweep, not one run), and a row without a
result (the TCP transport wedged).

Usage: calibrate/validation/dsr1_validation_set.py MEASUREMENTS_DIR [-o FILE]
Python 3 standard library only; the output is deterministic (runs in the CSVs' order, decode first).
"""
import argparse
import csv
import importlib.util
import json
import os
import re
import sys
from decimal import Decimal

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
NAME = "dsr1-2p2d-p5en-20260624"
WHATIF = os.path.join(REPO, "scenarios", "dsr1", "whatif_table.py")
UPSTREAM = "awslabs/awsome-distributed-ai"
UPSTREAM_FOLDER = "3.test_cases/pytorch/sglang/dsr1-deepep-efa/"
SGLANG = "0.5.13.post1"
# The Mooncake TCP transport's published failure threshold (models/catalog/kv_transport/mooncake-tcp.json).
TCP_CATALOG = os.path.join(REPO, "models", "catalog", "kv_transport", "mooncake-tcp.json")


def whatif_scenarios():
    """(backend, dp_attention) -> scenario file, from scenarios/dsr1/whatif_table.py itself."""
    spec = importlib.util.spec_from_file_location("dsr1_whatif_table", WHATIF)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.SCENARIOS


def number(text):
    """A printed number as JSON: an integer stays one, else the decimal as printed."""
    d = Decimal(text)
    return int(d) if d == d.to_integral_value() and "." not in text else float(text)


def points(path):
    """Rows grouped by point_id, in the order of each point's first row."""
    order, rows = [], {}
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            if r["point_id"] not in rows:
                order.append(r["point_id"])
                rows[r["point_id"]] = []
            rows[r["point_id"]].append(r)
    return [(pid, rows[pid]) for pid in order]


# CSV column -> bench_serving metric (pdsim's summary and `pdsim validate` use these names)
METRICS = {
    "decode": [("mean_tpot_ms", "mean_tpot_ms"), ("output_tok_s", "output_throughput")],
    "prefill": [("mean_ttft_ms", "mean_ttft_ms"), ("input_tok_s", "input_throughput"),
                ("completed", "completed")],
}


def published(role, pid, group):
    """The point's published figures over all its rows; rows that print the same figure agree."""
    out, where = {}, {}
    for r in group:
        for col, key in METRICS[role]:
            if not r.get(col):
                continue
            v = number(r[col])
            if key in out and out[key] != v:
                sys.exit(f"{pid}: {key} {out[key]} ({where[key]}) but {v} "
                         f"({r['table']} L{r['source_line']})")
            out.setdefault(key, v)
            where.setdefault(key, f"{r['table']} L{r['source_line']}")
    return out


def source(group):
    """FILE@commit Lnn[, Lmm]: the printed rows of the point (one file and commit per point)."""
    files = sorted({(r["source_file"], r["source_commit"]) for r in group})
    parts = []
    for f, c in files:
        lines = []
        for r in group:
            if (r["source_file"], r["source_commit"]) == (f, c) and \
                    f"L{r['source_line']}" not in lines:
                lines.append(f"L{r['source_line']}")
        parts.append(f"{f}@{c} " + ", ".join(lines))
    return "; ".join(parts)


def run_name(role, r):
    name = (f"{role}-{r['backend']}-dp{r['dp_attention']}-in{r['input_len']}-out{r['output_len']}"
            f"-c{r['concurrency']}-kv{r['kv_transport']}")
    if not re.fullmatch(r"[A-Za-z0-9_+\-][A-Za-z0-9._+\-]*", name):
        sys.exit(f"bad run name {name!r}")
    return name


def as_run_requests(table, r):
    """How many requests the point ran: its published completed count, or for a point whose
    script count the README flags as CONFLICT, the count completed at the same input length and
    concurrency in another table (README §6.1); else the script's num_prompts."""
    if r.get("completed"):
        return int(r["completed"])
    if "CONFLICT" in r["num_prompts_source"]:
        for _, g in table:
            for x in g:
                if (x["input_len"], x["concurrency"]) == (r["input_len"], r["concurrency"]) \
                        and x.get("completed"):
                    return int(x["completed"])
    return int(r["num_prompts"])


def build(measurements):
    scenarios = whatif_scenarios()
    with open(TCP_CATALOG) as f:
        tcp_fail = json.load(f)["failed_above_concurrency"]
    readme = open(os.path.join(measurements, "README.md")).read()
    for must in (UPSTREAM, UPSTREAM_FOLDER, f"SGLang:** {SGLANG}"):
        if must not in readme:
            sys.exit(f"{measurements}/README.md does not name {must!r}: check the constants")
    runs, left_out, commits = [], [], set()
    for role in ("decode", "prefill"):
        table = points(os.path.join(measurements, role + ".csv"))
        for pid, group in table:
            r = group[0]  # the workload of the point's first row, as whatif_table.py keeps it
            commits.update(x["source_commit"] for x in group)
            if role == "prefill" and not r["concurrency"]:
                left_out.append((pid, "a peak published without its concurrency (the best input "
                                 "throughput over an unstated sweep, not one run; "
                                 "whatif_table.py predicts it as the best over the sweep_1k "
                                 "concurrencies)", r))
                continue
            meas = published(role, pid, group)
            if not meas:
                left_out.append((pid, "no published figure: " + r["notes"].split(";")[0], r))
                continue
            exclude, fit_exclude = {}, {}
            notes = []
            if role == "decode":
                fit_exclude["output_throughput"] = (
                    "includes TTFT (measurement README §5: 'output_tok_s includes TTFT, so "
                    "calibrate the per-step decode time on mean_tpot_ms')")
            else:
                n = as_run_requests(table, r)
                conflict = "CONFLICT" in r["num_prompts_source"]
                if conflict:
                    notes.append(f"prompts: the script's {r['num_prompts']} are simulated (as "
                                 f"whatif_table.py does); {n} completed as printed "
                                 "(measurement README §6.1)")
                    if "completed" in meas:
                        exclude["completed"] = (
                            f"the run is simulated with the script's {r['num_prompts']} prompts "
                            f"(benchmark-pd.sh@911c), but {meas['completed']} completed as "
                            "printed: the published script does not match what ran "
                            "(measurement README §6.1)")
                if n <= 4:
                    for k in ("mean_ttft_ms", "input_throughput"):
                        if k in meas:
                            fit_exclude[k] = (
                                f"{n}-request low-concurrency prefill point: 'dominated by "
                                "warmup' (RESULTS-2p2d@911c L74-76, measurement README §4.1)")
                total = max((int(x["total"]) for x in group if x.get("total")), default=None)
                if total and meas.get("completed", total) < total:
                    why = (f"{meas['completed']} of {total} requests completed: Mooncake's TCP "
                           f"fallback deadlocks above concurrency ~{tcp_fail} "
                           "(RESULTS-2p2d@911c L370-372); pdsim does not simulate the deadlock "
                           "(models/catalog/kv_transport/mooncake-tcp.json)")
                    for k in ("mean_ttft_ms", "input_throughput", "completed"):
                        if k in meas and k not in exclude:
                            fit_exclude[k] = why
            tables = []
            for x in group:
                if x["table"] not in tables:
                    tables.append(x["table"])
            note_rows = []
            for x in group:
                t = f"{x['table']}: {x['notes']}"
                if t not in note_rows:
                    note_rows.append(t)
            run = {
                "name": run_name(role, r),
                "scenario": "../../scenarios/dsr1/" + scenarios[(r["backend"], r["dp_attention"])],
                "set": [
                    f"workload.input_len={r['input_len']}",
                    f"workload.output_len={r['output_len']}",
                    "workload.range_ratio=1",
                    f"workload.max_concurrency={r['concurrency']}",
                    f"workload.num_prompts={r['num_prompts']}",
                    "prefill.kv_protocol=" + ("tcp" if r["kv_transport"] == "tcp" else "rdma"),
                ],
                "measured": {"published": meas, "source": source(group)},
            }
            if exclude:
                run["exclude"] = exclude
            if fit_exclude:
                run["fit_exclude"] = fit_exclude
            run["note"] = "; ".join(
                [f"point {pid}"] + note_rows + notes)
            runs.append(run)
    names = [x["name"] for x in runs]
    if len(set(names)) != len(names):
        sys.exit("run names are not unique")
    if len(commits) != 1:
        sys.exit(f"expected one upstream commit, got {sorted(commits)}")
    commit = commits.pop()
    folder = os.path.basename(os.path.normpath(measurements))
    why_out = {}
    for pid, why, _ in left_out:
        why_out.setdefault(why, []).append(pid)
    left = "; ".join(f"{len(p)} {why}: " + ", ".join(p) for why, p in why_out.items())
    doc = {
        "schema": "pdsim.validation_set/1",
        "name": NAME,
        "description": (
            "DeepSeek-R1 671B FP8 2P2D (TP16/EP16 per role, Mooncake KV over EFA) on 4 x p5en, "
            "SGLang " + SGLANG + ": the published decode and prefill points of the DeepEP, "
            "baseline (--moe-a2a-backend none) and pure-TP configurations with and without "
            "DP-attention, and the KV-over-TCP A/B. Published figures only (mean TPOT and "
            "output tok/s for decode; mean TTFT, input tok/s and completed requests for "
            "prefill; no ITL, no percentiles), each run with the workload and scenario of "
            "scenarios/dsr1/whatif_table.py. " + str(len(runs)) + " runs, one per published "
            "point (deduplicated on point_id). Left out, " + str(len(left_out)) + " points: " +
            left + ". Generated by calibrate/validation/dsr1_validation_set.py; do not edit."),
        "provenance": {
            "kind": "measured",
            "source": (f"shared/measurements/{folder}/ (decode.csv, prefill.csv, README.md), "
                       f"transcribed from {UPSTREAM} {UPSTREAM_FOLDER}benchmarks/RESULTS-2p2d.md "
                       f"at commit {commit} (public)"),
            "measured_at": "2026-06-24",
            "cluster": ("4 x p5en.48xlarge (8 x H200 141 GB, 16 EFA NICs each), us-east-2; "
                        "SGLang " + SGLANG + " (lmsysorg/sglang:v0.5.13.post1-cu130), "
                        "Mooncake KV over EFA (MOONCAKE_PROTOCOL=efa; tcp for the TCP A/B rows), "
                        "single-seed sglang.bench_serving through sglang_router"),
            "method": ("published table cells as printed; the measurement folder's README lists "
                       "the launch flags, caveats and ambiguities"),
        },
        # The profiles alone, as the GLM set does: the collective overlay the dsr1 scenarios
        # carry was fitted to these runs (calibrate/overlays/dsr1-2p2d-p5en-20260624.json), so
        # refitting starts from the profiles and the corpus counts these runs out of sample.
        "set": ["profile_overlays=[]"],
        "workload_from_record": False,
        "runs": runs,
    }
    return doc, left_out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("measurements")
    ap.add_argument("-o", "--out", default=os.path.join(HERE, NAME + ".json"))
    a = ap.parse_args()
    doc, left_out = build(a.measurements)
    text = json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
    with open(a.out, "w") as f:
        f.write(text)
    print(f"{a.out}: {len(doc['runs'])} runs")
    print(f"left out {len(left_out)} points:")
    for pid, why, _ in left_out:
        print(f"  {pid}: {why}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
