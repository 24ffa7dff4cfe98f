"""shim.py - the reference: a kernel file run by CPython, one thread at a time.

Provides just enough of `numba` and `numba.cuda` for the kernels gen.py
writes: cuda.jit (a kernel becomes a launcher kernel[grid, block](*args)
that calls the Python function once per thread, sequentially; a device
function stays a plain function), cuda.grid/threadIdx/blockIdx/blockDim,
and numba's scalar types as conversion functions.  No numpy: arrays are
Python lists with a dtype, ints are Python ints and floats Python floats;
float32 values are Python floats rounded to float32 (struct 'f').

Numba's typing (int32 + int32 -> int64, float32 * float32 -> float32...)
is not modelled here: the generator keeps every value exact, so Python's
arithmetic gives Numba's value.  The conversions are exact models:
int32(x) truncates a float toward zero and wraps an int to 32 bits,
float32(x) rounds to nearest even.  Also .npy reading and writing.
"""
import ast
import math
import struct
import sys
import types

INT_RANGE = {'int8': 8, 'int16': 16, 'int32': 32, 'int64': 64,
             'uint8': 8, 'uint16': 16, 'uint32': 32}
DESCR = {'int8': '|i1', 'uint8': '|u1', 'int16': '<i2', 'uint16': '<u2', 'uint32': '<u4',
         'int32': '<i4', 'int64': '<i8', 'float32': '<f4', 'float64': '<f8'}
FMT = {'int8': 'b', 'uint8': 'B', 'int16': 'h', 'uint16': 'H', 'uint32': 'I',
       'int32': 'i', 'int64': 'q', 'float32': 'f', 'float64': 'd'}
FROM_DESCR = {v: k for k, v in DESCR.items()}


def f32(x):
    return struct.unpack('<f', struct.pack('<f', float(x)))[0]


def wrap_int(bits):
    def conv(x):
        if isinstance(x, float):
            if x != x or math.isinf(x):
                raise ValueError('int%d(%r): not finite' % (bits, x))
            v = math.trunc(x)
            if not -2 ** (bits - 1) <= v < 2 ** (bits - 1):
                raise ValueError('int%d(%r): out of range (undefined)' % (bits, x))
            return v
        v = int(x) & (2 ** bits - 1)
        return v - 2 ** bits if v >= 2 ** (bits - 1) else v
    return conv


class Array:
    """A 1-d or 2-d array: its elements in C order in a list of Python
    numbers, converted on store as Numba converts them (float -> int
    truncates, ints wrap; a float out of range is an error here, since the
    generator never produces one).  Negative indices wrap around."""

    def __init__(self, dtype, data, shape=None):
        self.dtype = dtype
        self.data = list(data)
        self.shape = tuple(shape) if shape is not None else (len(self.data),)
        self.size = len(self.data)
        self.ndim = len(self.shape)

    def __len__(self):
        return self.shape[0]

    def flat(self, idx):
        if not isinstance(idx, tuple):
            idx = (idx,)
        if len(idx) != self.ndim:
            raise IndexError('%d indices for a %d-d array' % (len(idx), self.ndim))
        k = 0
        for i, n in zip(idx, self.shape):
            if not isinstance(i, int):
                raise TypeError('array index must be an int, not %s' % type(i).__name__)
            if not -n <= i < n:
                raise IndexError('index %d out of range for size %d' % (i, n))
            k = k * n + (i + n if i < 0 else i)
        return k

    def __getitem__(self, idx):
        return self.data[self.flat(idx)]

    def __setitem__(self, idx, v):
        i = self.flat(idx)
        if self.dtype in INT_RANGE:
            bits = INT_RANGE[self.dtype]
            if isinstance(v, float):    # truncation, in range only (gen.py)
                v = wrap_int(bits)(v)
                if self.dtype.startswith('u') and v < 0:
                    raise ValueError('store %r into %s: out of range' % (v, self.dtype))
            v = int(v) & (2 ** bits - 1)    # ints wrap, as Numba's stores do
            if not self.dtype.startswith('u') and v >= 2 ** (bits - 1):
                v -= 2 ** bits
            self.data[i] = v
        elif self.dtype == 'float32':
            self.data[i] = f32(v)
        else:
            self.data[i] = float(v)


class Dim3:
    def __init__(self):
        self.x, self.y, self.z = 0, 0, 0


class Cuda(types.ModuleType):
    def __init__(self):
        super().__init__('numba.cuda')
        self.threadIdx, self.blockIdx, self.blockDim, self.gridDim = Dim3(), Dim3(), Dim3(), Dim3()

    def grid(self, n):
        x = self.blockIdx.x * self.blockDim.x + self.threadIdx.x
        if n == 1:
            return x
        if n == 2:
            return x, self.blockIdx.y * self.blockDim.y + self.threadIdx.y
        raise NotImplementedError('cuda.grid(%d)' % n)

    def jit(self, fn=None, device=False, **_opts):
        if fn is None or isinstance(fn, (str, list)):
            return lambda f: self.jit(f, device=device)
        if device:
            return fn
        return Launcher(self, fn)


