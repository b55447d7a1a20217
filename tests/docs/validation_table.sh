#!/usr/bin/env bash
# The README's "Where predictions hold" table, from the project's own validation output: every
# shipped validation set (calibrate/validation/*.json) run by `pdsim validate` with its profiles
# alone and with the shipped overlay of the same name (calibrate/overlays/), and the overlay's
# own leave-one-out predictions (fit.leave_one_out: each run predicted by the fit on the others);
# for a set of published points with a grouped leave-one-out (--leave-out-by), a table per group.
#   validation_table.sh PDSIM SOURCE_DIR          print the table
#   validation_table.sh PDSIM SOURCE_DIR --write  replace it in README.md (between the markers)
#   validation_table.sh PDSIM SOURCE_DIR --check  fail when README.md's copy is stale (ctest)
set -euo pipefail
PDSIM=$1; SRC=$2; MODE=${3:-}
export PDSIM_DATA_DIR=$SRC
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
for set in "$SRC"/calibrate/validation/*.json; do
  name=$(basename "$set" .json)
  "$PDSIM" validate "$set" --progress off --out "$T/$name.alone" >/dev/null
  overlay=$SRC/calibrate/overlays/$name.json
  if [ -f "$overlay" ]; then
    "$PDSIM" validate "$set" --progress off --profile-overlay "$overlay" --out "$T/$name.fitted" >/dev/null
  fi
done
python3 - "$T" "$SRC" > "$T/table.md" <<'PY'
import json, math, os, sys
tmp, src = sys.argv[1], sys.argv[2]
metrics = [("duration", "duration"), ("mean_e2e_latency_ms", "mean E2E"),
           ("median_itl_ms", "median ITL"), ("p99_itl_ms", "p99 ITL")]
def cell(v):
    return "—" if v is None else ("%+.1f %%" % v).replace("-", "−")
def by_run(path):
    d = json.load(open(path))
    out = {}
    for r in d["runs"]:
        out[r["name"]] = {m["key"]: (m.get("error_pct") if m.get("status") == "ok" else None)
                          for m in r["validation"]["metrics"]}
    return d, out
print("| set | run | prediction | " + " | ".join(l for _, l in metrics) + " |")
print("|---|---|---|" + "---|" * len(metrics))
hidden = {}
overlays = {}
spreads = []
for f in sorted(os.listdir(os.path.join(src, "calibrate", "validation"))):
    if not f.endswith(".json"):
        continue
    name = f[:-5]
    alone_doc, alone = by_run(os.path.join(tmp, name + ".alone", "validation.json"))
    fitted = {}
    loo = {}
    fitted_path = os.path.join(tmp, name + ".fitted", "validation.json")
    if os.path.exists(fitted_path):
        fitted_doc, fitted = by_run(fitted_path)
        for sp in fitted_doc.get("overlay_fold_spreads", []):
            spreads.append(sp)
        ov = json.load(open(os.path.join(src, "calibrate", "overlays", f)))
        overlays[name] = (ov, alone, fitted)
        for fold in ov.get("fit", {}).get("leave_one_out", []):
            # a fold may leave a group of runs out together (--leave-out-by): key by each residual's run
            for r in fold["residuals"]:
                loo.setdefault(r["run"], {})[r["metric"]] = r["error_pct"]
    for run in alone:
        rows = [("profiles alone (no fit)", alone[run])]
        if run in fitted:
            rows.append(("fitted to these runs", fitted[run]))
        if run in loo:
            rows.append(("left out of the fit", loo[run]))
        if all(errs.get(k) is None for _, errs in rows for k, _ in metrics):
            # a set of published points (mean TPOT, TTFT, throughput) compares none of these
            hidden.setdefault(name, []).append(run)
            continue
        for i, (label, errs) in enumerate(rows):
            lead = ("`%s`" % name, run) if i == 0 else ("", "")
            print("| %s | %s | %s | " % (lead[0], lead[1], label) +
                  " | ".join(cell(errs.get(k)) for k, _ in metrics) + " |")
if hidden:
    print()
def median(xs):
    xs = sorted(xs)
    n = len(xs)
    return None if n == 0 else (xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2)
for name, runs in hidden.items():
    print("`%s`: %d runs compare none of these metrics (`pdsim validate "
          "calibrate/validation/%s.json` prints the ones they have)." % (name, len(runs), name))
    if name not in overlays:
        continue
    ov, alone, fitted = overlays[name]
    fit = ov.get("fit", {})
    folds = [f for f in fit.get("leave_one_out", []) if "left_out_runs" in f]
    if not folds:
        continue
    # a grouped leave-one-out (--leave-out-by): per group left out, the median error of each
    # fitted metric with the profiles alone, fitted, and predicted by the fit on the other groups
    fitted_metrics = ov["provenance"]["metrics"]
    print()
    print("Its overlay's fit, each %s left out in turn (`fit.leave_one_out`), median error of %s:"
          % (fit["leave_out_by"], ", ".join("`%s`" % m for m in fitted_metrics)))
    print()
    print("| left out | runs | profiles alone (no fit) | fitted to these runs | left out of the fit "
          "| inside its 90 % interval |")
    print("|---|---|---|---|---|---|")
    for fold in folds:
        rs = [r for r in fold["residuals"] if r["metric"] in fitted_metrics]
        if not rs:
            continue
        inside = sum(1 for r in rs if r.get("measured_inside_interval_90"))
        known = sum(1 for r in rs if r.get("measured_inside_interval_90") is not None)
        print("| %s | %d | %s | %s | %s | %s |" % (
            fold["left_out"].replace("|", "\\|"), len(rs),
            cell(median([alone[r["run"]][r["metric"]] for r in rs])),
            cell(median([fitted[r["run"]][r["metric"]] for r in rs])),
            cell(median([r["error_pct"] for r in rs])),
            "%d of %d" % (inside, known) if known else "—"))
if spreads:
    # the same estimator over each overlay's folds (pdsim validate SET --profile-overlay prints it)
    print()
    print("Each overlay's left-out errors as `pdsim run` uses them for a deployment outside the "
          "corpus that only recombines what its folds predicted (`sim/fit/fold_spread.hpp`; "
          "`pdsim validate SET --profile-overlay OVERLAY` prints them):")
    print()
    print("| overlay | left out by | metric family | tau | 90 % interval | folds | runs "
          "| inside when its fold is left out of tau |")
    print("|---|---|---|---|---|---|---|---|")
    for sp in spreads:
        for f in sp["families"]:
            print("| `%s` | %s | %s | %.3f | ×/÷ %.2f | %d | %d | %d of %d |" % (
                sp["overlay"], sp["leave_out_by"], f["family"], f["tau"],
                math.exp(1.6448536269514722 * f["tau"]), f["deployments"], f["runs"],
                f["inside_90_left_out"], f["runs"]))
PY
begin='<!-- validation-table:begin (tests/docs/validation_table.sh --write) -->'
end='<!-- validation-table:end -->'
case $MODE in
  "") cat "$T/table.md" ;;
  --write|--check)
    python3 - "$SRC/README.md" "$T/table.md" "$begin" "$end" "$MODE" <<'PY'
import sys
readme, table, begin, end, mode = sys.argv[1:6]
text = open(readme).read()
if begin not in text or end not in text:
    sys.exit("validation_table: README.md has no markers " + begin + " ... " + end)
head, rest = text.split(begin, 1)
_, tail = rest.split(end, 1)
new = head + begin + "\n" + open(table).read() + end + tail
if mode == "--check":
    if new != text:
        sys.exit("validation_table: README.md's table is stale: run tests/docs/validation_table.sh "
                 "build/pdsim . --write")
else:
    open(readme, "w").write(new)
PY
    ;;
  *) echo "validation_table: unknown mode $MODE" >&2; exit 2 ;;
esac
