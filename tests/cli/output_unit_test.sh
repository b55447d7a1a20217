#!/usr/bin/env bash
# Outputs and failures as a user meets them (issue 15): an output directory is the complete old
# run or the complete new one whatever kills the writer (20 SIGKILLs at random points); names
# from input files cannot write outside the tree; a directory pdsim did not write is never
# replaced; disk errors exit 4 with errno text and leave the old outputs; a crashed worker exits 1
# with the signal; the documented exit codes hold.
# Usage: tests/cli/output_unit_test.sh PDSIM SOURCE_DIR [KILL_TRIALS]
set -u
PDSIM=$(cd "$(dirname "$1")" && pwd)/$(basename "$1"); SRC=$2; TRIALS=${3:-20}
export PDSIM_DATA_DIR=$SRC
S=$SRC/scenarios/glm51-2p2d-efa-quick.json
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
source "$(dirname "$0")/expect.sh"
digest() { (cd "$1" 2>/dev/null && find . -type f | LC_ALL=C sort | xargs -r sha256sum | sha256sum | cut -c1-16) || echo absent; }
RUN=("$PDSIM" run "$S" --set workload.num_prompts=8)

# Names that become paths are checked: nothing is written outside the tree.
mkdir -p "$T/w/a/b"
(cd "$T/w/a/b" && expect name-escape 2 "field 'name': a name usable as a file name" -- "${RUN[@]}" --set 'name=../../escaped')
if [ -z "$(find "$T" -name escaped)" ]; then ok; else bad "name-escape: wrote $(find "$T" -name escaped)"; fi
(cd "$T/w/a/b" && expect name-slash 2 "field 'name'" -- "${RUN[@]}" --set 'name=x/y')
(cd "$T/w/a/b" && expect name-dot 2 "field 'name'" -- "${RUN[@]}" --set 'name=.hidden')
printf '{"schema":"pdsim.sweep/1","name":"../up","base":"%s","grid":{"seed":[1,2]}}\n' "$S" > "$T/sw.json"
expect sweep-name 2 "$T/sw.json: field 'name': a name usable as a file name" -- "$PDSIM" sweep "$T/sw.json"
sed 's#"name": "R2-shared-rails"#"name": "../R2"#' "$SRC/calibrate/validation/glm51-2p2d-p5en-20260430.json" > "$T/vs.json"
sed -i "s#\"glm51-2p2d-p5en-20260430/#\"$SRC/calibrate/validation/glm51-2p2d-p5en-20260430/#g; s#\"../../scenarios/#\"$SRC/scenarios/#g" "$T/vs.json"
expect set-run-name 2 "field 'runs[0].name': a name usable as a file name" -- "$PDSIM" validate "$T/vs.json" --out "$T/v"

# A directory pdsim did not write is never replaced.
mkdir -p "$T/home"; echo keep > "$T/home/precious"
expect foreign-dir 2 "was not written by pdsim" -- "${RUN[@]}" --out "$T/home"
if [ "$(cat "$T/home/precious")" = keep ]; then ok; else bad "foreign-dir: user file changed"; fi
echo x > "$T/file"
expect out-is-file 2 "exists and is not a directory" -- "${RUN[@]}" --out "$T/file"
# A summary.json does not make a directory pdsim's (issue 31): only the marker does.
mkdir -p "$T/p/src"; echo x > "$T/p/src/a.c"; echo {} > "$T/p/summary.json"
expect legacy-index 2 "was not written by pdsim" -- "${RUN[@]}" --out "$T/p"
if [ "$(cat "$T/p/src/a.c")" = x ] && [ -f "$T/p/summary.json" ]; then ok; else bad "legacy-index: user files changed"; fi
# A symbolic link is refused, not replaced by a directory.
mkdir -p "$T/real"; ln -s "$T/real" "$T/link"
expect out-symlink 2 "not a symbolic link" -- "${RUN[@]}" --out "$T/link"
if [ -L "$T/link" ]; then ok; else bad "out-symlink: the link was replaced"; fi
# One writer per output directory: a second is refused while the lock is held.
flock "$T/.busy.lock" sleep 30 & holder=$!
for _ in $(seq 1 100); do flock -n "$T/.busy.lock" true 2>/dev/null || break; sleep 0.05; done
expect out-locked 2 "is locked by another process" -- "${RUN[@]}" --out "$T/busy"
pkill -P "$holder" 2>/dev/null; kill "$holder" 2>/dev/null; wait "$holder" 2>/dev/null
if [ ! -e "$T/busy" ]; then ok; else bad "out-locked: the second writer wrote"; fi
# A stray staging directory with a number no pid can be is someone else's: left alone.
mkdir -p "$T/.st.staging.99999999999999999999"
expect stray-staging 0 "Results written to $T/st/" -- "${RUN[@]}" --out "$T/st"
if [ -d "$T/.st.staging.99999999999999999999" ]; then ok; else bad "stray-staging: removed"; fi

