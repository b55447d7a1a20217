#!/usr/bin/env python3
"""Turns the raw intra-node results of pdsim-hwbench (nvlink, ep, collectives, nccl; one folder per
run of hwkernels/reproduce_intranode.sh) into the `intranode` section of a GPU profile, read by
models/intranode_profile.cpp and applied to the analytic fabric by sim/fabric/intranode_terms.cpp.

Every figure is the median over the runs of each run's median (one run: its median). Fits:
t = alpha + (n-1) B / busbw by least squares (alpha >= 0) over the measured sizes.

  make_intranode.py RUN_DIR [RUN_DIR...] --out SECTION.json [--merge-into PROFILE.json]
                    [--command "how it was run"]
"""
import argparse
import json
import pathlib
import statistics
import sys

from hwbench_results import load, read_env  # this folder (the script's, on sys.path)


def med(xs):
    return statistics.median(xs)


def fit_alpha_busbw(rows, n):
    """Least squares of us = alpha + x / busbw, x = (n-1) B bytes, with alpha >= 0."""
    xs = [(n - 1) * r["bytes_per_rank"] for r in rows]
    ys = [r["us"] for r in rows]
    k = len(xs)
    mx, my = sum(xs) / k, sum(ys) / k
    sxx = sum((x - mx) ** 2 for x in xs)
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx
    alpha = my - slope * mx
    if alpha < 0:  # through the origin
        alpha, slope = 0.0, sum(x * y for x, y in zip(xs, ys)) / sum(x * x for x in xs)
    res = [y - (alpha + slope * x) for x, y in zip(xs, ys)]
    rms = (sum(r * r for r in res) / k) ** 0.5
    return {"alpha_us": round(alpha, 3), "busbw_GBps": round(1e-3 / slope, 1), "rms_us": round(rms, 3),
            "fit": "least squares of t = alpha + (n-1) B / busbw over the rows (alpha >= 0)"}


def collective_rows(runs, key, n):
    rows = []
    for i, r0 in enumerate(runs[0]["collectives"][key]):
        us = [run["collectives"][key][i]["us_slowest_rank"]["median"] for run in runs]
        p99 = [run["collectives"][key][i]["us_slowest_rank"]["p99"] for run in runs]
        rows.append({"tokens_per_gpu": r0["tokens_per_gpu"], "bytes_per_rank": r0["bytes_per_rank"],
                     "us": round(med(us), 3), "us_p99": round(med(p99), 3),
                     "busbw_GBps": round((n - 1) * r0["bytes_per_rank"] / (med(us) * 1e3), 1)})
    sec = fit_alpha_busbw(rows, n)
    sec["rows"] = rows
    return sec


def ep_cases(runs):
    out = []
    for i, c0 in enumerate(runs[0]["ep"]["cases"]):
        case = {k: c0[k] for k in ("mode", "routing", "ranks", "tokens_per_rank", "hidden", "top_k", "sms_used",
                                   "copies_per_rank_mean", "imbalance_busiest_over_mean",
                                   "remote_copies_per_rank_mean")}
        for j, p0 in enumerate(c0["phases"]):
            us = [run["ep"]["cases"][i]["phases"][j]["us_slowest_rank"]["median"] for run in runs]
            p99 = [run["ep"]["cases"][i]["phases"][j]["us_slowest_rank"]["p99"] for run in runs]
            case[p0["phase"]] = {"us": round(med(us), 2), "us_p99": round(med(p99), 2),
                                 "message_bytes_sent": p0["message_bytes"]}
        out.append(case)
    return out


