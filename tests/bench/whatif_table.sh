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
i=0
for f in scenarios/whatif/*.json; do
  n=$(basename "$f" .json)
  rate=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['workload'].get('request_rate', 'inf'))" "$f")
  for mode in base stress; do
    i=$((i + 1))
    extra=(); label=$rate
    [ "$mode" = stress ] && { extra=(--set workload.request_rate=1.0); label="1.0 (stress)"; }
    "$P" run "$f" "${extra[@]}" --out "$T/$i" >/dev/null &
    [ $((i % JOBS)) -eq 0 ] && wait
  done
done
wait
i=0
for f in scenarios/whatif/*.json; do
  n=$(basename "$f" .json)
  rate=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['workload'].get('request_rate', 'inf'))" "$f")
  for mode in base stress; do
    i=$((i + 1))
    label=$rate; [ "$mode" = stress ] && label="1.0 (stress)"
    row "$n" "$label" "$T/$i/summary.json"
  done
done
