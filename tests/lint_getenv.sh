#!/usr/bin/env bash
# lint_getenv.sh ROOT - the library reads its environment in one place:
# common/settings.c is the only file of the library's folders and include/ that calls getenv or secure_getenv or reads environ
# (docs/internals.md, "Settings").
set -uo pipefail
root=${1:-.}
hits=$(grep -rns --include='*.c' --include='*.h' -E '\b(secure_)?getenv[[:space:]]*\(|\benviron\b' \
         "$root"/{common,frontend,ir,lower,typing,codegen,data,cache,runtime,host,cuda,api,include} |
       grep -v "^$root/common/settings.c:")
if [ -n "$hits" ]; then
  echo "lint_getenv.sh: getenv outside common/settings.c (read it with rt_setting):" >&2
  echo "$hits" >&2
  exit 1
fi
echo "lint_getenv.sh: ok (getenv only in common/settings.c)"
