#!/usr/bin/env bash
# hostile/run.sh KJIT_BIN [FAMILY...] - hostile input: sizes, special files,
# signals and the CPU target's memory model (docs/reliability.md, "Hostile
# input").  Every case runs kjit under `timeout` and `ulimit -v`, and checks
# the exit status and the message, not only that nothing crashed.  Big
# inputs are generated here, in a temporary folder, never committed.
# Families: parse limits files outputs faults cache, and round 3's fifo
# safety signals cache_security visibility cache_late (default: all).  The second-user
# cases run as uid 65534 through setpriv when root, else are skipped with a
# note saying why.
set -uo pipefail
if [ $# -lt 1 ]; then
  echo "usage: hostile/run.sh KJIT_BIN [FAMILY...]" >&2; exit 2
fi
kjit=$(cd "$(dirname "$1")" && pwd)/$(basename "$1"); shift
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=tests/testlib.sh
. "$here/../testlib.sh"
make_tmp
cd "$TMP" || exit 1
command -v python3 >/dev/null || { echo "hostile: python3 not found" >&2; exit 77; }

MEM_KB=${KJIT_HOSTILE_MEM_KB:-4194304}   # 4 GiB of address space per run
# AddressSanitizer reserves terabytes of shadow address space at start-up,
# which any such cap refuses: under the sanitizer build (scripts/
# test_sanitize.sh sets ASAN_OPTIONS) the cases run with time bounds only.
if [ -n "${ASAN_OPTIONS:-}" ]; then MEM_KB=unlimited; fi
failures=0 cases=0

# expect RC PATTERN [SECONDS] -- CMD...: CMD exits RC and its stderr (or
# stdout) matches the extended regex PATTERN, within SECONDS (default 20).
expect() {
  local want=$1 pat=$2 secs=20
  shift 2
  if [ "$1" != "--" ]; then secs=$1; shift; fi
  shift
  if [ "$1" = run ]; then set -- "$kjit" run "${@:2}" --target cpu; fi
  cases=$((cases + 1))
  ( ulimit -v "$MEM_KB"; exec timeout -k 2 "$secs" "$@" ) >out.txt 2>err.txt </dev/null
  local rc=$?
  if [ "$rc" -ne "$want" ] || { [ -n "$pat" ] && ! grep -Eq -- "$pat" err.txt out.txt; }; then
    failures=$((failures + 1))
    echo "FAIL: $* -> exit $rc (want $want), want /$pat/" >&2
    head -c 1500 err.txt >&2
  fi
}

# check NAME CONDITION-COMMAND...: a plain assertion.
check() {
  local name=$1; shift
  cases=$((cases + 1))
  if ! "$@"; then failures=$((failures + 1)); echo "FAIL: $name" >&2; fi
}

# In expect, a command starting with `run` is `kjit run ... --target cpu`.
# kernel NAME BODY...: a file NAME.py with @cuda.jit def k(...) and body lines.
kernel() {
  local name=$1 params=$2; shift 2
  { echo "from numba import cuda, float32, float64"; echo "@cuda.jit"; echo "def k($params):"
    printf '    %s\n' "$@"; } > "$name.py"
}

family_parse() {
  # 1. an if/elif chain of 30,000 branches: a located limit, no recursion
  python3 - <<'EOF'
n = 30000
s = ["from numba import cuda", "@cuda.jit", "def k(x):", "    i = cuda.grid(1)", "    if i == 0:", "        x[0] = 0"]
s += [f"    elif i == {j}:\n        x[0] = {j}" for j in range(1, n)]
open("elif30k.py", "w").write("\n".join(s) + "\n")
s = ["from numba import cuda", "@cuda.jit", "def k(x):", "    i = cuda.grid(1)", "    if i == 0:", "        x[0] = 7"]
s += [f"    elif i == {j}:\n        x[0] = {j}" for j in range(1, 400)] + ["    else:", "        x[0] = -1"]
open("elif400.py", "w").write("\n".join(s) + "\n")
# a flat sum of 500 terms (CPython accepts it) and one of 2,002 (over the limit)
for n, name in ((500, "sum500"), (2002, "sum2002")):
    body = " + ".join(f"x[{j % 10}]" for j in range(n))
    open(f"{name}.py", "w").write(f"from numba import cuda\n@cuda.jit\ndef k(x):\n    x[0] = {body}\n")
# 2. a tuple literal of 100,000 elements
t = ",".join(str(j) for j in range(100000))
open("tuple.py", "w").write(f"from numba import cuda\n@cuda.jit\ndef k(x):\n    t = ({t})\n    x[0] = t[5]\n")
EOF
  expect 1 'elif30k.py:[0-9]+:5: error\[E[0-9]{3}\]: more than 400 elif branches in one if statement' -- "$kjit" check elif30k.py
  check "elif30k: one error" test "$(grep -c 'error\[E' err.txt)" -eq 1
  expect 1 'more than 400 elif branches' -- run elif30k.py:k --grid 1 --block 1 x=zeros:f32:1
  expect 0 'x: float32\[1\] \[7\]' -- run elif400.py:k --grid 1 --block 1 x=zeros:f32:1
  # x = arange(10): x[0] = 50 * (0 + 1 + ... + 9) = 2250
  expect 0 'x: float32\[10\] \[2250, 1, 2, ..., 9\]' -- run sum500.py:k --grid 1 --block 1 x=arange:f32:10
  expect 1 'error\[E[0-9]{3}\]: more than 2000 binary operators chained in one expression' -- "$kjit" check sum2002.py
  expect 1 'tuple.py:4:9: error\[E[0-9]{3}\]: a tuple literal of 100000 elements exceeds the limit of 1024' -- \
    run tuple.py:k --grid 1 --block 1 x=zeros:f32:8
  # the error echoed a window of the 600 KB line, not the line
  check "tuple: short echo" test "$(wc -c < err.txt)" -lt 1000
  # backslash-newline at the end of the file: a SyntaxError, as in CPython
  printf 'from numba import cuda\nx = 1 \\\n' > bs.py
  expect 1 'bs.py:2:7: error\[E[0-9]{3}\]: unexpected EOF while parsing' -- "$kjit" check bs.py
  # an error on a 10 MB line echoes a few hundred bytes
  python3 -c "open('wide.py','w').write('x = ' + '1 + ' * 2500000 + ')\n')"
  expect 1 'wide.py:1:' -- "$kjit" check wide.py
  check "10 MB line: short echo" test "$(wc -c < err.txt)" -lt 2000
}

family_limits() {
  # 3. local arrays: 512 KiB per thread, a located error beyond
  kernel local10m x "a = cuda.local.array(10000000, float32)" "for j in range(10000000):" \
    "    a[j] = j" "x[0] = a[9999999]"
  expect 1 'local10m.py:4:9: error\[E[0-9]{3}\]: local arrays of 40000000 bytes exceed the 524288 bytes of local memory' -- \
    run local10m.py:k --grid 1 --block 1 x=zeros:f32:1
  expect 1 'local10m.py:4:9: error\[E[0-9]{3}\]: local arrays of 40000000 bytes exceed' -- "$kjit" run local10m.py:k --grid 1 --block 1 --debug x=zeros:f32:1 --target cpu
  kernel local2g x "a = cuda.local.array(2147483648, float32)" "x[0] = a[0]"
  expect 1 'local arrays of 8589934592 bytes exceed' -- "$kjit" ptx local2g.py:k --sig "void(float32[:])"
  kernel localmax x "a = cuda.local.array(9223372036854775807, float32)" "x[0] = a[0]"
  expect 1 'local arrays of 9223372036854775807 bytes exceed' -- "$kjit" ptx localmax.py:k --sig "void(float32[:])"
  { echo "from numba import cuda, float32"; echo "@cuda.jit(device=True)"; echo "def dev(x, n):"
    echo "    a = cuda.local.array(n, float32)"; echo "    a[0] = 1"; echo "    x[0] = a[0]"
    echo "@cuda.jit"; echo "def k(x):"; echo "    dev(x, 1000000)"; } > localdev.py
  expect 1 'a local array of 4000000 bytes exceeds the 524288 bytes' -- run localdev.py:k --grid 1 --block 1 x=zeros:f32:1
  # 4. local arrays with syncthreads: fiber stacks sized from the kernel's locals
  kernel localsync x "a = cuda.local.array(16000, float64)" "t = cuda.threadIdx.x" "for j in range(16000):" \
    "    a[j] = j + t" "cuda.syncthreads()" "x[t] = a[15999]"
  expect 0 'x: float64\[4\] \[15999, 16000, 16001, 16002\]' -- run localsync.py:k --grid 2 --block 4 x=zeros:f64:4
  kernel localbig x "a = cuda.local.array(65000, float64)" "t = cuda.threadIdx.x" "a[64999] = t" \
    "cuda.syncthreads()" "x[t] = a[64999]"
  expect 0 'x: float64\[32\] \[0, 1, 2, ..., 31\]' -- run localbig.py:k --grid 2 --block 32 x=zeros:f64:32
}

family_faults() {
  # 5. out of bounds without --debug: a located fault, exit 1, no crash
  kernel oob "x, off" "x[off] = 1.0"
  expect 1 "kernel 'k' on the CPU: illegal address 0x[0-9a-f]+ in block \(0,0,0\) \(SIGSEGV\)" -- \
    run oob.py:k --grid 1 --block 1 x=zeros:f32:4 off=1099511627776
  expect 1 "kernel 'k' on the CPU: illegal address 0x[0-9a-f]+ in block \(0,0,0\)" -- \
    run oob.py:k --grid 1 --block 1 x=zeros:f32:4 off=-100000000
  # a wild store through a huge stride: past the 47-bit half, where x86-64
  # reports no address (si_addr 0); the message has it, and the array
  kernel stride "x, s" "i = cuda.grid(1)" "x[i * s] = 1.0"
  expect 1 "kernel 'k' on the CPU: illegal address 0x[0-9a-f]{12,}, outside the address space, in block \(0,0,0\) \(SIGSEGV\); the nearest array is argument 'x' \(16 bytes at 0x[0-9a-f]+\): the address is 140737488355312 bytes past its end" -- \
    run stride.py:k --grid 1 --block 4 x=zeros:f32:4 s=35184372088832
  check "huge stride: not 0x0" test "$(grep -c 'illegal address 0x0 ' err.txt)" -eq 0
  expect 1 "illegal address 0xffff[0-9a-f]+ in block \(0,0,0\) \(SIGSEGV\); the nearest array is argument 'x' \(16 bytes at 0x[0-9a-f]+\): the address is 140737488355312 bytes before its start" -- \
    run stride.py:k --grid 1 --block 4 x=zeros:f32:4 s=-35184372088832
  # 6. a dynamic shared array larger than --shared: the host heap is safe
  kernel dyn x "buf = cuda.shared.array(0, float32)" "i = cuda.threadIdx.x" "buf[i] = i" \
    "cuda.syncthreads()" "x[i] = buf[i]"
  #    (split at its barrier, the kernel runs its threads in loops: the fault names the block, as
  #    for barrier-free kernels; on fibers it also names the thread)
  expect 1 "illegal address 0x[0-9a-f]+ in block \(0,0,0\)" -- \
    run dyn.py:k --grid 1 --block 64 --shared 8 x=zeros:f32:64
  expect 1 "illegal address 0x0 in block \(0,0,0\)" -- \
    run dyn.py:k --grid 1 --block 64 --shared 0 x=zeros:f32:64
  expect 1 "illegal address 0x[0-9a-f]+ in thread \([0-9]+,0,0\) of block \(0,0,0\)" -- \
    env KJIT_CPU_FIBERS=1 "$kjit" run dyn.py:k --grid 1 --block 64 --shared 8 x=zeros:f32:64 --target cpu
  expect 1 "illegal address 0x0 in thread \(0,0,0\) of block \(0,0,0\)" -- \
    env KJIT_CPU_FIBERS=1 "$kjit" run dyn.py:k --grid 1 --block 64 --shared 0 x=zeros:f32:64 --target cpu
  expect 0 'x: float32\[64\] \[0, 1, 2, ..., 63\]' -- run dyn.py:k --grid 1 --block 64 --shared 256 x=zeros:f32:64
  # 7. a huge flat function: --timeout bounds the compile too
  python3 - <<'EOF'
s = ["from numba import cuda", "@cuda.jit", "def k(x):", "    i = cuda.grid(1)"]
s += [f"    if i == {j}:\n        x[0] += {j}" for j in range(8000)]
open("flat8k.py", "w").write("\n".join(s) + "\n")
EOF
  expect 1 "flat8k.py:3:5: error\[E[0-9]{3}\]: function 'k' is too large to compile: 16001 basic blocks \(at most 5000" 10 -- \
    run flat8k.py:k --grid 1 --block 1 x=zeros:f32:1
  # under the cap a big function still compiles slowly: --timeout bounds it
  python3 - <<'EOF'
s = ["from numba import cuda", "@cuda.jit", "def k(x):", "    i = cuda.grid(1)"]
s += [f"    if i == {j}:\n        x[0] += {j}" for j in range(2400)]
open("flat2k.py", "w").write("\n".join(s) + "\n")
EOF
  expect 3 "kernel 'k' did not finish within 1 s \(--timeout\)" 10 -- run flat2k.py:k --grid 1 --block 1 x=zeros:f32:1 --timeout 1
  # typing 2,000 flat ifs of one chained value was quadratic in kjit itself
  # (a whole-function walk per constant query: 33 s); now one walk per pass
  python3 - <<'EOF'
s = ["from numba import cuda", "@cuda.jit", "def k(x):", "    v = x[0]"]
s += [f"    if v > {j}:\n        v = v * 0.5 + {j}" for j in range(2000)]
s += ["    x[0] = v"]
open("chain2k.py", "w").write("\n".join(s) + "\n")
EOF
  expect 0 "" 20 -- "$kjit" ptx chain2k.py:k --sig "void(float32[:])" --emit kir
}

family_files() {
  # 8. special files and sizes as sources
  expect 1 "cannot read '/dev/zero': it is a character device" 5 -- "$kjit" check /dev/zero
  mkfifo src.py
  expect 1 "cannot read 'src.py': it is a FIFO" 5 -- "$kjit" check src.py
  expect 1 "cannot read 'src.py': it is a FIFO" 5 -- run src.py:k --grid 1 --block 1 --timeout 2
  mkdir dir.py
  expect 1 "cannot read 'dir.py': it is a directory" 5 -- "$kjit" ptx dir.py
  head -c 17000000 /dev/zero | tr '\0' '#' > big.py
  expect 1 "'big.py' is larger than the source size limit of 16777216 bytes" -- "$kjit" check big.py
  expect 0 "big.py: ok" -- env KJIT_MAX_SOURCE_BYTES=20000000 "$kjit" check big.py
  # a NUL byte anywhere (a comment, a string) is refused alike from a file,
  # standard input and an imported module, at its line and column
  printf 'from numba import cuda\n# a \000 in a comment\n@cuda.jit\ndef k(x):\n    x[0] = 1\n' > nulc.py
  expect 1 "nulc.py:2:5: error\[E101\]: source code cannot contain null bytes" -- "$kjit" check nulc.py
  cases=$((cases + 1))
  ( exec timeout 10 "$kjit" check - < nulc.py ) >out.txt 2>err.txt
  rc=$?
  if [ $rc -ne 1 ] || ! grep -q "^<stdin>:2:5: error\[E101\]: source code cannot contain null bytes" err.txt; then
    failures=$((failures + 1)); echo "FAIL: a NUL in a comment on standard input (exit $rc)" >&2; cat err.txt >&2
  fi
  cases=$((cases + 1))
  ( exec timeout 10 "$kjit" run -:k --grid 1 --block 1 x=zeros:f32:1 --target cpu < nulc.py ) >out.txt 2>err.txt
  if [ $? -ne 1 ] || ! grep -q "^<stdin>:2:5: error\[E101\]" err.txt || grep -q "x: float32" out.txt; then
    failures=$((failures + 1)); echo "FAIL: kjit run - ran a source with a NUL" >&2; cat err.txt >&2
  fi
  mkdir -p nulmod && printf 'X = "a\000b"\n' > nulmod/helpers.py
  printf 'from numba import cuda\nfrom helpers import X\n@cuda.jit\ndef k(x):\n    x[0] = 1\n' > nulmod/main.py
  expect 1 "helpers.py:1:7: error\[E101\]: source code cannot contain null bytes" -- \
    run nulmod/main.py:k --grid 1 --block 1 x=zeros:f32:1
  # 9. FIFOs and directories as .npy arguments; a costly generator
  kernel poke x "x[0] = 1"
  mkfifo f.npy; mkdir d.npy
  expect 1 "argument 'x': f.npy: cannot read: it is a FIFO, not a regular file" 5 -- \
    run poke.py:k --grid 1 --block 1 x=f.npy --timeout 2
  expect 1 "argument 'x': d.npy: cannot read: it is a directory" 5 -- run poke.py:k --grid 1 --block 1 x=d.npy
  kernel keep s "pass"
  expect 0 's: uint64\[4x2\]' 5 -- run keep.py:k --grid 1 --block 1 s=xoroshiro:4:1:99999999999999
  expect 0 's: uint64\[1x2\]' 5 -- run keep.py:k --grid 1 --block 1 s=xoroshiro:1:1:18446744073709551615
  # the matrix-power jump (SUBSEQ >= 64) agrees with 200 single jumps
  expect 0 's: ' -- run keep.py:k --grid 1 --block 1 s=xoroshiro:201:7:0 -o s=seq.npy
  expect 0 's: ' -- run keep.py:k --grid 1 --block 1 s=xoroshiro:1:7:200 -o s=sub.npy
  check "xoroshiro jump by matrix power" cmp -s <(tail -c 16 seq.npy) <(tail -c 16 sub.npy)
}

family_outputs() {
  kernel twice "x, y" "i = cuda.grid(1)" "if i < x.size:" "    x[i] += 1" "if i < y.size:" "    y[i] += 2" \
    "print(77777)"
  local go=(run twice.py:k --grid 1 --block 4)
  # 10. -o refuses non-regular targets before the run (nothing printed)
  mkfifo out.fifo; mkdir out.dir; ln -s /dev/zero zero.lnk
  expect 1 "out.fifo: cannot write: it is a FIFO" 5 -- "${go[@]}" x=zeros:f32:4 y=zeros:f32:4 -o x=out.fifo
  check "-o fifo: nothing ran" test "$(grep -c 77777 out.txt)" -eq 0
  expect 1 "out.dir: cannot write: it is a directory" -- "${go[@]}" x=zeros:f32:4 y=zeros:f32:4 -o x=out.dir
  expect 1 "zero.lnk: cannot write: it is a character device" -- "${go[@]}" x=zeros:f32:4 y=zeros:f32:4 -o x=zero.lnk
  check "-o symlink kept" test -L zero.lnk
  expect 0 "x: float32\[4\] \[1, 1, 1, 1\]" -- "${go[@]}" x=zeros:f32:4 y=zeros:f32:4 -o x=/dev/null
  expect 1 "cannot write 'out.fifo': it is a FIFO" 5 -- "$kjit" ptx poke_ptx.py -o out.fifo
  # 11. all or nothing: the second output fails (file size limit), the first is untouched
  echo old > a.npy
  cases=$((cases + 1))
  ( ulimit -f 100; ulimit -v "$MEM_KB"
    exec timeout 20 "$kjit" run twice.py:k --grid 1 --block 4 --target cpu x=zeros:f32:4 y=zeros:f32:100000 \
      -o x=a.npy -o y=b.npy ) >out.txt 2>err.txt
  rc=$?
  if [ $rc -ne 1 ] || ! grep -q "b.npy: cannot write: File too large" err.txt || [ "$(cat a.npy)" != old ] ||
     [ -e b.npy ] || compgen -G "*.kjit-tmp*" >/dev/null; then
    failures=$((failures + 1)); echo "FAIL: -o all or nothing (exit $rc)" >&2; cat err.txt >&2
  fi
  expect 0 "y: float32\[4\]" -- "${go[@]}" x=zeros:f32:4 y=zeros:f32:4 -o x=a.npy -o y=b.npy
  check "-o both written" test -s b.npy -a "$(head -c 6 a.npy | tail -c 5)" = NUMPY
  # 12. SIGTERM while an output is written: its temporary file goes too
  for sig in TERM INT; do
    cases=$((cases + 1))
    ( ulimit -v "$MEM_KB"; exec "$kjit" run twice.py:k --grid 1 --block 1 --target cpu x=zeros:f32:60000000 \
        y=zeros:f32:1 -o x=huge.npy ) >/dev/null 2>&1 &
    local pid=$! seen=0
    for _ in $(seq 1 200000); do
      if compgen -G "huge.npy.kjit-tmp*" >/dev/null; then kill -"$sig" $pid; seen=1; break; fi
      kill -0 $pid 2>/dev/null || break
    done
    wait $pid; rc=$?
    if [ $seen = 1 ] && { compgen -G "huge.npy.kjit-tmp*" >/dev/null || [ -e huge.npy ]; }; then
      failures=$((failures + 1)); echo "FAIL: SIG$sig left a temporary file (exit $rc)" >&2
    fi
    [ $seen = 1 ] || echo "note: SIG$sig case: the write ended before it was seen" >&2
    rm -f huge.npy huge.npy.kjit-tmp*
  done
}

family_cache() {
  kernel c x "x[0] = 3"
  local sig=(--sig "void(float32[:])")
  expect 0 "warning\[E[0-9]{3}\]: KJIT_CACHE='abc' is not one of 0/off/false/no or 1/on/true/yes" -- \
    env KJIT_CACHE=abc XDG_CACHE_HOME="$TMP/xc1" "$kjit" ptx c.py:k "${sig[@]}" -o c.ptx
  for v in 0 off FALSE no; do
    expect 0 "" -- env KJIT_CACHE=$v XDG_CACHE_HOME="$TMP/xc-$v" "$kjit" ptx c.py:k "${sig[@]}" -o c.ptx
    check "KJIT_CACHE=$v: no entry" test -z "$(find "$TMP/xc-$v" -type f 2>/dev/null)"
  done
  expect 0 "" -- env KJIT_CACHE=yes XDG_CACHE_HOME="$TMP/xc2" "$kjit" ptx c.py:k "${sig[@]}" -o c.ptx
  local entry
  entry=$(find "$TMP/xc2" -type f | head -1)
  check "KJIT_CACHE=yes: an entry" test -n "$entry"
  # an entry replaced by a link to a 300 MB file: refused by its size, unread
  truncate -s 300M "$TMP/huge.bin" && rm -f "$entry" && ln -s "$TMP/huge.bin" "$entry"
  cases=$((cases + 1))
  local rss
  rss=$( { env XDG_CACHE_HOME="$TMP/xc2" /usr/bin/time -f "%M" "$kjit" ptx c.py:k "${sig[@]}" -o c2.ptx >/dev/null; } 2>&1 | tail -1)
  if ! cmp -s c.ptx c2.ptx || [ "${rss:-999999}" -gt 200000 ]; then
    failures=$((failures + 1)); echo "FAIL: huge cache entry (max RSS ${rss} KB)" >&2
  fi
}


# ---- round 3 (docs/reliability.md, "Hostile input, round 3") ----------

# as_nobody CMD...: CMD as a second user (uid 65534) when root can switch
# to one, else returns 77; ${nobody[@]} is the same prefix for expect.
nobody=(setpriv --reuid=65534 --regid=65534 --clear-groups --)
as_nobody() {
  if [ "$(id -u)" -ne 0 ] || ! command -v setpriv >/dev/null; then return 77; fi
  "${nobody[@]}" "$@"
}

# outside_snapshot: what the cases may not touch outside $TMP (the user's
# integrity key and its folder), as a checksum of a listing.
outside_snapshot() { ls -la --time-style=full-iso "$HOME/.config/kjit" 2>/dev/null | md5sum; }

# Every configured path a FIFO: refused by name, never a hang.
family_fifo() {
  mkfifo p.fifo
  printf 'import math\nfrom numba import cuda\n@cuda.jit("void(float32[:])")\ndef k(x):\n    x[0] = math.sin(x[0])\n' > m.py
  expect 1 "cannot read libdevice at $TMP/p.fifo: it is a FIFO, not a regular file" 10 -- \
    env KJIT_CACHE=0 KJIT_LIBDEVICE="$TMP/p.fifo" "$kjit" ptx m.py -o /dev/null
  echo "not bitcode" > notbc.bc
  expect 1 "libdevice at $TMP/notbc.bc is not LLVM bitcode" 10 -- \
    env KJIT_CACHE=0 KJIT_LIBDEVICE="$TMP/notbc.bc" "$kjit" ptx m.py -o /dev/null
  printf 'extern "C" __global__ void k(float *x) { x[0] = 1; }\n' > c.cu
  expect 1 "cannot load KJIT_NVRTC=$TMP/p.fifo: it is a FIFO, not a regular file" 10 -- \
    env KJIT_CACHE=0 KJIT_NVRTC="$TMP/p.fifo" "$kjit" ptx c.cu -o /dev/null
  mkdir -p modfifo && mkfifo modfifo/helpers.py
  printf 'from numba import cuda\nfrom helpers import f\n@cuda.jit\ndef k(x):\n    x[0] = f(1.0)\n' > modfifo/main.py
  expect 1 "cannot read '.*helpers.py': it is a FIFO" 10 -- run modfifo/main.py:k --grid 1 --block 1 x=zeros:f32:1
  # a cache entry that is a FIFO, then a link to one: a miss, one warning, the run goes on
  kernel cf x "x[0] = 5"
  expect 0 "x: float32\[1\] \[5\]" -- env XDG_CACHE_HOME="$TMP/fc" "$kjit" run cf.py:k --grid 1 --block 1 x=zeros:f32:1 --target cpu
  local entry; entry=$(find "$TMP/fc" -name '*.kjc' | head -1)
  check "fifo: an entry was stored" test -n "$entry"
  rm -f "$entry"; mkfifo "$entry"
  expect 0 "cache entry '.*' is not used: it is a FIFO; it was removed and recompiled" 10 -- \
    env XDG_CACHE_HOME="$TMP/fc" "$kjit" run cf.py:k --grid 1 --block 1 x=zeros:f32:1 --target cpu
  check "fifo entry replaced by a file" test -f "$entry" -a ! -p "$entry"
  rm -f "$entry"; ln -s "$TMP/p.fifo" "$entry"
  expect 0 "is not used: it is a symbolic link" 10 -- \
    env XDG_CACHE_HOME="$TMP/fc" "$kjit" run cf.py:k --grid 1 --block 1 x=zeros:f32:1 --target cpu
  check "fifo link target untouched" test -p "$TMP/p.fifo"
}

# The C API's writer and -o: one set of rules.
family_safety() {
  kernel one x "x[0] = 1"
  local go=(run one.py:k --grid 1 --block 1 x=zeros:f32:2)
  echo old > real.npy; ln -s real.npy via.npy
  expect 0 "x: float32" -- "${go[@]}" -o x=via.npy
  check "-o through a link: link kept" test -L via.npy
  check "-o through a link: target written" test "$(head -c 6 real.npy | tail -c 5)" = NUMPY
  echo old > mode.npy; chmod 0640 mode.npy
  expect 0 "x: float32" -- "${go[@]}" -o x=mode.npy
  check "-o keeps the mode" test "$(stat -c %a mode.npy)" = 640
  if [ "$(id -u)" -eq 0 ]; then
    echo old > theirs.npy; chown 65534:65534 theirs.npy
    expect 0 "x: float32" -- "${go[@]}" -o x=theirs.npy
    check "-o as root keeps another user's file theirs" test "$(stat -c %u:%g theirs.npy)" = 65534:65534
  fi
  expect 1 "-o x=same.npy and -o x=same.npy write one file: ambiguous" -- "${go[@]}" -o x=same.npy -o x=same.npy
  ln -s same.npy alias.npy
  expect 1 "write one file: ambiguous" -- "${go[@]}" -o x=real.npy -o x=via.npy
  ln -s nowhere/missing.npy dangling.npy
  expect 1 "dangling.npy: cannot write: it is a symbolic link to a missing file" -- "${go[@]}" -o x=dangling.npy
  check "-o dangling link kept" test -L dangling.npy
  # a temporary of a dead writer goes; one of a live process stays
  local dead=999999
  while kill -0 $dead 2>/dev/null; do dead=$((dead - 1)); done
  echo junk > "stale.npy.kjit-tmp-$dead-abcdef"; echo junk > "stale.npy.kjit-tmp-$$-abcdef"
  expect 0 "x: float32" -- "${go[@]}" -o x=stale.npy
  check "stale temporary of a dead pid removed" test ! -e "stale.npy.kjit-tmp-$dead-abcdef"
  check "temporary of a live pid kept" test -e "stale.npy.kjit-tmp-$$-abcdef"
  # a read-only target, for a user who cannot write it
  mkdir -p pub && chmod 1777 pub && chmod 711 "$TMP"
  echo keep > pub/ro.npy; chmod 0444 pub/ro.npy; chown 65534:65534 pub/ro.npy 2>/dev/null
  cp one.py pub/one.py && chmod 644 pub/one.py
  if as_nobody env "$kjit" --version >/dev/null 2>&1; then
    expect 1 "ro.npy: cannot write: it is read-only" -- "${nobody[@]}" env HOME="$TMP/pub" KJIT_CACHE=0 "$kjit" run \
      pub/one.py:k --grid 1 --block 1 x=zeros:f32:2 --target cpu -o x=pub/ro.npy
    check "read-only target unchanged" test "$(cat pub/ro.npy)" = keep
  elif [ "$(id -u)" -ne 0 ]; then
    expect 1 "ro.npy: cannot write: it is read-only" -- "${go[@]}" -o x=pub/ro.npy
  else
    echo "note: safety: read-only case skipped (no second user: not root, no setpriv, or kjit in a folder uid 65534 cannot enter)" >&2
  fi
  chmod 700 "$TMP"
}

# Signals during -o: every catchable one removes the temporary; after
# SIGKILL the next write removes it.
family_signals() {
  kernel twice "x, y" "i = cuda.grid(1)" "if i < x.size:" "    x[i] += 1"
  for sig in QUIT USR1 KILL; do
    cases=$((cases + 1))
    ( ulimit -v "$MEM_KB"; ulimit -c 0; exec "$kjit" run twice.py:k --grid 1 --block 1 --target cpu \
        x=zeros:f32:60000000 y=zeros:f32:1 -o x=huge.npy ) >/dev/null 2>&1 &
    local pid=$! seen=0
    for _ in $(seq 1 200000); do
      if compgen -G "huge.npy.kjit-tmp*" >/dev/null; then kill -"$sig" $pid; seen=1; break; fi
      kill -0 $pid 2>/dev/null || break
    done
    wait $pid 2>/dev/null
    if [ $seen = 1 ] && [ $sig != KILL ] && { compgen -G "huge.npy.kjit-tmp*" >/dev/null || [ -e huge.npy ]; }; then
      failures=$((failures + 1)); echo "FAIL: SIG$sig left a temporary file" >&2
    fi
    if [ $seen = 1 ] && [ $sig = KILL ]; then
      expect 0 "x: float32" -- run twice.py:k --grid 1 --block 1 x=zeros:f32:2 y=zeros:f32:1 -o x=huge.npy
      check "SIGKILL's temporary removed by the next write" test -z "$(compgen -G 'huge.npy.kjit-tmp*')"
    fi
    [ $seen = 1 ] || echo "note: SIG$sig case: the write ended before it was seen" >&2
    rm -f huge.npy huge.npy.kjit-tmp*
  done
}

# The cache folder, its subfolders, entries and locks: nobody else's, no links.
family_cache_security() {
  local before; before=$(outside_snapshot)
  kernel cs x "x[0] = 9"
  local go=(run cs.py:k --grid 1 --block 1 x=zeros:f32:1)
  mkdir -p gw && chmod 0777 gw
  expect 0 "warning\[E004\]: cache folder '$TMP/gw' is not used: it is writable by others \(mode 0777\); caching disabled" -- \
    env KJIT_CACHE_DIR="$TMP/gw" "$kjit" "${go[@]}" --target cpu
  check "group-writable folder: a hint" grep -q "chmod 700" err.txt
  check "group-writable folder: nothing stored" test -z "$(find gw -type f)"
  check "group-writable folder: one warning" test "$(grep -c E004 err.txt)" -eq 1
  # a subfolder that is a link: stats and clear never delete through it
  expect 0 "x: float32\[1\] \[9\]" -- env KJIT_CACHE_DIR="$TMP/own" "$kjit" "${go[@]}" --target cpu
  check "own cache: made 0700" test "$(stat -c %a own)" = 700
  check "own cache: entries 0600" test "$(stat -c %a "$(find own -name '*.kjc' | head -1)")" = 600
  local sub; sub=$(dirname "$(find own -name '*.kjc' | head -1)")
  mkdir -p victim && cp "$sub"/*.kjc victim/ && rm -rf "$sub" && ln -s "$TMP/victim" "$sub"
  expect 0 "" -- env KJIT_CACHE_DIR="$TMP/own" "$kjit" cache clear
  expect 0 "" -- env KJIT_CACHE_DIR="$TMP/own" "$kjit" cache stats
  check "linked subfolder: nothing deleted through it" test "$(ls victim | wc -l)" -eq 1
  # a link at a lock's name creates nothing where it points
  rm -f "$sub"; expect 0 "" -- env KJIT_CACHE_DIR="$TMP/own" "$kjit" "${go[@]}" --target cpu
  local e; e=$(find own -name '*.kjc' | head -1)
  rm -f "$e"; ln -s "$TMP/planted" "${e%.kjc}.lock"
  expect 0 "x: float32\[1\] \[9\]" -- env KJIT_CACHE_DIR="$TMP/own" "$kjit" "${go[@]}" --target cpu
  check "linked lock: nothing created at its target" test ! -e planted
  # a second user plants a cache; running against it uses nothing of it
  mkdir -p pub && chmod 1777 pub && chmod 711 "$TMP" && cp cs.py pub/ && chmod 644 pub/cs.py
  if as_nobody env "$kjit" --version >/dev/null 2>&1; then
    as_nobody env HOME="$TMP/pub" KJIT_CACHE_DIR="$TMP/pub/theirs" "$kjit" run pub/cs.py:k --grid 1 --block 1 \
      x=zeros:f32:1 --target cpu >/dev/null 2>&1
    check "second user: an entry planted" test -n "$(find pub/theirs -name '*.kjc' 2>/dev/null)"
    local list; list=$(find pub/theirs -printf '%p %s %T@\n' | sort)
    expect 0 "cache folder '$TMP/pub/theirs' is not used: it is owned by uid 65534" -- \
      env KJIT_CACHE_DIR="$TMP/pub/theirs" "$kjit" "${go[@]}" --target cpu
    check "second user's cache untouched" test "$list" = "$(find pub/theirs -printf '%p %s %T@\n' | sort)"
    # their entry copied into our own cache: sealed with their key, a miss
    local theirs; theirs=$(find pub/theirs -name '*.kjc' | head -1)
    mkdir -p own2 && chmod 700 own2
    expect 0 "" -- env KJIT_CACHE_DIR="$TMP/own2" "$kjit" "${go[@]}" --target cpu
    local mine; mine=$(find own2 -name '*.kjc' | head -1)
    cp "$theirs" "$mine" && chown "$(id -u)" "$mine" && chmod 600 "$mine"
    expect 0 "cache: .*hits 0, misses 1" -- env KJIT_CACHE_DIR="$TMP/own2" "$kjit" "${go[@]}" --target cpu --time
  else
    echo "note: cache_security: second-user cases skipped (not root, no setpriv, or kjit in a folder uid 65534 cannot enter)" >&2
  fi
  chmod 700 "$TMP"
  check "nothing outside the work folder changed" test "$before" = "$(outside_snapshot)"
}

# Cache trouble is said once by kjit run, as by kjit ptx.
family_visibility() {
  kernel vv x "x[0] = 2"
  local go=(run vv.py:k --grid 1 --block 1 x=zeros:f32:1)
  expect 0 "warning\[E003\]: KJIT_CACHE='abc' is not one of" -- env KJIT_CACHE=abc XDG_CACHE_HOME="$TMP/v1" \
    "$kjit" "${go[@]}" --target cpu
  check "bad KJIT_CACHE: once" test "$(grep -c "KJIT_CACHE='abc'" err.txt)" -eq 1
  echo file > afile
  expect 0 "warning\[E003\]: cache directory '$TMP/afile' is not writable" -- env KJIT_CACHE_DIR="$TMP/afile" \
    "$kjit" "${go[@]}" --target cpu
  check "a file as the cache folder: once" test "$(grep -c "not writable" err.txt)" -eq 1
  expect 0 "warning\[E005\]: KJIT_MAX_SOURCE_BYTES='abc' is not a number of bytes" -- \
    env KJIT_MAX_SOURCE_BYTES=abc "$kjit" "${go[@]}" --target cpu
  # a relative import above the top-level package: refused as CPython does
  mkdir -p rel/pkg && : > rel/pkg/__init__.py
  printf 'from .. import other\nK = 1\n' > rel/pkg/m.py
  printf 'from numba import cuda\nfrom pkg.m import K\n@cuda.jit\ndef k(x):\n    x[0] = K\n' > rel/main.py
  expect 1 "attempted relative import beyond top-level package" -- run rel/main.py:k --grid 1 --block 1 x=zeros:f32:1
  # a 1 MB identifier: a located error of a readable length, not 1 MB
  python3 -c "open('bigname.py','w').write('from numba import cuda\n@cuda.jit\ndef k(x):\n    x[0] = ' + 'a' * 1000000 + '\n')"
  expect 1 "bigname.py:4:12: error\[E201\]: name 'a+\.\.\. \([0-9]+ more bytes not shown\)" -- \
    run bigname.py:k --grid 1 --block 1 x=zeros:f32:1
  check "1 MB identifier: message under 4 KB" test "$(wc -c < err.txt)" -lt 4096
  # --timeout names what kjit was waiting for: the inputs, not a kernel loop
  expect 3 "the run of kernel 'k' did not start within 0.2 s \(--timeout\): kjit was still reading" 10 -- \
    run vv.py:k --grid 1 --block 1 --timeout 0.2 x=rand:f32:400000000
}

# A CPU-target entry that passes its seal but cannot be loaded, early (its
# metadata disagrees with the compile) or late (ORC adds, links or looks
# it up): dropped, recompiled, one warning; the next run hits the new one.
family_cache_late() {
  printf 'import math\nfrom numba import cuda\n@cuda.jit\ndef k(x):\n    i = cuda.grid(1)\n    x[i] = math.sin(x[i]) + 2\n' > late.py
  local env=(env XDG_CONFIG_HOME="$TMP/late-cfg" KJIT_CACHE_DIR="$TMP/late-cache")
  local go=(run late.py:k --grid 1 --block 4 x=zeros:f32:4 --time)
  local mode why
  for mode in garbage truncated nosymbol unresolved params flags twoentries othername; do
    case $mode in
      garbage) why="host JIT: cannot add the object: The file was not recognized as a valid object file" ;;
      truncated) why="host JIT: cannot add the object: " ;;
      nosymbol) why="host JIT: cannot materialize the kernel: Symbols not found: \[ k__a1Cf32\.c[0-9a-f]{16} \]" ;;
      unresolved) why="host JIT: cannot materialize the kernel \(Symbols not found: \[ sinQ \]\)" ;;
      params) why="its metadata disagrees with the kernel's parameter count" ;;
      flags) why="its metadata has launch flags or a shared memory size codegen never makes" ;;
      twoentries) why="its metadata lists more than the one entry of the compile" ;;
      othername) why="its metadata names another kernel's symbol" ;;
    esac
    rm -rf "$TMP/late-cache"
    expect 0 "cache: compiled" -- "${env[@]}" "$kjit" "${go[@]}" --target cpu
    local e; e=$(find "$TMP/late-cache" -name '*.kjc' | head -1)
    python3 "$here/reseal.py" "$TMP/late-cfg/kjit/cache-key" "$e" $mode
    expect 0 "warning\[E003\]: cache entry '$e' could not be loaded \(.*$why.*\); it was removed and recompiled" -- \
      "${env[@]}" "$kjit" "${go[@]}" --target cpu
    check "late $mode: the right result" grep -q 'x: float32\[4\] \[2, 2, 2, 2\]' out.txt
    check "late $mode: one warning" test "$(grep -c 'could not be loaded' err.txt)" -eq 1
    check "late $mode: no error" test "$(grep -c 'error' err.txt)" -eq 0
    check "late $mode: counted a miss" grep -q 'hits 0, misses 1' out.txt
    expect 0 "cache: read \(hits 1, misses 0" -- "${env[@]}" "$kjit" "${go[@]}" --target cpu
    check "late $mode: the rewritten entry is used quietly" test ! -s err.txt
  done
}

families=("$@")
[ ${#families[@]} -gt 0 ] || families=(parse limits faults files outputs cache fifo safety signals cache_security visibility
                                       cache_late)
echo 'from numba import cuda
@cuda.jit("void(float32[:])")
def k(x):
    x[0] = 1' > poke_ptx.py
for f in "${families[@]}"; do
  "family_$f"
done
echo "hostile: $cases cases, $failures failed"
[ $failures -eq 0 ]
