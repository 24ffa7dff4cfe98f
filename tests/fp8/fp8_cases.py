"""fp8_cases.py - the fp8 conversions of numba-cuda (numba.cuda._internal.cuda_fp8)
on a table of edge values, run three ways from one list of cases:

  python3 fp8_cases.py --numba [-o OUT.json]      on a GPU machine with numba-cuda:
                                                   Numba's values, as JSON
  python3 fp8_cases.py --reference [-o OUT.json]  the same values from a model of
                                                   cuda_fp8.hpp written in Python
  python3 fp8_cases.py --kjit KJIT --expect JSON [--target cuda]
                                                   runs every case with `kjit run`
                                                   (the cpu target by default), compares

Every value is kept as an integer: floats as their bits, so NaNs, signed zeros and
infinities compare exactly.  Needs numpy only with --numba."""
import json
import math
import os
import struct
import subprocess
import sys
import tempfile

TYPES = ["fp8_e4m3", "fp8_e5m2", "fp8_e8m0"]
INTS = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]
OUT_NP = {"f4": "<f4", "f8": "<f8", "f2": "<f2", "i8": "<i8", "u8": "<u8", "u1": "|u1", "u2": "<u2"}

# ----------------------------------------------------------------- inputs --


def f32(v):
    return struct.unpack("<f", struct.pack("<f", v))[0] if math.isfinite(v) and abs(v) < 3.4028235e38 * 1.0000001 else v


def f32_bits(v):
    return struct.unpack("<I", struct.pack("<f", v))[0]


def bits_f32(b):
    return struct.unpack("<f", struct.pack("<I", b & 0xFFFFFFFF))[0]


def f64_bits(v):
    return struct.unpack("<Q", struct.pack("<d", v))[0]


def bits_f64(b):
    return struct.unpack("<d", struct.pack("<Q", b))[0]


def f16_bits(v):
    try:
        return struct.unpack("<H", struct.pack("<e", v))[0]
    except OverflowError:
        return 0x7C00 if v > 0 else 0xFC00


def bits_f16(b):
    return struct.unpack("<e", struct.pack("<H", b))[0]


EDGE = [0.0, 1.0, 1.5, 2.5, 3.0, 0.1, 1 / 3, 0.3, 4.0, 5.0, 6.0, 7.0, 10.0, 12.0, 16.0, 20.0,
        100.0, 240.0, 241.0, 247.0, 248.0, 256.0, 300.0, 447.0, 448.0, 449.0, 456.0, 457.0,
        464.0, 464.00004, 465.0, 480.0, 500.0, 1000.0, 57343.0, 57344.0, 59392.0, 59393.0,
        61439.0, 61440.0, 65504.0, 65536.0, 1e20, 3.4e38,
        0.75, 0.625, 1.0625, 1.125, 1.1875, 1.375, 1.25,
        2.0 ** -9, 2.0 ** -10, 2.0 ** -10 * 1.0001, 3 * 2.0 ** -10, 2.0 ** -7, 2.0 ** -6,
        0.875 * 2.0 ** -6, 0.9375 * 2.0 ** -6, 2.0 ** -16, 2.0 ** -17, 1.5 * 2.0 ** -17,
        3 * 2.0 ** -17, 2.0 ** -14, 0.875 * 2.0 ** -14,
        1e-45, 1e-40, 2.0 ** -126, 2.0 ** -127, 1.5 * 2.0 ** -127, 2.0 ** 127, 1.5 * 2.0 ** 127,
        bits_f32(0x7F000001), bits_f32(0x3F800001), bits_f32(0x3FFFFFFF), bits_f32(0x7F7FFFFF)]
EDGE64_EXTRA = [1e300, bits_f64(0x47E0000000000001), 1 + 2.0 ** -40, 2.0 ** -150, 1e-310,
                448 + 2.0 ** -30, 464 + 1e-9, 464 - 1e-9, 2.0 ** 128, 1e39, 57344 + 2048 + 1e-9,
                57344 + 2048 - 1e-9, 2.0 ** -10 + 1e-20, 3 * 2.0 ** -10 + 1e-20, 1 + 2.0 ** -30]
