# Turns "# EXPECT: @NAME DTYPE SHAPE PYEXPR" into the summary line kjit run
# prints, computed in plain Python (independently of kjit).
import cmath, math, re, struct, sys, zlib

def mandel_py(real, imag, iters):
    zr = zi = 0.0
    for i in range(iters):
        t = zr * zr - zi * zi + real
        zi = 2.0 * zr * zi + imag
        zr = t
        if zr * zr + zi * zi >= 4.0:
            return i
    return 255

def mandel_c(c, iters):
    """The same escape count with Python's complex numbers."""
    z = 0j
    for i in range(iters):
        z = z * z + c
        if z.real * z.real + z.imag * z.imag >= 4.0:
            return i
    return 255

def half(v):
    """v rounded to the nearest float16 (ties to even), as a Python float."""
    return struct.unpack('<e', struct.pack('<e', v))[0]

def bf16(v):
    """v (a Python float) rounded once to bfloat16, ties to even, as a float:
    the double's 52-bit fraction cut to bfloat16's 7 (normal range only)."""
    u = struct.unpack('<Q', struct.pack('<d', v))[0]
    r, rem = u >> 45, u & ((1 << 45) - 1)
    if rem > (1 << 44) or (rem == (1 << 44) and r & 1):
        r += 1
    return struct.unpack('<d', struct.pack('<Q', r << 45))[0]

def bf16_bits(v):
    """The bits of bfloat16 value v as a signed int16 (bfloat16_as_int16)."""
    u = struct.unpack('<I', struct.pack('<f', v))[0] >> 16
    return u - 65536 if u >= 32768 else u

def bf16_f32(v, mode):
    """float32(v) rounded to bfloat16 toward zero ('rz'), -inf ('rd') or
    +inf ('ru'), as a float (float32_to_bfloat16_rz...)."""
    u = struct.unpack('<I', struct.pack('<f', v))[0]
    hi, rem, neg = u >> 16, u & 0xffff, u >> 31
    if rem and ((mode == 'rd' and neg) or (mode == 'ru' and not neg)):
        hi += 1
    return struct.unpack('<f', struct.pack('<I', hi << 16))[0]

def bf16_int(n, mode):
    """The integer n rounded to bfloat16 (8 significant bits) in mode 'rn',
    'rz', 'rd' or 'ru', exactly (int64_to_bfloat16_rd...)."""
    m, neg = abs(n), n < 0
    sh = max(0, m.bit_length() - 8)
    q, rem = m >> sh, m & ((1 << sh) - 1)
    half = 1 << (sh - 1) if sh else 0
    if rem and (mode == 'rn' and (rem > half or (rem == half and q & 1)) or
                mode == 'rd' and neg or mode == 'ru' and not neg):
        q += 1
    return float(-(q << sh) if neg else q << sh)

FMT = {'float32': 'f', 'float64': 'd', 'int8': 'b', 'uint8': 'B', 'int16': 'h', 'uint16': 'H',
       'int32': 'i', 'uint32': 'I', 'int64': 'q', 'uint64': 'Q', 'float16': 'e',
       'complex64': 'ff', 'complex128': 'dd', 'bool': '?'}

def f32(v):
    """v rounded to float32 (ties to even), as a Python float."""
    return struct.unpack('<f', struct.pack('<f', v))[0]

def powi_f32(x, n):
    """float32 x ** int n as Numba's int_power computes it: square-and-multiply
    in float32, 1.0 / r in float64 for n < 0."""
    r, a, e = 1.0, f32(x), abs(n)
    while e:
        if e & 1:
            r = f32(r * a)
        e >>= 1
        a = f32(a * a)
    return f32(1.0 / r) if n < 0 else r

def summary(name, dtype, shape, vals):
    f = FMT[dtype]
    if len(f) == 2:  # complex: (re, im) pairs, printed (re+imj), summed by real part
        raw = b''.join(struct.pack('<' + f, complex(v).real, complex(v).imag) for v in vals)
        flat = struct.unpack('<%d%s' % (2 * len(vals), f[0]), raw)
        vals = [complex(flat[2 * i], flat[2 * i + 1]) for i in range(len(vals))]
        el = lambda v: '(%.6g%+.6gj)' % (v.real, v.imag)
    else:
        raw = b''.join(struct.pack('<' + f, v) for v in vals)
        vals = list(struct.unpack('<%d%s' % (len(vals), f), raw))
        fl = f in 'fde'
        el = lambda v: ('%.6g' % v) if fl else str(bool(v)) if f == '?' else str(v)
    n = len(vals)
    idx = list(range(n)) if n <= 6 else [0, 1, 2, None, n - 1]
    txt = ', '.join('...' if i is None else el(vals[i]) for i in idx)
    s = 0.0
    for v in vals:
        s += v.real if isinstance(v, complex) else float(v)
    if shape == '':  # 0-d (a record's field): the value alone
        return '%s: %s[] %s sum=%.10g crc=%08x' % (name, dtype, txt, s, zlib.crc32(raw))
    return '%s: %s[%s] [%s] sum=%.10g crc=%08x' % (name, dtype, shape, txt, s, zlib.crc32(raw))

for path in sys.argv[1:]:
    out = []
    for line in open(path):
        m = re.match(r'# EXPECT: @([\w\[\]\.]+) (\w+) (\S*) (.*)$', line)
        if not m:
            out.append(line); continue
        name, dtype, shape, expr = m.groups()
        vals = eval(expr)
        out.append('# EXPECT: %s\n' % summary(name, dtype, shape, vals))
        out.append('#   (computed in Python from: %s)\n' % expr)
    open(path, 'w').write(''.join(out))
