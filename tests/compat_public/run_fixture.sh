#!/usr/bin/env bash
# run_fixture.sh KJIT ROOT - scripts/compat_public.py over its own fixture:
# four small repositories written for this test in the shapes public code
# has (factory kernels, a launch in another file giving the signature, an
# eager kernel, a construct kjit refuses, a decorator held in a variable,
# a kernel defined inside a host function (named FUNCTION.KERNEL) and one
# that reads what its host function computes from its arguments,
# kernels the harness cannot name or type, checked without types, a kernel
# defined twice, a lazy cuda.jit helper only kernels call, a scalar that is
# a field another class sets up, a method's argument from a driver script,
# a kernel launched through a parameter defaulting to it, constants
# star-imported from another file, map(cuda.to_device, ...), arrays made
# through a PyTorch bridge helper, np.fromfunction / where / random.choice,
# a helper's dict of arrays and a buffer reshaped from an unknown shape).  Checks every kernel's class against expected.tsv, the
# page section (headline with and without Numba's verdicts, kept around the
# test-suite part) and the bundle for the Numba side.  No network; exit 77
# without python3.
set -euo pipefail
kjit=$1 root=$2
command -v python3 >/dev/null || exit 77
fix="$root/tests/compat_public/fixture"
harness=(python3 "$root/scripts/compat_public.py")
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

printf '# Test-suite part\n\nkept as it is\n' > "$out/page.md"
"${harness[@]}" run "$fix/snapshots" --manifest "$fix/repos.tsv" --kjit "$kjit" \
  --results "$out/results.tsv" --out "$out/page.md" -j 2 > "$out/log"
diff -u "$fix/expected.tsv" "$out/results.tsv" || fail "classes differ from expected.tsv"
grep -q '^kept as it is$' "$out/page.md" || fail "the page's other sections were not kept"
grep -qF '**17 of 18 kernels compile (94.4%)**' "$out/page.md" || fail "headline"
grep -qF 'Over the kernels Numba compiles: pending.' "$out/page.md" || fail "pending Numba column"
grep -qE '^\| 1 \| E202 unsupported: dict literal \| 1 \|' "$out/page.md" || fail "blocker table"
grep -qE '^\| crash \| 0 \|' "$out/page.md" || fail "crash row"
grep -qF 'limited by their argument types: 3 pass, 1 do not' "$out/page.md" || fail "check without types"
# Rewriting the section leaves one copy of it.
"${harness[@]}" run "$fix/snapshots" --manifest "$fix/repos.tsv" --kjit "$kjit" \
  --out "$out/page.md" --numba "$fix/numba.tsv" -j 2 > "$out/log"
[ "$(grep -c 'public repositories: generated' "$out/page.md")" = 1 ] || fail "section written twice"
grep -qF '**Over the kernels Numba compiles: 17 of 17 (100.0%).**' "$out/page.md" || fail "headline over Numba"
grep -qE '^\| \| none \| \| \|' "$out/page.md" \
  || fail "a kernel Numba rejects (the dict literal) must leave the blocker table"
# scripts/compat.py, rewriting the test-suite part, keeps this section.
python3 - "$root/scripts" "$out/page.md" <<'PY' || fail "compat.py would drop the section"
import sys
sys.path.insert(0, sys.argv[1])
import compat
kept = compat.kept_sections(sys.argv[2])
assert kept.startswith(compat.OTHER_SECTIONS) and "kept as it is" not in kept, kept[:200]
assert "# Compatibility with public code" in kept
PY
# The bundle carries the units with their signatures and the files.
"${harness[@]}" bundle "$fix/snapshots" "$out/b.tar.gz" --manifest "$fix/repos.tsv" > "$out/log"
python3 - "$out/b.tar.gz" <<'PY' || fail "bundle"
import json, sys, tarfile
with tarfile.open(sys.argv[1]) as tar:
    names = tar.getnames()
    units = json.load(tar.extractfile("units.json"))["units"]
assert "snapshots/kjit-fixture+filters/filters/kernels.py" in names, names
assert "snapshots/kjit-fixture+filters/examples.py" in names, names
sig = {u["name"]: u["sig"] for u in units}
assert sig["clip"] == "void(float64[::1], float64[::1], float64, float64)", sig
assert sig["scale2"] == "void(float32[::1], float32[::1])", sig
assert sig["simulate.init"] == "void(float32[:, ::1])", sig
assert sig["flip"] == "void(int64, float64[::1], int64)", sig   # self.state.n, k from demo.py
assert sig["zero"] == "void(int64, float64[::1])", sig          # launched as clear()'s `kernel`
assert {u["name"]: u["kind"] for u in units}["bit"] == "device", units
assert sig["scale"] == "void(float32[::1], float32[::1], float64)", sig  # N, F from params.py
# Arrays made the ways public code makes them (kjit-fixture/bridges/driver.py).
assert sig["scale_rows"] == "void(float32[:, ::1], float32[:, ::1], int64)", sig  # torch through a bridge
assert sig["count_mask"] == "void(boolean[:, ::1], int32[::1])", sig  # np.fromfunction of a comparison
assert sig["pick"] == "void(int32[:, ::1], int32[:, ::1], int64)", sig  # random.choice, where, np.sum
assert sig["fill_amps"] == "void(float64[::1], float64)", sig  # device_array(2 ** q, ...), np.int64 / int
assert sig["advance"] == "void(float64[::1], int64)", sig  # a helper's dict of arrays
assert sig["flat_sum"] == "void(float32[::1], float32[:, ::1], float32[::1])", sig  # ravel / reshape
assert sig["blob"] is None, sig  # np.fromfunction of a function that is more than a return
assert sig["relax"] == "void(float64[:, ::1], boolean[:, ::1])", sig  # both returns of set_up agree
assert sig["mixed"] is None, sig  # make_buffer's returns disagree
assert len(units) == 27, len(units)
PY
echo "compat_public fixture: ok"
