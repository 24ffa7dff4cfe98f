#!/usr/bin/env bash
# lint_diag_codes.sh ROOT - diagnostic codes are numbered in one place:
# common/diag_codes.h is the only header or .c file that gives a number to an
# E_ or W_ constant (E_..., RT_E_..., RT_W_..., in an enum or a #define), and
# no call passes a bare number as a code (diag_error(d, 599, ...)).  Other
# families (RT_HOST_E_..., RT_NPY_E_...) are not diagnostic codes.
set -uo pipefail
root=${1:-.}
dirs=()
for d in common frontend ir codegen runtime tools include tests; do
  [ -d "$root/$d" ] && dirs+=("$root/$d")
done
assign='\b([A-Z]+_)?[EW]_[A-Z0-9_]+[[:space:]]*=[[:space:]]*[0-9]|#[[:space:]]*define[[:space:]]+([A-Z]+_)?[EW]_[A-Z0-9_]+[[:space:]]+[0-9]'
bare='\bdiag_(error|add)[[:space:]]*\([^,]+,[[:space:]]*(DL_[A-Z]+,[[:space:]]*)?[0-9]+[[:space:]]*,'
hits=$(grep -rnE --include='*.c' --include='*.h' -e "$assign" -e "$bare" "${dirs[@]}" |
       grep -v "^$root/common/diag_codes.h:")
if [ -n "$hits" ]; then
  echo "lint_diag_codes.sh: a diagnostic number outside common/diag_codes.h (add a row to its table):" >&2
  echo "$hits" >&2
  exit 1
fi
echo "lint_diag_codes.sh: ok (diagnostic numbers only in common/diag_codes.h)"