class Local:
    def __init__(self, dtypes):
        self.dtypes = dtypes

    def array(self, shape, dtype):
        # Numba leaves a local array uninitialized; gen.py sets every
        # element before reading it, so zeros here are never seen.
        return Array(self.dtypes[id(dtype)], [0] * shape)


class Atomic:
    """Integer atomics: the result does not depend on the thread order."""

    def add(self, a, i, v):
        old = a[i]
        a[i] = old + v
        return old

    def sub(self, a, i, v):
        old = a[i]
        a[i] = old - v
        return old

    def max(self, a, i, v):
        old = a[i]
        a[i] = max(old, v)
        return old

    def min(self, a, i, v):
        old = a[i]
        a[i] = min(old, v)
        return old


class Launcher:
    def __init__(self, cuda, fn):
        self.cuda, self.fn = cuda, fn

    def __getitem__(self, cfg):
        grid, block = cfg
        return lambda *args: self.launch(grid, block, args)

    def launch(self, grid, block, args):
        c = self.cuda
        gx, gy = (tuple(grid) + (1,))[:2] if isinstance(grid, (tuple, list)) else (grid, 1)
        bx, by = (tuple(block) + (1,))[:2] if isinstance(block, (tuple, list)) else (block, 1)
        c.blockDim.x, c.blockDim.y, c.gridDim.x, c.gridDim.y = bx, by, gx, gy
        for c.blockIdx.y in range(gy):
            for c.blockIdx.x in range(gx):
                for c.threadIdx.y in range(by):
                    for c.threadIdx.x in range(bx):
                        self.fn(*args)


def make_numba():
    """Fresh `numba` and `numba.cuda` modules (no state shared between runs)."""
    numba = types.ModuleType('numba')
    cuda = Cuda()
    numba.cuda = cuda
    numba.int32, numba.int64 = wrap_int(32), wrap_int(64)
    numba.float32, numba.float64 = f32, float
    cuda.local = Local({id(numba.int32): 'int32', id(numba.int64): 'int64',
                        id(numba.float32): 'float32', id(numba.float64): 'float64'})
    cuda.atomic = Atomic()
    return numba, cuda


def run_reference(src, path, kernel, grid, block, args):
    """Runs KERNEL of SRC over grid x block threads on ARGS (Arrays and
    Python scalars); arrays are updated in place."""
    numba, cuda = make_numba()
    saved = {k: sys.modules.get(k) for k in ('numba', 'numba.cuda')}
    sys.modules['numba'], sys.modules['numba.cuda'] = numba, cuda
    try:
        g = {'__name__': 'difftest_kernel'}
        exec(compile(src, path, 'exec'), g)
        g[kernel][grid, block](*args)
    finally:
        for k, v in saved.items():
            if v is None:
                sys.modules.pop(k, None)
            else:
                sys.modules[k] = v


# ---------------------------------------------------------------- .npy --
def write_npy(path, arr, fortran=False):
    """Writes ARR; with FORTRAN, a 2-d array in column-major order."""
    shape = '(%s)' % ''.join('%d,' % n for n in arr.shape)
    hdr = "{'descr': '%s', 'fortran_order': %s, 'shape': %s, }" % (DESCR[arr.dtype], fortran, shape)
    pad = 64 - (10 + len(hdr) + 1) % 64
    hdr = hdr + ' ' * (pad % 64) + '\n'
    data = arr.data
    if fortran and arr.ndim == 2:
        n0, n1 = arr.shape
        data = [arr.data[i * n1 + j] for j in range(n1) for i in range(n0)]
    with open(path, 'wb') as f:
        f.write(b'\x93NUMPY\x01\x00' + struct.pack('<H', len(hdr)) + hdr.encode('latin1'))
        f.write(struct.pack('<%d%s' % (arr.size, FMT[arr.dtype]), *data))


def read_npy(path):
    with open(path, 'rb') as f:
        raw = f.read()
    if raw[:6] != b'\x93NUMPY':
        raise ValueError('%s: not a .npy file' % path)
    if raw[6] == 1:
        n, off = struct.unpack('<H', raw[8:10])[0], 10
    else:
        n, off = struct.unpack('<I', raw[8:12])[0], 12
    h = ast.literal_eval(raw[off:off + n].decode('latin1'))
    dtype = FROM_DESCR.get(h['descr'])
    if dtype is None or h['fortran_order'] or len(h['shape']) not in (1, 2):
        raise ValueError('%s: unexpected header %r' % (path, h))
    size = 1
    for d in h['shape']:
        size *= d
    data = struct.unpack('<%d%s' % (size, FMT[dtype]), raw[off + n:off + n + size * struct.calcsize(FMT[dtype])])
    return Array(dtype, data, h['shape'])
