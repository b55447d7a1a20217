#!/usr/bin/env bash
# End-to-end checks of `pdsim sweep`: a sweep killed with SIGKILL midway resumes without losing or
# repeating a point; --jobs 1 and --jobs 2 give the same results; shards merge into the full
# sweep; infeasible points are filtered with reasons; malformed sweep files exit 2 naming the
# field; --report writes the sweep page; the SLO search ends with the cheapest configuration as
# SGLang flags; results do not depend on malloc's huge pages.
# Usage: tests/cli/sweep_test.sh PDSIM SOURCE_DIR
set -u
PDSIM=$1; SRC=$2
export PDSIM_DATA_DIR=$SRC
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
source "$(dirname "$0")/expect.sh"
points() { grep -o '"point":[0-9]*' "$1" | sort; }

# 12 points of the quick scenario cut to 6 prompts each.
cat > "$T/s.json" <<JSON
{"schema": "pdsim.sweep/1", "name": "t", "base": "$SRC/scenarios/glm51-2p2d-efa-quick.json",
 "set": {"workload.num_prompts": 6},
 "grid": {"decode.speculative.algorithm": ["eagle", "none"],
          "workload.request_rate": [0.5, 1, 2],
          "prefill.chunked_prefill_size": [8192, 16384]}}
JSON

# Kill -9 once a few points are written, tear the last line by hand, resume.
"$PDSIM" sweep "$T/s.json" --results "$T/k.jsonl" --jobs 1 >/dev/null 2>&1 &
pid=$!
for _ in $(seq 1 600); do
  [ -f "$T/k.jsonl" ] && [ "$(wc -l < "$T/k.jsonl")" -ge 3 ] && break
  sleep 0.05
done
kill -9 $pid; wait $pid 2>/dev/null
before=$(wc -l < "$T/k.jsonl")
if [ "$before" -ge 3 ] && [ "$before" -lt 12 ]; then ok; else bad "kill: $before lines when killed (want 3..11)"; fi
printf '{"sweep":"torn' >> "$T/k.jsonl"
expect resume 0 "$before already done" -- "$PDSIM" sweep "$T/s.json" --results "$T/k.jsonl" --jobs 1
if [ "$(points "$T/k.jsonl" | uniq | wc -l)" -eq 12 ] && [ "$(wc -l < "$T/k.jsonl")" -eq 12 ]; then ok
else bad "resume: want 12 distinct points in 12 lines, got $(wc -l < "$T/k.jsonl") lines"; fi
expect resume-noop 0 "12 already done, 0 infeasible, 0 simulated" -- "$PDSIM" sweep "$T/s.json" --results "$T/k.jsonl"

# --jobs 2 from scratch equals the resumed --jobs 1 run byte for byte: lines are written in point
# order whatever --jobs is (the reorder buffer of sim/sweep/sweep_runner.cpp).
expect jobs2 0 "12 simulated (0 errors)" -- "$PDSIM" sweep "$T/s.json" --results "$T/j2.jsonl" --jobs 2
if cmp -s "$T/k.jsonl" "$T/j2.jsonl"; then ok; else bad "jobs 1 (killed + resumed) and jobs 2 results files differ"; fi
"$PDSIM" sweep merge "$T/j2.jsonl" -o "$T/j2.sorted" >/dev/null
if cmp -s "$T/j2.jsonl" "$T/j2.sorted"; then ok; else bad "a --jobs 2 results file is not in point order"; fi

