#!/usr/bin/env bash
# The what-if table of sim/serve/README.md (not part of CI): every scenario under
# scenarios/whatif/ at its own load and at 1.0 req/s ("stress"), seed as in the scenario, one
# markdown row each: mean TTFT, mean TPOT, p99 and max ITL, and the fabric background's addition
# to an iteration's all-to-all (share of ITL samples where it fired, mean when fired, max).
# Usage: tests/bench/whatif_table.sh [PDSIM] [JOBS]
set -euo pipefail
cd "$(dirname "$0")/../.."
P=${1:-build/pdsim}
JOBS=${2:-2}
export PDSIM_DATA_DIR=$PWD
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
echo "context: $(date -u +%FT%TZ) commit $(git rev-parse --short HEAD 2>/dev/null || echo ?)"
row() {  # name load summary.json
  python3 - "$1" "$2" "$3" <<'PY'
import json, sys
name, load, path = sys.argv[1:]
d = json.load(open(path))
fb = d["pdsim"]["tail"]["all"]["fabric_background"]
print(f"| {name} | {load} | {d['mean_ttft_ms']:.1f} | {d['mean_tpot_ms']:.2f} | "
      f"{d['p99_itl_ms']:.2f} | {d['max_itl_ms']:.2f} | {100 * fb['fired_fraction']:.2f}% | "
      f"{fb['mean_when_fired_us']:.0f} | {fb['max_us']:.0f} |")
PY
}
echo "| what-if | load | mean TTFT ms | mean TPOT ms | p99 ITL ms | max ITL ms | a2a excess fired | mean excess when fired us | max excess us |"
echo "|---|---|---|---|---|---|---|---|---|"
# One job per (scenario, load): its name, label and extra flags, in table order.
names=(); labels=(); flags=()
for f in scenarios/whatif/*.json; do
  rate=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['workload'].get('request_rate', 'inf'))" "$f")
  names+=("$(basename "$f" .json)" "$(basename "$f" .json)")
  labels+=("$rate" "1.0 (stress)")
  flags+=("$f" "$f --set workload.request_rate=1.0")
done
for i in "${!flags[@]}"; do
  # shellcheck disable=SC2086  # the flags are words
  "$P" run ${flags[$i]} --out "$T/$i" >/dev/null &
  [ $(((i + 1) % JOBS)) -eq 0 ] && wait
done
wait
for i in "${!flags[@]}"; do row "${names[$i]}" "${labels[$i]}" "$T/$i/summary.json"; done
