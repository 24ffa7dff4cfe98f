/* value.c - kjitaux_arg_parse, the VALUE specs of `kjit run` arguments:
 * generated arrays (zeros/full/rand/randint/arange/xoroshiro), records,
 * typed and bare scalars, .npy files; tuples are in value_tuple.c.
 *
 * Arrays are made through include/kjit.h (kjit_array_create, _load_npy,
 * _create_record, _xoroshiro128p) and filled through kjit_array_data.
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

#include "auxlib/value_internal.h"
#include "auxlib/view_internal.h"
#include "kjitaux.h"

#define MAX_PARTS 7

/* What kjit_dtype_from_name accepts, for messages. */
#define KNOWN_DTYPES                                                              \
  "bool, int8, int16, int32, int64, uint8, uint16, uint32, uint64, "              \
  "float16, float32, float64, complex64, complex128 "                             \
  "(NumPy's codes, in bytes, with or without '<': b1, i1, i2, i4, i8, u1, u2, u4, u8, " \
  "f2, f4, f8, c8, c16; in bits: i16, i32, i64, u16, u32, u64, f32, f64, c64, c128)"

/* A spelling NumPy reads as a type kjit does not have, and what to write. */
static const char *numpy_other(const char *p, size_t n) {
  if (n == 3 && !strncmp(p, "f16", 3))
    return "'f16' is float128 in NumPy (16 bytes); float16 is f2 or float16";
  if (n == 3 && !strncmp(p, "c32", 3))
    return "'c32' is complex256 in NumPy; kjit has complex64 (c8) and complex128 (c16)";
  if (n > 1 && p[0] == '>')
    return "big-endian dtypes are not supported; use '<' (little-endian) or no byte order";
  return NULL;
}

/* A typed scalar as its dtype's own bytes (what kjit_arg_scalar takes). */
typedef struct Scalar {
  kjit_dtype dtype;
  union {
    int64_t i64;
    uint64_t u64;
    double f64;
    float c64[2];
    double c128[2];
    unsigned char bytes[16];
  } v;
} Scalar;

