#!/usr/bin/env bash
# Scale benchmark (issue 29; not run in CI): wall time, CPU time and peak RSS of `pdsim run` on
# every scenarios/scale/ scenario (EP32-EP256, 4-64 nodes), median of RUNS runs at analytic
# fidelity and of PACKET_RUNS at packet fidelity (the 64-node EFA scenario places its instances by
# scenarios/topology/64n-p5en-8-per-l3.json, an assumed AWS network-node placement). Prints the
# machine context (CPUs, model, load) first: compare figures only from one machine.
# Usage: tests/bench/scale_bench.sh [PDSIM_BINARY] [RUNS] [PACKET_RUNS]
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
bin="${1:-$root/build/pdsim}"
runs="${2:-5}"
packet_runs="${3:-3}"
export PDSIM_DATA_DIR="${PDSIM_DATA_DIR:-$root}"
median() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
echo "machine: $(nproc) CPUs, $(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo), load $(cut -d' ' -f1-3 /proc/loadavg)"
printf "%-28s %-9s %5s %8s %8s %8s %12s\n" scenario fidelity runs wall_s user_s rss_MB mean_tpot_ms
bench() {  # bench NAME FIDELITY RUNS
  local name=$1 fid=$2 n=$3
  : > "$tmp/wall"; : > "$tmp/user"; : > "$tmp/rss"
  for ((i = 0; i < n; i++)); do
    /usr/bin/time -f "%e %U %M" -o "$tmp/time" "$bin" run "$root/scenarios/scale/$name.json" \
      --set "fabric.fidelity=$fid" --out "$tmp/out" > /dev/null
    read -r wall user rss < "$tmp/time"
    echo "$wall" >> "$tmp/wall"; echo "$user" >> "$tmp/user"; echo "$rss" | awk '{print $1/1024}' >> "$tmp/rss"
  done
  tpot=$(python3 -c "import json; print('%.2f' % json.load(open('$tmp/out/summary.json'))['mean_tpot_ms'])")
  printf "%-28s %-9s %5d %8.2f %8.2f %8.1f %12s\n" "$name" "$fid" "$n" "$(median < "$tmp/wall")" \
    "$(median < "$tmp/user")" "$(median < "$tmp/rss")" "$tpot"
}
for f in "$root"/scenarios/scale/*.json; do
  name=$(basename "$f" .json)
  bench "$name" analytic "$runs"
  bench "$name" packet "$packet_runs"
done
