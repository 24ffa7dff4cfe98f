#!/usr/bin/env bash
# golden.sh KJIT_BIN FILE EXT - run kjit on FILE and compare with a golden file.
#
# Run from tests/ with FILE relative to it (errors/foo.py), as ctest does.
# The command line is the file's first "# ARGS: ..." comment (%s = FILE).
# The expected output is FILE without its extension (.py, .cu) plus .EXT:
#   .err  stderr, then a last line "exit: N" with kjit's exit status
#   .kir  stdout (kjit must exit 0)
#   any other EXT: stdout, like .kir
# KJIT_BLESS=1 writes the actual output into the golden file instead.
set -uo pipefail
if [ $# -ne 3 ]; then
  echo "usage: golden.sh KJIT_BIN FILE EXT" >&2; exit 2
fi
kjit=$1 file=$2 ext=$3
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=tests/testlib.sh
. "$here/testlib.sh"

line=$(args_lines "$file" | head -n 1)
if [ -z "$line" ]; then
  echo "golden.sh: $file has no '# ARGS: ...' line" >&2; exit 2
fi
split_args "$line" "$file" || exit 2
golden=${file%.*}.$ext
make_tmp

"$kjit" "${ARGV[@]}" >"$TMP/stdout" 2>"$TMP/stderr" </dev/null
rc=$?
case $ext in
  err)
    { cat "$TMP/stderr"; echo "exit: $rc"; } >"$TMP/actual" ;;
  *)
    if [ $rc -ne 0 ]; then
      echo "golden.sh: kjit ${ARGV[*]} exited $rc; stderr:" >&2
      cat "$TMP/stderr" >&2
      exit 1
    fi
    cp "$TMP/stdout" "$TMP/actual" ;;
esac

if [ "${KJIT_BLESS:-0}" = 1 ]; then
  if [ -f "$golden" ] && cmp -s "$golden" "$TMP/actual"; then
    echo "golden.sh: $golden unchanged"
  else
    cp "$TMP/actual" "$golden"
    echo "golden.sh: blessed $golden"
  fi
  exit 0
fi
if [ ! -f "$golden" ]; then
  echo "golden.sh: missing $golden; actual output:" >&2
  cat "$TMP/actual" >&2
  echo "(create it with: cd tests && KJIT_BLESS=1 bash golden.sh $kjit $file $ext)" >&2
  exit 1
fi
if ! diff -u --label "$golden (expected)" --label "$golden (actual)" \
     "$golden" "$TMP/actual"; then
  echo "golden.sh: mismatch for: kjit ${ARGV[*]}" >&2
  exit 1
fi
exit 0
