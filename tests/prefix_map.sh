#!/usr/bin/env bash
# prefix_map.sh KJIT_BIN - kjit ptx --file-prefix-map OLD=NEW rewrites the
# source path in the PTX's .file (as -fdebug-prefix-map): a mapped
# directory, a stripped one (NEW empty: relative), a path OLD only
# partly matches (left alone), the disk cache keeping the variants apart
# (each run twice: the second is a cache hit), and a malformed map (exit 2).
set -uo pipefail
[ $# -eq 1 ] || { echo "usage: prefix_map.sh KJIT_BIN" >&2; exit 2; }
kjit=$1
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=tests/testlib.sh
. "$here/testlib.sh"
make_tmp
export KJIT_CACHE_DIR=$TMP/cache
mkdir -p "$TMP/proj/src"
cp "$here/../examples/vector_add.py" "$TMP/proj/src/k.py"
file=$TMP/proj/src/k.py
status=0
check() { # WANT [MAP]
  local want=$1 got
  for round in 1 2; do
    got=$("$kjit" ptx "$file" --lineinfo --arch sm_80 ${2:+--file-prefix-map "$2"} | grep '\.file' | sed 's/.*"\(.*\)".*/\1/')
    if [ "$got" != "$want" ]; then
      echo "prefix_map.sh: FAILED: map '${2:-}' (run $round): .file \"$got\", expected \"$want\"" >&2
      status=1
    fi
  done
}
check "$file"
check "/src/k.py" "$TMP/proj/src=/src"
check "/build/src/k.py" "$TMP/proj/=/build/"
check "src/k.py" "$TMP/proj="
check "$file" "$TMP/pro=/x"
"$kjit" ptx "$file" --file-prefix-map nope >/dev/null 2>"$TMP/err"
rc=$?
if [ $rc -ne 2 ] || ! grep -q "is not OLD=NEW" "$TMP/err"; then
  echo "prefix_map.sh: FAILED: a map without '=' gave exit $rc: $(cat "$TMP/err")" >&2
  status=1
fi
[ $status -eq 0 ] && echo "prefix_map.sh: 5 maps, each compiled and read back from the cache; bad map refused"
exit $status