# Two shards cover the sweep; merged they equal the single run.
expect shard0 0 "6 points" -- "$PDSIM" sweep "$T/s.json" --shard 0/2 --results "$T/s0.jsonl" --jobs 2
expect shard1 0 "6 points" -- "$PDSIM" sweep "$T/s.json" --shard 1/2 --results "$T/s1.jsonl" --jobs 2
expect merge 0 "merged 12 points" -- "$PDSIM" sweep merge "$T/s0.jsonl" "$T/s1.jsonl" -o "$T/m.jsonl"
if cmp -s "$T/m.jsonl" "$T/j2.sorted"; then ok; else bad "merged shards differ from the full sweep"; fi
# The allocator's huge pages (sim/core/malloc_hugepages.hpp) change no result.
expect no-hugepages 0 "6 points" -- env PDSIM_MALLOC_HUGEPAGES=0 "$PDSIM" sweep "$T/s.json" --shard 0/2 --results "$T/h0.jsonl" --jobs 2
"$PDSIM" sweep merge "$T/s0.jsonl" -o "$T/s0.sorted" >/dev/null 2>&1
"$PDSIM" sweep merge "$T/h0.jsonl" -o "$T/h0.sorted" >/dev/null 2>&1
if cmp -s "$T/s0.sorted" "$T/h0.sorted"; then ok; else bad "results differ with PDSIM_MALLOC_HUGEPAGES=0"; fi
expect merge-partial 0 "6 points missing" -- "$PDSIM" sweep merge "$T/s0.jsonl" -o "$T/p.jsonl"
expect analyze 0 "12 ok, 0 infeasible" -- "$PDSIM" sweep "$T/s.json" --results "$T/m.jsonl" --analyze-only
# --report after the analysis: the HTML page carries the rate and Pareto charts.
expect report 0 "Report written to $T/m.html" -- "$PDSIM" sweep "$T/s.json" --results "$T/m.jsonl" --analyze-only --report "$T/m.html" --report "$T/m.md"
if grep -q 'id="ttft-rate"' "$T/m.html" && grep -q 'id="pareto"' "$T/m.html"; then ok; else bad "sweep --report html: charts missing"; fi
expect report-ext 2 "field '--report': a file ending in .html, .md or .csv" -- "$PDSIM" sweep "$T/s.json" --results "$T/m.jsonl" --analyze-only --report "$T/m.pdf"

# A results file of another sweep is refused.
sed 's/"workload.num_prompts": 6/"workload.num_prompts": 5/' "$T/s.json" > "$T/s2.json"
expect other-sweep 2 "belongs to sweep" -- "$PDSIM" sweep "$T/s2.json" --results "$T/k.jsonl"
"$PDSIM" sweep "$T/s2.json" --results "$T/o.jsonl" --shard 0/12 >/dev/null 2>&1
expect merge-mixed 2 "not the same sweep" -- "$PDSIM" sweep merge "$T/k.jsonl" "$T/o.jsonl" -o "$T/x.jsonl"

# Infeasible points are filtered first, with their reasons.
expect infeasible 0 "4 infeasible" -- "$PDSIM" sweep "$SRC/scenarios/sweeps/quick-smoke.json" --results "$T/q.jsonl"
if grep -q "field 'decode.ep': a divisor of the 256 routed experts (FusedMoE asserts num_experts % moe_ep_size == 0), got 24 \[SGLang --ep-size\]\",\"status\":\"infeasible\"" "$T/q.jsonl"; then ok
else bad "infeasible reason not recorded"; fi

# Malformed sweep files and flags.
echo '{"base": "x.json", "grid": {"seed": [1]}' > "$T/b1.json"
expect bad-json 2 "b1.json" -- "$PDSIM" sweep "$T/b1.json"
echo "{\"base\": \"$SRC/scenarios/glm51-2p2d-efa-quick.json\", \"grid\": {\"decode.dpp\": [1]}}" > "$T/b2.json"
expect bad-path 2 "field 'grid.decode.dpp': unknown scenario path" -- "$PDSIM" sweep "$T/b2.json"
echo "{\"base\": \"$SRC/scenarios/glm51-2p2d-efa-quick.json\", \"grid\": {\"decode.dp\": [\"x\"]}}" > "$T/b3.json"
expect bad-type 2 "field 'decode.dp': expected an integer" -- "$PDSIM" sweep "$T/b3.json" --results "$T/b3.jsonl"
expect bad-shard 2 "expected i/N" -- "$PDSIM" sweep "$T/s.json" --shard 2/2

# SLO search: one configuration, coarse tolerance; the cheapest one comes out as SGLang flags.
cat > "$T/slo.json" <<JSON
{"schema": "pdsim.sweep/1", "name": "slo", "base": "$SRC/scenarios/glm51-2p2d-efa-quick.json",
 "set": {"workload.num_prompts": 6},
 "list": [{}],
 "slo": {"p99_ttft_ms": 20000, "mean_tpot_ms": 100, "rate_bracket": [0.25, 4], "rel_tolerance": 0.5}}
JSON
expect slo 0 "python3 -m sglang.launch_server --model-path zai-org/GLM-5.1-FP8 --nnodes 2 --tp-size 8" -- "$PDSIM" sweep "$T/slo.json" --results "$T/slo.jsonl"
if grep -q '"max_request_rate":' "$T/slo.jsonl" && grep -q '"goodput_rps_per_gpu":' "$T/slo.jsonl"; then ok
else bad "slo fields missing from the results line"; fi
finish
