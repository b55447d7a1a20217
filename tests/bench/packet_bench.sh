#!/usr/bin/env bash
# Packet-engine benchmark (not run in CI): runs `pdsim fabric` on the benchmark experiments
# several times and prints the median wall time, events/s and peak RSS (/usr/bin/time -v),
# plus the FCT quantiles of the last run and, for workloads with phases (all-to-all, KV
# transfer), their phase-latency quantiles.
# Usage: tests/bench/packet_bench.sh [PDSIM_BINARY] [RUNS] [EXPERIMENT.json...]
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
bin="${1:-$root/build/pdsim}"
runs="${2:-3}"
shift $(( $# > 2 ? 2 : $# )) || true
experiments=("$@")
if [ ${#experiments[@]} -eq 0 ]; then
  experiments=("$root/scenarios/fabric/fattree432-permutation-spray.json"
               "$root/scenarios/fabric/fattree432-permutation-ecmp.json")
fi
export PDSIM_DATA_DIR="${PDSIM_DATA_DIR:-$root}"
median() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
printf "%-40s %8s %8s %12s %10s %10s %10s %10s\n" experiment wall_s user_s Mevents/s rss_MB p50_us p99_us max_us
for exp in "${experiments[@]}"; do
  : > "$tmp/wall"; : > "$tmp/eps"; : > "$tmp/rss"; : > "$tmp/user"
  for ((i = 0; i < runs; i++)); do
    /usr/bin/time -v "$bin" fabric "$exp" --out "$tmp/out" > /dev/null 2> "$tmp/time"
    python3 -c "import json,sys; s=json.load(open('$tmp/out/summary.json')); print(s['wall_s']); print(s['events_per_s']/1e6, file=sys.stderr)" >> "$tmp/wall" 2>> "$tmp/eps"
    awk -F: '/Maximum resident set size/ {print $2/1024}' "$tmp/time" >> "$tmp/rss"
    awk -F: '/User time \(seconds\)/ {print $2}' "$tmp/time" >> "$tmp/user"
  done
  fct=$(python3 -c "import json; f=json.load(open('$tmp/out/summary.json'))['fct_us']; print('%.1f %.1f %.1f' % (f['p50'], f['p99'], f['max']))")
  read -r p50 p99 mx <<< "$fct"
  printf "%-40s %8.3f %8.3f %12.2f %10.1f %10s %10s %10s\n" "$(basename "$exp" .json)" \
    "$(median < "$tmp/wall")" "$(median < "$tmp/user")" "$(median < "$tmp/eps")" "$(median < "$tmp/rss")" "$p50" "$p99" "$mx"
  python3 -c "
import json
for name, w in json.load(open('$tmp/out/summary.json'))['workloads'].items():
    if 'phase_us' in w:
        q = w['phase_us']
        print('  phase %-33s %d phases: p50 %.1f us, p99 %.1f us, max %.1f us' % (name, q['count'], q['p50'], q['p99'], q['max']))"
done
