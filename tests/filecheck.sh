#!/usr/bin/env bash
# filecheck.sh KJIT_BIN FILECHECK FILE - FileCheck kjit's stdout against FILE.
#
# Runs kjit with the file's first "# ARGS: ..." line (%s = FILE) and checks
# its stdout with FileCheck, using FILE itself as the check file ("# CHECK:",
# "# CHECK-NEXT:", "# CHECK-NOT:" ... comments).  kjit must exit 0.
# Exits 77 (skipped) when FileCheck is not installed.
set -uo pipefail
if [ $# -ne 3 ]; then
  echo "usage: filecheck.sh KJIT_BIN FILECHECK FILE" >&2; exit 2
fi
kjit=$1 filecheck=$2 file=$3
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=tests/testlib.sh
. "$here/testlib.sh"

if [ ! -x "$filecheck" ]; then
  echo "filecheck.sh: FileCheck not found (apt-get install llvm-19-tools): skipped" >&2
  exit 77
fi
line=$(args_lines "$file" | head -n 1)
if [ -z "$line" ]; then
  echo "filecheck.sh: $file has no '# ARGS: ...' line" >&2; exit 2
fi
split_args "$line" "$file" || exit 2
make_tmp

if ! "$kjit" "${ARGV[@]}" >"$TMP/out" 2>"$TMP/err" </dev/null; then
  echo "filecheck.sh: kjit ${ARGV[*]} failed; stderr:" >&2
  cat "$TMP/err" >&2
  exit 1
fi
cat "$TMP/err" >&2
"$filecheck" --dump-input=fail --input-file "$TMP/out" "$file" || exit 1
