#!/usr/bin/env bash
# examples_readme.sh KJIT_BIN - examples/README.md says what the tests run:
#   - every example program (examples/*.py, *.cu, *.c) has a row;
#   - every `./build/kjit run examples/FILE:KERNEL ARGS` command is one of
#     FILE's "# RUN: KERNEL ARGS" lines, which exec.sh runs with their
#     EXPECT lines (ctest example/NAME, and the GPU suite);
#   - the `kjit ptx` / `kjit check` commands of Python files run cleanly
#     (those naming .cu files need NVRTC: cuda_c/check/* test those files);
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

# The commands: the text between backticks that starts with ./build/kjit.
mapfile -t cmds < <(grep -o '`\./build/kjit [^`]*`' "$readme" | tr -d '`')
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
    ptx | check)
      if grep -q '\.cu\b' <<<"$cmd"; then continue; fi
      split_args "${cmd#./build/kjit }" "" || { fail "cannot split: $cmd"; continue; }
      (cd "$TMP" && ln -sfn "$root/examples" examples &&
       "$kjit" "${ARGV[@]}" >"$TMP/out" 2>"$TMP/err") ||
        { fail "failed: $cmd"; cat "$TMP/err" >&2; } ;;
  esac
done

# print_indices: the README's command on the CPU target, sorted.
(cd "$root" && "$kjit" run examples/print_indices.py:print_indices --grid 2 --block 3 \
   --target cpu) >"$TMP/print" 2>&1 || fail "print_indices failed"
for b in 0 1; do for t in 0 1 2; do echo "$t $b"; done; done | sort >"$TMP/want"
sort "$TMP/print" | diff -u "$TMP/want" - || fail "print_indices: not each line once"

[ $failures -eq 0 ] && echo "examples_readme.sh: ok (${#cmds[@]} commands)"
[ $failures -eq 0 ]
