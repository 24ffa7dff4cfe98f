#!/usr/bin/env bash
# gen_diag_docs.sh [--check] [ROOT] - writes docs/diagnostics.md, the list of
# diagnostic codes, from the table common/diag_codes.h (scripts/gen_diag_docs.c
# compiled with $CC, default cc).  --check writes nothing and fails when the
# committed page differs from what the table gives (ctest docs/diagnostics).
set -uo pipefail
check=0
if [ "${1:-}" = --check ]; then check=1; shift; fi
root=${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
"${CC:-cc}" -std=c11 -Wall -Werror -I"$root" -o "$tmp/gen" "$root/scripts/gen_diag_docs.c" || exit 2
"$tmp/gen" >"$tmp/diagnostics.md" || exit 2
if [ $check = 1 ]; then
  if ! diff -u "$root/docs/diagnostics.md" "$tmp/diagnostics.md"; then
    echo "gen_diag_docs.sh: docs/diagnostics.md is stale: run bash scripts/gen_diag_docs.sh" >&2
    exit 1
  fi
  echo "gen_diag_docs.sh: docs/diagnostics.md is current"
  exit 0
fi
cp "$tmp/diagnostics.md" "$root/docs/diagnostics.md"
echo "gen_diag_docs.sh: wrote docs/diagnostics.md"