SPECIAL_BITS32 = [0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00000, 0x7F800001, 0x7FFFFFFF]
SPECIAL_BITS64 = [0x7FF0000000000000, 0xFFF0000000000000, 0x7FF8000000000000,
                  0xFFF8000000000000, 0x7FF0000000000001]


def with_negatives(vals):
    out = []
    for v in vals:
        out += [v, -v]
    return out


def table_f32():
    bits = [f32_bits(f32(v)) for v in with_negatives(EDGE)] + SPECIAL_BITS32
    return list(dict.fromkeys(bits))


def table_f64():
    vals = with_negatives(EDGE + EDGE64_EXTRA)
    bits = [f64_bits(v) for v in vals] + SPECIAL_BITS64
    return list(dict.fromkeys(bits))


def table_f16():
    bits = [f16_bits(bits_f32(b)) for b in table_f32() if not math.isnan(bits_f32(b))]
    bits += [0x0001, 0x8001, 0x03FF, 0x0400, 0x7BFF, 0x7E00, 0xFE00, 0x7C01, 0x1C00, 0x1A00, 0x1E00,
             0x0C00, 0x0A00, 0x0E00, 0x3C40, 0x3C20, 0x3C60]
    return list(dict.fromkeys(bits))


def table_bf16():
    """float32 bits whose low half is zero: exact bfloat16 values."""
    return list(dict.fromkeys([b & 0xFFFF0000 for b in table_f32()] + [0x7F7F0000, 0x7F800000, 0x00010000,
                                                                       0x3F810000, 0x3FC10000, 0x7FC10000]))


INT_VALUES = [0, 1, 2, 3, 4, 5, 7, 10, 12, 16, 17, 100, 127, 128, 255, 256, 300, 448, 449, 464,
              465, 480, 1000, 57344, 59392, 61440, 65504, 65535, 65536, 2 ** 20 + 1, 2 ** 24 + 1,
              2 ** 31 - 1, 2 ** 32 + 5, 2 ** 53 + 1, 2 ** 62 + 1, 2 ** 63 - 1]


def table_i64():
    vals = []
    for v in INT_VALUES:
        vals += [v, -v]
    vals.append(-2 ** 63)
    return list(dict.fromkeys(vals))


# ------------------------------------------------------ fp8 decode model --


def decode(t, b):
    """The value of fp8 bits b of type t (a Python float)."""
    if t == "fp8_e8m0":
        return math.nan if b == 0xFF else 2.0 ** (b - 127)
    s = -1.0 if b & 0x80 else 1.0
    e4 = t == "fp8_e4m3"
    mbits, bias = (3, 7) if e4 else (2, 15)
    e = (b & 0x7F) >> mbits
    m = b & ((1 << mbits) - 1)
    if e4 and (b & 0x7F) == 0x7F:
        return math.nan
    if not e4 and e == 31:
        return s * math.inf if m == 0 else math.nan
    if e == 0:
        return s * m * 2.0 ** (1 - bias - mbits)
    return s * (1 + m / (1 << mbits)) * 2.0 ** (e - bias)


def table_dec(t):
    out = []
    for b in range(256):
        v = decode(t, b)
        out.append(0x7FC00000 if math.isnan(v) else f32_bits(v))
    return list(dict.fromkeys(out))


TABLES = {
    "f32": ("f4", table_f32),
    "f64": ("f8", table_f64),
    "f16": ("f2", table_f16),
    "bf16": ("f4", table_bf16),
    "i64": ("i8", table_i64),
    "u8all": ("u1", lambda: list(range(256))),
    "dec_fp8_e4m3": ("f4", lambda: table_dec("fp8_e4m3")),
    "dec_fp8_e5m2": ("f4", lambda: table_dec("fp8_e5m2")),
    "dec_fp8_e8m0": ("f4", lambda: table_dec("fp8_e8m0")),
}

# ------------------------------------------------------------------ cases --


