/* gen.c - the VALUE specs of `kjit run` arguments: generated arrays
 * (zeros/full/rand/randint/arange), typed and bare scalars, .npy files.
 *
 * Every error names the whole argument text and what is wrong, with a hint.
 * Random values come from splitmix64 (Steele, Lea, Flood 2014): state +=
 * 0x9e3779b97f4a7c15, then two xor-shift-multiply rounds.  It is stateless
 * apart from one uint64 per generator, so results are identical everywhere. */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "data/array.h"
#include "data/npy.h"
#include "data/random.h"

#define MAX_PARTS 7

typedef struct Spec {
  const char *text;               /* the whole argument, for messages */
  int nparts;
  const char *part[MAX_PARTS];    /* colon-separated pieces (not NUL-terminated) */
  size_t len[MAX_PARTS];
  char *err;
  size_t errlen;
} Spec;

static int gen_fail(Spec *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int gen_fail(Spec *s, const char *fmt, ...) {
  if (s->err && s->errlen) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->err, s->errlen, fmt, ap);
    va_end(ap);
  }
  return -1;
}

/* ---- random numbers -------------------------------------------------- */

static uint64_t splitmix64(uint64_t *state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/* Uniform in [0, range) without modulo bias (range > 0). */
static uint64_t uniform_below(uint64_t *st, uint64_t range) {
  uint64_t limit = UINT64_MAX - UINT64_MAX % range;
  uint64_t x;
  do x = splitmix64(st); while (x >= limit);
  return x % range;
}

/* Uniform float in [0, 1): 24 bits for f32/f16 storage so rounding can
 * never produce 1.0, 53 bits for f64. */
static double uniform01(uint64_t *st, RtDtype dt) {
  uint64_t x = splitmix64(st);
  if (dt == RT_F64 || dt == RT_C128) return (double)(x >> 11) * 0x1.0p-53;
  if (dt == RT_F16) return (double)(x >> 53) * 0x1.0p-11;
  return (double)(x >> 40) * 0x1.0p-24;
}

/* ---- numbers --------------------------------------------------------- */

/* Python int text: [+-] (decimal | 0x.. | 0o.. | 0b..), '_' separators, as
 * int(text, 0) reads it (leading zeros allowed).  Sets the sign and the
 * magnitude; returns 1 ok, 0 not an int, -1 magnitude over 64 bits. */
static int parse_int_mag(const char *p, size_t n, bool *neg, uint64_t *mag) {
  char buf[96];
  size_t k = 0;
  if (n == 0 || n >= sizeof buf) return 0;
  for (size_t i = 0; i < n; i++)
    if (p[i] != '_') buf[k++] = p[i];
  buf[k] = 0;
  const char *q = buf;
  *neg = *q == '-';
  if (*q == '+' || *q == '-') q++;
  int base = 10;
  if (q[0] == '0' && q[1] && strchr("xXoObB", q[1])) {
    base = strchr("xX", q[1]) ? 16 : strchr("oO", q[1]) ? 8 : 2;
    q += 2;
  }
  if (!*q || !isalnum((unsigned char)*q)) return 0;
  errno = 0;
  char *end;
  unsigned long long u = strtoull(q, &end, base);
  if (*end) return 0;
  if (errno == ERANGE) return -1;
  *mag = u;
  return 1;
}

/* The same, as int64: -1 when out of range. */
static int parse_py_int(const char *p, size_t n, int64_t *out) {
  bool neg;
  uint64_t u;
  int r = parse_int_mag(p, n, &neg, &u);
  if (r != 1) return r;
  if (u > (neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX)) return -1;
  *out = neg ? (int64_t)(0 - u) : (int64_t)u;
  return 1;
}

/* Python float literal or inf/nan (strtod, but no hex floats). */
static bool parse_py_float(const char *p, size_t n, double *out) {
  char buf[96];
  size_t k = 0;
  if (n == 0 || n >= sizeof buf) return false;
  for (size_t i = 0; i < n; i++)
    if (p[i] != '_') buf[k++] = p[i];
  buf[k] = 0;
  if (strchr(buf, 'x') || strchr(buf, 'X') || isspace((unsigned char)buf[0])) return false;
  char *end;
  *out = strtod(buf, &end);
  return end != buf && *end == 0;
}

/* ---- scalars --------------------------------------------------------- */

static bool int_in_range(RtDtype dt, int64_t v) {
  static const int64_t lo[] = {[RT_I8] = INT8_MIN, [RT_I16] = INT16_MIN, [RT_I32] = INT32_MIN, [RT_I64] = INT64_MIN};
  static const int64_t hi[] = {[RT_I8] = INT8_MAX, [RT_I16] = INT16_MAX, [RT_I32] = INT32_MAX, [RT_I64] = INT64_MAX,
                               [RT_U8] = UINT8_MAX, [RT_U16] = UINT16_MAX, [RT_U32] = UINT32_MAX, [RT_U64] = INT64_MAX};
  if (rt_dtype_is_signed(dt)) return v >= lo[dt] && v <= hi[dt];
  return v >= 0 && v <= hi[dt];
}

/* complex := real | imag 'j' | real ('+'|'-') imag 'j', optionally in ( ) */
static bool parse_complex(const char *p, size_t n, double c[2]) {
  char buf[96];
  if (n >= 2 && p[0] == '(' && p[n - 1] == ')') { p++; n -= 2; }
  if (n == 0 || n >= sizeof buf) return false;
  memcpy(buf, p, n);
  buf[n] = 0;
  char *end;
  double a = strtod(buf, &end);
  if (end == buf) return false;
  if (!*end) { c[0] = a; c[1] = 0; return true; }
  if ((*end == 'j' || *end == 'J') && !end[1]) { c[0] = 0; c[1] = a; return true; }
  char *e2;
  double b = strtod(end, &e2);
  if (e2 == end || (*end != '+' && *end != '-') || (*e2 != 'j' && *e2 != 'J') || e2[1]) return false;
  c[0] = a; c[1] = b;
  return true;
}

/* Parses V for dtype dt into a scalar (the value of full:, DTYPE:V). */
static int parse_typed(Spec *s, RtDtype dt, const char *p, size_t n, RtScalar *out) {
  memset(out, 0, sizeof *out);
  out->dtype = dt;
  int64_t iv = 0;
  double fv, c[2];
  if (dt == RT_BOOL) {
    if ((n == 4 && !strncasecmp(p, "true", 4)) || (n == 1 && *p == '1')) { out->v.b = true; return 0; }
    if ((n == 5 && !strncasecmp(p, "false", 5)) || (n == 1 && *p == '0')) { out->v.b = false; return 0; }
    return gen_fail(s, "value '%.*s' in '%s' is not a bool; use True, False, 1 or 0", (int)n, p, s->text);
  }
  if (rt_dtype_is_int(dt)) {
    int r = parse_py_int(p, n, &iv);
    bool neg;
    uint64_t mag;
    if (r < 0 && dt == RT_U64 && parse_int_mag(p, n, &neg, &mag) == 1 && !neg) {
      out->v.u64 = mag;   /* above INT64_MAX: only uint64 holds it */
      return 0;
    }
    if (r == 0) return gen_fail(s, "value '%.*s' in '%s' is not an integer (%s needs one, e.g. 3, -2, 0x10)", (int)n, p, s->text, rt_dtype_name(dt));
    if (r < 0 || !int_in_range(dt, iv))
      return gen_fail(s, "value '%.*s' in '%s' is out of range for %s", (int)n, p, s->text, rt_dtype_name(dt));
    RtArray a = {.dtype = dt, .data = out->v.bytes, .nbytes = 16};
    rt_array_set_i64(&a, 0, iv);
    return 0;
  }
  if (rt_dtype_is_complex(dt)) {
    if (!parse_complex(p, n, c)) return gen_fail(s, "value '%.*s' in '%s' is not a complex number (e.g. 1.5, 2j, 1+2j)", (int)n, p, s->text);
    if (dt == RT_C64) { out->v.c64[0] = (float)c[0]; out->v.c64[1] = (float)c[1]; }
    else { out->v.c128[0] = c[0]; out->v.c128[1] = c[1]; }
    return 0;
  }
  if (parse_py_int(p, n, &iv) == 1) fv = (double)iv;
  else if (!parse_py_float(p, n, &fv))
    return gen_fail(s, "value '%.*s' in '%s' is not a number (e.g. 2.5, -1e3, inf, nan)", (int)n, p, s->text);
  RtArray a = {.dtype = dt, .data = out->v.bytes, .nbytes = 16};
  rt_array_set_f64(&a, 0, fv);
  return 0;
}

/* ---- shapes and dtypes ----------------------------------------------- */

/* Parses SHAPE; returns ndim, or -1 with *why set to what is wrong. */
static int shape_parse(const char *text, size_t len, int64_t shape[RT_MAX_NDIM], const char **why) {
  int nd = 0;
  size_t i = 0;
  *why = NULL;
  for (;;) {
    if (i >= len || !isdigit((unsigned char)text[i])) { *why = "malformed"; return -1; }
    int64_t v = 0;
    for (; i < len && isdigit((unsigned char)text[i]); i++) {
      if (v > (INT64_MAX - 9) / 10) { *why = "too large"; return -1; }
      v = v * 10 + (text[i] - '0');
    }
    if (nd == RT_MAX_NDIM) { *why = "over 4 dimensions (kjit arrays have at most 4)"; return -1; }
    shape[nd++] = v;
    if (i == len) break;
    if (text[i] != 'x' && text[i] != 'X') { *why = "malformed"; return -1; }
    i++;
  }
  size_t nb;
  if (!rt_shape_nbytes(RT_C128, nd, shape, &nb)) { *why = "too large"; return -1; }
  return nd;
}

#define SHAPE_HINT "expected N, AxB, AxBxC or AxBxCxD (e.g. 1000, 64x64)"

int rt_shape_parse(const char *text, size_t len, int64_t shape[RT_MAX_NDIM], char *err, size_t errlen) {
  const char *why;
  int nd = shape_parse(text, len, shape, &why);
  if (nd < 0 && err && errlen) snprintf(err, errlen, "shape '%.*s' is %s; " SHAPE_HINT, (int)len, text, why);
  return nd;
}

static int spec_dtype(Spec *s, int k, RtDtype *dt) {
  if (rt_dtype_parse(s->part[k], s->len[k], dt)) return 0;
  return gen_fail(s, "unknown dtype '%.*s' in '%s'; known: %s", (int)s->len[k], s->part[k], s->text, rt_dtype_known_list());
}

static int spec_shape(Spec *s, int k, int64_t shape[RT_MAX_NDIM]) {
  const char *why;
  int nd = shape_parse(s->part[k], s->len[k], shape, &why);
  if (nd < 0)
    return gen_fail(s, "shape '%.*s' in '%s' is %s; " SHAPE_HINT, (int)s->len[k], s->part[k], s->text, why);
  return nd;
}

static int spec_int(Spec *s, int k, const char *what, int64_t *out) {
  int r = parse_py_int(s->part[k], s->len[k], out);
  if (r == 1) return 0;
  return gen_fail(s, "%s '%.*s' in '%s' is not %s", what, (int)s->len[k], s->part[k], s->text,
                  r < 0 ? "within int64" : "an integer");
}

static int spec_alloc(Spec *s, RtValue *out, RtDtype dt, int nd, const int64_t *shape) {
  out->is_array = true;
  if (rt_array_alloc(&out->array, dt, nd, shape) == 0) return 0;
  return gen_fail(s, "out of memory for '%s'", s->text);
}

static int want_parts(Spec *s, int lo, int hi, const char *usage) {
  if (s->nparts >= lo && s->nparts <= hi) return 0;
  return gen_fail(s, "'%s' has %d field%s; expected %s", s->text, s->nparts, s->nparts == 1 ? "" : "s", usage);
}

/* ---- generators ------------------------------------------------------ */

/* The generated arrays are fresh and C-contiguous: element i lies at
 * data + i * itemsize, so the fills below walk pointers (a 16 Mi-element
 * array in milliseconds) instead of computing each address from strides. */

/* Copies the first element over the rest in doubling blocks (memcpy speed). */
static void fill_value(RtArray *a, const void *value) {
  size_t es = rt_dtype_size(a->dtype), total = (size_t)rt_array_size(a) * es, done = es;
  char *d = a->data;
  if (!total) return;
  memcpy(d, value, es);
  while (done < total) {
    size_t k = done < total - done ? done : total - done;
    memcpy(d + done, d, k);
    done += k;
  }
}

/* One loop per element type: 0, 1, 2, ... converted as rt_store_i64 does
 * (ints wrap, floats round from double, complex get a zero imaginary). */
#define ARANGE_LOOP(T, EXPR)                        \
  do {                                              \
    T *d = a->data;                                 \
    for (int64_t i = 0; i < n; i++) d[i] = (EXPR);  \
  } while (0)

static void fill_arange(RtArray *a) {
  int64_t n = rt_array_size(a);
  switch (a->dtype) {
  case RT_BOOL: ARANGE_LOOP(uint8_t, i != 0); break;
  case RT_I8: case RT_U8: ARANGE_LOOP(uint8_t, (uint8_t)i); break;
  case RT_I16: case RT_U16: ARANGE_LOOP(uint16_t, (uint16_t)i); break;
  case RT_I32: case RT_U32: ARANGE_LOOP(uint32_t, (uint32_t)i); break;
  case RT_I64: case RT_U64: ARANGE_LOOP(uint64_t, (uint64_t)i); break;
  case RT_F16: ARANGE_LOOP(uint16_t, rt_f32_to_f16((float)(double)i)); break;
  case RT_F32: ARANGE_LOOP(float, (float)(double)i); break;
  case RT_F64: ARANGE_LOOP(double, (double)i); break;
  default: {                                      /* complex: real part i */
    size_t es = rt_dtype_size(a->dtype);
    for (int64_t i = 0; i < n; i++) rt_store_i64((char *)a->data + (size_t)i * es, a->dtype, i);
  }
  }
}

/* zeros:DTYPE:SHAPE | full:DTYPE:SHAPE:V | arange:DTYPE:SHAPE */
static int gen_fill(Spec *s, RtValue *out, int kind /* 0 zeros, 1 full, 2 arange */) {
  static const char *const usage[] = {"zeros:DTYPE:SHAPE", "full:DTYPE:SHAPE:V", "arange:DTYPE:SHAPE"};
  RtDtype dt;
  int64_t shape[RT_MAX_NDIM];
  RtScalar v;
  int nd;
  if (want_parts(s, kind == 1 ? 4 : 3, kind == 1 ? 4 : 3, usage[kind]) || spec_dtype(s, 1, &dt) ||
      (nd = spec_shape(s, 2, shape)) < 0 || (kind == 1 && parse_typed(s, dt, s->part[3], s->len[3], &v)) ||
      spec_alloc(s, out, dt, nd, shape))
    return -1;
  if (kind == 1) fill_value(&out->array, v.v.bytes);
  if (kind == 2) fill_arange(&out->array);
  return 0;
}

static int spec_seed(Spec *s, int k, uint64_t *seed) {
  int64_t v = 0;
  *seed = 0;
  if (k >= s->nparts) return 0;
  if (spec_int(s, k, "seed", &v)) return -1;
  *seed = (uint64_t)v;
  return 0;
}

static void fill_random(RtArray *a, uint64_t seed) {
  int64_t n = rt_array_size(a);
  size_t es = rt_dtype_size(a->dtype);
  RtDtype dt = a->dtype;
  char *p = a->data;
  uint64_t st = seed;
  for (int64_t i = 0; i < n; i++, p += es) {
    if (dt == RT_BOOL) *(uint8_t *)p = (uint8_t)(splitmix64(&st) >> 63);
    else if (rt_dtype_is_int(dt)) rt_store_i64(p, dt, (int64_t)uniform_below(&st, 100));
    else if (dt == RT_C64) { float c[2] = {(float)uniform01(&st, RT_F32), 0}; c[1] = (float)uniform01(&st, RT_F32); memcpy(p, c, 8); }
    else if (dt == RT_C128) { double c[2] = {uniform01(&st, RT_F64), 0}; c[1] = uniform01(&st, RT_F64); memcpy(p, c, 16); }
    else if (dt == RT_F32) { float f = (float)uniform01(&st, RT_F32); memcpy(p, &f, 4); }
    else rt_store_f64(p, dt, uniform01(&st, dt));
  }
}

/* rand:DTYPE:SHAPE[:SEED] */
static int gen_rand(Spec *s, RtValue *out) {
  RtDtype dt;
  int64_t shape[RT_MAX_NDIM];
  uint64_t seed;
  int nd;
  if (want_parts(s, 3, 4, "rand:DTYPE:SHAPE[:SEED]") || spec_dtype(s, 1, &dt) ||
      (nd = spec_shape(s, 2, shape)) < 0 || spec_seed(s, 3, &seed) || spec_alloc(s, out, dt, nd, shape))
    return -1;
  fill_random(&out->array, seed);
  return 0;
}

/* randint:DTYPE:SHAPE:LO:HI[:SEED] -- LO inclusive, HI exclusive */
static int gen_randint(Spec *s, RtValue *out) {
  RtDtype dt;
  int64_t shape[RT_MAX_NDIM], lo = 0, hi = 0;
  uint64_t seed;
  int nd;
  if (want_parts(s, 5, 6, "randint:DTYPE:SHAPE:LO:HI[:SEED]") || spec_dtype(s, 1, &dt) ||
      (nd = spec_shape(s, 2, shape)) < 0 || spec_int(s, 3, "LO", &lo) || spec_int(s, 4, "HI", &hi) ||
      spec_seed(s, 5, &seed))
    return -1;
  if (lo >= hi) return gen_fail(s, "randint needs LO < HI (HI is exclusive), got LO=%" PRId64 " HI=%" PRId64 " in '%s'", lo, hi, s->text);
  if (rt_dtype_is_int(dt) && (!int_in_range(dt, lo) || !int_in_range(dt, hi - 1)))
    return gen_fail(s, "randint range [%" PRId64 ", %" PRId64 ") in '%s' does not fit %s", lo, hi, s->text, rt_dtype_name(dt));
  if (dt == RT_BOOL && (lo < 0 || hi > 2))
    return gen_fail(s, "randint range [%" PRId64 ", %" PRId64 ") in '%s' does not fit bool (use 0:2)", lo, hi, s->text);
  if (spec_alloc(s, out, dt, nd, shape)) return -1;
  uint64_t st = seed, range = (uint64_t)hi - (uint64_t)lo;
  int64_t n = rt_array_size(&out->array);
  size_t es = rt_dtype_size(dt);
  for (int64_t i = 0; i < n; i++)
    rt_store_i64((char *)out->array.data + (size_t)i * es, dt, (int64_t)((uint64_t)lo + uniform_below(&st, range)));
  return 0;
}

/* A 64-bit seed: 0 .. 2^64-1, or a negative int64 taken modulo 2^64 (as
 * Numba's uint64(seed) does). */
static int spec_u64(Spec *s, int k, const char *what, uint64_t *out) {
  bool neg;
  uint64_t mag;
  int r = parse_int_mag(s->part[k], s->len[k], &neg, &mag);
  if (r == 1 && (!neg || mag <= (uint64_t)INT64_MAX + 1)) {
    *out = neg ? 0 - mag : mag;
    return 0;
  }
  return gen_fail(s, "%s '%.*s' in '%s' is not %s", what, (int)s->len[k], s->part[k], s->text,
                  r == 0 ? "an integer" : "within 64 bits");
}

/* xoroshiro:N:SEED[:SUBSEQ] -- numba.cuda.random states, uint64 (N, 2) */
static int gen_xoroshiro(Spec *s, RtValue *out) {
  int64_t n = 0;
  uint64_t seed = 0, sub = 0;
  if (want_parts(s, 3, 4, "xoroshiro:N:SEED[:SUBSEQ]") || spec_int(s, 1, "N", &n) ||
      spec_u64(s, 2, "SEED", &seed) || (s->nparts == 4 && spec_u64(s, 3, "SUBSEQ", &sub)))
    return -1;
  if (n < 0)
    return gen_fail(s, "N '%.*s' in '%s' is negative; it is the number of generators", (int)s->len[1], s->part[1], s->text);
  if (s->nparts == 4 && s->part[3][0] == '-')
    return gen_fail(s, "SUBSEQ '%.*s' in '%s' is negative", (int)s->len[3], s->part[3], s->text);
  int64_t shape[2] = {n, 2};
  if (spec_alloc(s, out, RT_U64, 2, shape)) return -1;
  rt_xoroshiro128p_init(out->array.data, n, seed, sub);
  return 0;
}

/* A bare number: Python int -> int64, float -> float64. */
static int gen_number(Spec *s, RtValue *out) {
  const char *t = s->text;
  size_t n = strlen(t);
  out->is_array = false;
  int r = parse_py_int(t, n, &out->scalar.v.i64);
  if (r == 1) { out->scalar.dtype = RT_I64; return 0; }
  if (r < 0) return gen_fail(s, "integer '%s' does not fit int64; write it as uint64:%s or as a float (%s.0)", t, t, t);
  if (parse_py_float(t, n, &out->scalar.v.f64)) { out->scalar.dtype = RT_F64; return 0; }
  return gen_fail(s, "cannot understand the value '%s'; expected PATH.npy, zeros:DTYPE:SHAPE, "
                  "full:DTYPE:SHAPE:V, rand:DTYPE:SHAPE[:SEED], randint:DTYPE:SHAPE:LO:HI[:SEED], "
                  "arange:DTYPE:SHAPE, xoroshiro:N:SEED[:SUBSEQ], DTYPE:V or a number", t);
}

static void split(Spec *s) {
  const char *p = s->text;
  s->nparts = 0;
  for (;;) {
    const char *c = strchr(p, ':');
    size_t n = c ? (size_t)(c - p) : strlen(p);
    if (s->nparts < MAX_PARTS) { s->part[s->nparts] = p; s->len[s->nparts] = n; }
    s->nparts++;
    if (!c) break;
    p = c + 1;
  }
}

static bool word_is(const Spec *s, int k, const char *w) {
  return s->len[k] == strlen(w) && strncmp(s->part[k], w, s->len[k]) == 0;
}

/* zeros:DESCR[:SHAPE] | arange:DESCR[:SHAPE]: an array of records of the
 * structured dtype DESCR (a .npy descr, "[('x', '<f4'), ('y', '<i4')]");
 * without SHAPE one record (0-d, passed by reference). */
static int gen_record(Spec *s, RtValue *out) {
  bool ar = s->text[0] == 'a';
  const char *d = s->text + (ar ? 7 : 6), *p = d;
  int depth = 0;
  char q = 0;
  for (; *p; p++) { /* the descr's extent: brackets outside quotes */
    if (q) { if (*p == q) q = 0; continue; }
    if (*p == '\'' || *p == '"') q = *p;
    else if (*p == '[' || *p == '{' || *p == '(') depth++;
    else if ((*p == ']' || *p == '}' || *p == ')') && --depth == 0) { p++; break; }
  }
  if (depth || (*p && *p != ':'))
    return gen_fail(s, "'%s': expected %s:DESCR[:SHAPE], DESCR a structured dtype such as "
                    "[('x', '<f4'), ('y', '<i4')]", s->text, ar ? "arange" : "zeros");
  char why[400];
  RtRecord *rec = rt_record_parse(d, (size_t)(p - d), why, sizeof why);
  if (!rec) return gen_fail(s, "'%s': %s", s->text, why);
  int64_t shape[RT_MAX_NDIM];
  const char *bad = NULL;
  int nd = *p ? shape_parse(p + 1, strlen(p + 1), shape, &bad) : 0;
  int rc = nd < 0 ? gen_fail(s, "shape '%s' in '%s' is %s; " SHAPE_HINT, p + 1, s->text, bad)
           : rt_array_alloc_record(&out->array, rec, nd, shape) != 0 ? gen_fail(s, "out of memory for '%s'", s->text)
           : 0;
  rt_record_release(rec);
  if (rc) return rc;
  out->is_array = true;
  if (ar) rt_record_fill_arange(&out->array);
  return 0;
}

int rt_value_parse(const char *text, RtValue *out, char *err, size_t errlen) {
  memset(out, 0, sizeof *out);
  Spec s = {.text = text, .err = err, .errlen = errlen};
  size_t n = strlen(text);
  if (n == 0) return gen_fail(&s, "empty value; expected PATH.npy, a generator such as rand:f32:1000, DTYPE:V or a number");
  if (n > 4 && strcmp(text + n - 4, ".npy") == 0) {
    if (rt_npy_read(text, &out->array, err, errlen) != 0) return -1;
    out->is_array = true;
    return 0;
  }
  if (text[strspn(text, " ")] == '(' || rt_tuple_is_named(text))
    return rt_tuple_parse(text, out, err, errlen);
  if ((!strncmp(text, "zeros:", 6) || !strncmp(text, "arange:", 7)) &&
      (text[text[0] == 'z' ? 6 : 7] == '[' || text[text[0] == 'z' ? 6 : 7] == '{'))
    return gen_record(&s, out);
  split(&s);
  if (s.nparts == 1) return gen_number(&s, out);
  if (s.nparts > MAX_PARTS) return gen_fail(&s, "'%s' has too many ':' fields", text);
  int rc;
  RtDtype dt;
  if (word_is(&s, 0, "zeros")) rc = gen_fill(&s, out, 0);
  else if (word_is(&s, 0, "full")) rc = gen_fill(&s, out, 1);
  else if (word_is(&s, 0, "arange")) rc = gen_fill(&s, out, 2);
  else if (word_is(&s, 0, "rand")) rc = gen_rand(&s, out);
  else if (word_is(&s, 0, "randint")) rc = gen_randint(&s, out);
  else if (word_is(&s, 0, "xoroshiro")) rc = gen_xoroshiro(&s, out);
  else if (rt_dtype_parse(s.part[0], s.len[0], &dt)) {
    if (s.nparts != 2) return gen_fail(&s, "'%s' has %d fields; a typed scalar is DTYPE:V (e.g. float32:2.5)", text, s.nparts);
    out->is_array = false;
    rc = parse_typed(&s, dt, s.part[1], s.len[1], &out->scalar);
  } else
    return gen_fail(&s, "unknown generator or dtype '%.*s' in '%s'; generators: zeros, full, rand, randint, arange, xoroshiro; "
                    "dtypes: %s", (int)s.len[0], s.part[0], text, rt_dtype_known_list());
  if (rc) rt_value_free(out);
  return rc;
}

void rt_value_free(RtValue *v) {
  if (v->is_array) rt_array_free(&v->array);
  for (int i = 0; i < v->nelems; i++) rt_value_free(&v->elems[i]);
  for (int i = 0; v->keys && i < v->nelems; i++) free((char *)v->keys[i]);
  free(v->keys);
  free((char *)v->tname);
  free(v->elems);
  memset(v, 0, sizeof *v);
}