# Reference outputs: seed 1 (old) and seed 2 (new); the same run twice is byte-identical.
expect ref-old 0 "Results written to $T/old/" -- "${RUN[@]}" --seed 1 --out "$T/old"
expect ref-new 0 "Results written to $T/new/" -- "${RUN[@]}" --seed 2 --out "$T/new"
OLD=$(digest "$T/old"); NEW=$(digest "$T/new")
expect rerun 0 "Results written" -- "${RUN[@]}" --seed 2 --out "$T/new"
if [ "$(digest "$T/new")" = "$NEW" ] && [ "$OLD" != "$NEW" ]; then ok; else bad "reference outputs not deterministic or not distinct"; fi

# A failed run leaves the old directory complete and untouched, and no staging directory.
cp -a "$T/old" "$T/o"
expect failed-run 2 "unknown scenario path" -- "${RUN[@]}" --seed 2 --set decode.bogus=1 --out "$T/o"
if [ "$(digest "$T/o")" = "$OLD" ]; then ok; else bad "failed-run: old outputs changed"; fi
# A disk error (file size limit: EFBIG, as a full disk gives ENOSPC) exits 4 with errno text.
expect disk-error 4 "File too large" -- bash -c "ulimit -f 8; trap '' XFSZ; exec \"\$@\"" _ "${RUN[@]}" --seed 2 --out "$T/o"
if [ "$(digest "$T/o")" = "$OLD" ]; then ok; else bad "disk-error: old outputs changed"; fi
if [ -z "$(find "$T" -maxdepth 1 -name '.o.staging.*')" ]; then ok; else bad "disk-error: staging directory left behind"; fi
printf '{"schema":"pdsim.sweep/1","name":"small","base":"%s","set":{"workload.num_prompts":4},"grid":{"seed":[1,2]}}\n' "$S" > "$T/small.json"
# An output onto the results or the sweep file is refused before anything runs (issue 31).
echo keep > "$T/keep.jsonl"
expect sweep-analysis-onto-results 2 "a file other than the sweep file and the results file" -- "$PDSIM" sweep "$T/small.json" --results "$T/keep.jsonl" --analysis "$T/keep.jsonl" --jobs 1
expect sweep-results-onto-spec 2 "a file other than the sweep file" -- "$PDSIM" sweep "$T/small.json" --results "$T/small.json" --jobs 1
if [ "$(cat "$T/keep.jsonl")" = keep ] && grep -q '"name":"small"' "$T/small.json"; then ok; else bad "sweep outputs onto inputs: an input changed"; fi
expect sweep-disk-error 4 "write failed: File too large" -- bash -c "ulimit -f 1; trap '' XFSZ; exec \"\$@\"" _ "$PDSIM" sweep "$T/small.json" --results "$T/full.jsonl" --jobs 1

# A crashed worker is an error with its signal, exit 1, not an abort.
# (the reference scenario: its simulation process lives long enough to be found, ~1 s)
"$PDSIM" run "$SRC/scenarios/glm51-2p2d-efa.json" --out "$T/c" > "$T/crash.log" 2>&1 &
pid=$!
child=""
for _ in $(seq 1 2000); do child=$(pgrep -P "$pid" | head -1); [ -n "$child" ] && break; done
[ -n "$child" ] && kill -9 "$child"
wait "$pid"; rc=$?
if [ "$rc" -eq 1 ] && grep -qF "simulation process died with signal 9 (Killed)" "$T/crash.log"; then ok
else bad "crashed-worker: rc=$rc, $(tail -2 "$T/crash.log")"; fi

# SIGKILL at random points of a run that replaces old outputs: the directory is always the
# complete old run or the complete new one. Delays span the simulation and the writing.
s0=$(date +%s%N); "${RUN[@]}" --seed 2 --out "$T/timing" >/dev/null 2>&1; s1=$(date +%s%N)
wall_ms=$(( (s1 - s0) / 1000000 ))
RANDOM=15  # reproducible delays
n_old=0; n_new=0
for i in $(seq 1 "$TRIALS"); do
  rm -rf "$T/k"; cp -a "$T/old" "$T/k"
  delay_ms=$(( wall_ms / 2 + RANDOM % (wall_ms * 6 / 10 + 1) ))
  "${RUN[@]}" --seed 2 --out "$T/k" >/dev/null 2>&1 &
  pid=$!
  sleep "$(printf '%d.%03d' $((delay_ms / 1000)) $((delay_ms % 1000)))"
  kill -9 "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
  d=$(digest "$T/k")
  if [ "$d" = "$OLD" ]; then n_old=$((n_old+1)); ok
  elif [ "$d" = "$NEW" ]; then n_new=$((n_new+1)); ok
  else bad "kill trial $i after ${delay_ms} ms: neither the old nor the new run ($(ls -A "$T/k" | tr '\n' ' '))"; fi
done
echo "kill trials: $TRIALS (old $n_old, new $n_new; run wall ${wall_ms} ms)"
# The next run removes the staging directories the killed ones left.
expect after-kills 0 "Results written" -- "${RUN[@]}" --seed 2 --out "$T/k"
if [ -z "$(find "$T" -maxdepth 1 -name '.k.staging.*')" ] && [ "$(digest "$T/k")" = "$NEW" ]; then ok
else bad "after-kills: stale staging left or outputs wrong"; fi

finish