def cases():
    """(name, input table, expression of x, output dtype)."""
    cs = []
    sats = ["NOSAT", "SATFINITE"]
    for t in TYPES:
        cs.append((f"{t}_from_f32", "f32", f"float32({t}(x))", "f4"))
        cs.append((f"{t}_from_f64", "f64", f"float32({t}(x))", "f4"))
        cs.append((f"{t}_from_f16", "f16", f"float32({t}(x))", "f4"))
        cs.append((f"{t}_from_bf16", "bf16", f"float32({t}(bfloat16(x)))", "f4"))
        for it in INTS:
            cs.append((f"{t}_from_{it}", "i64", f"float32({t}({it}(x)))", "f4"))
        d = f"dec_{t}"
        cs.append((f"{t}_to_f32", d, f"float32({t}(x))", "f4"))
        cs.append((f"{t}_to_f64", d, f"float64({t}(x))", "f8"))
        cs.append((f"{t}_to_f16", d, f"float16({t}(x))", "f2"))
        cs.append((f"{t}_to_bf16", d, f"float32(bfloat16({t}(x)))", "f4"))
        for it in INTS:
            cs.append((f"{t}_to_{it}", d, f"{'uint64' if it[0] == 'u' else 'int64'}({it}({t}(x)))",
                       "u8" if it[0] == "u" else "i8"))
    for s in sats:
        for interp in ["E4M3", "E5M2"]:
            args = f"saturation_t.{s}, fp8_interpretation_t.{interp}"
            cs.append((f"cvt_float_to_fp8_{s}_{interp}", "f32", f"cvt_float_to_fp8(x, {args})", "u1"))
            cs.append((f"cvt_double_to_fp8_{s}_{interp}", "f64", f"cvt_double_to_fp8(x, {args})", "u1"))
            cs.append((f"cvt_bfloat16raw_to_fp8_{s}_{interp}", "u8all",
                       f"cvt_bfloat16raw_to_fp8(cvt_e8m0_to_bf16raw(x), {args})", "u1"))
        for rnd in ["cudaRoundZero", "cudaRoundPosInf"]:
            args = f"saturation_t.{s}, cudaRoundMode.{rnd}"
            cs.append((f"cvt_float_to_e8m0_{s}_{rnd}", "f32", f"cvt_float_to_e8m0(x, {args})", "u1"))
            cs.append((f"cvt_double_to_e8m0_{s}_{rnd}", "f64", f"cvt_double_to_e8m0(x, {args})", "u1"))
            cs.append((f"cvt_bfloat16raw_to_e8m0_{s}_{rnd}", "u8all",
                       f"cvt_bfloat16raw_to_e8m0(cvt_e8m0_to_bf16raw(x), {args})", "u1"))
    cs.append(("bf16raw_from_e8m0", "u8all", "cvt_e8m0_to_bf16raw(x).x", "u2"))
    # the pair conversions: (x, y) = (inp[i], inp[n - 1 - i]); expected values
    # are derived from the scalar cases (pair_expected)
    for s in sats:
        y = "inp[inp.size - 1 - i]"
        for interp in ["E4M3", "E5M2"]:
            args = f"saturation_t.{s}, fp8_interpretation_t.{interp}"
            cs.append((f"pair_cvt_float2_to_fp8x2_{s}_{interp}", "f32",
                       f"cvt_float2_to_fp8x2(cuda.float32x2(x, {y}), {args})", "u2"))
            cs.append((f"pair_cvt_double2_to_fp8x2_{s}_{interp}", "f64",
                       f"cvt_double2_to_fp8x2(cuda.float64x2(x, {y}), {args})", "u2"))
        for rnd in ["cudaRoundZero", "cudaRoundPosInf"]:
            args = f"saturation_t.{s}, cudaRoundMode.{rnd}"
            cs.append((f"pair_cvt_float2_to_e8m0x2_{s}_{rnd}", "f32",
                       f"cvt_float2_to_e8m0x2(cuda.float32x2(x, {y}), {args})", "u2"))
            cs.append((f"pair_cvt_double2_to_e8m0x2_{s}_{rnd}", "f64",
                       f"cvt_double2_to_e8m0x2(cuda.float64x2(x, {y}), {args})", "u2"))
    return cs


def pair_expected(name, cases):
    """A pair conversion's values from its scalar conversion's (cuda_fp8.hpp
    defines __nv_cvt_float2_to_fp8x2 & co. as two scalar conversions, y in
    the high byte), or None."""
    if not name.startswith("pair_"):
        return None
    base = name[5:].replace("float2", "float").replace("double2", "double")
    base = base.replace("fp8x2", "fp8").replace("e8m0x2", "e8m0")
    s = cases.get(base)
    if s is None:
        return None
    n = len(s)
    return [(s[n - 1 - i] << 8) | s[i] for i in range(n)]


