#!/usr/bin/env bash
# device_cli.sh KJIT_BIN - device selection on the command line fails
# cleanly on any machine: `kjit run --device N` past the machine's GPUs (or
# without a driver at all) and a KJIT_DEVICE that is no number are errors
# that name the device (exit 1, never a crash), and `kjit info` describes
# every device or says why there is none.  Run from tests/ (ctest does).
set -uo pipefail
kjit=$1
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=tests/testlib.sh
. "$here/testlib.sh"
make_tmp
failures=0
run=(run ../examples/vector_add.py:add_kernel --grid 4 --block 256
     x=arange:float32:1024 y=full:float32:1024:2 out=zeros:float32:1024)

# expect WANT_RC TEXT CMD...: the exit status and a line of stderr
expect() {
  local want=$1 text=$2
  shift 2
  "$@" >"$TMP/out" 2>"$TMP/err" </dev/null
  local rc=$?
  if [ "$rc" -ne "$want" ] || { [ -n "$text" ] && ! grep -qF -- "$text" "$TMP/err"; }; then
    echo "device_cli.sh: FAILED (exit $rc, expected $want and '$text'): $*" >&2
    cat "$TMP/out" "$TMP/err" >&2
    failures=$((failures + 1))
  fi
}

expect 1 "CUDA device 999 " "$kjit" "${run[@]}" --device 999
expect 1 "CUDA device 999 " env KJIT_DEVICE=999 "$kjit" "${run[@]}" --target cuda
expect 1 "KJIT_DEVICE='x1' is not a device number" env KJIT_DEVICE=x1 "$kjit" "${run[@]}"
expect 2 "--device expects an integer" "$kjit" "${run[@]}" --device -1
# the cpu target never looks at the device
expect 0 "" env KJIT_DEVICE=999 "$kjit" "${run[@]}" --target cpu

"$kjit" info >"$TMP/info" 2>&1
rc=$?
if [ $rc -ne 0 ]; then
  echo "device_cli.sh: kjit info exited $rc" >&2; failures=$((failures + 1))
elif grep -q '^devices: ' "$TMP/info"; then
  n=$(sed -n 's/^devices: //p' "$TMP/info")
  listed=$(grep -c '^  device [0-9]*: ' "$TMP/info")
  if [ "$n" != "$listed" ]; then
    echo "device_cli.sh: kjit info says $n devices but lists $listed" >&2
    failures=$((failures + 1))
  fi
elif ! grep -q '^CUDA driver: not available (' "$TMP/info"; then
  echo "device_cli.sh: kjit info says nothing about devices:" >&2
  cat "$TMP/info" >&2; failures=$((failures + 1))
fi
[ $failures -eq 0 ] && echo "device_cli.sh: ok"
exit $((failures > 0))
