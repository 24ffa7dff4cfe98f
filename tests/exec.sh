#!/usr/bin/env bash
# exec.sh KJIT_BIN FILE - run a self-checking kernel file on the CPU target.
#
# Run from tests/ with FILE relative to it (exec/foo.py), as ctest does.
# The file carries its own command lines and expected output:
#   # RUN: KERNEL ARGS...      runs `kjit run FILE:KERNEL --target cpu ARGS...`
#   # EXPECT: TEXT             a line of that run's stdout must contain TEXT
#   # EXPECT-EXIT: N           the run's exit status (default 0)
# In RUN lines %t is a temporary folder shared by the file's runs (for -o
# files that a later RUN reads back).
# EXPECT lines belong to the RUN line above them.  Expected array summaries
# ("out: float32[1000] [2, 3, ...] sum=... crc=...") are computed outside
# kjit (in Python, from the expression noted under each one), never blessed
# from kjit's own output: write "# EXPECT: @NAME DTYPE SHAPE PYTHON-LIST"
# and run `python3 tests/exec_expect.py tests/exec/NEW.py` once.
set -uo pipefail
if [ $# -ne 2 ]; then
  echo "usage: exec.sh KJIT_BIN FILE" >&2; exit 2
fi
kjit=$1 file=$2
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=tests/testlib.sh
. "$here/testlib.sh"
make_tmp

failures=0 runs=0
run_line="" want_exit=0
expects=()

# Runs the pending RUN line and checks its EXPECT lines.
flush() {
  [ -n "$run_line" ] || return 0
  runs=$((runs + 1))
  split_args "${run_line//%t/$TMP}" "$file" || { failures=$((failures + 1)); return; }
  local kernel=${ARGV[0]}
  local cmd=("$kjit" run "$file:$kernel" --target cpu "${ARGV[@]:1}")
  "${cmd[@]}" >"$TMP/stdout" 2>"$TMP/stderr" </dev/null
  local rc=$? bad=0
  if [ $rc -ne "$want_exit" ]; then
    echo "exec.sh: exit $rc, expected $want_exit" >&2; bad=1
  fi
  for e in "${expects[@]}"; do
    if ! grep -qF -- "$e" "$TMP/stdout"; then
      echo "exec.sh: no output line contains: $e" >&2; bad=1
    fi
  done
  if [ $bad -ne 0 ]; then
    failures=$((failures + 1))
    echo "exec.sh: FAILED: ${cmd[*]}" >&2
    echo "--- stdout" >&2; cat "$TMP/stdout" >&2
    echo "--- stderr" >&2; cat "$TMP/stderr" >&2
  fi
  run_line="" want_exit=0 expects=()
}

while IFS= read -r line; do
  case $line in
    "# RUN: "*) flush; run_line=${line#"# RUN: "} ;;
    "# EXPECT: "*) expects+=("${line#"# EXPECT: "}") ;;
    "# EXPECT-EXIT: "*) want_exit=${line#"# EXPECT-EXIT: "} ;;
  esac
done <"$file"
flush
if [ $runs -eq 0 ]; then
  echo "exec.sh: $file has no '# RUN:' line" >&2; exit 2
fi
[ $failures -eq 0 ] || exit 1
exit 0
