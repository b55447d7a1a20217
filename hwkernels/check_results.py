#!/usr/bin/env python3
"""Fails (exit 1) if any raw result in DIR reports a failed correctness check or is missing.
Usage: check_results.py DIR [name,name,...]  (default: every benchmark)"""
import json
import pathlib
import sys

BAD = ("FAIL", "MISMATCH", "CORRUPT")


def walk(node, path, problems):
    if isinstance(node, dict):
        for k, v in node.items():
            walk(v, f"{path}.{k}", problems)
    elif isinstance(node, list):
        for i, v in enumerate(node):
            walk(v, f"{path}[{i}]", problems)
    elif isinstance(node, str) and any(b in node for b in BAD):
        problems.append(f"{path}: {node}")


def main():
    d = pathlib.Path(sys.argv[1])
    problems = []
    names = sys.argv[2].split(",") if len(sys.argv) > 2 else \
        ["proxy", "launch", "hbm", "gemm", "attention", "prefill", "nvlink", "ep", "collectives", "nccl"]
    for name in names:
        f = d / f"raw-{name}.json"
        if not f.exists():
            problems.append(f"{f}: missing (benchmark did not finish)")
            continue
        walk(json.loads(f.read_text()), name, problems)
    for p in problems:
        print("CHECK FAILED", p)
    print(f"{len(problems)} failed checks")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
