#!/usr/bin/env bash
# SIGKILL at random points of `calibrate serving`, `validate` and `sweep merge` (issue 31; `run`
# is in output_unit_test.sh): each output is always the complete old one or the complete new one,
# never a mix, a torn file or nothing. A `sweep` appends a line per point as it finishes, so a
# killed sweep leaves a prefix of the whole run's lines (never a torn or foreign line), and its
# resume completes the file byte-identical to an uninterrupted run. TRIALS kills per command, at
# delays spread over the command's own wall time.
# Usage: tests/cli/kill_test.sh PDSIM SOURCE_DIR [TRIALS]
set -u
PDSIM=$(cd "$(dirname "$1")" && pwd)/$(basename "$1"); SRC=$2; TRIALS=${3:-20}
export PDSIM_DATA_DIR=$SRC
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
source "$(dirname "$0")/expect.sh"
digest() { if [ -d "$1" ]; then (cd "$1" && find . -type f | LC_ALL=C sort | xargs -r sha256sum | sha256sum | cut -c1-16)
           elif [ -f "$1" ]; then sha256sum < "$1" | cut -c1-16; else echo absent; fi; }
RANDOM=31  # reproducible delays

# kills NAME TARGET OLD_CMD -- NEW_CMD: writes the old output with OLD_CMD and the new one (in a
# copy) with NEW_CMD, then kills NEW_CMD writing onto a fresh copy of the old output TRIALS times.
kills() {
  local name=$1 target=$2; shift 2
  local -a old=() new=()
  while [ "$1" != -- ]; do old+=("$1"); shift; done; shift; new=("$@")
  rm -rf "$target"; "${old[@]}" >/dev/null 2>&1 || { bad "$name: the old command failed"; return; }
  local d_old; d_old=$(digest "$target"); cp -a "$target" "$T/$name.old"
  local s0 s1; s0=$(date +%s%N); "${new[@]}" >/dev/null 2>&1 || { bad "$name: the new command failed"; return; }
  s1=$(date +%s%N)
  local d_new; d_new=$(digest "$target") wall_ms=$(( (s1 - s0) / 1000000 ))
  [ "$d_old" != "$d_new" ] || { bad "$name: old and new outputs are the same"; return; }
  local n_old=0 n_new=0 i delay_ms d pid
  for i in $(seq 1 "$TRIALS"); do
    rm -rf "$target"; cp -a "$T/$name.old" "$target"
    delay_ms=$(( RANDOM % (wall_ms + 20) ))
    "${new[@]}" >/dev/null 2>&1 &
    pid=$!
    sleep "$(printf '%d.%03d' $((delay_ms / 1000)) $((delay_ms % 1000)))"
    kill -9 "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
    pkill -9 -P "$pid" 2>/dev/null  # its workers, if any outlived it
    d=$(digest "$target")
    if [ "$d" = "$d_old" ]; then n_old=$((n_old+1)); ok
    elif [ "$d" = "$d_new" ]; then n_new=$((n_new+1)); ok
    else bad "$name: kill $i after ${delay_ms} ms left neither the old nor the new output"; fi
  done
  echo "$name: $TRIALS kills (old $n_old, new $n_new; wall ${wall_ms} ms)"
}

# A one-run validation set with the paths made absolute (the test runs outside the tree).
VS=$SRC/calibrate/validation/glm51-2p2d-p5en-20260430.json
sed -e "s#\"glm51-2p2d-p5en-20260430/#\"$SRC/calibrate/validation/glm51-2p2d-p5en-20260430/#g; s#\"../../scenarios/#\"$SRC/scenarios/#g" "$VS" > "$T/vs3.json"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d["runs"]=d["runs"][1:2]; json.dump(d,open(sys.argv[2],"w"))' "$T/vs3.json" "$T/vs.json"

kills calibrate-serving "$T/fit.json" \
  "$PDSIM" calibrate serving "$T/vs.json" --fit serving.decode.host_us_per_iteration=0:60000 -o "$T/fit.json" -- \
  "$PDSIM" calibrate serving "$T/vs.json" --fit serving.decode.host_us_per_iteration=0:50000 -o "$T/fit.json"
kills validate "$T/val" \
  "$PDSIM" validate "$T/vs.json" --seed 1 --out "$T/val" -- \
  "$PDSIM" validate "$T/vs.json" --seed 2 --out "$T/val"
# Two shards of a small sweep, merged: old = shard 0 alone, new = both.
printf '{"base": "%s", "grid": {"workload.request_rate": [0.5, 1, 2, 4]}, "set": {"workload.num_prompts": 4}}' \
  "$SRC/scenarios/glm51-2p2d-efa-quick.json" > "$T/sw.json"
"$PDSIM" sweep "$T/sw.json" --results "$T/s1.jsonl" --shard 0/2 >/dev/null 2>&1
"$PDSIM" sweep "$T/sw.json" --results "$T/s2.jsonl" --shard 1/2 >/dev/null 2>&1
kills sweep-merge "$T/all.jsonl" \
  "$PDSIM" sweep merge "$T/s1.jsonl" -o "$T/all.jsonl" -- \
  "$PDSIM" sweep merge "$T/s1.jsonl" "$T/s2.jsonl" -o "$T/all.jsonl"
# sweep_kills NAME SWEEP: an uninterrupted run, then TRIALS runs killed at random points, each
# checked (its lines a prefix of the whole run's) and resumed to the whole file.
sweep_kills() {
  local name=$1 sweep=$2 full=$T/$1.full.jsonl r=$T/$1.jsonl
  local s0 s1; s0=$(date +%s%N)
  "$PDSIM" sweep "$sweep" --results "$full" --jobs 2 --progress off >/dev/null 2>&1 ||
    { bad "$name: the sweep failed"; return; }
  s1=$(date +%s%N)
  local wall_ms=$(( (s1 - s0) / 1000000 )) n_lines; n_lines=$(wc -l < "$full")
  local i delay_ms pid kept total=0
  for i in $(seq 1 "$TRIALS"); do
    rm -f "$r" "$T/.$name.jsonl.lock"
    delay_ms=$(( RANDOM % (wall_ms + 20) ))
    "$PDSIM" sweep "$sweep" --results "$r" --jobs 2 --progress off >/dev/null 2>&1 &
    pid=$!
    sleep "$(printf '%d.%03d' $((delay_ms / 1000)) $((delay_ms % 1000)))"
    kill -9 "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
    pkill -9 -P "$pid" 2>/dev/null
    kept=0; [ -f "$r" ] && kept=$(wc -l < "$r")
    total=$((total + kept))
    if [ -f "$r" ] && ! cmp -s "$r" <(head -n "$kept" "$full"); then
      bad "$name: kill $i after ${delay_ms} ms left lines that are not the run's first $kept"
      continue
    fi
    "$PDSIM" sweep "$sweep" --results "$r" --jobs 2 --progress off >/dev/null 2>&1 ||
      { bad "$name: the resume after kill $i failed"; continue; }
    if cmp -s "$r" "$full"; then ok; else bad "$name: the resume after kill $i differs from the whole run"; fi
  done
  echo "$name: $TRIALS kills ($total of $((TRIALS * n_lines)) lines kept; wall ${wall_ms} ms)"
}
printf '{"base": "%s", "grid": {"workload.request_rate": [0.5, 1, 2, 4, 8, 16]}, "set": {"workload.num_prompts": 8}}' \
  "$SRC/scenarios/glm51-2p2d-efa-quick.json" > "$T/swk.json"
sweep_kills sweep "$T/swk.json"
finish kill_test
