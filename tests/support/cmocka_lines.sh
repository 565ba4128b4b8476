# skyisles shell tests: runs the functions named in the array `tests` and prints cmocka-style
# lines for them, which tests/run.sh counts; exits 1 when any failed. Sourced, then called last:
#   . "$top/tests/support/cmocka_lines.sh"; cmocka_run [NOTE...]
# Each NOTE is printed as a "note:" line after the header.
cmocka_run() {
  local t run=0 passed=0 failed_names=()
  echo "[==========] Running ${#tests[@]} test(s)."
  for t in "$@"; do echo "note: $t"; done
  for t in "${tests[@]}"; do
    echo "[ RUN      ] $t"
    run=$((run + 1))
    if "$t"; then
      echo "[       OK ] $t"
      passed=$((passed + 1))
    else
      echo "[  FAILED  ] $t"
      failed_names+=("$t")
    fi
  done
  echo "[==========] $run test(s) run."
  echo "[  PASSED  ] $passed test(s)."
  if [ ${#failed_names[@]} -gt 0 ]; then
    echo "[  FAILED  ] ${#failed_names[@]} test(s), listed below:"
    for t in "${failed_names[@]}"; do echo "[  FAILED  ] $t"; done
    exit 1
  fi
  exit 0
}
