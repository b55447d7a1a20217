#!/usr/bin/env bash
# Output identity check for behaviour-preserving changes (not part of CI: ~2 min).
# Runs every output-producing path on fixed inputs and prints one SHA-256 per artefact:
#   - `pdsim run` on every scenario under scenarios/ (top level, whatif/, topology/), and the
#     reference scenarios again at packet fidelity — every file of the output directory plus
#     stdout;
#   - the quick scenarios with every tail switch, policy and a multi-instance layout varied;
#   - `pdsim compare` of the two reference scenarios (the demo);
#   - the sweep shard of tests/bench/sweep_bench.sh (shard 0/20 of the 1000-point family, --jobs 1
#     and --jobs 2, each in canonical order via `sweep merge`) and the quick-smoke sweep;
#   - `pdsim sensitivity` on the quick EFA scenario;
#   - `pdsim fabric` on every experiment under scenarios/fabric/ (wall-clock fields removed:
#     `wall_s`, `events_per_s`).
# Usage: tests/identity/outputs_digest.sh [PDSIM] [KEEP_DIR] > digests.txt; diff two such files.
set -euo pipefail
cd "$(dirname "$0")/../.."
P=$(realpath "${1:-build/pdsim}")
export PDSIM_DATA_DIR=$PWD
T=${2:-$(mktemp -d)}
mkdir -p "$T/run"
digest_dir() {  # digest_dir LABEL DIR: one line per file, sorted
  (cd "$2" && find . -type f | LC_ALL=C sort | while read -r f; do
     printf '%s %s/%s\n' "$(sha256sum <"$f" | cut -c1-16)" "$1" "${f#./}"; done)
}
for f in scenarios/*.json scenarios/whatif/*.json scenarios/topology/*.json; do
  n=$(echo "${f#scenarios/}" | tr / _); n=${n%.json}
  "$P" run "$f" --out "$T/run/$n" >"$T/run/$n.stdout" 2>&1 || echo "exit $?" >>"$T/run/$n.stdout"
done
for s in glm51-2p2d-efa glm51-2p2d-roce; do
  "$P" run "scenarios/$s.json" --set fabric.fidelity=packet --out "$T/run/$s-packet" \
    >"$T/run/$s-packet.stdout" 2>&1
done
# Mechanism switches, policies and multi-instance layouts, on the quick scenarios.
variants=(
  "tail.batch_jumps=false" "tail.acceptance_variance=false" "tail.dp_imbalance=false"
  "decode.speculative.algorithm=none"
  "workload.request_rate=inf|workload.input_len=1024|decode.cuda_graph_max_bs=2"
  "tail.scheduler_hiccups={\"enabled\":true,\"probability\":0.02,\"delay_us\":5000,\"provenance\":{\"source\":\"digest\"}}"
  "tail.expert_skew={\"enabled\":true,\"zipf_s\":1.0,\"eplb\":false,\"provenance\":{\"source\":\"digest\"}}"
  "prefill.instances=2|decode.instances=2"
  "prefill.instances=2|decode.instances=2|fabric.fidelity=packet"
  "fabric.fidelity=packet|tail.fabric_background=false"
)
i=0
for v in "${variants[@]}"; do
  for fab in efa roce; do
    args=()
    IFS='|' read -ra sets <<<"$v"
    for x in "${sets[@]}"; do args+=(--set "$x"); done
    "$P" run "scenarios/glm51-2p2d-$fab-quick.json" "${args[@]}" --out "$T/run/variant$i-$fab" \
      >"$T/run/variant$i-$fab.stdout" 2>&1 || echo "exit $?" >>"$T/run/variant$i-$fab.stdout"
  done
  i=$((i + 1))
done
"$P" compare scenarios/glm51-2p2d-efa.json scenarios/glm51-2p2d-roce.json --out "$T/compare" \
  >"$T/compare.stdout" 2>&1
mkdir -p "$T/sweep"
for j in 1 2; do
  "$P" sweep scenarios/sweeps/glm51-efa-family-1000.json --shard 0/20 --results "$T/sweep/j$j.jsonl" \
    --jobs "$j" --no-progress >/dev/null
  "$P" sweep merge "$T/sweep/j$j.jsonl" -o "$T/sweep/shard-j$j.sorted.jsonl" >/dev/null
  rm "$T/sweep/j$j.jsonl"
done
"$P" sweep scenarios/sweeps/quick-smoke.json --results "$T/sweep/smoke.jsonl" --jobs 1 --no-progress \
  >"$T/sweep/smoke.stdout"
"$P" sensitivity scenarios/glm51-2p2d-efa-quick.json --jobs 2 -o "$T/sensitivity.json" \
  >"$T/sensitivity.stdout"
mkdir -p "$T/fabric"
for f in scenarios/fabric/*.json; do
  n=$(basename "$f" .json)
  "$P" fabric "$f" --out "$T/fabric/$n" >/dev/null
  python3 - "$T/fabric/$n/summary.json" <<'PY'
import json, sys
p = sys.argv[1]
s = json.load(open(p))
for k in ("wall_s", "events_per_s"):
    s.pop(k, None)
open(p, "w").write(json.dumps(s, indent=1, sort_keys=True))
PY
done
# stdout mentions the output directory: make it independent of $T.
find "$T" -name '*.stdout' -exec sed -i "s#$T#OUT#g" {} +
digest_dir . "$T"
