#!/usr/bin/env bash
# examples_readme.sh KJIT_BIN - examples/README.md says what the tests run:
#   - every example program (examples/*.py, *.cu, *.c) has a row;
#   - every `./build/kjit run examples/FILE:KERNEL ARGS` command is one of
#     FILE's "# RUN: KERNEL ARGS" lines, which exec.sh runs with their
#     EXPECT lines (ctest example/NAME, and the GPU suite);
#   - the `kjit ptx` / `kjit check` commands run cleanly (those naming .cu
#     files are skipped where NVRTC cannot be loaded);
#   - print_indices prints each "THREAD BLOCK" line exactly once, in any
#     order (threads print in no fixed order).
# Run from tests/, as ctest does.
set -uo pipefail
[ $# -eq 1 ] || { echo "usage: examples_readme.sh KJIT_BIN" >&2; exit 2; }
kjit=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
readme=$root/examples/README.md
# shellcheck source=tests/testlib.sh
. "$root/tests/testlib.sh"
make_tmp
failures=0
fail() { echo "examples_readme.sh: $*" >&2; failures=$((failures + 1)); }

for f in "$root"/examples/*.py "$root"/examples/*.cu "$root"/examples/*.c; do
  name=$(basename "$f")
  grep -qF "[$name]($name)" "$readme" || fail "examples/$name has no row in examples/README.md"
done

# The commands: the text between backticks that starts with ./build/kjit
# (`mkdir -p DIR && ./build/kjit ...` counts, without its mkdir.)
mapfile -t cmds < <(grep -o '`\(mkdir -p [a-z]* && \)\?\./build/kjit [^`]*`' "$readme" |
                    tr -d '`' | sed 's/^mkdir -p [a-z]* && //')
[ ${#cmds[@]} -ge 8 ] || fail "only ${#cmds[@]} kjit commands found in examples/README.md"
norm() { tr -s ' ' <<<"$*" | sed 's/ *$//'; }
for cmd in "${cmds[@]}"; do
  read -r -a w <<<"$cmd"
  case ${w[1]} in
    run)
      target=${w[2]} file=${target%%:*} kernel=${target#*:}
      want=$(norm "# RUN: $kernel ${w[*]:3}")
      if [ ! -f "$root/$file" ]; then fail "no file $file for: $cmd"; continue; fi
      grep -qxF -- "$want" <(while IFS= read -r l; do norm "$l"; done <"$root/$file") ||
        fail "$file has no line '$want' (the README's command is not tested)" ;;
    ptx | check)   # in a scratch folder (-o ptx), globs expanded there
      mkdir -p "$TMP/ptx" && ln -sfn "$root/examples" "$TMP/examples"
      (cd "$TMP" && eval "\"\$kjit\" ${cmd#./build/kjit }" >"$TMP/out" 2>"$TMP/err")
      rc=$?
      if grep -q "NVRTC was not found" "$TMP/err"; then
        echo "examples_readme.sh: skipped without NVRTC: $cmd"
      elif [ $rc -ne 0 ]; then
        fail "failed (exit $rc): $cmd"; cat "$TMP/err" >&2
      fi ;;
  esac
done

# print_indices: the README's command on the CPU target, sorted.
(cd "$root" && "$kjit" run examples/print_indices.py:print_indices --grid 2 --block 3 \
   --target cpu) >"$TMP/print" 2>&1 || fail "print_indices failed"
for b in 0 1; do for t in 0 1 2; do echo "$t $b"; done; done | sort >"$TMP/want"
sort "$TMP/print" | diff -u "$TMP/want" - || fail "print_indices: not each line once"

[ $failures -eq 0 ] && echo "examples_readme.sh: ok (${#cmds[@]} commands)"
[ $failures -eq 0 ]
