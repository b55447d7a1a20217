#!/usr/bin/env python3
"""Leave one MoE path out: does the fit of the collective profile's serving terms transfer?

The overlay nccl-2.23-ofi-1.19-efa-serving.json fits two terms of the collective profile
(serving_call_us, estimated_alpha_fraction) to the mean TPOT of every decode run of the
DeepSeek-R1 validation set. Here each group of runs that has cross-node collectives (a MoE path,
with or without DP attention) is left out in turn: the same `pdsim calibrate serving` fit runs on
the other runs, and `pdsim validate` predicts the left-out ones with that fit. Prints, per group,
the fitted values and the left-out runs' signed errors (median, worst) against the errors with
no fit. DeepEP+DP is never left out: it has no cross-node collective, so the terms do not move it.

Usage (from the repository root, 86 s on 2 cores):
  calibrate/overlays/collective_logo.py [--pdsim build/pdsim]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SET = os.path.join(ROOT, "calibrate/validation/dsr1-2p2d-p5en-20260624.json")
FIT = ["--fit", "collective.serving_call_us=0:300",
       "--fit", "collective.estimated_alpha_fraction=0.5:1", "--metric", "mean_tpot_ms"]
GROUPS = ["baseline-dp0", "tp-dp0", "deepep-dp0", "baseline-dp1", "tp-dp1"]


def subset(doc, keep):
    d = dict(doc)
    d["runs"] = [r for r in doc["runs"] if keep(r["name"])]
    return d


def decode_group(name, group):
    return name.startswith("decode-" + group + "-")


def tpot_errors(pdsim, set_file, overlay, tmp):
    out = os.path.join(tmp, "validate")
    cmd = [pdsim, "validate", set_file, "--jobs", "2", "--out", out, "--progress", "off"]
    if overlay:
        cmd += ["--profile-overlay", overlay]
    subprocess.run(cmd, check=True, capture_output=True)
    errs = []
    for run in json.load(open(os.path.join(out, "validation.json")))["runs"]:
        for m in run["validation"]["metrics"]:
            if m["key"] == "mean_tpot_ms" and m["error_pct"] is not None:
                errs.append(m["error_pct"])
    subprocess.run(["rm", "-rf", out], check=True)
    return errs


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pdsim", default=os.path.join(ROOT, "build/pdsim"))
    a = ap.parse_args()
    pdsim = os.path.abspath(a.pdsim)
    doc = json.load(open(SET))
    env = dict(os.environ, PDSIM_DATA_DIR=ROOT)
    os.environ.update(env)
    # The subsets sit beside the set (its scenario paths are relative to it) under hidden names.
    here = os.path.dirname(SET)
    print("| left out | runs | fitted serving_call_us | fitted alpha fraction | "
          "no fit: median / worst | left out, fit on the rest: median / worst |")
    print("|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for g in GROUPS:
            train = os.path.join(here, f".logo-train-{g}.json")
            test = os.path.join(here, f".logo-test-{g}.json")
            overlay = os.path.join(tmp, f"{g}.json")
            try:
                json.dump(subset(doc, lambda n: n.startswith("decode-") and not decode_group(n, g)),
                          open(train, "w"))
                json.dump(subset(doc, lambda n: decode_group(n, g)), open(test, "w"))
                subprocess.run([pdsim, "calibrate", "serving", train, *FIT, "--no-loo",
                                "--jobs", "2", "-o", overlay], check=True, capture_output=True)
                fitted = json.load(open(overlay))["profiles"]["collective"]["set"]
                before = tpot_errors(pdsim, test, None, tmp)
                after = tpot_errors(pdsim, test, overlay, tmp)
            finally:
                for f in (train, test):
                    if os.path.exists(f):
                        os.remove(f)
            worst = lambda e: max(e, key=abs)
            print(f"| {g} | {len(after)} | {fitted['serving_call_us']:.1f} | "
                  f"{fitted['estimated_alpha_fraction']:.2f} | "
                  f"{statistics.median(before):+.1f} / {worst(before):+.1f} % | "
                  f"{statistics.median(after):+.1f} / {worst(after):+.1f} % |")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
