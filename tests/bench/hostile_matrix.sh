#!/usr/bin/env bash
# The hostile-input matrix (issue 31): every declared scenario field (`pdsim fields`) set through
# --set to each hostile value of its type (wrong type, sign, magnitude 0 / tiny / huge / 2^31 /
# 2^63 / 2^64, null, empty and huge text, containers), run on a quick scenario. Each case is
# classed: `error` (exit 2 naming the field), `unclear` (exit 2 without the field's path),
# `accepted` (exit 0: a value the field's range admits, or a silent accept to look at), `bug`
# (exit 1), `crash` (killed by a signal) or `hang` (over 30 s). Prints one row per scenario
# section and the totals. Not in CI (a few minutes). Usage: hostile_matrix.sh PDSIM SOURCE_DIR
set -u
PDSIM=$1; SRC=$2
export PDSIM_DATA_DIR=$SRC
S=$SRC/scenarios/glm51-2p2d-efa-quick.json
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
NUM=(0 -1 1e-300 1e300 -1e300 2147483648 9223372036854775808 18446744073709551616 '"x"' null true '[]' '{}' 0.5)
STR=('""' '"no-such-name"' "\"$(head -c 5000 /dev/zero | tr '\0' x)\"" '"../../../etc/passwd"' 1 null '[]' '{"a":1}')
ARR=('[]' '[0]' '[-1]' '[1e300]' '"x"' null '[[1]]' '[1,1]' '[2147483648]')
BOOL=(0 1 '"true"' null '[]')
cases=$T/cases
"$PDSIM" fields 2>/dev/null | while read -r path type _; do
  case $type in
    integer|number) vals=("${NUM[@]}") ;;
    string) vals=("${STR[@]}") ;;
    array) vals=("${ARR[@]}") ;;
    boolean) vals=("${BOOL[@]}") ;;
    *) vals=('"x"' 1 null '[]') ;;
  esac
  for v in "${vals[@]}"; do printf '%s\t%s\n' "$path" "$v"; done
done > "$cases"
run_case() {
  local path=$1 val=$2 n=$3 out rc class
  out=$(timeout 30 "$PDSIM" run "$S" --set "workload.num_prompts=4" --set "$path=$val" \
        --out "$T/o$n" 2>&1 >/dev/null); rc=$?
  rm -rf "$T/o$n" "$T/.o$n.lock"
  if [ $rc -eq 124 ]; then class=hang
  elif [ $rc -ge 128 ]; then class=crash
  elif [ $rc -eq 1 ]; then class=bug
  elif [ $rc -eq 2 ] && grep -qF -- "${path}" <<<"$out"; then class=error
  # A cross-field rule may name the section and the field's own name ('profile') in its message.
  elif [ $rc -eq 2 ] && grep -qF -- "field '${path%.*}'" <<<"$out" &&
    grep -qF -- "'${path##*.}'" <<<"$out"; then class=error
  elif [ $rc -eq 2 ]; then class=unclear
  elif [ $rc -eq 0 ]; then class=accepted
  else class="rc$rc"; fi
  # One row under PIPE_BUF (4 KiB) so that parallel writers never interleave: a 5000-byte value
  # is cut.
  printf '%s\t%s\t%s\t%s\n' "${path%%.*}" "$class" "$(cut -c1-200 <<<"$path=$val")" \
    "$(head -1 <<<"$out" | cut -c1-160)"
}
export -f run_case; export PDSIM S T
n=0
while IFS=$'\t' read -r path val; do n=$((n+1)); printf '%s\0%s\0%s\0' "$path" "$val" "$n"; done < "$cases" |
  xargs -0 -n3 -P"$(nproc)" bash -c 'run_case "$0" "$1" "$2"' > "$T/results"
sort "$T/results" > "$T/sorted"
printf '| section | cases | errors (exit 2, field named) | unclear | accepted (exit 0) | bug (exit 1) | crashes | hangs |\n|---|---|---|---|---|---|---|---|\n'
awk -F'\t' '{c[$1]++; k[$1","$2]++; t[$2]++; n++} END {
  for (s in c) printf "| %s | %d | %d | %d | %d | %d | %d | %d |\n", s, c[s], k[s",error"], k[s",unclear"], k[s",accepted"], k[s",bug"], k[s",crash"], k[s",hang"];
  printf "| **all** | %d | %d | %d | %d | %d | %d | %d |\n", n, t["error"], t["unclear"], t["accepted"], t["bug"], t["crash"], t["hang"] }' "$T/sorted" | sort
echo
echo "Not exit 2 with the field named (look at each):"
awk -F'\t' '$2 != "error" {print "  " $2 ": " $3 "  -> " $4}' "$T/sorted"
