#!/usr/bin/env bash
# cli/run.sh KJIT_BIN - the command-line habits that golden error files
# cannot show (docs/cli.md): standard input as "-" (a pipe, not a file),
# several files to `check` and `ptx` (what goes to stdout, in which order,
# and the files -o DIR writes), -V, --help and the option-reading rules.  Run from tests/, as ctest does; the
# error texts themselves are golden files (tests/errors/cli_*.py).
set -uo pipefail
[ $# -eq 1 ] || { echo "usage: cli/run.sh KJIT_BIN" >&2; exit 2; }
kjit=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=tests/testlib.sh
. "$here/../testlib.sh"
make_tmp
ex=$here/../../examples
failures=0 cases=0

# check NAME CONDITION...: counts a case, reports it when CONDITION fails.
check() {
  local name=$1; shift
  cases=$((cases + 1))
  if ! "$@"; then
    failures=$((failures + 1))
    echo "FAIL: $name" >&2
    for f in "$TMP"/out "$TMP"/err; do [ -f "$f" ] && sed 's/^/    /' "$f" >&2; done
  fi
}
k() { "$kjit" "$@" >"$TMP/out" 2>"$TMP/err"; }
same() { cmp -s "$1" "$2"; }
not_grep() { ! grep -q "$@"; }

# -V is --version is `kjit version`.
k version && cp "$TMP/out" "$TMP/v1"
k -V && check "-V prints the version" same "$TMP/out" "$TMP/v1"
check "-V prints 'kjit VERSION'" grep -qx 'kjit [0-9][0-9.]*' "$TMP/v1"

# check - of a pipe: "<stdin>: ok"; its errors are located in <stdin>.
cat "$ex/vector_add.py" | k check -
check "check - of a clean pipe" grep -qx '<stdin>: ok' "$TMP/out"
printf 'from numba import cuda\n\n\n@cuda.jit\ndef k(a):\n    a[0] = nope\n' | k check -
check "check - exits 1 on errors" [ $? -eq 1 ]
check "check - names <stdin>:LINE:COL" grep -q "^<stdin>:6:12: error\[E201\]: name 'nope' is not defined" "$TMP/err"

# standard input is held to the library's size cap, and a NUL byte in it is
# a located error whose echoed line shows the byte (the text holds no NUL).
KJIT_MAX_SOURCE_BYTES=20 k check - <"$ex/vector_add.py"
check "check - over the size cap exits 1" [ $? -eq 1 ]
check "check - over the size cap says so" grep -qx \
  "kjit: error\[E001\]: '<stdin>' is larger than the source size limit of 20 bytes" "$TMP/err"
check "check - over the size cap hints" grep -qx \
  "hint: raise the limit with KJIT_MAX_SOURCE_BYTES=N" "$TMP/err"
printf 'x = 1\000\n' | k check -
check "check - of a NUL byte exits 1" [ $? -eq 1 ]
check "check - of a NUL byte is located" grep -qx \
  "<stdin>:1:6: error\[E101\]: source code cannot contain null bytes" "$TMP/err"
check "check - of a NUL byte echoes the line" grep -qx "x = 1$(printf '\342\220\200')" "$TMP/err"

# rand: of two arguments: two arrays (the seed mixes in the name), and the
# same ones in another argument order
printf 'from numba import cuda\n@cuda.jit\ndef k(x, y):\n    pass\n' > "$TMP/two.py"
k run "$TMP/two.py:k" --grid 1 --block 1 --target cpu x=rand:f32:8 y=rand:f32:8; cp "$TMP/out" "$TMP/r1"
k run "$TMP/two.py:k" --grid 1 --block 1 --target cpu y=rand:f32:8 x=rand:f32:8; cp "$TMP/out" "$TMP/r2"
check "rand: both printed" grep -q '^y: float32\[8\]' "$TMP/r1"
check "rand: x and y differ" [ "$(grep '^x:' "$TMP/r1" | cut -d' ' -f3-)" != "$(grep '^y:' "$TMP/r1" | cut -d' ' -f3-)" ]
check "rand: x is x in any order" [ "$(grep '^x:' "$TMP/r1")" = "$(grep '^x:' "$TMP/r2")" ]

# ptx - gives the same PTX as ptx FILE (the source's name is not in it).
k ptx "$ex/vector_add.py" --arch sm_80 && cp "$TMP/out" "$TMP/file.ptx"
k ptx - --arch sm_80 <"$ex/vector_add.py"
check "ptx - equals ptx FILE" same "$TMP/out" "$TMP/file.ptx"
cat "$ex/vector_add.py" | k ptx -:add_kernel --arch sm_80 --emit kir
check "ptx -:KERNEL --emit kir" grep -q 'add_kernel' "$TMP/out"

# run -:KERNEL from a pipe, values as for a file.
cat "$ex/vector_add.py" | k run -:add_kernel --target cpu --grid 1 --block 8 \
  x=arange:float32:8 y=full:float32:8:2 out=zeros:float32:8
check "run -:KERNEL" grep -qx 'out: float32\[8\] \[2, 3, 4, ..., 9\] sum=44 crc=.*' "$TMP/out"

# check A B C: every file checked in order, "ok" for clean ones, the broken
# one's errors, exit 1.
printf 'from numba import cuda\n\n\n@cuda.jit("void(float32[:])")\ndef k(a):\n    a[0] = nope\n' \
  >"$TMP/bad.py"
k check "$ex/vector_add.py" "$TMP/bad.py" - <"$ex/vector_add.py"
check "check of several files exits 1" [ $? -eq 1 ]
printf '%s: ok\n<stdin>: ok\n' "$ex/vector_add.py" >"$TMP/want"
check "check of several files: ok lines in order" same "$TMP/out" "$TMP/want"
check "check of several files: the broken one's error" grep -q "bad.py:6:12: error" "$TMP/err"

# check -q: the errors only, no ok lines.
k check -q "$ex/vector_add.py" "$TMP/bad.py"
check "check -q exits 1 on errors" [ $? -eq 1 ]
check "check -q prints no ok line" [ ! -s "$TMP/out" ]
check "check -q still reports the error" grep -q "bad.py:6:12: error" "$TMP/err"
silent() { [ "$1" -eq 0 ] && [ ! -s "$TMP/out" ] && [ ! -s "$TMP/err" ]; }
k check --quiet "$ex/vector_add.py"
check "check --quiet of a clean file: exit 0, nothing printed" silent $?

# ptx A B: the outputs one after the other on stdout; -o DIR: DIR/A.ptx, DIR/B.ptx.
cp "$ex/vector_add.py" "$TMP/a.py"
k ptx "$TMP/a.py" "$ex/vector_add.py" --arch sm_80
check "ptx of two files: both on stdout" same "$TMP/out" <(cat "$TMP/file.ptx" "$TMP/file.ptx")
mkdir "$TMP/outdir"
k ptx "$TMP/a.py" "$ex/vector_add.py:add_kernel" --arch sm_80 -o "$TMP/outdir"
check "ptx -o DIR: one file per input" same "$TMP/outdir/a.ptx" "$TMP/file.ptx"
check "ptx -o DIR: NAME.ptx" same "$TMP/outdir/vector_add.ptx" "$TMP/file.ptx"
k ptx "$TMP/a.py" --arch sm_80 --emit kir -o "$TMP/outdir/"
check "ptx -o DIR/ --emit kir: NAME.kir" grep -q add_kernel "$TMP/outdir/a.kir"
# one broken input: the other is still written, exit 1
rm -f "$TMP/outdir/a.ptx"
k ptx "$TMP/bad.py" "$TMP/a.py" --arch sm_80 -o "$TMP/outdir"
check "ptx -o DIR with a broken input exits 1" [ $? -eq 1 ]
check "ptx -o DIR: the good input is written" same "$TMP/outdir/a.ptx" "$TMP/file.ptx"
check "ptx -o DIR: nothing for the broken input" [ ! -e "$TMP/outdir/bad.ptx" ]
# ptx of a folder's files into a new -o DIR: the folder is made, lazy and
# @vectorize/@cuda.reduce files are skipped and listed, exit 0; a broken
# file among them still exits 1.
k ptx "$ex/vector_add.py" "$ex/double_matrix.py" "$ex/sum_reduce.py" "$ex/print_indices.py" \
  --arch sm_80 -o "$TMP/new/ptx"
check "ptx -o NEWDIR with lazy files exits 0" [ $? -eq 0 ]
check "ptx -o NEWDIR: the folder made, the eager file written" same "$TMP/new/ptx/vector_add.ptx" "$TMP/file.ptx"
check "ptx -o NEWDIR: nothing for a lazy file" [ ! -e "$TMP/new/ptx/double_matrix.ptx" ]
check "ptx: the skipped files counted" grep -qx \
  "kjit: note: skipped 3 of 4 files: nothing in them compiles without a signature" "$TMP/err"
check "ptx: a lazy file listed with its kernel" grep -qF \
  "  $ex/double_matrix.py: lazy kernel double_matrix: compile it with $ex/double_matrix.py:double_matrix --sig" "$TMP/err"
check "ptx: a @cuda.reduce file listed" grep -qF "  $ex/sum_reduce.py: no @cuda.jit kernel" "$TMP/err"
check "ptx: no error for a skipped file" not_grep 'error' "$TMP/err"
k ptx "$ex/double_matrix.py" "$TMP/bad.py" --arch sm_80 -o "$TMP/new/ptx2"
check "ptx: a broken file among skipped ones exits 1" [ $? -eq 1 ]
k ptx "$ex/double_matrix.py" --arch sm_80 -o "$TMP/new/ptx3/"
check "ptx of one lazy file alone is still an error" [ $? -eq 1 ]
check "ptx -o NEWDIR/ of one file makes the folder" [ -d "$TMP/new/ptx3" ]
k ptx "$TMP/a.py" --arch sm_80 -o "$TMP/new/one.ptx"
check "ptx -o NEWFILE of one file writes a file" same "$TMP/new/one.ptx" "$TMP/file.ptx"

# Options come from one table per command: its --help lists them, and the
# reading rules are the same for every command (docs/cli.md, "Options").
for cmd in run ptx check cache info version; do
  k "$cmd" --help
  check "$cmd --help lists -h, --help" grep -q '^  -h, --help  ' "$TMP/out"
done
k run --help
check "run --help lists --grid" grep -q '^  --grid X\[,Y\[,Z\]\]  *blocks per grid' "$TMP/out"
check "run --help lists the NVRTC options" grep -q '^  -std=STD  ' "$TMP/out"
k check -q -- -q
check "check -- FILE: '--' ends the options" grep -q "cannot open '-q'" "$TMP/err"
k info --foo
check "info --foo exits 2" [ $? -eq 2 ]
check "info --foo is an unknown option" grep -qx "kjit: error: unknown option '--foo' for 'info'" "$TMP/err"
k cache prune --max-bytes
check "cache --max-bytes without a value" grep -qx \
  "kjit: error: option '--max-bytes' of 'cache' needs a value" "$TMP/err"
k ptx --arch
check "ptx --arch without a value" grep -qx "kjit: error: option '--arch' of 'ptx' needs a value" "$TMP/err"

# Unknown options and commands get the nearest name; help --help is help;
# the top-level help lists exit status 3; .npz archives are refused by name.
k ptx x.py --ach sm_90
check "unknown option: did you mean" grep -qx "hint: did you mean '--arch'?" "$TMP/err"
k ptx x.py --frobnicate
check "unknown option far from every name: no hint" not_grep 'did you mean' "$TMP/err"
k rnu
check "unknown command exits 2" [ $? -eq 2 ]
check "unknown command: did you mean" grep -qx "hint: did you mean 'run'?" "$TMP/err"
k help --help
check "help --help exits 0" [ $? -eq 0 ]
check "help --help prints the help" grep -q '^usage: kjit COMMAND' "$TMP/out"
k --help
check "--help lists exit status 3" grep -q '3 a run stopped by --timeout' "$TMP/out"
k run "$ex/vector_add.py:add_kernel" --grid 1 --block 4 --target cpu x=arrays.npz:x y=arange:f4:4 out=zeros:f4:4
check ".npz refused: exit 2" [ $? -eq 2 ]
check ".npz refused by name" grep -q "'arrays.npz:x' names a NumPy .npz archive, which kjit does not read" "$TMP/err"

# The man page and the bash completion come from the option tables: every
# option of every command's --help is in both; colour only when asked for
# (or on a terminal without NO_COLOR), never in a pipe by default.
k help --man && cp "$TMP/out" "$TMP/man"
k help --bash-completion && cp "$TMP/out" "$TMP/bash"
check "completion is valid bash" bash -n "$TMP/bash"
for cmd in run ptx check cache info version; do
  k "$cmd" --help
  for opt in $(grep -o '^  \(-[a-zA-Z], \)\?--\?[a-z][-_a-z0-9]*' "$TMP/out" | sed 's/^  //; s/.*, //'); do
    grep -q -- "$(sed 's/-/\\\\-/g' <<<"$opt")" "$TMP/man" || { check "man page has $cmd $opt" false; }
    grep -q -- " $opt " "$TMP/bash" || grep -q -- "'$opt " "$TMP/bash" ||
      { check "completion has $cmd $opt" false; }
  done
done
check "man page is roff" grep -q '^\.TH KJIT 1' "$TMP/man"
k ptx x.py --ach sm_90
check "no colour in a pipe" not_grep $'\033' "$TMP/err"
k --color=always ptx x.py --ach sm_90
check "--color=always colours" grep -q $'\033\[1;31merror' "$TMP/err"
k ptx x.py --ach sm_90 --color=never
check "--color=never anywhere" not_grep $'\033' "$TMP/err"
k --color=sometimes version
check "--color=sometimes exits 2" [ $? -eq 2 ]
if command -v script >/dev/null; then
  NO_COLOR=1 script -qec "$kjit ptx x.py --ach sm_90" /dev/null >"$TMP/tty" 2>&1
  check "NO_COLOR on a terminal: no colour" not_grep $'\033' "$TMP/tty"
fi

# check of a lazy kernel: "ok, partly" naming it; FILE:KERNEL --sig types it.
k check "$ex/double_matrix.py" "$ex/vector_add.py"
check "check of a lazy kernel exits 0" [ $? -eq 0 ]
check "check says which kernel was only partly checked" grep -qxF \
  "$ex/double_matrix.py: ok, partly: lazy kernel double_matrix checked without argument types (names, attributes, calls); check it fully with $ex/double_matrix.py:double_matrix --sig \"void(...)\"" "$TMP/out"
check "check of an eager file: plain ok" grep -qxF "$ex/vector_add.py: ok" "$TMP/out"
k check "$ex/double_matrix.py:double_matrix" --sig "void(float32[:, :])"
check "check FILE:KERNEL --sig: ok" grep -qxF "$ex/double_matrix.py:double_matrix: ok" "$TMP/out"
k check "$ex/double_matrix.py:double_matrix" --sig "void(float32[:, :], int32)"
check "check --sig of the wrong arity exits 1" [ $? -eq 1 ]
check "check --sig of the wrong arity: E493" grep -q "error\[E493\]" "$TMP/err"
printf 'from numba import cuda\n\n\n@cuda.jit\ndef k(a):\n    a[0] = 1.5\n    a[1] = a.shape[0][1]\n' >"$TMP/lazy_bad.py"
k check "$TMP/lazy_bad.py:k" --sig "void(float32[:])"
check "check --sig finds a typing error a lazy check cannot" [ $? -eq 1 ]
k check "$TMP/lazy_bad.py"
check "the same file without --sig: ok, partly" grep -q ": ok, partly: lazy kernel k " "$TMP/out"

# The cpu-target note: one short line as the launch starts, none before
# a command-line or argument error, none for an explicit auto; -v gives the
# reason; KJIT_TARGET picks the target.  (Machines with a GPU run there.)
if ! "$kjit" info 2>/dev/null | grep -q '^CUDA driver: not available'; then
  echo "cli/run.sh: a CUDA driver is present: the cpu-target note cases skipped"
else
  va=("$ex/vector_add.py:add_kernel" --grid 1 --block 4 x=arange:f4:4 y=arange:f4:4 out=zeros:f4:4)
  env -u KJIT_TARGET "$kjit" run "${va[@]}" >"$TMP/out" 2>"$TMP/err"
  check "note: one line" [ "$(cat "$TMP/err")" = \
    "kjit: note: no CUDA device; running on the cpu target (-v or 'kjit info' says why)" ]
  env -u KJIT_TARGET "$kjit" run "${va[@]:0:3}" >"$TMP/out" 2>"$TMP/err"
  check "note: not before a missing --block" [ "$(head -n 1 "$TMP/err")" = \
    "kjit: error: missing --block X[,Y[,Z]] for 'run'" ]
  env -u KJIT_TARGET "$kjit" run "${va[@]:0:5}" x=nope.npy >"$TMP/out" 2>"$TMP/err"
  check "note: not before a bad VALUE" not_grep 'note' "$TMP/err"
  env -u KJIT_TARGET "$kjit" run "${va[@]}" --target auto >"$TMP/out" 2>"$TMP/err"
  check "note: none for --target auto" [ ! -s "$TMP/err" ]
  KJIT_TARGET=auto "$kjit" run "${va[@]}" >"$TMP/out" 2>"$TMP/err"
  check "note: none for KJIT_TARGET=auto" [ ! -s "$TMP/err" ]
  KJIT_TARGET=cpu "$kjit" run "${va[@]}" >"$TMP/out" 2>"$TMP/err"
  check "KJIT_TARGET=cpu runs, no note" [ ! -s "$TMP/err" ]
  check "KJIT_TARGET=cpu gives the results" grep -q '^out: float32\[4\] \[0, 2, 4, 6\]' "$TMP/out"
  env -u KJIT_TARGET "$kjit" run -v "${va[@]}" >"$TMP/out" 2>"$TMP/err"
  check "-v: the note with the reason" grep -q \
    '^kjit: note: no CUDA device; running on the cpu target (.*libcuda' "$TMP/err"
  KJIT_TARGET=gpu "$kjit" run "${va[@]}" >"$TMP/out" 2>"$TMP/err"
  check "KJIT_TARGET=gpu exits 1" [ $? -eq 1 ]
  check "KJIT_TARGET=gpu is named" grep -qx "kjit: error\[E002\]: KJIT_TARGET='gpu' is not a target" "$TMP/err"
  KJIT_TARGET=cuda "$kjit" run "${va[@]}" >"$TMP/out" 2>"$TMP/err"
  check "KJIT_TARGET=cuda without a GPU exits 1" [ $? -eq 1 ]
fi

echo "cli/run.sh: $cases cases, $failures failed"
[ $failures -eq 0 ]
