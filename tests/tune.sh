#!/usr/bin/env bash
# tune.sh KJIT_BIN - kjit tune end to end on the cpu target (host-clock
# timing): the candidates of a 1-D, a 2-D, a grid-stride and a
# dynamic-shared kernel; every candidate's results compared (a kernel whose
# results depend on the geometry refused, nothing stored); the record, its
# key and `kjit run --block tuned` using it; invalidation (kernel source
# changed, another shape class); a corrupted record ignored with a warning;
# --budget; the usage errors.  TUNE_TARGET=cuda runs the same checks on
# the GPU (CUDA-event timing; the GPU suite's way to run it).
set -uo pipefail
[ $# -eq 1 ] || { echo "usage: tune.sh KJIT_BIN" >&2; exit 2; }
kjit=$1
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=tests/testlib.sh
. "$here/testlib.sh"
make_tmp
export KJIT_CACHE_DIR=$TMP/cache KJIT_TARGET=${TUNE_TARGET:-cpu} XDG_CONFIG_HOME=$TMP/config
status=0
checks=0
fail() { echo "tune.sh: FAILED: $*" >&2; status=1; }
expect() { # WHAT FILE PATTERN: FILE has a line matching PATTERN
  checks=$((checks + 1))
  grep -Eq -- "$3" "$2" || { fail "$1: no line matching '$3' in:"; cat "$2" >&2; }
}
reject() { # WHAT FILE PATTERN: FILE has no line matching PATTERN
  checks=$((checks + 1))
  ! grep -Eq -- "$3" "$2" || { fail "$1: a line matches '$3' in:"; cat "$2" >&2; }
}
code() { # WHAT GOT WANT
  checks=$((checks + 1))
  [ "$2" -eq "$3" ] || fail "$1: exit $2, expected $3"
}

cp "$here/../examples/vector_add.py" "$TMP/va.py"
args=(x=rand:float32:100000 y=rand:float32:100000:1 out=zeros:float32:100000)

# 1. a 1-D kernel: warp-multiple blocks, the configuration as given first
"$kjit" tune "$TMP/va.py:add_kernel" --grid cover:x --block 256 --repeat 5 "${args[@]}" \
  >"$TMP/out" 2>"$TMP/err"
code "tune add_kernel" $? 0
expect "as given first" "$TMP/out" '^[ *] 256 +cover \(391\) +0 .*\(as given\)$'
expect "block 32" "$TMP/out" '^[ *] 32 +cover \(3125\) '
expect "block 1024" "$TMP/out" '^[ *] 1024 +cover \(98\) '
expect "13 candidates" "$TMP/out" 'add_kernel, 13 candidates on (cpu|cuda) '
expect "five runs each" "$TMP/out" '^[ *] 96 .* 5$'
expect "one best" "$TMP/out" '^\* '
expect "the record" "$TMP/out" '^stored: key [0-9a-f]{16} \(kernel [0-9a-f]{16}, device (cpu [0-9]+ threads|cuda .* sm_[0-9]+ [0-9]+ SMs), shapes \(131072\) \(131072\) \(131072\)\)$'
expect "progress" "$TMP/err" '^kjit: tune: \[13/13\] block '
key=$(sed -n 's/^stored: key \([0-9a-f]*\).*/\1/p' "$TMP/out")
best=$(sed -n 's/^tuned: block \([0-9]*\),.*/\1/p' "$TMP/out")
[ "$(grep -c '^\* ' "$TMP/out")" -eq 1 ] || fail "more than one best row"

# the same key again; --block tuned takes the record and gives the same arrays
"$kjit" tune "$TMP/va.py:add_kernel" --grid cover:x --block 256 --repeat 5 "${args[@]}" >"$TMP/out2" 2>/dev/null
expect "the same key" "$TMP/out2" "^stored: key $key "
"$kjit" run "$TMP/va.py:add_kernel" --grid cover:x --block 256 "${args[@]}" >"$TMP/plain" 2>/dev/null
"$kjit" run "$TMP/va.py:add_kernel" --grid cover:x --block tuned "${args[@]}" >"$TMP/tuned" 2>"$TMP/err"
code "run --block tuned" $? 0
best=$(sed -n 's/^tuned: block \([0-9]*\),.*/\1/p' "$TMP/out2")
expect "--block tuned uses the record" "$TMP/err" "^kjit: note: --block tuned: block $best \(measured"
checks=$((checks + 1))
cmp -s "$TMP/plain" "$TMP/tuned" || fail "--block tuned changed the arrays"
# an explicit grid is taken as written for the block tuning started from
"$kjit" run "$TMP/va.py:add_kernel" --grid 391 --block tuned "${args[@]}" >"$TMP/tuned2" 2>/dev/null
checks=$((checks + 1))
cmp -s "$TMP/plain" "$TMP/tuned2" || fail "--block tuned with --grid 391 changed the arrays"

# the same shape class (100000 and 120000 round to 131072) finds it; another does not
"$kjit" run "$TMP/va.py:add_kernel" --grid cover:x --block tuned x=rand:float32:120000 \
  y=rand:float32:120000 out=zeros:float32:120000 >/dev/null 2>"$TMP/err"
expect "same class" "$TMP/err" "^kjit: note: --block tuned: block $best "
"$kjit" run "$TMP/va.py:add_kernel" --grid cover:x --block tuned x=rand:float32:300000 \
  y=rand:float32:300000 out=zeros:float32:300000 >/dev/null 2>"$TMP/err"
code "another shape class" $? 0
expect "another class: no record, auto" "$TMP/err" '^kjit: note: --block tuned: no tuning record .* using --block auto'

# the kernel's source: a comment changes nothing, an expression does
sed 's/^def add_kernel/# tuned\ndef add_kernel/' "$TMP/va.py" >"$TMP/va2.py"
"$kjit" run "$TMP/va2.py:add_kernel" --grid cover:x --block tuned "${args[@]}" >/dev/null 2>"$TMP/err"
expect "a comment keeps the record" "$TMP/err" "^kjit: note: --block tuned: block $best "
sed 's/x\[idx\] + y\[idx\]/y[idx] + x[idx]/' "$TMP/va.py" >"$TMP/va3.py"
"$kjit" run "$TMP/va3.py:add_kernel" --grid cover:x --block tuned "${args[@]}" >/dev/null 2>"$TMP/err"
expect "a changed kernel has no record" "$TMP/err" '^kjit: note: --block tuned: no tuning record'

# a corrupted record: ignored with a warning, removed, auto used
entry=$(find "$KJIT_CACHE_DIR" -name "$key*.kjc" | head -1)
checks=$((checks + 1))
if [ -z "$entry" ]; then
  fail "no cache entry named $key*.kjc"
else
  printf 'XXXX' | dd of="$entry" bs=1 seek=60 conv=notrunc status=none
  "$kjit" run "$TMP/va.py:add_kernel" --grid cover:x --block tuned "${args[@]}" >"$TMP/out" 2>"$TMP/err"
  code "corrupt record" $? 0
  expect "corrupt: a warning" "$TMP/err" "warning\[E006\]: tuning record '.*$key.*\.kjc' is corrupt .*ignored and removed"
  expect "corrupt: auto" "$TMP/err" 'no tuning record .* using --block auto'
  checks=$((checks + 1))
  [ ! -e "$entry" ] || fail "the corrupt record was not removed"
  checks=$((checks + 1))
  cmp -s "$TMP/plain" "$TMP/out" || fail "the run after a corrupt record changed the arrays"
fi

# a record that passes the cache's checks (its HMAC redone with the user's
# key) but holds a value out of range: ignored as untrusted data
"$kjit" tune "$TMP/va.py:add_kernel" --grid cover:x --block 256 --repeat 5 "${args[@]}" >/dev/null 2>&1
entry=$(find "$KJIT_CACHE_DIR" -name "$key*.kjc" | head -1)
checks=$((checks + 1))
if [ -z "$entry" ] || ! python3 - "$entry" "$XDG_CONFIG_HOME/kjit/cache-key" <<'PY'
import hmac, hashlib, sys
path, keyfile = sys.argv[1], sys.argv[2]
buf = bytearray(open(path, "rb").read())
i = buf.find(b"\nref-block ")
assert i > 0
j = buf.index(b" ", i + 11)
buf[i + 11:j] = b"0" * (j - i - 11)          # ref-block 0: a dimension outside 1..1024
mac = hmac.new(open(keyfile, "rb").read(), bytes(buf[:56]) + bytes(buf[96:]), hashlib.sha256).digest()
buf[56:88] = mac
open(path, "wb").write(bytes(buf))
PY
then
  fail "could not rewrite the record $entry"
else
  "$kjit" run "$TMP/va.py:add_kernel" --grid cover:x --block tuned "${args[@]}" >/dev/null 2>"$TMP/err"
  code "invalid record" $? 0
  expect "invalid: a warning" "$TMP/err" "warning\[E006\]: tuning record '.*$key.*\.kjc' is invalid \(a block dimension outside 1\.\.1024\); it was ignored and removed"
  expect "invalid: auto" "$TMP/err" 'no tuning record .* using --block auto'
  checks=$((checks + 1))
  [ ! -e "$entry" ] || fail "the invalid record was not removed"
fi

# 2. a kernel whose results depend on the geometry: refused, nothing stored
"$kjit" tune "$here/tune/block_id.py:which_block" --grid cover:out --block 128 --repeat 5 \
  out=zeros:int32:5000 >"$TMP/out" 2>"$TMP/err"
code "geometry-dependent kernel" $? 1
expect "refused by name" "$TMP/err" "error: kernel 'which_block' gives different results with block 32, grid cover \(157\), shared 0 than with block 128, grid cover \(40\), shared 0 \(array 'out', element 32\): its results depend on the launch geometry, so it cannot be tuned"
reject "nothing stored" "$TMP/out" '^stored:'
"$kjit" run "$here/tune/block_id.py:which_block" --grid cover:out --block tuned out=zeros:int32:5000 \
  >/dev/null 2>"$TMP/err"
expect "refused: no record" "$TMP/err" 'no tuning record'

# a kernel that synchronizes the grid: refused before anything runs
"$kjit" tune "$here/tune/grid_sync.py:two_phase" --grid cover:a --block 128 a=rand:float32:1000 \
  out=zeros:float32:1000 >"$TMP/out" 2>"$TMP/err"
code "grid sync" $? 1
expect "grid sync refused" "$TMP/err" "error: kernel 'two_phase' synchronizes the grid .* so kjit tune does not change it"

# 3. a 2-D kernel: 2-D shapes, a grid covering each dimension
"$kjit" tune "$here/tune/scale2d.py:scale2d" --grid cover:out --block 16,16 --repeat 5 \
  a=rand:float32:200x300 out=zeros:float32:200x300 >"$TMP/out" 2>/dev/null
code "2-D kernel" $? 0
expect "2-D as given" "$TMP/out" '^[ *] 16x16 +cover \(13x19\) .*\(as given\)'
expect "2-D 32x8" "$TMP/out" '^[ *] 32x8 +cover \(7x38\) '
reject "no 1-D blocks" "$TMP/out" '^[ *] 256 +cover'

# a 3-D kernel: 3-D shapes
"$kjit" tune "$here/tune/fill3d.py:fill3d" --grid cover:a --block 8,8,4 --repeat 5 a=zeros:int32:20x30x40 \
  >"$TMP/out" 2>/dev/null
code "3-D kernel" $? 0
expect "3-D as given" "$TMP/out" '^[ *] 8x8x4 +cover \(3x4x10\) .*\(as given\)'
expect "3-D 16x16x4" "$TMP/out" '^[ *] 16x16x4 +cover \(2x2x10\) '
expect "3-D: 12 candidates" "$TMP/out" 'fill3d, 12 candidates'

# 4. a grid-stride kernel: grids by SM count (the cpu target: its threads)
"$kjit" tune "$here/tune/stride.py:saxpy_stride" --grid 8 --block 128 --repeat 5 float32:2 \
  x=rand:float32:50000 y=rand:float32:50000 >"$TMP/out" 2>/dev/null
code "grid-stride kernel" $? 0
expect "same threads" "$TMP/out" '^[ *] 256 +cover \(4\) '
expect "SM grids" "$TMP/out" '^[ *] 512 +32xSMs \([0-9]+\) '

# 5. dynamic shared memory: scaled with the block, the given size on smaller blocks
"$kjit" tune "$here/tune/dyn_shared.py:stage" --grid cover:x --block 256 --shared 1024 --repeat 5 \
  x=rand:float32:50000 out=zeros:float32:50000 >"$TMP/out" 2>/dev/null
code "dynamic shared" $? 0
expect "shared as given" "$TMP/out" '^[ *] 256 +cover \(196\) +1024 .*\(as given\)'
expect "shared per thread" "$TMP/out" '^[ *] 512 +cover \(98\) +2048 '
expect "shared fixed" "$TMP/out" '^[ *] 64 +cover \(782\) +1024 '

# 6. --budget: a tiny one still stores the best measured
"$kjit" tune "$TMP/va.py:add_kernel" --grid cover:x --block 128 --budget 0.001 "${args[@]}" \
  >"$TMP/out" 2>"$TMP/err"
code "tiny budget" $? 0
expect "budget note" "$TMP/err" '^kjit: note: tune: the budget of 0.001 s is spent after [0-9]+ of 13 candidates'
expect "budget: not run" "$TMP/out" 'not run: budget spent'
expect "budget: stored" "$TMP/out" '^stored: key '

# 7. usage errors, and the disk cache turned off
"$kjit" run "$TMP/va.py:add_kernel" --grid 1 --block 1 --budget 5 "${args[@]}" >/dev/null 2>"$TMP/err"
code "run --budget" $? 2
expect "run --budget message" "$TMP/err" '--budget is an option of kjit tune'
"$kjit" tune "$TMP/va.py:add_kernel" --grid 1 --block 1 -o out="$TMP/o.npy" "${args[@]}" >/dev/null 2>"$TMP/err"
code "tune -o" $? 2
expect "tune -o message" "$TMP/err" '-o is an option of kjit run'
"$kjit" tune "$TMP/va.py:add_kernel" --grid cover:x "${args[@]}" >/dev/null 2>"$TMP/err"
code "tune without --block" $? 2
expect "tune without --block message" "$TMP/err" "missing --block X\[,Y\[,Z\]\] for 'tune'"
"$kjit" tune "$here/../docs/examples/add.py:add" a=arange:float32:10 b=arange:float32:10 >/dev/null 2>"$TMP/err"
code "tune a @vectorize function" $? 2
expect "tune a @vectorize message" "$TMP/err" "'add' is a @vectorize function: kjit chooses its launch, so there is nothing to tune"
KJIT_CACHE=0 "$kjit" tune "$TMP/va.py:add_kernel" --grid cover:x --block 256 --repeat 5 "${args[@]}" \
  >/dev/null 2>"$TMP/err"
code "cache off" $? 1
expect "cache off message" "$TMP/err" 'the tuning record could not be stored'

[ $status -eq 0 ] && echo "tune.sh: $checks checks passed"
exit $status
