#!/bin/sh
# run.sh - golden test of the frontend: run.sh PARSE_DUMP FILE.py
#
# Runs parse_dump on FILE.py from FILE's directory (so diagnostics name it by
# its basename) and compares: the AST dump with FILE.ast when the input must
# parse cleanly, or the rendered diagnostics with FILE.err for bad inputs.
# KJIT_BLESS=1 rewrites the golden file (.err when parse_dump exits 1).
set -u
bin=$1
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
dir=$(dirname "$2")
base=$(basename "$2" .py)
cd "$dir" || exit 2
out=$(mktemp) err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
"$bin" "$base.py" >"$out" 2>"$err"
rc=$?
if [ "$rc" -gt 1 ]; then
  echo "FAIL $base: parse_dump exited with $rc"; cat "$err"; exit 1
fi
if [ "${KJIT_BLESS:-0}" = 1 ]; then
  rm -f "$base.ast" "$base.err"
  if [ "$rc" = 1 ]; then cp "$err" "$base.err"; else cp "$out" "$base.ast"; fi
  echo "blessed $base"; exit 0
fi
if [ -f "$base.err" ]; then
  [ "$rc" = 1 ] || { echo "FAIL $base: expected errors, got none"; exit 1; }
  diff -u "$base.err" "$err" || { echo "FAIL $base: diagnostics differ"; exit 1; }
elif [ -f "$base.ast" ]; then
  [ "$rc" = 0 ] && [ ! -s "$err" ] || { echo "FAIL $base: unexpected diagnostics"; cat "$err"; exit 1; }
  diff -u "$base.ast" "$out" || { echo "FAIL $base: AST differs"; exit 1; }
else
  echo "FAIL $base: no $base.ast or $base.err (run with KJIT_BLESS=1)"; exit 1
fi
exit 0