def sim_message_bytes(hidden, phase):
    """sim/fabric/routing.cpp a2a_message_bytes: what the simulator counts per copy."""
    return hidden + hidden / 128 * 4 + 16 if phase == "dispatch" else 2 * hidden


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("runs", nargs="+")
    ap.add_argument("--out", required=True)
    ap.add_argument("--merge-into", help="GPU profile JSON to write the section into")
    ap.add_argument("--command", default="hwkernels/reproduce_intranode.sh")
    a = ap.parse_args()
    runs, envs, ctxs = [], [], []
    for d in map(pathlib.Path, a.runs):
        run = {k: load(d, k) for k in ("nvlink", "ep", "collectives", "nccl")}
        for k, v in run.items():
            if v is None:
                print(f"{d}: raw-{k}.json missing", file=sys.stderr)
                return 1
            if "skipped" in v and k != "nccl":
                print(f"{d}: {k} skipped ({v['skipped']}): no intranode section written")
                return 0
        runs.append(run)
        envs.append(read_env(d))
        ctxs.append(load(d, "context") or {})
    n = runs[0]["ep"]["ranks"]
    assert all(r["ep"]["ranks"] == n for r in runs), "runs on different GPU counts"

    cases = ep_cases(runs)
    normal = [c for c in cases if c["mode"] == "normal" and c["routing"] == "uniform"]
    best = max(normal, key=lambda c: c["sms_used"])  # all SMs: what NVLink gives (see README)
    H = best["hidden"]
    normal_a2a = {
        "dispatch_GBps": round(best["copies_per_rank_mean"] * sim_message_bytes(H, "dispatch") / (best["dispatch_fp8"]["us"] * 1e3), 1),
        "combine_GBps": round(best["copies_per_rank_mean"] * sim_message_bytes(H, "combine") / (best["combine_bf16"]["us"] * 1e3), 1),
        "case": {k: best[k] for k in ("tokens_per_rank", "hidden", "top_k", "sms_used", "copies_per_rank_mean")},
        "dispatch_us": best["dispatch_fp8"]["us"], "combine_us": best["combine_bf16"]["us"],
        "note": "GB/s = copies per rank (one per token and distinct destination rank, local included) x the "
                "simulator's message bytes (sim/fabric/routing.cpp: hidden + hidden/32 + 16 dispatch, 2 hidden "
                "combine) / median time, uniform routing, all SMs; so t = bytes / GB/s reproduces the measured "
                "time. With 24 SMs see measurements.ep_cases."}

    nccl0 = runs[0]["nccl"]
    nccl_rows = []
    for i, r0 in enumerate(nccl0.get("rows", [])):
        nccl_rows.append({"bytes": r0["bytes"],
                          "us": round(med([run["nccl"]["rows"][i]["us_slowest_rank"]["median"] for run in runs]), 2),
                          "busbw_GBps": round(med([run["nccl"]["rows"][i]["busbw_GBps_median"] for run in runs]), 1)})
    env, ctx = envs[0], ctxs[0]
    smi_q = (env.get("smi_query") or [""])[0].split(",")
    smi = dict(zip(smi_q, (env.get("smi_before") or [""])[0].split(", ")))
    topo = [l for l in env.get("topo", []) if l.startswith("GPU0")]
    rt = int(ctx.get("cuda_runtime", 0))
    nv = nccl0.get("nccl_version", 0)
    section = {
        "gpus": n,
        "provenance": {
            "kind": "measured", "source": "hwkernels/reproduce_intranode.sh (pdsim-hwbench nvlink, ep, collectives, nccl)",
            "measured_at": [c.get("started_at") for c in ctxs],
            "host": (env.get("host") or [""])[0], "gpu": ctx.get("gpu"), "gpus_present": ctx.get("gpus_visible"),
            "topology": ("nvidia-smi topo -m, GPU0 row: " + " ".join(topo[0].split())) if topo else "unknown",
            "driver": smi.get("driver_version", ""),
            "cuda": f"runtime {rt // 1000}.{(rt % 1000) // 10}, {(env.get('nvcc') or [''])[0]}",
            "nccl": f"{nv // 10000}.{(nv // 100) % 100}.{nv % 100} ({(env.get('nccl_build') or [''])[0].replace('-- hwkernels: ', '')}), NVLS off",
            "clocks": f"SM {smi.get('clocks.sm', '?')}, memory {smi.get('clocks.mem', '?')}, {smi.get('pstate', '?')}; left as found",
            "command": a.command,
            "runs": len(runs),
            "method": "each figure: median over the runs of each run's median (200-300 repetitions per run "
                      "after warm-up; slowest rank per repetition, ranks started together by a cross-GPU barrier)",
            "assumptions": [
                "p2p_GBps and p2p_latency_us are per-GPU figures; inside one NVSwitch domain they are taken to "
                "hold for any rank count (the switch is non-blocking, each GPU's own 18 links bound it)",
                "the all-gather fit's alpha (synchronisation) and busbw (per-GPU push rate) are taken to hold for "
                "any rank count; measured with gpus ranks",
                "normal_a2a is used only at EP = gpus (the phase's efficiency depends on the rank count)"]},
        "p2p_GBps": round(med([r["nvlink"]["bulk_all_ranks_at_once"]["GBps_per_rank_median"] for r in runs]), 1),
        "p2p_latency_us": round(med([r["collectives"]["p2p_latency"]["one_way_us"]["median"] for r in runs]), 3),
        "allgather": collective_rows(runs, "allgather", n),
        "reduce_scatter": collective_rows(runs, "reduce_scatter", n),
        "normal_a2a": normal_a2a,
        "measurements": {
            "p2p_one_way_bulk_GBps": round(med([r["nvlink"]["bulk_one_way"]["GBps_median"] for r in runs]), 1),
            "p2p_latency_us_p99": round(med([r["collectives"]["p2p_latency"]["one_way_us"]["p99"] for r in runs]), 3),
            "ep_cases": cases,
            "ep_skew_model": runs[0]["ep"]["skew_model"],
            "ep_what": runs[0]["ep"]["what"],
            "collectives_sizes_from": runs[0]["collectives"]["sizes_from"],
            "nccl_allreduce": ({"version": nv, "check": nccl0["check"], "rows": nccl_rows, "what": nccl0["what"]}
                               if "rows" in nccl0 else {"skipped": nccl0.get("skipped")})}}
    text = json.dumps(section, indent=1)
    pathlib.Path(a.out).write_text(text + "\n")
    print(f"wrote {a.out}: {n} GPUs, p2p {section['p2p_GBps']} GB/s, latency {section['p2p_latency_us']} us, "
          f"all-gather alpha {section['allgather']['alpha_us']} us busbw {section['allgather']['busbw_GBps']} GB/s, "
          f"normal a2a {normal_a2a['dispatch_GBps']}/{normal_a2a['combine_GBps']} GB/s")
    if a.merge_into:
        p = pathlib.Path(a.merge_into)
        prof = json.loads(p.read_text())
        prof["intranode"] = section
        if "measurements" in prof:  # keep `measurements` last, as make_profile.py writes it
            prof["measurements"] = prof.pop("measurements")
        p.write_text(json.dumps(prof, indent=1) + "\n")
        print(f"merged into {p}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
