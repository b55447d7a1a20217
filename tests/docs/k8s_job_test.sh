#!/usr/bin/env bash
# docs/sweep/k8s-indexed-job.yaml without a cluster (no Kubernetes validator is packaged in Debian
# 12, so not against the API schema): yamllint's syntax check, then the fields the sharded sweep
# relies on: a batch/v1 Job with completionMode Indexed, completions = parallelism = the N of
# --shard "${JOB_COMPLETION_INDEX}/N" and of the results file name, a restart policy that resumes,
# a sweep file that exists, and pdsim sweep flags that exist. Needs yamllint (setup.sh).
# Usage: tests/docs/k8s_job_test.sh PDSIM SOURCE_DIR
set -u
PDSIM=$1; SRC=$2
Y=$SRC/docs/sweep/k8s-indexed-job.yaml
fail() { echo "FAIL k8s_job: $*"; exit 1; }
command -v yamllint >/dev/null 2>&1 || fail "yamllint not found: run ./setup.sh (it installs yamllint)"
timeout 30 yamllint -d '{extends: default, rules: {line-length: disable, document-start: disable}}' "$Y" ||
  fail "yamllint: $Y"
PY=""; for p in /usr/bin/python3 python3; do "$p" -c 'import yaml' 2>/dev/null && { PY=$p; break; }; done
[ -n "$PY" ] || fail "no python3 with the yaml module (Debian: python3-yaml, a dependency of yamllint)"
help=$(PDSIM_DATA_DIR=$SRC timeout 30 "$PDSIM" sweep --help) || fail "pdsim sweep --help"
timeout 30 "$PY" - "$Y" "$SRC" "$help" <<'PYEOF' || fail "$Y: fields above"
import re, sys, os, yaml
path, src, helptext = sys.argv[1], sys.argv[2], sys.argv[3]
docs = list(yaml.safe_load_all(open(path)))
bad = []
def want(cond, msg):
    if not cond: bad.append(msg)
want(len(docs) == 1, "one document")
job = docs[0]
want(job.get("apiVersion") == "batch/v1" and job.get("kind") == "Job", "apiVersion batch/v1, kind Job")
spec = job["spec"]; pod = spec["template"]["spec"]
want(spec.get("completionMode") == "Indexed", "spec.completionMode Indexed")
want(pod.get("restartPolicy") in ("OnFailure", "Never"), "restartPolicy OnFailure or Never")
c = pod["containers"]; want(len(c) == 1, "one container")
cmd = " ".join(c[0].get("command", []) + c[0].get("args", []))
m = re.search(r'--shard "?\$\{JOB_COMPLETION_INDEX\}/(\d+)', cmd)
want(m is not None, '--shard "${JOB_COMPLETION_INDEX}/N" in the command')
if m:
    n = int(m.group(1))
    want(spec.get("completions") == n and spec.get("parallelism") == n,
         f"completions and parallelism = {n}, got {spec.get('completions')} and {spec.get('parallelism')}")
    want(f"shard-${{JOB_COMPLETION_INDEX}}-of-{n}.jsonl" in cmd, f"results file named shard-${{JOB_COMPLETION_INDEX}}-of-{n}.jsonl")
s = re.search(r'(scenarios/sweeps/\S+\.json)', cmd)
want(s is not None and os.path.isfile(os.path.join(src, s.group(1))), "a sweep file of scenarios/sweeps that exists")
for flag in re.findall(r'(--[a-z-]+)', cmd):
    want(re.search(re.escape(flag) + r"(?![a-z-])", helptext), f"pdsim sweep has no {flag}")
mounts = [v["mountPath"] for v in c[0].get("volumeMounts", [])]
want("/results" in mounts, "the results volume mounted at /results")
for b in bad: print("FAIL k8s_job:", b)
sys.exit(1 if bad else 0)
PYEOF
echo "k8s_job: $Y parses and its Indexed Job matches the sharded sweep"