typedef struct Spec {
  kjit_context *ctx;
  const char *text;               /* the whole argument, for messages */
  int nparts;
  const char *part[MAX_PARTS];    /* colon-separated pieces (not NUL-terminated) */
  size_t len[MAX_PARTS];
  char *err;
  size_t errlen;
  const char *name;               /* the argument's name (NULL: none): rand's seed mixes it in */
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
static double uniform01(uint64_t *st, kjit_dtype dt) {
  uint64_t x = splitmix64(st);
  if (dt == KJIT_FLOAT64 || dt == KJIT_COMPLEX128) return (double)(x >> 11) * 0x1.0p-53;
  if (dt == KJIT_FLOAT16) return (double)(x >> 53) * 0x1.0p-11;
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

static bool int_in_range(kjit_dtype dt, int64_t v) {
  static const int64_t lo[] = {[KJIT_INT8] = INT8_MIN, [KJIT_INT16] = INT16_MIN, [KJIT_INT32] = INT32_MIN, [KJIT_INT64] = INT64_MIN};
  static const int64_t hi[] = {[KJIT_INT8] = INT8_MAX, [KJIT_INT16] = INT16_MAX, [KJIT_INT32] = INT32_MAX, [KJIT_INT64] = INT64_MAX,
                               [KJIT_UINT8] = UINT8_MAX, [KJIT_UINT16] = UINT16_MAX, [KJIT_UINT32] = UINT32_MAX, [KJIT_UINT64] = INT64_MAX};
  if (aux_dtype_is_signed(dt)) return v >= lo[dt] && v <= hi[dt];
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
static int parse_typed(Spec *s, kjit_dtype dt, const char *p, size_t n, Scalar *out) {
  memset(out, 0, sizeof *out);
  out->dtype = dt;
  int64_t iv = 0;
  double fv, c[2];
  if (dt == KJIT_BOOL) {
    if ((n == 4 && !strncasecmp(p, "true", 4)) || (n == 1 && *p == '1')) { out->v.bytes[0] = 1; return 0; }
    if ((n == 5 && !strncasecmp(p, "false", 5)) || (n == 1 && *p == '0')) { out->v.bytes[0] = 0; return 0; }
    return gen_fail(s, "value '%.*s' in '%s' is not a bool; use True, False, 1 or 0", (int)n, p, s->text);
  }
  if (aux_dtype_is_int(dt)) {
    int r = parse_py_int(p, n, &iv);
    bool neg;
    uint64_t mag;
    if (r < 0 && dt == KJIT_UINT64 && parse_int_mag(p, n, &neg, &mag) == 1 && !neg) {
      out->v.u64 = mag;   /* above INT64_MAX: only uint64 holds it */
      return 0;
    }
    if (r == 0) return gen_fail(s, "value '%.*s' in '%s' is not an integer (%s needs one, e.g. 3, -2, 0x10)", (int)n, p, s->text, kjit_dtype_name(dt));
    if (r < 0 || !int_in_range(dt, iv))
      return gen_fail(s, "value '%.*s' in '%s' is out of range for %s", (int)n, p, s->text, kjit_dtype_name(dt));
    aux_store_i64(out->v.bytes, dt, iv);
    return 0;
  }
  if (aux_dtype_is_complex(dt)) {
    if (!parse_complex(p, n, c)) return gen_fail(s, "value '%.*s' in '%s' is not a complex number (e.g. 1.5, 2j, 1+2j)", (int)n, p, s->text);
    if (dt == KJIT_COMPLEX64) { out->v.c64[0] = (float)c[0]; out->v.c64[1] = (float)c[1]; }
    else { out->v.c128[0] = c[0]; out->v.c128[1] = c[1]; }
    return 0;
  }
  if (parse_py_int(p, n, &iv) == 1) fv = (double)iv;
  else if (!parse_py_float(p, n, &fv))
    return gen_fail(s, "value '%.*s' in '%s' is not a number (e.g. 2.5, -1e3, inf, nan)", (int)n, p, s->text);
  aux_store_f64(out->v.bytes, dt, fv);
  return 0;
}

/* ---- shapes and dtypes ----------------------------------------------- */

/* Whether a complex128 array of this shape has a representable size (the
 * library's own limit: below 2^63 elements' bytes, half the address space). */
static bool shape_fits(int nd, const int64_t *shape) {
  uint64_t n = 16;
  for (int i = 0; i < nd; i++) {
    if (shape[i] && n > (uint64_t)INT64_MAX / (uint64_t)shape[i]) return false;
    n *= (uint64_t)shape[i];
  }
  return n <= (uint64_t)SIZE_MAX / 2;
}

/* Parses SHAPE; returns ndim, or -1 with *why set to what is wrong. */
static int shape_parse(const char *text, size_t len, int64_t shape[KJIT_MAX_NDIM], const char **why) {
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
    if (nd == KJIT_MAX_NDIM) { *why = "over 8 dimensions (kjit arrays have at most 8)"; return -1; }
    shape[nd++] = v;
    if (i == len) break;
    if (text[i] != 'x' && text[i] != 'X') { *why = "malformed"; return -1; }
    i++;
  }
  if (!shape_fits(nd, shape)) { *why = "too large"; return -1; }
  return nd;
}

#define SHAPE_HINT "expected N or up to 8 extents joined by x (e.g. 1000, 64x64, 2x3x4)"

/* The dtype part[0..len) names (kjit_dtype_from_name wants a string). */
static bool dtype_parse(const char *part, size_t len, kjit_dtype *dt) {
  char name[32];
  *dt = KJIT_DTYPE_INVALID;
  if (len >= sizeof name) return false;
  memcpy(name, part, len);
  name[len] = 0;
  *dt = kjit_dtype_from_name(name);
  return *dt != KJIT_DTYPE_INVALID && *dt != KJIT_RECORD;
}

static int spec_dtype(Spec *s, int k, kjit_dtype *dt) {
  if (dtype_parse(s->part[k], s->len[k], dt)) return 0;
  const char *why = numpy_other(s->part[k], s->len[k]);
  if (why)
    return gen_fail(s, "dtype '%.*s' in '%s': %s", (int)s->len[k], s->part[k], s->text, why);
  return gen_fail(s, "unknown dtype '%.*s' in '%s'; known: %s", (int)s->len[k], s->part[k], s->text, KNOWN_DTYPES);
}

static int spec_shape(Spec *s, int k, int64_t shape[KJIT_MAX_NDIM]) {
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

/* A new zero-filled array as the value; its view for the fills below. */
static int spec_alloc(Spec *s, kjit_arg *out, AuxView *v, kjit_dtype dt, int nd, const int64_t *shape) {
  kjit_array *a;
  if (kjit_array_create(s->ctx, dt, nd, shape, &a) != KJIT_OK)
    return gen_fail(s, "out of memory for '%s'", s->text);
  *out = kjit_arg_array(a);
  aux_view(a, v);
  return 0;
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
static void fill_value(AuxView *a, const void *value) {
  size_t es = kjit_dtype_size(a->dtype), total = (size_t)aux_size(a) * es, done = es;
  char *d = a->data;
  if (!total) return;
  memcpy(d, value, es);
  while (done < total) {
    size_t k = done < total - done ? done : total - done;
    memcpy(d + done, d, k);
    done += k;
  }
}

/* One loop per element type: 0, 1, 2, ... converted as aux_store_i64 does
 * (ints wrap, floats round from double, complex get a zero imaginary). */
#define ARANGE_LOOP(T, EXPR)                        \
  do {                                              \
    T *d = (T *)(void *)a->data;                     \
    for (int64_t i = 0; i < n; i++) d[i] = (EXPR);  \
  } while (0)

static void fill_arange(AuxView *a) {
  int64_t n = aux_size(a);
  switch (a->dtype) {
  case KJIT_BOOL: ARANGE_LOOP(uint8_t, i != 0); break;
  case KJIT_INT8: case KJIT_UINT8: ARANGE_LOOP(uint8_t, (uint8_t)i); break;
  case KJIT_INT16: case KJIT_UINT16: ARANGE_LOOP(uint16_t, (uint16_t)i); break;
  case KJIT_INT32: case KJIT_UINT32: ARANGE_LOOP(uint32_t, (uint32_t)i); break;
  case KJIT_INT64: case KJIT_UINT64: ARANGE_LOOP(uint64_t, (uint64_t)i); break;
  case KJIT_FLOAT16: ARANGE_LOOP(uint16_t, aux_f32_to_f16((float)(double)i)); break;
  case KJIT_FLOAT32: ARANGE_LOOP(float, (float)(double)i); break;
  case KJIT_FLOAT64: ARANGE_LOOP(double, (double)i); break;
  default: {                                      /* complex: real part i */
    size_t es = kjit_dtype_size(a->dtype);
    for (int64_t i = 0; i < n; i++) aux_store_i64((char *)a->data + (size_t)i * es, a->dtype, i);
  }
  }
}

/* zeros:DTYPE:SHAPE | full:DTYPE:SHAPE:V | arange:DTYPE:SHAPE */
static int gen_fill(Spec *s, kjit_arg *out, int kind /* 0 zeros, 1 full, 2 arange */) {
  static const char *const usage[] = {"zeros:DTYPE:SHAPE", "full:DTYPE:SHAPE:V", "arange:DTYPE:SHAPE"};
  kjit_dtype dt;
  AuxView view;
  int64_t shape[KJIT_MAX_NDIM];
  Scalar v;
  int nd;
  if (want_parts(s, kind == 1 ? 4 : 3, kind == 1 ? 4 : 3, usage[kind]) || spec_dtype(s, 1, &dt) ||
      (nd = spec_shape(s, 2, shape)) < 0 || (kind == 1 && parse_typed(s, dt, s->part[3], s->len[3], &v)) ||
      spec_alloc(s, out, &view, dt, nd, shape))
    return -1;
  if (kind == 1) fill_value(&view, v.v.bytes);
  if (kind == 2) fill_arange(&view);
  return 0;
}

/* The seed rand and randint draw from: SEED (default 0) for an unnamed
 * value, else SEED mixed with the argument's name, so x=rand:f32:N and
 * y=rand:f32:N differ and each stays the same from run to run, whatever
 * the order of the arguments (FNV-1a of the name, then splitmix64's
 * finalizer over both). */
static uint64_t seed_for(uint64_t base, const char *name) {
  if (!name) return base;
  uint64_t h = 0xCBF29CE484222325ull;
  for (const unsigned char *c = (const unsigned char *)name; *c; c++)
    h = (h ^ *c) * 0x100000001B3ull;
  uint64_t z = base + 0x9E3779B97F4A7C15ull * (h | 1);
  z = (z ^ z >> 30) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ z >> 27) * 0x94D049BB133111EBull;
  return z ^ z >> 31;
}

static int spec_seed(Spec *s, int k, uint64_t *seed) {
  int64_t v = 0;
  *seed = seed_for(0, s->name);
  if (k >= s->nparts) return 0;
  if (spec_int(s, k, "seed", &v)) return -1;
  *seed = seed_for((uint64_t)v, s->name);
  return 0;
}

static void fill_random(AuxView *a, uint64_t seed) {
  int64_t n = aux_size(a);
  size_t es = kjit_dtype_size(a->dtype);
  kjit_dtype dt = a->dtype;
  char *p = a->data;
  uint64_t st = seed;
  for (int64_t i = 0; i < n; i++, p += es) {
    if (dt == KJIT_BOOL) *(uint8_t *)p = (uint8_t)(splitmix64(&st) >> 63);
    else if (aux_dtype_is_int(dt)) aux_store_i64(p, dt, (int64_t)uniform_below(&st, 100));
    else if (dt == KJIT_COMPLEX64) { float c[2] = {(float)uniform01(&st, KJIT_FLOAT32), 0}; c[1] = (float)uniform01(&st, KJIT_FLOAT32); memcpy(p, c, 8); }
    else if (dt == KJIT_COMPLEX128) { double c[2] = {uniform01(&st, KJIT_FLOAT64), 0}; c[1] = uniform01(&st, KJIT_FLOAT64); memcpy(p, c, 16); }
    else if (dt == KJIT_FLOAT32) { float f = (float)uniform01(&st, KJIT_FLOAT32); memcpy(p, &f, 4); }
    else aux_store_f64(p, dt, uniform01(&st, dt));
  }
}

/* rand:DTYPE:SHAPE[:SEED] */
static int gen_rand(Spec *s, kjit_arg *out) {
  kjit_dtype dt;
  AuxView view;
  int64_t shape[KJIT_MAX_NDIM];
  uint64_t seed;
  int nd;
  if (want_parts(s, 3, 4, "rand:DTYPE:SHAPE[:SEED]") || spec_dtype(s, 1, &dt) ||
      (nd = spec_shape(s, 2, shape)) < 0 || spec_seed(s, 3, &seed) || spec_alloc(s, out, &view, dt, nd, shape))
    return -1;
  fill_random(&view, seed);
  return 0;
}

/* randint:DTYPE:SHAPE:LO:HI[:SEED] -- LO inclusive, HI exclusive */
static int gen_randint(Spec *s, kjit_arg *out) {
  kjit_dtype dt;
  AuxView view;
  int64_t shape[KJIT_MAX_NDIM], lo = 0, hi = 0;
  uint64_t seed;
  int nd;
  if (want_parts(s, 5, 6, "randint:DTYPE:SHAPE:LO:HI[:SEED]") || spec_dtype(s, 1, &dt) ||
      (nd = spec_shape(s, 2, shape)) < 0 || spec_int(s, 3, "LO", &lo) || spec_int(s, 4, "HI", &hi) ||
      spec_seed(s, 5, &seed))
    return -1;
  if (lo >= hi) return gen_fail(s, "randint needs LO < HI (HI is exclusive), got LO=%" PRId64 " HI=%" PRId64 " in '%s'", lo, hi, s->text);
  if (aux_dtype_is_int(dt) && (!int_in_range(dt, lo) || !int_in_range(dt, hi - 1)))
    return gen_fail(s, "randint range [%" PRId64 ", %" PRId64 ") in '%s' does not fit %s", lo, hi, s->text, kjit_dtype_name(dt));
  if (dt == KJIT_BOOL && (lo < 0 || hi > 2))
    return gen_fail(s, "randint range [%" PRId64 ", %" PRId64 ") in '%s' does not fit bool (use 0:2)", lo, hi, s->text);
  if (spec_alloc(s, out, &view, dt, nd, shape)) return -1;
  uint64_t st = seed, range = (uint64_t)hi - (uint64_t)lo;
  int64_t n = aux_size(&view);
  size_t es = kjit_dtype_size(dt);
  for (int64_t i = 0; i < n; i++)
    aux_store_i64(view.data + (size_t)i * es, dt, (int64_t)((uint64_t)lo + uniform_below(&st, range)));
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
static int gen_xoroshiro(Spec *s, kjit_arg *out) {
  int64_t n = 0;
  uint64_t seed = 0, sub = 0;
  if (want_parts(s, 3, 4, "xoroshiro:N:SEED[:SUBSEQ]") || spec_int(s, 1, "N", &n) ||
      spec_u64(s, 2, "SEED", &seed) || (s->nparts == 4 && spec_u64(s, 3, "SUBSEQ", &sub)))
    return -1;
  if (n < 0)
    return gen_fail(s, "N '%.*s' in '%s' is negative; it is the number of generators", (int)s->len[1], s->part[1], s->text);
  if (s->nparts == 4 && s->part[3][0] == '-')
    return gen_fail(s, "SUBSEQ '%.*s' in '%s' is negative", (int)s->len[3], s->part[3], s->text);
  kjit_array *a;
  if (kjit_array_xoroshiro128p(s->ctx, n, seed, sub, &a) != KJIT_OK)
    return gen_fail(s, "out of memory for '%s'", s->text);
  *out = kjit_arg_array(a);
  return 0;
}

/* A bare number: Python int -> int64, float -> float64. */
static int gen_number(Spec *s, kjit_arg *out) {
  const char *t = s->text;
  size_t n = strlen(t);
  int64_t iv;
  double fv;
  int r = parse_py_int(t, n, &iv);
  if (r == 1) { *out = kjit_arg_i64(iv); return 0; }
  if (r < 0) return gen_fail(s, "integer '%s' does not fit int64; write it as uint64:%s or as a float (%s.0)", t, t, t);
  if (parse_py_float(t, n, &fv)) { *out = kjit_arg_f64(fv); return 0; }
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

/* Every number field of every element set to its C-order index over the
 * element's dimensions and the field's own: field x of a[i] is i, v[j] of
 * a[i] is i * len(v) + j.  Fields past 4 dimensions are left zero. */
static void fill_record_arange(kjit_array *a) {
  for (int i = 0; i < kjit_array_field_count(a); i++) {
    kjit_array *f;
    AuxView v;
    if (kjit_array_field(a, i, &f) != KJIT_OK)
      continue;
    if (kjit_array_dtype(f) == KJIT_RECORD)
      fill_record_arange(f);
    else if (aux_view(f, &v))
      for (int64_t k = 0, n = aux_size(&v); k < n; k++)
        aux_store_i64(aux_elem(&v, k), v.dtype, k);
    kjit_array_destroy(f);
  }
}

/* The message of the last failing kjit.h call on ctx, without the
 * "kjit: error[E001]: " that kjit_last_error renders before a message with no
 * source position and the line's newline. */
static void last_message(kjit_context *ctx, char *buf, size_t len) {
  static const char lead[] = "kjit: error";         /* then ": " or "[E001]: " */
  const char *e = kjit_last_error(ctx);
  if (!strncmp(e, lead, sizeof lead - 1)) {
    const char *p = e + sizeof lead - 1;
    if (*p == '[' && strchr(p, ']'))
      p = strchr(p, ']') + 1;
    if (!strncmp(p, ": ", 2))
      e = p + 2;
  }
  size_t n = strcspn(e, "\n");
  snprintf(buf, len, "%.*s", (int)n, e);
}

/* A record array of descr d with nd dimensions (nd < 0: the shape was bad,
 * reported only when the descr is good, as the descr is read first). */
static int make_record(Spec *s, const char *d, int nd, const int64_t *shape, const char *bad,
                       const char *shape_text, kjit_array **out) {
  char why[400];
  kjit_status st = kjit_array_create_record(s->ctx, d, nd < 0 ? 0 : nd, shape, out);
  if (st == KJIT_ERROR_INVALID_ARGUMENT) {
    last_message(s->ctx, why, sizeof why);
    return gen_fail(s, "'%s': %s", s->text, why);
  }
  if (st != KJIT_OK)
    return gen_fail(s, "out of memory for '%s'", s->text);
  if (nd >= 0)
    return 0;
  kjit_array_destroy(*out);
  return gen_fail(s, "shape '%s' in '%s' is %s; " SHAPE_HINT, shape_text, s->text, bad);
}

/* The end of the descr at d: its brackets closed, outside quotes. */
static const char *descr_end(const char *p, int *depth) {
  char q = 0;
  *depth = 0;
  for (; *p; p++) {
    if (q) { if (*p == q) q = 0; continue; }
    if (*p == '\'' || *p == '"') q = *p;
    else if (*p == '[' || *p == '{' || *p == '(') (*depth)++;
    else if ((*p == ']' || *p == '}' || *p == ')') && --*depth == 0) return p + 1;
  }
  return p;
}

/* zeros:DESCR[:SHAPE] | arange:DESCR[:SHAPE]: an array of records of the
 * structured dtype DESCR (a .npy descr, "[('x', '<f4'), ('y', '<i4')]");
 * without SHAPE one record (0-d, passed by reference). */
static int gen_record(Spec *s, kjit_arg *out) {
  bool ar = s->text[0] == 'a';
  const char *d = s->text + (ar ? 7 : 6);
  int depth;
  const char *p = descr_end(d, &depth);
  if (depth || (*p && *p != ':'))
    return gen_fail(s, "'%s': expected %s:DESCR[:SHAPE], DESCR a structured dtype such as "
                    "[('x', '<f4'), ('y', '<i4')]", s->text, ar ? "arange" : "zeros");
  char *descr = strndup(d, (size_t)(p - d));
  if (!descr) return gen_fail(s, "out of memory for '%s'", s->text);
  int64_t shape[KJIT_MAX_NDIM];
  const char *bad = NULL;
  int nd = *p ? shape_parse(p + 1, strlen(p + 1), shape, &bad) : 0;
  kjit_array *a;
  int rc = make_record(s, descr, nd, shape, bad, *p ? p + 1 : "", &a);
  free(descr);
  if (rc) return rc;
  if (ar) fill_record_arange(a);
  *out = kjit_arg_array(a);
  return 0;
}

/* PATH.npy, read by the library; its message is the value's. */
static int gen_npy(Spec *s, kjit_arg *out) {
  kjit_array *a;
  if (kjit_array_load_npy(s->ctx, s->text, &a) != KJIT_OK) {
    last_message(s->ctx, s->err, s->errlen);
    return -1;
  }
  *out = kjit_arg_array(a);
  return 0;
}

/* DTYPE:V */
static int gen_typed(Spec *s, kjit_dtype dt, kjit_arg *out) {
  Scalar v;
  if (s->nparts != 2)
    return gen_fail(s, "'%s' has %d fields; a typed scalar is DTYPE:V (e.g. float32:2.5)", s->text, s->nparts);
  if (parse_typed(s, dt, s->part[1], s->len[1], &v)) return -1;
  /* int64 and float64 values are passed as Python ints and floats are */
  *out = dt == KJIT_INT64 ? kjit_arg_i64(v.v.i64) : dt == KJIT_FLOAT64 ? kjit_arg_f64(v.v.f64)
         : kjit_arg_scalar(dt, v.v.bytes);
  return 0;
}

static bool is_record_spec(const char *text) {
  if (strncmp(text, "zeros:", 6) && strncmp(text, "arange:", 7)) return false;
  char c = text[text[0] == 'z' ? 6 : 7];
  return c == '[' || c == '{';
}

/* zeros, full, arange, rand, randint, xoroshiro or DTYPE:V, by the first
 * field. */
static int gen_fields(Spec *s, kjit_arg *out) {
  kjit_dtype dt;
  if (word_is(s, 0, "zeros")) return gen_fill(s, out, 0);
  if (word_is(s, 0, "full")) return gen_fill(s, out, 1);
  if (word_is(s, 0, "arange")) return gen_fill(s, out, 2);
  if (word_is(s, 0, "rand")) return gen_rand(s, out);
  if (word_is(s, 0, "randint")) return gen_randint(s, out);
  if (word_is(s, 0, "xoroshiro")) return gen_xoroshiro(s, out);
  if (dtype_parse(s->part[0], s->len[0], &dt)) return gen_typed(s, dt, out);
  if (numpy_other(s->part[0], s->len[0]))
    return gen_fail(s, "dtype '%.*s' in '%s': %s", (int)s->len[0], s->part[0], s->text,
                    numpy_other(s->part[0], s->len[0]));
  return gen_fail(s, "unknown generator or dtype '%.*s' in '%s'; generators: zeros, full, rand, randint, arange, xoroshiro; "
                  "dtypes: %s", (int)s->len[0], s->part[0], s->text, KNOWN_DTYPES);
}

/* FILE.npz or FILE.npz:NAME (NumPy's np.savez archives, read by name). */
static bool is_npz(const char *text) {
  const char *p = strstr(text, ".npz");
  return p && (p[4] == '\0' || p[4] == ':');
}

int aux_value_parse(kjit_context *ctx, const char *text, kjit_arg *out, char *err, size_t errlen) {
  return aux_value_parse_named(ctx, text, NULL, out, err, errlen);
}

int aux_value_parse_named(kjit_context *ctx, const char *text, const char *name, kjit_arg *out, char *err,
                          size_t errlen) {
  memset(out, 0, sizeof *out);
  Spec s = {.ctx = ctx, .text = text, .err = err, .errlen = errlen, .name = name};
  size_t n = strlen(text);
  if (n == 0) return gen_fail(&s, "empty value; expected PATH.npy, a generator such as rand:f32:1000, DTYPE:V or a number");
  if (n > 4 && strcmp(text + n - 4, ".npy") == 0) return gen_npy(&s, out);
  if (is_npz(text))
    return gen_fail(&s, "'%s' names a NumPy .npz archive, which kjit does not read; save the "
                    "array on its own (np.save('x.npy', a), or unzip the archive: its members "
                    "are .npy files) and pass PATH.npy", text);
  if (text[strspn(text, " ")] == '(' || aux_tuple_is_named(text))
    return aux_tuple_parse(ctx, text, out, err, errlen);
  if (is_record_spec(text)) return gen_record(&s, out);
  split(&s);
  if (s.nparts == 1) return gen_number(&s, out);
  if (s.nparts > MAX_PARTS) return gen_fail(&s, "'%s' has too many ':' fields", text);
  return gen_fields(&s, out);
}

kjit_status kjitaux_arg_parse(kjit_context *ctx, const char *spec, const char *what, kjit_arg *out) {
  if (!ctx || !spec || !out)
    return KJIT_ERROR_INVALID_ARGUMENT;
  char err[1024];
  kjit_arg v;
  if (aux_value_parse_named(ctx, spec, what, &v, err, sizeof err) != 0) {
    size_t n = strlen(spec);
    bool is_file = n > 4 && strcmp(spec + n - 4, ".npy") == 0;
    return kjit_set_error(ctx, is_file ? KJIT_ERROR_IO : KJIT_ERROR_INVALID_ARGUMENT, "%s%s%s%s",
                          what ? "argument '" : "", what ? what : "", what ? "': " : "", err);
  }
  *out = v;
  return kjit_set_error(ctx, KJIT_OK, "%s", "");   /* no error left from the fills */
}