HEADER = """from numba import cuda
from numba.cuda import int8, int16, int32, int64, uint8, uint16, uint32, uint64, float32, float64
from numba.cuda.types import float16, bfloat16
from numba.cuda._internal.cuda_fp8 import (fp8_e5m2, fp8_e4m3, fp8_e8m0, cvt_float_to_fp8,
    cvt_double_to_fp8, cvt_bfloat16raw_to_fp8, cvt_bfloat16raw_to_e8m0, cvt_float_to_e8m0,
    cvt_double_to_e8m0, cvt_e8m0_to_bf16raw, saturation_t, fp8_interpretation_t,
    cvt_float2_to_fp8x2, cvt_double2_to_fp8x2, cvt_float2_to_e8m0x2, cvt_double2_to_e8m0x2)
from cuda.bindings.runtime import cudaRoundMode
"""


def kernel_src(name, expr):
    return (f"\n@cuda.jit\ndef {name}(inp, out):\n    i = cuda.grid(1)\n    if i < inp.size:\n"
            f"        x = inp[i]\n        out[i] = {expr}\n")


def source():
    return HEADER + "".join(kernel_src(n, e) for n, _, e, _ in cases())


def to_ints(dt, raw):
    """The bits of each element of raw bytes of dtype dt."""
    fmt = {"f4": "I", "f8": "Q", "f2": "H", "i8": "q", "u8": "Q", "u1": "B", "u2": "H"}[dt]
    n = len(raw) // struct.calcsize(fmt)
    return list(struct.unpack("<%d%s" % (n, fmt), raw))


def to_bytes(dt, ints):
    fmt = {"f4": "I", "f8": "Q", "f2": "H", "i8": "q", "u8": "Q", "u1": "B", "u2": "H"}[dt]
    return struct.pack("<%d%s" % (len(ints), fmt), *ints)


# ------------------------------------------------------------------ numba --


