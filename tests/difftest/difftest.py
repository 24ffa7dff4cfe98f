"""difftest.py - differential testing of kjit against a CPython reference.

  python3 difftest.py KJIT_BIN [-n N] [--seed S] [--target cpu|cuda]
                      [--keep DIR] [-j JOBS] [--max-fail K]
  python3 difftest.py KJIT_BIN --replay DIR     (a folder kept by a failure)

For each seed S, S+1, ..., S+N-1: gen.py writes a random well-typed kernel,
the inputs are made from the seed and saved as .npy files, `kjit run`
runs the kernel on them (-o saves every output array), shim.py runs the
same file under CPython, and every output is compared: ints bit for bit,
floats exactly (== on the values: 0.0 and -0.0 compare equal, see
docs/reliability.md).  A compile error, a crash or a difference is a
failure: its kernel, inputs, both outputs and the kjit command line are
kept in DIR/seed-S/ and the seed is printed.  Needs python3 only.
Exit: 0 all passed, 1 a failure, 2 bad usage.
"""
import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen    # noqa: E402
import shim   # noqa: E402


def make_input(r, dtype, shape):
    n = 1
    for d in shape:
        n *= d
    if dtype in ('int8', 'uint8', 'int16', 'uint16', 'uint32'):
        # not the minimum of a signed type: abs keeps the type in Numba,
        # so abs(int8(-128)) is -128 there and 128 in Python
        bits = shim.INT_RANGE[dtype]
        lo = 0 if dtype[0] == 'u' else -2 ** (bits - 1) + 1
        vals = [r.randint(lo, 2 ** (bits - (dtype[0] != 'u')) - 1) for _ in range(n)]
    elif dtype == 'int32':
        vals = [r.randint(-1000, 999) for _ in range(n)]
    elif dtype == 'int64':
        vals = [r.randint(-2 ** 20, 2 ** 20 - 1) for _ in range(n)]
    elif dtype == 'float32':
        vals = [r.randint(-2048, 2047) / 16 for _ in range(n)]
    else:
        vals = [r.randint(-65536, 65535) / 256 for _ in range(n)]
    return shim.Array(dtype, vals, shape)


def prepare(seed, folder):
    """Writes kernel.py and the inputs of SEED into FOLDER; returns what
    a run needs."""
    src, meta = gen.generate(seed)
    r = random.Random(seed * 7919 + 1)
    shape = meta['shape']
    path = os.path.join(folder, 'kernel.py')
    with open(path, 'w') as f:
        f.write(src)
    arrays = {}
    for name, dt, oshape in meta['outs']:
        size = oshape[0] * (oshape[1] if len(oshape) == 2 else 1)
        arrays[name] = shim.Array(dt, [0] * size, oshape)
    fortran = {}
    for name, dt, f in meta['ins']:
        arrays[name] = make_input(r, dt, shape)
        fortran[name] = f
    for name, arr in arrays.items():
        shim.write_npy(os.path.join(folder, name + '.npy'), arr, fortran.get(name, False))
    return src, meta, path, arrays


def kjit_cmd(kjit, folder, meta, target):
    cmd = [kjit, 'run', os.path.join(folder, 'kernel.py') + ':kern', '--target', target,
           '--grid', ','.join(map(str, meta['grid'])), '--block', ','.join(map(str, meta['block']))]
    for name in [o[0] for o in meta['outs']] + [a[0] for a in meta['ins']]:
        cmd.append('%s=%s' % (name, os.path.join(folder, name + '.npy')))
    for name, dt, v in meta['scalars']:
        cmd.append('%s=%s:%r' % (name, dt, v))
    if meta.get('debug'):
        cmd.append('--debug')    # every index checked: none may fail
    for name, _, _ in meta['outs']:
        cmd += ['-o', '%s=%s' % (name, os.path.join(folder, 'kjit_' + name + '.npy'))]
    return cmd


def same(dtype, a, b):
    if dtype.startswith('float'):
        return a == b
    return a == b and type(a) is type(b)


def check(seed, folder, kjit, target):
    """Runs one kernel both ways; returns None or a failure message."""
    src, meta, path, arrays = prepare(seed, folder)
    cmd = kjit_cmd(kjit, folder, meta, target)
    with open(os.path.join(folder, 'cmd.txt'), 'w') as f:    # to run in the kept folder
        rel = [os.path.abspath(kjit)] + [c.replace(folder + os.sep, '') for c in cmd[1:]]
        f.write(' '.join(rel) + '\n')
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120,
                           stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return 'kjit run timed out'
    if p.returncode != 0:
        return 'kjit run exited %d:\n%s' % (p.returncode, p.stderr.decode(errors='replace')[-3000:])
    args = [arrays[o[0]] for o in meta['outs']] + [arrays[a[0]] for a in meta['ins']] + [v for _, _, v in meta['scalars']]
    try:
        shim.run_reference(src, path, 'kern', meta['grid'], meta['block'], args)
    except Exception as e:   # a generator bug, not a kjit bug: still a failure
        return 'reference raised %s: %s' % (type(e).__name__, e)
    msgs = []
    for name, dt, _ in meta['outs']:
        ref = arrays[name]
        shim.write_npy(os.path.join(folder, 'ref_' + name + '.npy'), ref)
        got = shim.read_npy(os.path.join(folder, 'kjit_' + name + '.npy'))
        if got.dtype != dt or got.shape != ref.shape:
            msgs.append('%s: kjit wrote %s%s, expected %s%s' % (name, got.dtype, got.shape, dt, ref.shape))
            continue
        bad = [j for j in range(ref.size) if not same(dt, got.data[j], ref.data[j])]
        if bad:
            j = bad[0]
            msgs.append('%s: %d of %d elements differ; first at flat index %d: kjit %r, reference %r'
                        % (name, len(bad), ref.size, j, got.data[j], ref.data[j]))
    return '\n'.join(msgs) or None


