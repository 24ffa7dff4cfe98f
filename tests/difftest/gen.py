"""gen.py - random well-typed kjit kernels for differential testing.

From a seed, writes a kernel file whose value is the same under Numba's
typing (int ops widen to int64, float32 arithmetic rounds to float32...)
and under plain CPython with the shim of shim.py, so the two can be
compared bit for bit.  The trick: every value stays small and exact.

  * ints: the generator tracks a bound -2**e <= v < 2**e for every
    expression and wraps a subexpression (x & MASK, x % P, a clamp with
    min/max) before a bound could pass 2**40, so nothing overflows, even in
    int32 where it is cast.  Every variable has a fixed bound that each
    assignment respects, so loops cannot grow it.
  * floats: every value is a multiple of 2**-d with |v| <= 2**e and
    e + d <= 22, so it is exact in float32 and float64 alike and + - * //
    % ** give the exact result whatever the float width and whether or not
    a*b+c is contracted into an FMA.  The ops that round (/, sqrt) are
    written with explicit float32(...)/float64(...) operands so both sides
    round in the same width, then quantized back to a few fraction bits
    (math.floor(q * 16.0) / 16.0) or stored straight to an output.
  * Numba's float(x) keeps a float32 x float32 (tests/numba/
    typing_reference.txt), so where the width matters the kernel says
    float64(x) or float32(x), never float(x).
  * divisors are guarded (abs(y) % 7 + 1, abs(f) + 1.0, nonzero constants),
    array indices reduced into range ((e) % a.shape[0]), loops bounded.

Usage: python3 gen.py SEED            prints the kernel for SEED
       python3 gen.py --eager SEED    the same with an eager signature
"""
import random
import sys

# Precedence levels, as in Python's grammar (low to high).
COND, OR, AND, NOT, CMP, BOR, BXOR, BAND, SHIFT, ADD, MUL, UNARY, POW, ATOM = range(1, 15)
NARROW = ['int8', 'uint8', 'int16', 'uint16', 'uint32']
MAXI = 40       # ints: |v| <= 2**40 at most
FBITS = 22      # floats: e + d <= 22 (exact in float32)

# Input arrays: dtype -> (kind, e, d); difftest.make_input fills them.
# Unsigned elements are always read through int64(...): in Numba
# uint8 - uint8 is uint64 and would wrap where Python goes negative.
INPUTS = {
    'int8': ('i', 7, 0),        # the whole range but the minimum
    'int16': ('i', 15, 0),
    'uint8': ('i', 8, 0),
    'uint16': ('i', 16, 0),
    'uint32': ('i', 32, 0),
    'int32': ('i', 10, 0),      # randint(-1000, 1000)
    'int64': ('i', 20, 0),      # randint(-2**20, 2**20)
    'float32': ('f', 7, 4),     # randint(-2048, 2048) / 16
    'float64': ('f', 8, 8),     # randint(-65536, 65536) / 256
}


class Ex:
    """An expression: its text, precedence, kind ('i' int, 'f' float,
    'b' bool) and its bound: |v| <= 2**e, v a multiple of 2**-d."""
    __slots__ = ('s', 'p', 'k', 'e', 'd')

    def __init__(self, s, p, k, e=0, d=0):
        self.s, self.p, self.k, self.e, self.d = s, p, k, max(e, 0), d

    def bits(self):
        return self.e + self.d


def par(x, need):
    return x.s if x.p >= need else '(' + x.s + ')'


def bitlen(n):
    return max(abs(int(n)).bit_length(), 1)


def flit(v):
    """A float literal that always has a '.' or exponent."""
    s = repr(float(v))
    return s


class Var:
    def __init__(self, name, k, e, d=0, assignable=True, cast=None):
        self.name, self.k, self.e, self.d, self.assignable = name, k, e, d, assignable
        self.cast = cast    # 'int32'/'float32': every assignment converts (a typed local)


