#!/usr/bin/env bash
# lint_getenv.sh ROOT - the library reads its environment in one place:
# runtime/settings.c is the only file of codegen/, runtime/, ir/, frontend/,
# common/ and include/ that calls getenv or secure_getenv or reads environ
# (docs/internals.md, "Settings").
set -uo pipefail
root=${1:-.}
hits=$(grep -rn --include='*.c' --include='*.h' -E '\b(secure_)?getenv[[:space:]]*\(|\benviron\b' \
         "$root/codegen" "$root/runtime" "$root/ir" "$root/frontend" "$root/common" "$root/include" |
       grep -v "^$root/runtime/settings.c:")
if [ -n "$hits" ]; then
  echo "lint_getenv.sh: getenv outside runtime/settings.c (read it with rt_setting):" >&2
  echo "$hits" >&2
  exit 1
fi
echo "lint_getenv.sh: ok (getenv only in runtime/settings.c)"
