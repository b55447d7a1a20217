#!/usr/bin/env bash
# The README's "Five minutes" commands, run as written (examples as tests): each line of that
# section's code block that starts with `pdsim` (with its `\` continuations), from a scratch folder
# that sees the repository's scenarios/ and calibrate/ as the README's working directory does.
# Each must exit 0 and print the answer the README says it gives.
# Usage: tests/cli/readme_test.sh PDSIM SOURCE_DIR
set -u
PDSIM=$1; SRC=$2
export PDSIM_DATA_DIR=$SRC
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
source "$(dirname "$0")/expect.sh"
ln -s "$SRC/scenarios" "$T/scenarios"
ln -s "$SRC/calibrate" "$T/calibrate"
# The code block after "### Five minutes", continuation lines joined.
awk '/^### Five minutes/ {s=1} s && /^```/ {n++; if (n == 2) exit; next} s && n == 1' "$SRC/README.md" |
  sed -e ':a' -e '/\\$/N; s/\\\n *//; ta' | grep '^pdsim ' > "$T/commands"
mapfile -t cmds < "$T/commands"
[ "${#cmds[@]}" -eq 4 ] || bad "readme: expected 4 commands in Five minutes, found ${#cmds[@]}"
want=("Mean TPOT delta" "Pareto frontier" "Workload from" "Mean |error| over 20 compared latency metrics: 6.7%")
cd "$T"
for i in "${!cmds[@]}"; do
  read -ra words <<<"${cmds[$i]#pdsim }"
  expect "readme-$((i + 1))" 0 "${want[$i]:-}" -- "$PDSIM" "${words[@]}"
done
finish readme