class Gen:
    def __init__(self, seed):
        self.r = random.Random(seed)
        self.seed = seed
        self.lines = []
        self.vars = []          # in scope: Var
        self.arrays = []        # (name, dtype)
        self.scalars = []       # (name, kind, e, d)
        self.devfns = []        # (name, [(kind, e, d)], (kind, e, d))
        self.nwhile = 0
        self.nloopvar = 0
        self.loop_depth = 0
        self.budget = 0         # statements left
        self.in_dev = False     # generating a device function (no i, no arrays)
        self.local = None       # (name, dtype, size) of the kernel's local array
        self.acc = False        # the kernel has an int64[4] array for atomics
        self.dims = 1           # 1: i = cuda.grid(1); 2: i, iy = cuda.grid(2)
        self.nest = 0           # index/divisor/range subexpressions open
        self.dev_ret = None     # in a device function: makes a return value
        self.tidx = 'i'         # the thread's own element: 'i' or 'i, iy'

    # ------------------------------------------------------------ helpers --
    def chance(self, p):
        return self.r.random() < p

    def maybe_paren(self, x):
        if x.p < ATOM and self.chance(0.05):
            return Ex('(' + x.s + ')', ATOM, x.k, x.e, x.d)
        return x

    def vars_of(self, k):
        return [v for v in self.vars if v.k == k]

    # --------------------------------------------------------------- ints --
    def int_const(self, maxe):
        top = min(2 ** min(maxe, 12), 5000)
        n = self.r.choice([self.r.randint(0, 9), self.r.randint(0, top), self.r.randint(1, 3)])
        n = min(n, 2 ** maxe)
        if self.chance(0.1) and n > 0:
            return Ex(hex(n), ATOM, 'i', bitlen(n))
        if self.chance(0.2) and n > 0:
            return Ex('-' + str(n), UNARY, 'i', bitlen(n))
        return Ex(str(n), ATOM, 'i', bitlen(n))

    def index(self, arr):
        """An in-range index into a 1-d input array."""
        if (self.chance(0.3) or self.nest >= 2) and not self.in_dev:
            return self.tidx
        if self.dims == 2:
            ks = [self.axis_index(arr, ax) for ax in range(2)]
            if self.chance(0.15):
                return '(%s, %s)' % tuple(ks)
            return '%s, %s' % tuple(ks)
        return self.axis_index(arr, 0)

    def axis_index(self, arr, ax):
        k = self.nested(lambda: self.gen_int(1, 16))
        if ax == 1:
            ext = '%s.shape[1]' % arr
        else:
            ext = self.r.choice(['%s.shape[0]' % arr, 'len(%s)' % arr] + (['%s.size' % arr] if self.dims == 1 else []))
        if self.chance(0.2):    # negative: wraps around as in Numba
            return '-1 - %s %% %s' % (par(k, MUL), ext)
        return '%s %% %s' % (par(k, MUL), ext)

    def int_leaf(self, maxe):
        r = self.r
        maxe = max(maxe, 4)
        opts = ['const', 'tid'] + ([] if self.in_dev else ['i'])
        if self.vars_of('i'):
            opts += ['var'] * 4
        ints = [a for a in self.arrays if INPUTS[a[1]][0] == 'i']
        if ints:
            opts += ['arr'] * 3
        if any(s[1] == 'i' for s in self.scalars):
            opts += ['scalar']
        if self.arrays:
            opts += ['len']
        if self.local and self.local[1] == 'int64':
            opts += ['local']
        c = r.choice(opts)
        if c == 'var':
            v = r.choice(self.vars_of('i'))
            x = Ex(v.name, ATOM, 'i', v.e)
        elif c == 'i':
            x = Ex(r.choice(['i', 'iy'] if self.dims == 2 else ['i']), ATOM, 'i', 11)
        elif c == 'tid':
            x = Ex('cuda.%s.%s' % (r.choice(['threadIdx', 'blockIdx', 'blockDim']),
                                   r.choice('xy' if self.dims == 2 else 'x')), ATOM, 'i', 11)
        elif c == 'arr':
            name, dt = r.choice(ints)[:2]
            x = Ex('%s[%s]' % (name, self.index(name)), ATOM, 'i', INPUTS[dt][1])
            if dt.startswith('u'):
                x = Ex('int64(%s)' % x.s, ATOM, 'i', x.e)
        elif c == 'scalar':
            s = r.choice([s for s in self.scalars if s[1] == 'i'])
            x = Ex(s[0], ATOM, 'i', s[2])
        elif c == 'local':
            name, _, n = self.local
            x = Ex('%s[%s %% %d]' % (name, par(self.nested(lambda: self.gen_int(0, 12)), MUL), n), ATOM, 'i', 17)
        elif c == 'len':
            name = r.choice(self.arrays)[0]
            x = Ex(r.choice(['%s.shape[0]' % name, 'len(%s)' % name, '%s.size' % name]
                            + (['%s.shape[1]' % name, '%s.ndim' % name] if self.dims == 2 else [])), ATOM, 'i', 11)
        else:
            x = self.int_const(maxe)
        return self.fit_int(x, maxe)

    def fit_int(self, x, maxe):
        """Wraps x so that |x| <= 2**maxe (maxe >= 4)."""
        maxe = max(maxe, 4)
        if x.e <= maxe:
            return x
        r = self.r
        c = r.randrange(4)
        if c == 0:
            k = r.randint(3, min(maxe, 16))
            m = 2 ** k - 1
            return Ex('%s & %s' % (par(x, BAND), r.choice([hex(m), str(m)])), BAND, 'i', k)
        if c == 1:
            p = r.randint(2, 2 ** min(maxe, 12))
            return Ex('%s %% %d' % (par(x, MUL), p), MUL, 'i', bitlen(p))
        if c == 2:
            p = r.randint(2, 2 ** min(maxe - 1, 12))
            return Ex('%s %% %d - %d' % (par(x, MUL), p, p // 2), ADD, 'i', bitlen(p))
        lim = r.randint(1, 2 ** min(maxe, 14) - 1)
        return Ex('min(max(%s, -%d), %d)' % (x.s, lim, lim), ATOM, 'i', bitlen(lim))

    def nested(self, fn):
        """Runs FN one level deeper: subexpressions that start fresh
        expressions (indices, divisors) would otherwise nest without
        bound, and kjit's parser, like any, has a nesting limit."""
        self.nest += 1
        try:
            return fn()
        finally:
            self.nest -= 1

    def divisor(self):
        """A nonzero int divisor: (text, precedence, bound exponent)."""
        r = self.r
        c = r.randrange(5) if self.nest < 2 else 0
        if c == 0:
            n = r.choice([1, 2, 3, 5, 7, 16, 100, -3, -7])
            return Ex(str(n), ATOM if n > 0 else UNARY, 'i', bitlen(n))
        y = self.nested(lambda: self.gen_int(1, 20))
        if c == 1:
            return Ex('abs(%s) %% 7 + 1' % y.s, ADD, 'i', 3)
        if c == 2:
            return Ex('%s %% 5 + 1' % par(y, MUL), ADD, 'i', 3)
        if c == 3:
            return Ex('%s & 7 | 1' % par(y, BAND), BOR, 'i', 3)
        return Ex('max(abs(%s), 1)' % y.s, ATOM, 'i', y.e + 1)

    def gen_int(self, depth, maxe):
        r = self.r
        maxe = max(maxe, 4)
        if depth <= 0 or self.chance(0.25):
            return self.maybe_paren(self.int_leaf(maxe))
        d = depth - 1
        c = r.choice(['add', 'add', 'sub', 'mul', 'mul', 'floordiv', 'mod', 'pow', 'and', 'or',
                      'xor', 'shl', 'shr', 'neg', 'inv', 'abs', 'minmax', 'cond', 'int_f',
                      'cast32', 'round', 'bool', 'call', 'tuple', 'andor', 'boolarith'])
        if c in ('add', 'sub'):
            a, b = self.gen_int(d, maxe - 1), self.gen_int(d, maxe - 1)
            op = '+' if c == 'add' else '-'
            x = Ex('%s %s %s' % (par(a, ADD), op, par(b, ADD + 1)), ADD, 'i', max(a.e, b.e) + 1)
        elif c == 'mul':
            ma = r.randint(2, max(2, maxe - 2))
            a, b = self.gen_int(d, ma), self.gen_int(d, max(maxe - ma, 2))
            x = Ex('%s * %s' % (par(a, MUL), par(b, MUL + 1)), MUL, 'i', a.e + b.e + 1)
        elif c == 'floordiv':
            a, b = self.gen_int(d, maxe), self.divisor()
            x = Ex('%s // %s' % (par(a, MUL), par(b, MUL + 1)), MUL, 'i', a.e + 1)
        elif c == 'mod':
            a, b = self.gen_int(d, MAXI), self.divisor()
            x = Ex('%s %% %s' % (par(a, MUL), par(b, MUL + 1)), MUL, 'i', b.e)
        elif c == 'pow':
            k = r.choice([0, 1, 2, 2, 3])
            a = self.gen_int(d, max(maxe // max(k, 1), 2) if k else 8)
            x = Ex('%s ** %d' % (par(a, ATOM), k), POW, 'i', a.e * k + 1 if k else 1)
            if k == 3 and self.chance(0.4):    # a run-time exponent 0..3
                y = self.nested(lambda: self.gen_int(0, 12))
                x = Ex('%s ** (%s & 3)' % (par(a, ATOM), par(y, BAND)), POW, 'i', a.e * 3 + 1)
        elif c in ('and', 'or', 'xor'):
            a, b = self.gen_int(d, maxe - 1), self.gen_int(d, maxe - 1)
            op, p = {'and': ('&', BAND), 'or': ('|', BOR), 'xor': ('^', BXOR)}[c]
            x = Ex('%s %s %s' % (par(a, p), op, par(b, p + 1)), p, 'i', max(a.e, b.e) + 1)
        elif c == 'shl':
            if self.chance(0.5):
                k, ks = r.randint(0, 4), None
            else:
                k, ks = 3, self.gen_int(0, 12)
            a = self.gen_int(d, max(maxe - k, 2))
            rhs = str(k) if ks is None else '(%s & 3)' % par(ks, BAND)
            x = Ex('%s << %s' % (par(a, SHIFT), rhs), SHIFT, 'i', a.e + k)
        elif c == 'shr':
            a = self.gen_int(d, maxe)
            rhs = str(r.randint(0, 6)) if self.chance(0.5) else '(%s & %d)' % (par(self.gen_int(0, 12), BAND),
                                                                            r.choice([7, 31, 63]))
            x = Ex('%s >> %s' % (par(a, SHIFT), rhs), SHIFT, 'i', a.e)
        elif c == 'neg':
            a = self.gen_int(d, maxe)
            x = Ex('-' + par(a, UNARY), UNARY, 'i', a.e + 1)
        elif c == 'inv':
            a = self.gen_int(d, maxe - 1)
            x = Ex('~' + par(a, UNARY), UNARY, 'i', a.e + 1)
        elif c == 'abs':
            a = self.gen_int(d, maxe)
            x = Ex('abs(%s)' % a.s, ATOM, 'i', a.e + 1)
        elif c == 'minmax':
            args = [self.gen_int(d, maxe) for _ in range(r.choice([2, 2, 3]))]
            x = Ex('%s(%s)' % (r.choice(['min', 'max']), ', '.join(a.s for a in args)), ATOM, 'i',
                   max(a.e for a in args))
        elif c == 'cond':
            a, b, cnd = self.gen_int(d, maxe), self.gen_int(d, maxe), self.gen_bool(d)
            x = Ex('%s if %s else %s' % (par(a, OR), par(cnd, OR), par(b, COND)), COND, 'i', max(a.e, b.e))
        elif c == 'int_f':
            f = self.gen_float(d, min(maxe, FBITS))
            x = Ex('int(%s)' % f.s, ATOM, 'i', f.e + 1)
        elif c == 'round':
            f = self.gen_float(d, min(maxe - 1, FBITS))
            x = Ex('round(%s)' % f.s, ATOM, 'i', f.e + 1)
        elif c == 'cast32':
            a = self.gen_int(d, min(maxe, 30))
            x = Ex('%s(%s)' % (r.choice(['int32', 'int64', 'int']), a.s), ATOM, 'i', a.e)
        elif c == 'bool':
            b = self.gen_bool(d)
            x = Ex('%s(%s)' % (r.choice(['int', 'int64', 'int32']), b.s), ATOM, 'i', 1)
        elif c == 'andor':    # returns an operand, as in Python
            a, b = self.gen_int(d, maxe), self.gen_int(d, maxe)
            op, p = r.choice([('and', AND), ('or', OR)])
            x = Ex('%s %s %s' % (par(a, p), op, par(b, p + 1)), p, 'i', max(a.e, b.e))
        elif c == 'boolarith':    # bool + int is int64
            b, a = self.gen_bool(d), self.gen_int(d, maxe - 1)
            op = r.choice(['+', '-', '*'])
            x = Ex('%s %s %s' % (par(b, ADD + 1), op, par(a, MUL + 1)), ADD if op != '*' else MUL,
                   'i', a.e + 1)
        elif c == 'call' and self.devfns:
            x = self.call(d, 'i')
            if x is None:
                return self.gen_int(d, maxe)
        elif c == 'tuple' and self.vars_of('t'):
            t = r.choice(self.vars_of('t'))
            js = [j for j, el in enumerate(t.e) if el[0] == 'i']
            if not js:
                return self.gen_int(d, maxe)
            j = r.choice(js)
            x = Ex('%s[%d]' % (t.name, j), ATOM, 'i', t.e[j][1])
        else:
            return self.gen_int(d, maxe)
        return self.fit_int(self.maybe_paren(x), maxe)

    # ------------------------------------------------------------- floats --
    def float_leaf(self, maxb):
        r = self.r
        maxb = max(maxb, 4)
        opts = ['const', 'const', 'fromint']
        if self.vars_of('f'):
            opts += ['var'] * 4
        fl = [a for a in self.arrays if INPUTS[a[1]][0] == 'f']
        if fl:
            opts += ['arr'] * 3
        if any(s[1] == 'f' for s in self.scalars):
            opts += ['scalar']
        if self.local and self.local[1] == 'float64':
            opts += ['local']
        c = r.choice(opts)
        if c == 'local':
            name, _, n = self.local
            x = Ex('%s[%s %% %d]' % (name, par(self.nested(lambda: self.gen_int(0, 12)), MUL), n), ATOM, 'f', 10, 4)
        elif c == 'var':
            v = r.choice(self.vars_of('f'))
            x = Ex(v.name, ATOM, 'f', v.e, v.d)
        elif c == 'arr':
            name, dt = r.choice(fl)[:2]
            _, e, d = INPUTS[dt]
            x = Ex('%s[%s]' % (name, self.index(name)), ATOM, 'f', e, d)
        elif c == 'scalar':
            s = r.choice([s for s in self.scalars if s[1] == 'f'])
            x = Ex(s[0], ATOM, 'f', s[2], s[3])
        elif c == 'fromint':
            a = self.gen_int(0, min(maxb, 16))
            x = Ex('%s(%s)' % (r.choice(['float', 'float32', 'float64']), a.s), ATOM, 'f', a.e)
        else:
            d = r.choice([0, 0, 1, 2, 3])
            n = r.randint(0, 2 ** min(maxb, 9) - 1)
            v = n / 2 ** d
            e = max(bitlen(n) - d, 0)
            if self.chance(0.2) and n:
                x = Ex('-' + flit(v), UNARY, 'f', e, d)
            else:
                x = Ex(flit(v), ATOM, 'f', e, d)
        return self.fit_float(x, maxb)

    def fit_float(self, x, maxb, maxd=None):
        """Wraps x so that its e + d <= maxb (and d <= maxd)."""
        r = self.r
        if maxd is None:
            maxd = min(x.d, max(maxb - 6, 0))
        if x.d > maxd or x.bits() > maxb:
            if x.d > maxd:
                q = 2 ** r.randint(0, maxd)
                x = Ex('math.floor(%s * %s) / %s' % (par(x, MUL), flit(q), flit(q)), MUL, 'f',
                       x.e + 1, bitlen(q) - 1)
            if x.bits() > maxb:
                emax = maxb - x.d
                m = 2 ** r.randint(1, max(emax - 1, 1))
                if self.chance(0.5):
                    x = Ex('%s %% %s' % (par(x, MUL), flit(m)), MUL, 'f', bitlen(m) - 1, x.d)
                else:
                    x = Ex('min(max(%s, %s), %s)' % (x.s, flit(-m), flit(m)), ATOM, 'f',
                           bitlen(m) - 1, x.d)
        return x

    def gen_float(self, depth, maxb):
        r = self.r
        maxb = max(maxb, 4)
        if depth <= 0 or self.chance(0.25):
            return self.maybe_paren(self.float_leaf(maxb))
        d = depth - 1
        c = r.choice(['add', 'add', 'sub', 'mul', 'mul', 'mulint', 'floordiv', 'mod', 'pow', 'neg',
                      'abs', 'minmax', 'cond', 'floor', 'div32', 'div64', 'divint', 'sqrt',
                      'sqrt32', 'f32', 'call', 'tuple', 'fmod', 'andor'])
        if c in ('add', 'sub'):
            a, b = self.gen_float(d, maxb - 1), self.gen_float(d, maxb - 1)
            op = '+' if c == 'add' else '-'
            x = Ex('%s %s %s' % (par(a, ADD), op, par(b, ADD + 1)), ADD, 'f',
                   max(a.e, b.e) + 1, max(a.d, b.d))
        elif c in ('mul', 'mulint'):
            ma = r.randint(1, max(1, maxb - 1))
            a = self.gen_float(d, ma)
            b = self.gen_float(d, maxb - ma) if c == 'mul' else self.gen_int(d, max(maxb - ma, 4))
            if c == 'mulint' and self.chance(0.5):
                a, b = b, a
            x = Ex('%s * %s' % (par(a, MUL), par(b, MUL + 1)), MUL, 'f', a.e + b.e, a.d + b.d)
        elif c == 'floordiv':
            a = self.gen_float(d, maxb - 1)
            b = self.fdivisor(d)
            x = Ex('%s // %s' % (par(a, MUL), par(b, MUL + 1)), MUL, 'f', a.e + 1, 0)
        elif c == 'mod':
            a = self.gen_float(d, maxb)
            b = self.fdivisor(d)
            x = Ex('%s %% %s' % (par(a, MUL), par(b, MUL + 1)), MUL, 'f', b.e, max(a.d, b.d))
        elif c == 'pow':
            a = self.gen_float(d, maxb // 2)
            x = Ex('%s ** 2' % par(a, ATOM), POW, 'f', 2 * a.e, 2 * a.d)
            if self.chance(0.4):    # a run-time exponent 0..2
                y = self.nested(lambda: self.gen_int(0, 12))
                x = Ex('%s ** (%s %% 3)' % (par(a, ATOM), par(y, MUL)), POW, 'f', 2 * a.e, 2 * a.d)
        elif c == 'neg':
            a = self.gen_float(d, maxb)
            x = Ex('-' + par(a, UNARY), UNARY, 'f', a.e, a.d)
        elif c == 'abs':
            a = self.gen_float(d, maxb)
            x = Ex('%s(%s)' % (r.choice(['abs', 'math.fabs']), a.s), ATOM, 'f', a.e, a.d)
        elif c == 'minmax':
            a, b = self.gen_float(d, maxb), self.gen_float(d, maxb) if self.chance(0.7) else self.gen_int(d, 12)
            x = Ex('%s(%s, %s)' % (r.choice(['min', 'max']), a.s, b.s), ATOM, 'f',
                   max(a.e, b.e), max(a.d, b.d))
        elif c == 'cond':
            a, b, cnd = self.gen_float(d, maxb), self.gen_float(d, maxb), self.gen_bool(d)
            x = Ex('%s if %s else %s' % (par(a, OR), par(cnd, OR), par(b, COND)), COND, 'f',
                   max(a.e, b.e), max(a.d, b.d))
        elif c == 'floor':
            a = self.gen_float(d, maxb - 1)
            x = Ex('math.%s(%s)' % (r.choice(['floor', 'ceil', 'trunc']), a.s), ATOM, 'f', a.e + 1, 0)
        elif c in ('div32', 'div64', 'divint'):
            x = self.qdiv(d, c, maxb)
        elif c in ('sqrt', 'sqrt32'):
            a = self.gen_float(d, FBITS)
            q = 2 ** r.randint(0, 4)
            if c == 'sqrt':
                s = 'math.sqrt(float64(abs(%s)))' % a.s
            else:
                s = 'float32(math.sqrt(float32(abs(%s))))' % a.s
            x = Ex('math.floor(%s * %s) / %s' % (s, flit(q), flit(q)), MUL, 'f',
                   (a.e + 1) // 2 + 1, bitlen(q) - 1)
        elif c == 'fmod':    # C fmod: the sign of the dividend; exact
            a = self.gen_float(d, maxb)
            b = self.fdivisor(d)
            x = Ex('math.fmod(%s, %s)' % (a.s, b.s), ATOM, 'f', b.e, max(a.d, b.d))
        elif c == 'andor':
            a, b = self.gen_float(d, maxb), self.gen_float(d, maxb)
            op, p = r.choice([('and', AND), ('or', OR)])
            x = Ex('%s %s %s' % (par(a, p), op, par(b, p + 1)), p, 'f', max(a.e, b.e), max(a.d, b.d))
        elif c == 'f32':
            a = self.gen_float(d, maxb)
            x = Ex('%s(%s)' % (r.choice(['float32', 'float', 'float64']), a.s), ATOM, 'f', a.e, a.d)
        elif c == 'call' and self.devfns:
            x = self.call(d, 'f')
            if x is None:
                return self.gen_float(d, maxb)
        elif c == 'tuple' and self.vars_of('t'):
            t = r.choice(self.vars_of('t'))
            js = [j for j, el in enumerate(t.e) if el[0] == 'f']
            if not js:
                return self.gen_float(d, maxb)
            j = r.choice(js)
            x = Ex('%s[%d]' % (t.name, j), ATOM, 'f', t.e[j][1], t.e[j][2])
        else:
            return self.gen_float(d, maxb)
        return self.fit_float(self.maybe_paren(x), maxb)

    def fdivisor(self, d):
        """A float divisor >= 1 (or a positive constant)."""
        if self.chance(0.4) or self.nest >= 2:
            v = self.r.choice([1.0, 2.0, 4.0, 2.5, 1.5, 3.0, -2.0, -2.5])
            return Ex(flit(v), ATOM if v > 0 else UNARY, 'f', bitlen(int(v) or 1), 1 if v != int(v) else 0)
        b = self.nested(lambda: self.gen_float(d, 16))
        return Ex('abs(%s) + 1.0' % b.s, ADD, 'f', b.e + 1, b.d)

    def qdiv(self, d, c, maxb):
        """A rounding division made exact again: quantized to 1/q."""
        r = self.r
        q = 2 ** r.randint(0, 4)
        if c == 'divint':
            a = self.gen_int(d, min(maxb - 4, 20))
            b = self.divisor()
            s = '%s / %s' % (par(a, MUL), par(b, MUL + 1))
        else:
            a = self.gen_float(d, min(maxb - 4, FBITS))
            b = self.gen_float(d, 16)
            if c == 'div32':
                s = 'float32(float32(%s) / float32(abs(%s) + 1.0))' % (a.s, b.s)
            else:
                s = 'float64(%s) / (abs(float64(%s)) + 1.0)' % (a.s, b.s)
        return Ex('math.floor(%s * %s) / %s' % (par(Ex(s, MUL, 'f'), MUL), flit(q), flit(q)), MUL,
                  'f', a.e + 1, bitlen(q) - 1)

    def raw_rounding(self):
        """A rounding operation whose result goes straight to memory (so no
        FMA contraction can reach it): checks that / and sqrt round as
        IEEE says, in the width Numba's typing gives them."""
        r = self.r
        c = r.randrange(5)
        a = self.gen_float(2, FBITS)
        if c == 0:
            # float32 / float32 is float32 in Numba; the reference needs the
            # rounding spelled out (the outer float32 is a no-op for Numba)
            s = 'float32(float32(%s) / float32(abs(%s) + 1.0))' % (a.s, self.gen_float(2, 16).s)
        elif c == 1:
            s = 'float64(%s) / (abs(float64(%s)) + 1.0)' % (a.s, self.gen_float(2, 16).s)
        elif c == 2:
            s = '%s / %s' % (par(self.gen_int(2, 30), MUL), par(self.divisor(), MUL + 1))
        elif c == 3:
            s = 'math.sqrt(float64(abs(%s)))' % a.s
        else:
            s = 'float32(math.sqrt(float32(abs(%s))))' % a.s
        return Ex(s, ATOM if s.startswith('float32(float32(') else MUL, 'f', FBITS, 0)

    # -------------------------------------------------------------- bools --
    def gen_bool(self, depth):
        r = self.r
        d = max(depth - 1, 0)
        opts = ['cmpi', 'cmpi', 'cmpf', 'cmpmix', 'chain', 'truth']
        if depth > 0:
            opts += ['and', 'or', 'not']
        if self.vars_of('b'):
            opts += ['var', 'var']
        c = r.choice(opts)
        ops = ['<', '<=', '>', '>=', '==', '!=']
        if c == 'cmpi':
            a, b = self.gen_int(d, MAXI), self.gen_int(d, MAXI)
            return Ex('%s %s %s' % (par(a, CMP + 1), r.choice(ops), par(b, CMP + 1)), CMP, 'b')
        if c == 'cmpf':
            a, b = self.gen_float(d, FBITS), self.gen_float(d, FBITS)
            return Ex('%s %s %s' % (par(a, CMP + 1), r.choice(ops), par(b, CMP + 1)), CMP, 'b')
        if c == 'cmpmix':
            a, b = self.gen_float(d, FBITS), self.gen_int(d, FBITS)
            if self.chance(0.5):
                a, b = b, a
            return Ex('%s %s %s' % (par(a, CMP + 1), r.choice(ops), par(b, CMP + 1)), CMP, 'b')
        if c == 'chain':
            xs = [self.gen_int(d, 16) for _ in range(3)]
            return Ex('%s %s %s %s %s' % (par(xs[0], CMP + 1), r.choice(ops[:4]), par(xs[1], CMP + 1),
                                          r.choice(ops[:4]), par(xs[2], CMP + 1)), CMP, 'b')
        if c == 'truth':    # truthiness of a number
            a = self.gen_int(d, 12) if self.chance(0.6) else self.gen_float(d, 12)
            if self.chance(0.5):
                return Ex('bool(%s)' % a.s, ATOM, 'b')
            return Ex('not ' + par(a, NOT), NOT, 'b')
        if c in ('and', 'or'):
            a, b = self.gen_bool(d), self.gen_bool(d)
            p = AND if c == 'and' else OR
            return Ex('%s %s %s' % (par(a, p), c, par(b, p + 1)), p, 'b')
        if c == 'not':
            a = self.gen_bool(d)
            return Ex('not ' + par(a, NOT), NOT, 'b')
        return Ex(r.choice(self.vars_of('b')).name, ATOM, 'b')

    def gen_kind(self, k, depth, e, dd=0):
        if k == 'i':
            return self.gen_int(depth, e)
        if k == 'f':
            return self.fit_float(self.gen_float(depth, e + dd), e + dd, dd)
        return self.gen_bool(depth)

    # ------------------------------------------------------- device calls --
    def tuple_call(self, ind):
        """ta, tb = devN(...) of a device function returning (int, float),
        then one assignment that uses them."""
        fns = [f for f in self.devfns if f[2][0] == 't']
        name, params, _ = self.r.choice(fns)
        args = [self.gen_kind(pk, 1, pe, pd).s for pk, pe, pd in params]
        n = self.nwhile
        self.nwhile += 1
        ta, tb = Var('ta%d' % n, 'i', 17, 0, False), Var('tb%d' % n, 'f', 11, 4, False)
        if self.chance(0.5):
            self.emit(ind, '%s, %s = %s(%s)' % (ta.name, tb.name, name, ', '.join(args)))
        else:
            self.emit(ind, 'tt%d = %s(%s)' % (n, name, ', '.join(args)))
            self.emit(ind, '%s = tt%d[0]' % (ta.name, n))
            self.emit(ind, '%s = tt%d[1]' % (tb.name, n))
        targets = [v for v in self.vars if v.assignable]
        self.vars += [ta, tb]
        self.assign(ind, self.r.choice(targets))
        self.vars = self.vars[:-2]


    def call(self, depth, kind):
        fns = [f for f in self.devfns if f[2][0] == kind]
        if not fns:
            return None
        name, params, ret = self.r.choice(fns)
        args = [self.gen_kind(pk, depth, pe, pd).s for pk, pe, pd in params]
        return Ex('%s(%s)' % (name, ', '.join(args)), ATOM, kind, ret[1], ret[2])

    # --------------------------------------------------------- statements --
    def emit(self, ind, s):
        self.lines.append('    ' * ind + s)

    def value_for(self, v, depth=2):
        if v.k == 'i' and self.chance(0.08):
            # a bool made an int: each assignment is typed on its own (Numba's
            # SSA), so a bare bool would stay bool where min/max or ~ read it
            x = 'int(%s)' % self.gen_bool(depth).s
        elif v.k == 'f' and not v.cast and self.chance(0.08):
            # an int into a float variable: unified to float64
            x = self.gen_int(depth, max(v.e - 1, 4) if v.e > 4 else 4).s
        else:
            x = self.gen_kind(v.k, depth, v.e, v.d).s
        return '%s(%s)' % (v.cast, x) if v.cast else x

    def declare(self, ind, v):
        """The first assignment: of the variable's own kind, so that where a
        later int assignment joins it (after an if, around a loop) the
        variable unifies to a float."""
        x = self.gen_kind(v.k, 1, v.e, v.d).s
        self.emit(ind, '%s = %s' % (v.name, '%s(%s)' % (v.cast, x) if v.cast else x))

    def assign(self, ind, v, depth=2):
        self.emit(ind, '%s = %s' % (v.name, self.value_for(v, depth)))

    def stmt(self, ind):
        r = self.r
        self.budget -= 1
        targets = [v for v in self.vars if v.assignable]
        opts = ['assign'] * 5 + ['aug'] * 2 + ['if'] * 2 + ['tuple', 'chain']
        if self.local:
            opts += ['local'] * 2
        if self.acc and not self.in_dev:
            opts += ['atomic']
        if not self.in_dev or self.dev_ret:
            opts += ['ret'] * (1 if self.chance(0.2) else 0)
        if any(f[2][0] == 't' for f in self.devfns):
            opts += ['tcall'] * 2
        if ind < 5 and self.loop_depth < 2:
            opts += ['for', 'for', 'while']
        if self.loop_depth:
            opts += ['jump']
        c = r.choice(opts)
        if c == 'assign':
            self.assign(ind, r.choice(targets))
        elif c == 'aug':
            self.aug(ind, r.choice([v for v in targets if v.k != 'b'] or targets))
        elif c == 'if':
            self.emit(ind, 'if %s:' % self.gen_bool(2).s)
            self.block(ind + 1, r.randint(1, 3))
            for _ in range(r.choice([0, 0, 1, 2])):
                self.emit(ind, 'elif %s:' % self.gen_bool(2).s)
                self.block(ind + 1, r.randint(1, 2))
            if self.chance(0.5):
                self.emit(ind, 'else:')
                self.block(ind + 1, r.randint(1, 2))
        elif c == 'tuple':
            a, b = r.choice(targets), r.choice(targets)
            if a is b:
                self.assign(ind, a)
            elif a.k == b.k and a.e == b.e and a.d == b.d and self.chance(0.5):
                self.emit(ind, '%s, %s = %s, %s' % (a.name, b.name, b.name, a.name))
            else:
                self.emit(ind, '%s, %s = %s, %s' % (a.name, b.name, self.value_for(a), self.value_for(b)))
        elif c == 'chain':
            a, b = r.choice(targets), r.choice(targets)
            if a.k != b.k or a is b:
                self.assign(ind, a)
            else:
                x = self.gen_kind(a.k, 2, min(a.e, b.e), min(a.d, b.d)).s
                cast = a.cast or b.cast
                self.emit(ind, '%s = %s = %s' % (a.name, b.name, '%s(%s)' % (cast, x) if cast else x))
        elif c == 'local':
            name, dt, n = self.local
            k = 'i' if dt == 'int64' else 'f'
            x = self.gen_kind(k, 2, 16 if k == 'i' else 8, 0 if k == 'i' else 4)
            op = '=' if self.chance(0.7) else r.choice(['+=', '-='])
            ix = '%s %% %d' % (par(self.gen_int(1, 12), MUL), n)
            self.emit(ind, '%s[%s] %s %s' % (name, ix, op, x.s))
            if op != '=':    # back into the bound of an element
                self.emit(ind, '%s[%s] %%= %s' % (name, ix, '65536' if k == 'i' else '512.0'))
        elif c == 'atomic':
            fn = r.choice(['add', 'add', 'max', 'min', 'sub'])
            # Threads race on acc's four slots, so every update of one kernel
            # must commute with the others: add with sub, or only min, or
            # only max (a min racing a sub gives a different value for each
            # order, and the GPU picks one).  The family follows from the
            # seed, so the random stream, and every other kernel, is unchanged.
            family = ('add', 'max', 'min')[self.seed % 3]
            if family != 'add':
                fn = family
            elif fn in ('max', 'min'):
                fn = 'add'
            x = self.gen_int(2, 20)
            self.emit(ind, 'cuda.atomic.%s(acc, %s %% 4, %s)' % (fn, par(self.gen_int(1, 12), MUL), x.s))
        elif c == 'ret':    # from inside loops too
            self.emit(ind, 'if %s:' % self.gen_bool(1).s)
            self.emit(ind + 1, 'return %s' % self.dev_ret() if self.in_dev else 'return')
        elif c == 'tcall':
            self.tuple_call(ind)
        elif c == 'for':
            self.for_loop(ind)
        elif c == 'while':
            self.while_loop(ind)
        else:
            self.emit(ind, 'if %s:' % self.gen_bool(1).s)
            self.emit(ind + 1, r.choice(['break', 'continue']))

    def aug(self, ind, v):
        r = self.r
        if v.k == 'b':
            self.assign(ind, v)
            return
        if v.k == 'i':
            c = r.randrange(6)
            if c == 0:
                self.emit(ind, '%s %%= %d' % (v.name, r.randint(1, 2 ** min(v.e, 10))))
            elif c == 1:
                self.emit(ind, '%s &= %s' % (v.name, hex(2 ** r.randint(1, v.e) - 1)))
            elif c == 2:
                self.emit(ind, '%s //= %s' % (v.name, self.divisor().s))
            elif c == 3:
                self.emit(ind, '%s >>= %d' % (v.name, r.randint(0, 5)))
            elif c == 4:
                self.emit(ind, '%s %s= %s' % (v.name, r.choice('^|'), self.gen_int(2, v.e - 1).s))
            else:
                op = r.choice(['+', '-', '*'])
                x = self.gen_int(2, v.e if op != '*' else 8)
                self.emit(ind, '%s %s= %s' % (v.name, op, x.s))
                self.emit(ind, '%s %%= %d' % (v.name, 2 ** v.e))
            return
        c = r.randrange(3)
        m = flit(2 ** v.e)
        if c == 0:
            self.emit(ind, '%s %%= %s' % (v.name, m))
        elif c == 1:
            op = r.choice(['+', '-'])
            x = self.gen_kind('f', 2, v.e, v.d)
            self.emit(ind, '%s %s= %s' % (v.name, op, x.s))
            self.emit(ind, '%s %%= %s' % (v.name, m))
        else:
            x = self.gen_int(1, max(min(FBITS - v.e - v.d, 6), 1))
            self.emit(ind, '%s *= %s' % (v.name, x.s))
            self.emit(ind, '%s %%= %s' % (v.name, m))

    def block(self, ind, n):
        start = len(self.lines)
        for _ in range(n):
            if self.budget <= 0 or not any(v.assignable for v in self.vars):
                break
            self.stmt(ind)
        if len(self.lines) == start:
            self.emit(ind, 'pass')

    def range_args(self):
        r = self.r
        c = r.randrange(6)
        if c == 0:
            k = r.randint(0, 5)
            return str(k), k
        if c == 5:    # a run-time step of either sign (never zero)
            lo, hi = self.gen_int(0, 12), self.gen_int(0, 12)
            y, z = self.gen_int(0, 12), self.gen_int(0, 12)
            return ('%s %% 7 - 3, %s %% 7 - 3, (%s %% 3 + 1) * (%s %% 2 * 2 - 1)'
                    % (par(lo, MUL), par(hi, MUL), par(y, MUL), par(z, MUL)), 7)
        if c == 1:
            lo, hi = r.randint(-3, 2), r.randint(0, 6)
            return '%d, %d' % (lo, hi), max(abs(lo), hi)
        if c == 2:
            lo, hi, st = r.randint(3, 7), r.randint(-3, 1), r.choice([-1, -2, -3])
            return '%d, %d, %d' % (lo, hi, st), max(lo, abs(hi))
        if c == 3:
            x = self.gen_int(1, 20)
            return '%s %% %d' % (par(x, MUL), r.randint(1, 6)), 6
        x = self.gen_int(1, 20)
        st = r.choice([1, 2, 3])
        return '%d, %s %% 6, %d' % (r.randint(-2, 1), par(x, MUL), st), 6

    def for_loop(self, ind):
        args, bound = self.range_args()
        name = 'j%d' % self.nloopvar
        self.nloopvar += 1
        self.emit(ind, 'for %s in range(%s):' % (name, args))
        v = Var(name, 'i', bitlen(bound), 0, assignable=False)
        self.vars.append(v)
        self.loop_depth += 1
        self.block(ind + 1, self.r.randint(1, 4))
        self.loop_depth -= 1
        self.vars.remove(v)
        if self.chance(0.1):
            self.emit(ind, 'else:')
            self.block(ind + 1, 1)

    def while_loop(self, ind):
        name = 'w%d' % self.nwhile
        self.nwhile += 1
        lim = self.r.randint(1, 5)
        self.emit(ind, '%s = 0' % name)
        cond = '%s < %d' % (name, lim)
        if self.chance(0.4):
            cond += ' and ' + par(self.gen_bool(1), AND + 1)
        self.emit(ind, 'while %s:' % cond)
        self.emit(ind + 1, '%s += 1' % name)
        v = Var(name, 'i', 3, 0, assignable=False)
        self.vars.append(v)
        self.loop_depth += 1
        self.block(ind + 1, self.r.randint(1, 4))
        self.loop_depth -= 1
        self.vars.remove(v)

    # ------------------------------------------------------------- kernel --
    def new_var(self, name, k):
        r = self.r
        if k == 'i':
            return Var(name, 'i', r.choice([8, 12, 16, 20]), cast='int32' if self.chance(0.3) else None)
        if k == 'f':
            e, d = r.choice([(6, 4), (10, 6), (8, 8), (12, 2), (4, 0)])
            return Var(name, 'f', e, d, cast='float32' if self.chance(0.3) else None)
        return Var(name, 'b', 0)

    def devfn(self, idx):
        r = self.r
        name = 'dev%d' % idx
        params = []
        for j in range(r.randint(1, 3)):
            k = r.choice('iif')
            params.append(Var('p%d' % j, k, 10 if k == 'i' else 6, 0 if k == 'i' else 4, False))
        ret = r.choice([('i', 16, 0), ('f', 10, 4), ('t', 0, 0)])
        saved = self.vars, self.arrays, self.scalars
        self.vars, self.arrays, self.scalars, self.in_dev = list(params), [], [], True
        self.lines.append('@cuda.jit(device=True%s)' % self.r.choice(
            ['', '', '', ', inline="never"', ', inline="always"', ', opt=0']))
        self.lines.append('def %s(%s):' % (name, ', '.join(p.name for p in params)))
        for j in range(r.randint(0, 2)):
            v = self.new_var('t%d' % j, r.choice('iif'))
            self.declare(1, v)
            self.vars.append(v)
        def retval():
            if ret[0] == 't':    # (int, float)
                return '%s, %s' % (self.gen_kind('i', 2, 16).s, self.gen_kind('f', 2, 10, 4).s)
            return self.gen_kind(ret[0], 2, ret[1], ret[2]).s
        self.dev_ret = retval
        self.budget = r.randint(0, 4)
        self.block(1, self.budget)
        self.dev_ret = None
        if self.chance(0.3):
            self.emit(1, 'if %s:' % self.gen_bool(1).s)
            self.emit(2, 'return %s' % retval())
        self.emit(1, 'return %s' % retval())
        self.lines.append('')
        self.lines.append('')
        self.vars, self.arrays, self.scalars = saved
        self.in_dev = False
        self.devfns.append((name, [(p.k, p.e, p.d) for p in params], ret))

    def kernel(self):
        r = self.r
        if self.chance(0.25):
            self.dims, self.tidx = 2, 'i, iy'
            shape = (r.randint(1, 24), r.randint(1, 24))
            block = (r.choice([4, 8, 16]), r.choice([2, 4, 8]))
            grid = tuple((shape[d] + block[d] - 1) // block[d] + r.choice([0, 0, 1]) for d in range(2))
        else:
            shape = (r.randint(1, 300) if self.chance(0.95) else r.randint(1000, 4000),)
            block = (r.choice([32, 64, 128]),)
            grid = ((shape[0] + block[0] - 1) // block[0] + r.choice([0, 0, 1]),)
        n = shape
        common = ['int32', 'int64', 'float32', 'float64'] * 3
        # a 2-d input may be Fortran-ordered: kjit run passes it as a strided view
        ins = [('a%d' % j, r.choice(common + list(INPUTS)), self.dims == 2 and self.chance(0.3))
               for j in range(r.randint(1, 3))]
        outs = [('out', r.choice(['int64', 'float64']), n),
                ('out2', r.choice(['int32', 'int64', 'float32', 'float64'] * 2 + NARROW), n)][:r.randint(1, 2)]
        scal = []
        if self.chance(0.5):
            scal.append(('k', 'i', 6, 0, 'int64', r.randint(-50, 50)))
        if self.chance(0.4):
            scal.append(('x', 'f', 5, 3, 'float64', r.randint(-256, 256) / 8))
        self.arrays = ins
        self.scalars = [(s[0], s[1], s[2], s[3]) for s in scal]

        self.lines += ['"""difftest kernel, seed %d (tests/difftest/gen.py)."""' % self.seed,
                       'import math', 'from numba import cuda, int32, int64, float32, float64', '', '']
        for j in range(r.choice([0, 0, 1, 2])):
            self.devfn(j)
        self.acc = self.chance(0.3)
        if self.acc:
            outs.append(('acc', 'int64', (4,)))
        params = [o[0] for o in outs] + [a[0] for a in ins] + [s[0] for s in scal]
        opts = r.choice([''] * 6 + ['opt=0', 'opt=1', 'debug=True', 'boundscheck=True', 'lineinfo=True'])
        self.lines.append('@cuda.jit(%s)' % opts if opts else '@cuda.jit')
        self.lines.append('def kern(%s):' % ', '.join(params))
        if self.dims == 1:
            self.emit(1, 'i = cuda.grid(1)')
            outside, inside = 'i >= out.shape[0]', 'i < out.shape[0]'
        else:
            self.emit(1, 'i, iy = cuda.grid(2)')
            outside = 'i >= out.shape[0] or iy >= out.shape[1]'
            inside = 'i < out.shape[0] and iy < out.shape[1]'
        if self.chance(0.5):
            self.emit(1, 'if %s:' % outside)
            self.emit(2, 'return')
            ind = 1
        else:
            self.emit(1, 'if %s:' % inside)
            ind = 2
        nv = r.randint(2, 6)
        kinds = ['i', 'i', 'f', 'f', 'b'] + [r.choice('iif') for _ in range(nv)]
        for j in range(nv):
            v = self.new_var('v%d' % j, kinds[j])
            self.declare(ind, v)
            self.vars.append(v)
        if self.chance(0.3):    # a local array, every element set before any read
            ln, dt = r.randint(1, 6), r.choice(['int64', 'float64'])
            self.emit(ind, 'la = cuda.local.array(%d, %s)' % (ln, dt))
            self.emit(ind, 'for q in range(%d):' % ln)
            q = Var('q', 'i', 3, 0, False)
            self.vars.append(q)
            k = 'i' if dt == 'int64' else 'f'
            self.emit(ind + 1, 'la[q] = %s' % self.gen_kind(k, 2, 16 if k == 'i' else 8, 0 if k == 'i' else 4).s)
            self.vars.remove(q)
            self.local = ('la', dt, ln)
        if self.chance(0.4):
            els = [r.choice([('i', 12, 0), ('f', 6, 4)]) for _ in range(r.choice([2, 2, 3]))]
            xs = [self.gen_kind(k, 1, e, d).s for k, e, d in els]
            self.emit(ind, 't0 = (%s)' % ', '.join(xs))
            self.vars.append(Var('t0', 't', els, 0, False))
        self.budget = r.randint(4, 14)
        while self.budget > 0:
            self.stmt(ind)
        for name, dt, _ in outs:
            if name == 'acc':
                continue
            if dt in NARROW:    # ints wrap on the store
                x = self.gen_int(3, MAXI)
            elif dt in ('int32', 'int64'):
                x = self.gen_int(3, 30 if dt == 'int32' else MAXI) if self.chance(0.8) else \
                    self.gen_float(3, FBITS)
            elif self.chance(0.3):
                x = self.raw_rounding()
            else:
                x = self.gen_float(3, FBITS) if self.chance(0.7) else self.gen_int(3, FBITS)
            self.emit(ind, '%s[%s] = %s' % (name, self.tidx, x.s))
            if self.chance(0.2):
                y = self.gen_int(1, 8)
                self.emit(ind, '%s[%s] %s= %s' % (name, self.tidx, r.choice('+-'), y.s))
        src = '\n'.join(self.lines) + '\n'
        meta = {'seed': self.seed, 'shape': shape, 'grid': grid, 'block': block,
                'debug': self.chance(0.1), 'outs': outs, 'ins': ins, 'scalars': [(s[0], s[4], s[5]) for s in scal]}
        return src, meta


def generate(seed):
    """Returns (source, meta) for SEED; meta describes the launch."""
    return Gen(seed).kernel()


def eager(src, meta):
    """The same kernel with an eager signature (for the compile fuzz
    corpus, whose target compiles eager kernels only)."""
    lay = '[:, :]' if len(meta['shape']) == 2 else '[::1]'
    args = ['%s%s' % (o[1], lay if o[0] != 'acc' else '[::1]') for o in meta['outs']]
    args += ['%s%s' % (a[1], lay) for a in meta['ins']]
    args += [s[1] for s in meta['scalars']]
    sig = '"void(%s)"' % ', '.join(args)
    src = src.replace('@cuda.jit\ndef kern(', '@cuda.jit(%s)\ndef kern(' % sig)
    return src.replace('@cuda.jit(opt', '@cuda.jit(%s, opt' % sig).replace(
        '@cuda.jit(debug', '@cuda.jit(%s, debug' % sig).replace(
        '@cuda.jit(boundscheck', '@cuda.jit(%s, boundscheck' % sig).replace(
        '@cuda.jit(lineinfo', '@cuda.jit(%s, lineinfo' % sig)


if __name__ == '__main__':
    argv = sys.argv[1:]
    want_eager = argv[:1] == ['--eager']
    s, m = generate(int(argv[-1]) if argv[want_eager:] else 0)
    if want_eager:
        s = eager(s, m)
    sys.stdout.write(s)
    sys.stdout.write('# %r\n' % (m,))