SELFTEST = """
from numba import cuda, int32, float32, float64
import math

@cuda.jit(device=True)
def twice(v):
    return v * 2, v + 0.5

@cuda.jit
def kern(out, f, a):
    i, j = cuda.grid(2)
    if i >= out.shape[0] or j >= out.shape[1]:
        return
    out[i, j] = a[-1 - i, j] * 10 + i * 100 + j
    if i == 0 and j == 0:
        f[0] = -7 // 2
        f[1] = -7 % 2
        f[2] = -7.5 // 2.0
        f[3] = -7.5 % 2.0
        f[4] = int32(-3.9) + int32(2 ** 32 + 5)
        f[5] = float32(0.1)
        f[6] = round(2.5) + round(-3.5) * 10
        f[7] = twice(3)[0] + twice(3)[1]
        f[8] = 300
        f[9] = math.fmod(-7.5, 2.0)
"""

# (index, dtype) of f and the values Numba gives (docs/language.md)
SELFTEST_F = [-4, 1, -4.0, 0.5, 2, 0.10000000149011612, -38, 9.5, 300, -1.5]


def selftest():
    """Checks the reference on values Numba is known to give: a broken
    shim must not be able to pass everything by agreeing with itself."""
    out = shim.Array('int64', [0] * 6, (2, 3))
    f = shim.Array('float64', [0.0] * 10)
    a = shim.Array('int8', list(range(6)), (2, 3))
    shim.run_reference(SELFTEST, '<selftest>', 'kern', (1, 2), (2, 2), [out, f, a])
    want = [3 * 10 + 0, 4 * 10 + 1, 5 * 10 + 2, 0 + 100, 1 * 10 + 101, 2 * 10 + 102]
    u8 = shim.Array('uint8', [0])
    u8[0] = 300
    bad = []
    if out.data != want:
        bad.append('2-d kernel: %r, want %r' % (out.data, want))
    if f.data != SELFTEST_F:
        bad.append('scalar values: %r, want %r' % (f.data, SELFTEST_F))
    if u8.data != [44]:
        bad.append('uint8 store of 300: %r, want 44' % u8.data)
    return bad


def one(seed, kjit, target, keep):
    tmp = tempfile.mkdtemp(prefix='kjit-difftest.')
    try:
        try:
            msg = check(seed, tmp, kjit, target)
        except Exception as e:    # the driver's own trouble: a failure, not a stop
            msg = 'difftest error: %s: %s' % (type(e).__name__, e)
        if msg is None:
            return seed, None, None
        dest = os.path.join(keep, 'seed-%d' % seed)
        try:
            shutil.rmtree(dest, ignore_errors=True)
            shutil.copytree(tmp, dest)
            with open(os.path.join(dest, 'failure.txt'), 'w') as f:
                f.write(msg + '\n')
        except OSError as e:
            dest = '(not kept: %s)' % e
        return seed, msg, dest
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def replay(kjit, folder, target):
    """Reruns a kept failure from its files (kernel.py may have been edited)."""
    seed = int(os.path.basename(os.path.normpath(folder)).split('-')[-1])
    with tempfile.TemporaryDirectory(prefix='kjit-difftest.') as tmp:
        _, meta = gen.generate(seed)
        shutil.copy(os.path.join(folder, 'kernel.py'), tmp)
        src = open(os.path.join(tmp, 'kernel.py')).read()
        gen.generate = lambda s: (src, meta)
        msg = check(seed, tmp, kjit, target)
    print('seed %d: %s' % (seed, msg or 'ok'))
    return 1 if msg else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('kjit')
    ap.add_argument('-n', type=int, default=50)
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--target', default='cpu', choices=['cpu', 'cuda'])
    ap.add_argument('--keep', default='difftest-failures')
    ap.add_argument('-j', type=int, default=1)
    ap.add_argument('--max-fail', type=int, default=10)
    ap.add_argument('--replay')
    a = ap.parse_args()
    os.environ.setdefault('KJIT_CACHE', '0')
    if a.replay:
        return replay(a.kjit, a.replay, a.target)
    bad = selftest()
    if bad:
        print('difftest: the reference fails its self-test:\n  ' + '\n  '.join(bad))
        return 1
    t0 = time.time()
    passed = failed = 0
    seeds = range(a.seed, a.seed + a.n)
    with ThreadPoolExecutor(max_workers=max(a.j, 1)) as ex:
        for seed, msg, dest in ex.map(lambda s: one(s, a.kjit, a.target, a.keep), seeds):
            if msg is None:
                passed += 1
                continue
            failed += 1
            print('FAIL seed %d (kept in %s)' % (seed, dest))
            print('    ' + msg.replace('\n', '\n    '))
            if failed >= a.max_fail:
                print('difftest: stopping after %d failures' % failed)
                break
    print('difftest: %d kernels from seed %d on the %s target, %.1f s'
          % (passed + failed, a.seed, a.target, time.time() - t0))
    print('%d passed, %d failed' % (passed, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
