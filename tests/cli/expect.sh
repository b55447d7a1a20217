# Shared by the CLI test scripts (sourced): pass/fail counters and `expect`.
#   expect NAME WANT_RC PATTERN -- command...   the exit code and a line of the output
# EXPECT_TIMEOUT=S makes a hang fail too; EXPECT_MAX_OUTPUT=N fails an output longer than N bytes
# (one short message: a 52 MB token must not come back whole). `finish` prints the tally and
# returns the script's status.
fail=0; pass=0
ok() { pass=$((pass+1)); }
bad() { echo "FAIL $*"; fail=$((fail+1)); }
expect() {
  local name=$1 want=$2 pat=$3; shift 4
  local out rc
  if [ -n "${EXPECT_TIMEOUT:-}" ]; then out=$(timeout "$EXPECT_TIMEOUT" "$@" 2>&1); rc=$?
  else out=$("$@" 2>&1); rc=$?; fi
  if [ "$rc" -ne "$want" ] || ! grep -qF -- "$pat" <<<"$out" ||
     { [ -n "${EXPECT_MAX_OUTPUT:-}" ] && [ "${#out}" -gt "$EXPECT_MAX_OUTPUT" ]; }; then
    bad "$name: rc=$rc (want $want), ${#out} bytes of output:"; echo "${out:0:600}" | tail -5
  else ok; fi
}
finish() {
  echo "${1:+$1: }$pass passed, $fail failed"
  [ "$fail" -eq 0 ]
}