def run_numba():
    import numpy as np
    import numba
    from numba import cuda
    ns = {}
    exec(source(), ns)
    res = {"numba_cuda": getattr(numba.cuda, "__version__", "?"), "numba": numba.__version__,
           "device": cuda.get_current_device().name.decode() if isinstance(cuda.get_current_device().name, bytes)
           else str(cuda.get_current_device().name),
           "cc": "%d.%d" % cuda.get_current_device().compute_capability, "cases": {}, "errors": {}}
    for name, tab, expr, odt in cases():
        idt, fn = TABLES[tab]
        ints = fn()
        inp = np.frombuffer(to_bytes(idt, ints), dtype=OUT_NP[idt]).copy()
        out = np.zeros(len(ints), dtype=OUT_NP[odt])
        try:
            ns[name][(len(ints) + 127) // 128, 128](inp, out)
            cuda.synchronize()
            res["cases"][name] = to_ints(odt, out.tobytes())
        except Exception as e:  # a case Numba refuses is reported, not fatal
            res["errors"][name] = "%s: %s" % (type(e).__name__, str(e)[:400])
    return res


# -------------------------------------------------- the cuda_fp8.hpp model --


def m_double_to_fp8(xbits, sat, interp):
    if interp == "E4M3":
        bias, sig, mmask, mind, over, maxn, minn = 7, 4, 7, 0x3F50000000000000, 0x407D000000000000, 0x7E, 0x3F90000000000000
    else:
        bias, sig, mmask, mind, over, maxn, minn = 15, 3, 3, 0x3EE0000000000000, 0x40EE000000000000 - 1, 0x7B, 0x3F10000000000000
    half = 1 << (53 - sig - 1)
    sign = (xbits >> 63) << 7
    exp = (((xbits >> 52) & 0x7FF) - 1023 + bias) & 0xFF
    mant = (xbits >> (53 - sig)) & mmask
    absx = xbits & 0x7FFFFFFFFFFFFFFF
    if absx <= mind:
        res = 0
    elif absx > 0x7FF0000000000000:
        res = 0x7F if interp == "E4M3" else 0x7E | mant
    elif absx > over:
        res = maxn if sat == "SATFINITE" else (0x7F if interp == "E4M3" else 0x7C)
    elif absx >= minn:
        res = ((exp << (sig - 1)) | mant) & 0xFF
        rnd = xbits & ((half << 1) - 1)
        if rnd > half or (rnd == half and mant & 1):
            res = (res + 1) & 0xFF
    else:
        shift = (1 - exp) & 0xFF
        mant |= 1 << (sig - 1)
        res = mant >> shift
        rnd = (xbits | (1 << 52)) & ((half << (shift + 1)) - 1)
        if rnd > (half << shift) or (rnd == (half << shift) and res & 1):
            res = (res + 1) & 0xFF
    return (res | sign) & 0xFF


def m_float_to_fp8(b, sat, interp):
    if (b & 0x7FFFFFFF) > 0x7F800000:
        b = 0x7FFFFFFF
    return m_double_to_fp8(f64_bits(bits_f32(b)), sat, interp)


def m_bf16_to_e8m0(x, sat, rnd):
    res = (x >> 7) & 0xFF
    if rnd == "cudaRoundPosInf" and (x & 0x7F) and (x & 0x7FFF) > 0x40 and (x & 0x7FFF) < 0x7F80:
        res = (res + 1) & 0xFF
    if sat == "SATFINITE" and (x & 0x7FFF) <= 0x7F80 and res == 0xFF:
        res -= 1
    return res


def m_float_to_e8m0(u, sat, rnd):
    if rnd == "cudaRoundZero":
        r = 0x7FFF if (u & 0x7FFFFFFF) > 0x7F800000 else u >> 16
    else:
        a = u & 0x7FFFFFFF
        if a > 0x7F800000:
            r = 0x7FFF
        elif a < 0x7F800000 and a & 0xFFFF:
            r = (a >> 16) + 1
        else:
            r = a >> 16
    return m_bf16_to_e8m0(r, sat, rnd)


def m_double_to_f32_sticky(xb):
    x = bits_f64(xb)
    if math.isnan(x):
        return f32_bits(x) | 0x7FC00000 | (xb >> 32 & 0x80000000)
    try:
        f = struct.unpack("<f", struct.pack("<f", x))[0]
    except OverflowError:
        f = math.inf if x > 0 else -math.inf
    d = f
    u = f32_bits(f)
    if x > 0 and d > x:
        u -= 1
    if x < 0 and d < x:
        u -= 1
    if d != x:
        u |= 1
    return u & 0xFFFFFFFF


def f32_round(x):
    """x (a Python float) rounded to float32 (nearest even), overflowing to inf."""
    try:
        return struct.unpack("<f", struct.pack("<f", x))[0]
    except OverflowError:
        return math.copysign(math.inf, x)


def fp8_from_value(t, x):
    """fp8 bits of the constructor from an exact value x (Python float or int)."""
    if t == "fp8_e8m0":
        if isinstance(x, int):
            if x == 0:
                return 0
            a = abs(x)
            e = a.bit_length() - 1
            if a & (a - 1):
                e += 1
            return min(e + 127, 0xFE)
        return m_float_to_e8m0(m_double_to_f32_sticky(f64_bits(x)), "SATFINITE", "cudaRoundPosInf")
    if isinstance(x, int):
        x = f32_round(float(x))
    return m_double_to_fp8(f64_bits(x), "SATFINITE", "E4M3" if t == "fp8_e4m3" else "E5M2")


def wrap(it, v):
    bits = int(it.lstrip("uint"))
    v &= (1 << bits) - 1
    if it[0] == "i" and v >> (bits - 1):
        v -= 1 << bits
    return v


def sat_int(it, v):
    """float value v converted as CUDA's __half2int_rz & co. do: truncated, saturated,
    NaN to 0 (to 0x8000000000000000 for the 64-bit types)."""
    bits = int(it.lstrip("uint"))
    lo, hi = (0, (1 << bits) - 1) if it[0] == "u" else (-(1 << (bits - 1)), (1 << (bits - 1)) - 1)
    if math.isnan(v):
        return 0 if bits < 64 else (1 << 63 if it[0] == "u" else -(1 << 63))
    if math.isinf(v):
        return hi if v > 0 else lo
    return max(lo, min(hi, int(v)))


def ref_value(name, tab, x_bits):
    """The expected result bits of case name for one input (the model)."""
    for t in TYPES:
        if name.startswith(t + "_from_"):
            src = name[len(t) + 6:]
            if src == "f32":
                x = bits_f32(x_bits)
                if math.isnan(x):
                    b = 0x7F if t != "fp8_e8m0" else 0xFF
                elif t == "fp8_e8m0":
                    b = m_float_to_e8m0(x_bits, "SATFINITE", "cudaRoundPosInf")
                else:
                    b = m_float_to_fp8(x_bits, "SATFINITE", t[-4:].upper())
            elif src == "f64":
                if t == "fp8_e8m0":
                    b = m_float_to_e8m0(m_double_to_f32_sticky(x_bits), "SATFINITE", "cudaRoundPosInf")
                else:
                    b = m_double_to_fp8(x_bits, "SATFINITE", t[-4:].upper())
            elif src in ("f16", "bf16"):
                x = bits_f16(x_bits) if src == "f16" else bits_f32(x_bits)
                fb = 0x7FFFFFFF if math.isnan(x) else f32_bits(x)
                if t == "fp8_e8m0":
                    b = m_float_to_e8m0(fb, "SATFINITE", "cudaRoundPosInf") if src == "f16" else \
                        m_bf16_to_e8m0(fb >> 16 if not math.isnan(x) else x_bits >> 16, "SATFINITE", "cudaRoundPosInf")
                else:
                    b = m_float_to_fp8(fb, "SATFINITE", t[-4:].upper())
            else:
                b = fp8_from_value(t, wrap(src, x_bits))
            v = decode(t, b)
            return 0x7FC00000 if math.isnan(v) else f32_bits(v)
        if name.startswith(t + "_to_"):
            dst = name[len(t) + 4:]
            # the table holds fp8 values; the constructor keeps them but for
            # e5m2's infinities, which it saturates (satfinite)
            b = ref_value(t + "_from_f32", "f32", x_bits)
            x_bits = b
            v = bits_f32(b)
            if dst == "f32":
                return 0x7FC00000 if math.isnan(v) else x_bits
            if dst == "f64":
                return 0x7FF8000000000000 if math.isnan(v) else f64_bits(v)
            if dst == "f16":
                return 0x7FFF if math.isnan(v) else f16_bits(v)
            if dst == "bf16":
                return 0x7FC00000 if math.isnan(v) else x_bits
            r = sat_int(dst, v)
            return r & 0xFFFFFFFFFFFFFFFF if dst[0] == "u" else r
    p = name.split("_")
    if name.startswith("cvt_float_to_fp8"):
        return m_float_to_fp8(x_bits, p[4], p[5])
    if name.startswith("cvt_double_to_fp8"):
        return m_double_to_fp8(x_bits, p[4], p[5])
    if name.startswith("cvt_bfloat16raw_to_fp8"):
        raw = e8m0_to_bf16(x_bits)
        return m_float_to_fp8(raw << 16, p[4], p[5])
    if name.startswith("cvt_float_to_e8m0"):
        return m_float_to_e8m0(x_bits, p[4], p[5])
    if name.startswith("cvt_double_to_e8m0"):
        return m_float_to_e8m0(m_double_to_f32_sticky(x_bits), p[4], p[5])
    if name.startswith("cvt_bfloat16raw_to_e8m0"):
        return m_bf16_to_e8m0(e8m0_to_bf16(x_bits), p[4], p[5])
    if name == "bf16raw_from_e8m0":
        return e8m0_to_bf16(x_bits)
    raise ValueError(name)


def e8m0_to_bf16(x):
    return 0x7FFF if x == 0xFF else 0x0040 if x == 0 else (x << 7) & 0xFFFF


def is_nan_bits(dt, b):
    return {"f4": lambda: (b & 0x7FFFFFFF) > 0x7F800000, "f8": lambda: (b & (2 ** 63 - 1)) > 0x7FF0000000000000,
            "f2": lambda: (b & 0x7FFF) > 0x7C00}.get(dt, lambda: False)()


def run_reference():
    res = {"source": "the model of cuda_fp8.hpp in fp8_cases.py (python3 fp8_cases.py --reference)",
           "cases": {}}
    for name, tab, _, odt in cases():
        if not name.startswith("pair_"):
            res["cases"][name] = [ref_value(name, tab, b) for b in TABLES[tab][1]()]
    return res


# ------------------------------------------------------------------- kjit --


def npy_bytes(dt, ints):
    hdr = "{'descr': '%s', 'fortran_order': False, 'shape': (%d,), }" % (OUT_NP[dt], len(ints))
    hdr += " " * (63 - (len(hdr) + 10) % 64) + "\n"
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(hdr)) + hdr.encode() + to_bytes(dt, ints)


