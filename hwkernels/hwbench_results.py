"""Reading a pdsim-hwbench results folder (shared by make_profile.py and make_intranode.py):
raw-<name>.json per benchmark, env.txt with KEY=VALUE lines (a key may repeat, one per run)."""
import json


def load(d, name):
    """The parsed raw-<name>.json in folder `d` (a pathlib.Path), or None when absent."""
    f = d / f"raw-{name}.json"
    return json.loads(f.read_text()) if f.exists() else None


def read_env(d):
    """env.txt of folder `d` as {key: [values in file order]} ({} when absent)."""
    env = {}
    f = d / "env.txt"
    if f.exists():
        for line in f.read_text().splitlines():
            k, _, v = line.partition("=")
            env.setdefault(k, []).append(v)
    return env
