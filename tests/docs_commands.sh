#!/usr/bin/env bash
# docs_commands.sh KJIT_BIN - every kjit command shown in docs/*.md runs
# from the repository root as written (as examples_readme.sh does for
# examples/README.md):
#   - the lines of fenced blocks that start with "kjit " or "$ kjit "
#     (a trailing backslash joins the next line; "VAR=... kjit" too);
#   - synopses are left out: a line with a metavariable (FILE, COMMAND,
#     KERNEL, SIG, [options]) or "a | b" alternatives;
#   - each runs in a scratch copy of the root's layout (examples/, tests/,
#     docs/ linked), so outputs (-o, build/ptx) land there, with its own
#     cache; `| less` reads `| cat`; ptxas from the CUDA toolkit;
#   - the examples of `kjit COMMAND --help` are run the same way;
#   - exit 0 is required, except for the commands the docs show failing
#     (their next lines in the block start with an error location);
#     commands on .cu files are skipped where NVRTC cannot be loaded, and
#     the cuda-target ones where there is no GPU.
# Run from tests/, as ctest does.
set -uo pipefail
[ $# -eq 1 ] || { echo "usage: docs_commands.sh KJIT_BIN" >&2; exit 2; }
kjit=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=tests/testlib.sh
. "$root/tests/testlib.sh"
make_tmp
failures=0 ran=0 skipped=0
fail() { echo "docs_commands.sh: $*" >&2; failures=$((failures + 1)); }
mkdir -p "$TMP/root/bin" "$TMP/root/build"   # the root after a build has build/
for d in examples tests docs include; do ln -s "$root/$d" "$TMP/root/$d"; done
ln -s "$kjit" "$TMP/root/bin/kjit"
export PATH="$TMP/root/bin:${CUDA_HOME:-/usr/local/cuda}/bin:$PATH"
export XDG_CACHE_HOME=$TMP/cache
have_gpu=0
"$kjit" info 2>/dev/null | grep -q '^  device 0:' && have_gpu=1

# "FILE<TAB>WANT<TAB>COMMAND" for every command; WANT 1 where the block
# shows it failing (a "path:line:col: error" line follows it).
extract() {
  awk -v OFS='\t' '
    function flush() { if (cmd != "") print FILENAME, (fails ? 1 : 0), cmd; cmd = ""; fails = 0 }
    /^```/ { flush(); inb = !inb; next }
    !inb { next }
    cont { cmd = cmd " " $0; sub(/\\$/, "", cmd); cont = /\\$/; next }
    /^(\$ )?([A-Z_]+=[^ ]+ )?kjit / {
      flush(); line = $0; sub(/^\$ /, "", line)
      if (line ~ /FILE|COMMAND|KERNEL\]|SIG\]|\[options\]|\[--max-bytes N\]| \| kjit/) next
      cmd = line; cont = /\\$/; sub(/\\$/, "", cmd); next
    }
    cmd != "" && /^[^ ]+:[0-9]+:[0-9]+: error/ { fails = 1 }
    END { flush() }' "$@"
}

while IFS=$'\t' read -r file want cmd; do
  cmd=${cmd%%  #*}                               # a trailing comment
  cmd=${cmd//| less/| cat}
  if [[ $cmd == *.cu* ]] && ! "$kjit" check "$root/examples/vector_add.cu" >/dev/null 2>&1; then
    skipped=$((skipped + 1)); continue                # no NVRTC
  fi
  if [[ $cmd == *.cu:* && $cmd == *"kjit run"* && $have_gpu = 0 ]]; then
    skipped=$((skipped + 1)); continue                # CUDA C runs on the GPU
  fi
  ran=$((ran + 1))
  (cd "$TMP/root" && bash -c "$cmd") >"$TMP/out" 2>"$TMP/err"
  rc=$?
  if [ "$want" = 1 ]; then
    [ $rc -eq 1 ] || { fail "${file#"$root"/}: expected exit 1, got $rc: $cmd"; cat "$TMP/err" >&2; }
  elif [ $rc -ne 0 ]; then
    fail "${file#"$root"/}: exit $rc: $cmd"; head -n 5 "$TMP/err" >&2
  fi
done < <(extract "$root"/docs/*.md
         # the examples of each command's --help, in the same form
         for c in run ptx check cache; do
           "$kjit" "$c" --help | sed -n '/^examples:/,$p' | sed 's/^  //' |
             awk -v c="kjit $c --help" -v OFS='\t' '
               cont { cmd = cmd " " $0; sub(/\\$/, "", cmd); cont = /\\$/; if (!cont) print c, 0, cmd; next }
               /^(cat [^|]*\| )?kjit / { cmd = $0; cont = /\\$/; sub(/\\$/, "", cmd); if (!cont) print c, 0, cmd }'
         done)

[ $ran -ge 20 ] || fail "only $ran commands found in docs/"
[ $failures -eq 0 ] && echo "docs_commands.sh: ok ($ran commands run, $skipped skipped)"
[ $failures -eq 0 ]