def npy_ints(path, dt):
    raw = open(path, "rb").read()
    n = struct.unpack("<H", raw[8:10])[0]
    return to_ints(dt, raw[10 + n:])


def same(dt, a, b, exact):
    """Equal bits; without exact, any two NaNs are equal (a model's canonical NaN)."""
    return a == b or (not exact and is_nan_bits(dt, a) and is_nan_bits(dt, b))


def run_kjit(kjit, expect_path, only=None, target="cpu"):
    expect = json.load(open(expect_path))
    want, exact = expect["cases"], expect.get("exact_nan_bits", False)
    tmp = tempfile.mkdtemp(prefix="kjit-fp8-")
    src = os.path.join(tmp, "fp8_kernels.py")
    open(src, "w").write(source())
    bad = ncase = nval = 0
    for name, tab, _, odt in cases():
        if only and only not in name:
            continue
        idt, fn = TABLES[tab]
        ints = fn()
        inp = os.path.join(tmp, tab + ".npy")
        if not os.path.exists(inp):
            open(inp, "wb").write(npy_bytes(idt, ints))
        out = os.path.join(tmp, name + ".npy")
        cmd = [kjit, "run", src + ":" + name, "--target", target, "--grid", str((len(ints) + 127) // 128),
               "--block", "128", "inp=" + inp, "out=zeros:%s:%d" % (OUT_NP[odt].lstrip("<|"), len(ints)),
               "-o", "out=" + out]
        p = subprocess.run(cmd, capture_output=True, text=True)
        ncase += 1
        if p.returncode != 0:
            print("FAIL %s: kjit exited %d\n%s" % (name, p.returncode, p.stderr[-2000:]))
            bad += 1
            continue
        got = npy_ints(out, odt)
        exp = want.get(name) or pair_expected(name, want)
        if exp is None:
            print("FAIL %s: no expected values" % name)
            bad += 1
            continue
        diffs = [(i, ints[i], g, e) for i, (g, e) in enumerate(zip(got, exp)) if not same(odt, g, e, exact)]
        nval += len(got)
        if diffs or len(got) != len(exp):
            bad += 1
            print("FAIL %s: %d of %d differ; first: %s" % (name, len(diffs), len(exp),
                  ", ".join("in=%#x got=%#x want=%#x" % (d[1] & (2 ** 64 - 1), d[2] & (2 ** 64 - 1), d[3] & (2 ** 64 - 1)) for d in diffs[:4])))
    print("fp8 on the %s target: %d cases, %d values, %d failed" % (target, ncase, nval, bad))
    return 1 if bad else 0


def main(argv):
    out = None
    if "-o" in argv:
        out = argv[argv.index("-o") + 1]
    if "--numba" in argv:
        res = run_numba()
    elif "--reference" in argv:
        res = run_reference()
    elif "--kjit" in argv:
        only = argv[argv.index("--only") + 1] if "--only" in argv else None
        target = argv[argv.index("--target") + 1] if "--target" in argv else "cpu"
        return run_kjit(argv[argv.index("--kjit") + 1], argv[argv.index("--expect") + 1], only, target)
    else:
        print(__doc__)
        return 2
    # one line per case, so a changed value shows as one changed line
    head = {k: v for k, v in res.items() if k not in ("cases", "errors")}
    text = "{\n" + "".join("%s: %s,\n" % (json.dumps(k), json.dumps(v)) for k, v in head.items())
    text += '"errors": %s,\n"cases": {\n' % json.dumps(res.get("errors", {}))
    text += ",\n".join("%s: %s" % (json.dumps(k), json.dumps(v)) for k, v in res["cases"].items())
    text += "\n}}\n"
    if out:
        open(out, "w").write(text)
    else:
        print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
