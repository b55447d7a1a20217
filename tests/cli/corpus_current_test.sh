#!/usr/bin/env bash
# The shipped calibration corpus (calibrate/corpus/sglang-pd.json) is what `pdsim calibrate
# corpus` makes today from the shipped validation sets: it fails when a set, a scenario, a profile
# or the model changed and the corpus was not regenerated (the command it prints does it).
set -euo pipefail
pdsim=$1
root=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$root"
sets=(calibrate/validation/glm51-2p2d-p5en-20260430.json calibrate/validation/dsr1-2p2d-p5en-20260624.json)
PDSIM_DATA_DIR="$root" "$pdsim" calibrate corpus "${sets[@]}" --jobs 2 -o "$tmp/sglang-pd.json" >"$tmp/out.txt"
if ! cmp -s "$tmp/sglang-pd.json" calibrate/corpus/sglang-pd.json; then
  diff <(head -c 4000 calibrate/corpus/sglang-pd.json) <(head -c 4000 "$tmp/sglang-pd.json") | head -20 || true
  echo "FAIL calibrate/corpus/sglang-pd.json is stale; regenerate it with:"
  echo "  pdsim calibrate corpus ${sets[*]} -o calibrate/corpus/sglang-pd.json"
  exit 1
fi
grep -q "per-token time (mean and median TPOT and ITL): tau" "$tmp/out.txt" || { echo "FAIL no spread printed"; cat "$tmp/out.txt"; exit 1; }
echo "corpus current: pass"
