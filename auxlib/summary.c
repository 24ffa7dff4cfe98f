/* summary.c - kjitaux_array_summary, the one-line array summaries of
 * `kjit run`: a few values, the sum and the CRC-32; a record array gets a
 * line of its own and one per number field (through kjit_array_field).
 *
 * The sum is defined as a sequential loop (s += x in C order, in double),
 * whose 4-cycle dependency chain made it the slowest part of a run.  It is
 * computed exactly the same, faster: when every element is a multiple of
 * 2^G and n * max|x| < 2^(51+G), every partial sum, in any order, is a
 * multiple of 2^G below 2^(53+G) in magnitude, so no addition rounds and
 * four independent accumulators give the sequential loop's bits.  Other
 * arrays (NaN, inf, values spanning too many binades) take the sequential
 * loop.  Arrays are walked row by row (aux_rows), never element by
 * element through their strides. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "auxlib/view_internal.h"
#include "kjitaux.h"

/* ---- sum ------------------------------------------------------------- */

/* The three passes over one row: max |x|, the checked four-way sum, the
 * sequential sum.  Each is written once per element type by SUM_ROWS. */
typedef struct SumOps {
  double (*amax)(const char *p, int64_t n, int64_t st, double m);
  bool (*fast)(const char *p, int64_t n, int64_t st, double c, double acc[4]);
  double (*seq)(const char *p, int64_t n, int64_t st, double s);
} SumOps;

/* The row bodies take the stride as a parameter and are inlined twice:
 * once with the element size (so the contiguous loop vectorises), once
 * with the row's stride. */
#define SUM_ROWS(NAME, T, CONV)                                                           \
  static inline double NAME##_get(const char *p) {                                        \
    T v;                                                                                  \
    memcpy(&v, p, sizeof v);                                                              \
    return CONV(v);                                                                       \
  }                                                                                       \
  static inline double NAME##_amax_body(const char *p, int64_t n, int64_t st, double m) { \
    double m4[4] = {m, m, m, m};                                                          \
    int64_t i = 0;                                                                        \
    for (; i + 4 <= n; i += 4)                                                            \
      for (int k = 0; k < 4; k++) {                                                       \
        double a = fabs(NAME##_get(p + (i + k) * st));                                    \
        m4[k] = a > m4[k] ? a : m4[k];                                                    \
      }                                                                                   \
    for (; i < n; i++) {                                                                  \
      double a = fabs(NAME##_get(p + i * st));                                            \
      m4[0] = a > m4[0] ? a : m4[0];                                                      \
    }                                                                                     \
    return fmax(fmax(m4[0], m4[1]), fmax(m4[2], m4[3]));                                  \
  }                                                                                       \
  static double NAME##_amax(const char *p, int64_t n, int64_t st, double m) {             \
    return st == sizeof(T) ? NAME##_amax_body(p, n, sizeof(T), m)                         \
                           : NAME##_amax_body(p, n, st, m);                               \
  }                                                                                       \
  static inline bool NAME##_fast_body(const char *p, int64_t n, int64_t st, double c,     \
                                      double acc[4]) {                                    \
    double s[4] = {acc[0], acc[1], acc[2], acc[3]}; /* locals: p may alias acc */        \
    double e[4] = {0, 0, 0, 0};                     /* sum of |x - rounded x|: 0, or NaN */ \
    int64_t i = 0;                                                                        \
    for (; i + 4 <= n; i += 4)                                                            \
      for (int k = 0; k < 4; k++) {                                                       \
        double x = NAME##_get(p + (i + k) * st);                                          \
        e[k] += fabs(x + c - c - x);                                                      \
        s[k] += x;                                                                        \
      }                                                                                   \
    for (; i < n; i++) {                                                                  \
      double x = NAME##_get(p + i * st);                                                  \
      e[0] += fabs(x + c - c - x);                                                        \
      s[0] += x;                                                                          \
    }                                                                                     \
    memcpy(acc, s, sizeof s);                                                             \
    return e[0] + e[1] + e[2] + e[3] == 0;                                                \
  }                                                                                       \
  static bool NAME##_fast(const char *p, int64_t n, int64_t st, double c, double acc[4]) { \
    return st == sizeof(T) ? NAME##_fast_body(p, n, sizeof(T), c, acc)                    \
                           : NAME##_fast_body(p, n, st, c, acc);                          \
  }                                                                                       \
  static double NAME##_seq(const char *p, int64_t n, int64_t st, double s) {              \
    for (int64_t i = 0; i < n; i++) s += NAME##_get(p + i * st);                          \
    return s;                                                                             \
  }                                                                                       \
  __attribute__((unused)) static const SumOps NAME##_ops = {NAME##_amax, NAME##_fast, NAME##_seq};

#define AS_DOUBLE(v) ((double)(v))
#define BOOL_DOUBLE(v) ((v) != 0 ? 1.0 : 0.0)
#define HALF_DOUBLE(v) ((double)aux_f16_to_f32(v))

SUM_ROWS(sum_b, uint8_t, BOOL_DOUBLE)
SUM_ROWS(sum_i8, int8_t, AS_DOUBLE)
SUM_ROWS(sum_i16, int16_t, AS_DOUBLE)
SUM_ROWS(sum_i32, int32_t, AS_DOUBLE)
SUM_ROWS(sum_i64, int64_t, AS_DOUBLE)
SUM_ROWS(sum_u8, uint8_t, AS_DOUBLE)
SUM_ROWS(sum_u16, uint16_t, AS_DOUBLE)
SUM_ROWS(sum_u32, uint32_t, AS_DOUBLE)
SUM_ROWS(sum_u64, uint64_t, AS_DOUBLE)
SUM_ROWS(sum_f16, uint16_t, HALF_DOUBLE)
SUM_ROWS(sum_f32s, float, AS_DOUBLE)
SUM_ROWS(sum_f64s, double, AS_DOUBLE)

/* float32 and float64 rows, the common case, get explicit vector loops when
 * contiguous, on x86-64 CPUs with AVX2 (GCC and clang vector extensions
 * compiled for AVX2 and chosen at run time; the compiler does not vectorise
 * the scalar loops, their lanes being reductions, and SSE2 lowers these
 * poorly).  max |x| is taken on the bits (|x| orders as its bits do; NaN
 * and inf, bits at or above inf's, come out as inf). */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define VEC_TARGET __attribute__((target("avx2")))
typedef float VF4 __attribute__((vector_size(16)));
typedef double VD4 __attribute__((vector_size(32)));
typedef int64_t VL4 __attribute__((vector_size(32)));
typedef int32_t VI8 __attribute__((vector_size(32)));

#define VEC_AMAX(NAME, VI, EL, LANES, ABSMASK, INFBITS, TO_DOUBLE)       \
  VEC_TARGET static double NAME(const char *p, int64_t n, double m) {               \
    VI best = {0};                                                       \
    int64_t i = 0;                                                       \
    for (; i + LANES <= n; i += LANES) {                                 \
      VI b;                                                              \
      memcpy(&b, p + i * (int64_t)sizeof(EL), sizeof b);                 \
      b &= ABSMASK;                                                      \
      VI gt = b > best;                                                  \
      best = (b & gt) | (best & ~gt);                                    \
    }                                                                    \
    EL top = 0;                                                          \
    for (int k = 0; k < LANES; k++) top = best[k] > top ? best[k] : top; \
    for (; i < n; i++) {                                                 \
      EL b;                                                              \
      memcpy(&b, p + i * (int64_t)sizeof(EL), sizeof b);                 \
      b &= ABSMASK;                                                      \
      top = b > top ? b : top;                                           \
    }                                                                    \
    double a = top >= INFBITS ? INFINITY : TO_DOUBLE(top);               \
    return a > m ? a : m;                                                \
  }

static double f32_of_bits(int32_t b) { float f; memcpy(&f, &b, 4); return f; }
static double f64_of_bits(int64_t b) { double f; memcpy(&f, &b, 8); return f; }
VEC_AMAX(f32_amax_vec, VI8, int32_t, 8, 0x7fffffff, 0x7f800000, f32_of_bits)
VEC_AMAX(f64_amax_vec, VL4, int64_t, 4, INT64_MAX, 0x7ff0000000000000, f64_of_bits)

/* Eight floats per step: two vectors of four doubles. */
VEC_TARGET static bool f32_fast_vec(const char *p, int64_t n, double c, double acc[4]) {
  VD4 s0 = {acc[0], acc[1], acc[2], acc[3]}, s1 = {0}, vc = {c, c, c, c};
  VL4 ok = ~(VL4){0};
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    VF4 a, b;
    memcpy(&a, p + 4 * i, sizeof a);
    memcpy(&b, p + 4 * i + 16, sizeof b);
    VD4 x = __builtin_convertvector(a, VD4), y = __builtin_convertvector(b, VD4);
    s0 += x;
    s1 += y;
    ok &= (x + vc - vc == x) & (y + vc - vc == y);
  }
  s0 += s1;
  memcpy(acc, &s0, sizeof s0);
  bool all = (ok[0] & ok[1] & ok[2] & ok[3]) != 0;
  return sum_f32s_fast(p + 4 * i, n - i, 4, c, acc) && all;
}

VEC_TARGET static bool f64_fast_vec(const char *p, int64_t n, double c, double acc[4]) {
  VD4 s0 = {acc[0], acc[1], acc[2], acc[3]}, s1 = {0}, vc = {c, c, c, c};
  VL4 ok = ~(VL4){0};
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    VD4 x, y;
    memcpy(&x, p + 8 * i, sizeof x);
    memcpy(&y, p + 8 * i + 32, sizeof y);
    s0 += x;
    s1 += y;
    ok &= (x + vc - vc == x) & (y + vc - vc == y);
  }
  s0 += s1;
  memcpy(acc, &s0, sizeof s0);
  bool all = (ok[0] & ok[1] & ok[2] & ok[3]) != 0;
  return sum_f64s_fast(p + 8 * i, n - i, 8, c, acc) && all;
}

static bool have_avx2(void) { return __builtin_cpu_supports("avx2"); }

#define VEC_ROWS(NAME, T, AMAX, FAST)                                                   \
  static double NAME##_amax(const char *p, int64_t n, int64_t st, double m) {           \
    return st == sizeof(T) && have_avx2() ? AMAX(p, n, m) : NAME##s_amax(p, n, st, m);  \
  }                                                                                     \
  static bool NAME##_fast(const char *p, int64_t n, int64_t st, double c, double acc[4]) { \
    return st == sizeof(T) && have_avx2() ? FAST(p, n, c, acc)                          \
                                          : NAME##s_fast(p, n, st, c, acc);             \
  }                                                                                     \
  static const SumOps NAME##_ops = {NAME##_amax, NAME##_fast, NAME##s_seq};
VEC_ROWS(sum_f32, float, f32_amax_vec, f32_fast_vec)
VEC_ROWS(sum_f64, double, f64_amax_vec, f64_fast_vec)
#else
#define sum_f32_ops sum_f32s_ops
#define sum_f64_ops sum_f64s_ops
#endif

/* Complex arrays sum their real parts: the first float/double of each
 * element, read with the element's stride. */
static const SumOps *const sum_ops[KJIT_COMPLEX128 + 1] = {
  [KJIT_BOOL] = &sum_b_ops, [KJIT_INT8] = &sum_i8_ops, [KJIT_INT16] = &sum_i16_ops,
  [KJIT_INT32] = &sum_i32_ops, [KJIT_INT64] = &sum_i64_ops, [KJIT_UINT8] = &sum_u8_ops,
  [KJIT_UINT16] = &sum_u16_ops, [KJIT_UINT32] = &sum_u32_ops, [KJIT_UINT64] = &sum_u64_ops,
  [KJIT_FLOAT16] = &sum_f16_ops, [KJIT_FLOAT32] = &sum_f32_ops, [KJIT_FLOAT64] = &sum_f64_ops,
  [KJIT_COMPLEX64] = &sum_f32_ops, [KJIT_COMPLEX128] = &sum_f64_ops,
};

typedef struct SumWalk {
  const SumOps *ops;
  double amax, c, acc[4], seq;
  bool ok;
} SumWalk;

static void row_amax(void *ctx, const char *p, int64_t n, int64_t st) {
  SumWalk *w = ctx;
  w->amax = w->ops->amax(p, n, st, w->amax);
}

static void row_fast(void *ctx, const char *p, int64_t n, int64_t st) {
  SumWalk *w = ctx;
  if (w->ok) w->ok = w->ops->fast(p, n, st, w->c, w->acc);
}

static void row_seq(void *ctx, const char *p, int64_t n, int64_t st) {
  SumWalk *w = ctx;
  w->seq = w->ops->seq(p, n, st, w->seq);
}

/* 1.5 * 2^(52+G) for the smallest G that the bound allows, or 0 when none
 * does (max |x| infinite; NaN-only arrays pass here, and fail the check of
 * the fast pass, as NaN is no multiple of anything). */
static double exact_constant(double amax, int64_t n) {
  if (!(amax <= 0x1p1000)) return 0;             /* inf, or too large for c */
  int ea = -1074, en = 0;
  if (amax > 0) frexp(amax, &ea);                /* amax < 2^ea */
  while (en < 63 && ((int64_t)1 << en) <= n) en++; /* n < 2^en */
  int g = ea + en - 51;
  if (g < -1074) g = -1074;                      /* every double is a multiple of 2^-1074 */
  return 52 + g > 1023 ? 0 : ldexp(1.5, 52 + g);
}

double aux_array_sum(const AuxView *a) {
  if ((unsigned)a->dtype > KJIT_COMPLEX128) return 0;
  SumWalk w = {.ops = sum_ops[a->dtype], .ok = true};
  aux_rows(a, row_amax, &w);
  w.c = exact_constant(w.amax, aux_size(a));
  if (w.c > 0) {
    aux_rows(a, row_fast, &w);
    if (w.ok) return 0.0 + ((w.acc[0] + w.acc[1]) + (w.acc[2] + w.acc[3]));
  }
  aux_rows(a, row_seq, &w);
  return w.seq;
}

/* ---- CRC-32 of the elements in C order -------------------------------- */

typedef struct CrcWalk {
  uint32_t crc;
  size_t es;
} CrcWalk;

/* A strided row is gathered into a buffer, so the CRC runs on long runs of
 * bytes (the same value: the CRC is a stream function). */
static void row_crc(void *ctx, const char *p, int64_t n, int64_t st) {
  CrcWalk *w = ctx;
  if (st == (int64_t)w->es) {
    w->crc = aux_crc32(w->crc, p, (size_t)n * w->es);
    return;
  }
  char buf[4096];
  size_t used = 0;
  for (int64_t i = 0; i < n; i++) {
    memcpy(buf + used, p + i * st, w->es);
    used += w->es;
    if (used + w->es > sizeof buf || i + 1 == n) {
      w->crc = aux_crc32(w->crc, buf, used);
      used = 0;
    }
  }
}

static uint32_t array_crc(const AuxView *a) {
  CrcWalk w = {.crc = 0, .es = kjit_dtype_size(a->dtype)};
  aux_rows(a, row_crc, &w);
  return w.crc;
}

/* ---- the line -------------------------------------------------------- */

/* The longest line of one array, with its NUL. */
#define SUMMARY_MAX 700

/* Formats element i as NumPy would print it (roughly): ints exact, floats %g,
 * complex (re+imj), bool True/False. */
static void format_elem(const AuxView *a, int64_t i, char *buf, size_t len) {
  const void *p = aux_elem(a, i);
  if (a->dtype == KJIT_BOOL) snprintf(buf, len, "%s", *(const uint8_t *)p ? "True" : "False");
  else if (a->dtype == KJIT_UINT64) { uint64_t v; memcpy(&v, p, 8); snprintf(buf, len, "%" PRIu64, v); }
  else if (aux_dtype_is_int(a->dtype)) snprintf(buf, len, "%" PRId64, aux_get_i64(a, i));
  else if (aux_dtype_is_complex(a->dtype)) {
    double re, im;
    if (a->dtype == KJIT_COMPLEX64) { float c[2]; memcpy(c, p, 8); re = c[0]; im = c[1]; }
    else { double c[2]; memcpy(c, p, 16); re = c[0]; im = c[1]; }
    snprintf(buf, len, "(%.6g%+.6gj)", re, im);
  } else snprintf(buf, len, "%.6g", aux_get_f64(a, i));
}

static void shape_text(const AuxView *a, char *buf, size_t len) {
  size_t n = 0;
  buf[0] = 0;
  for (int d = 0; d < a->ndim && n < len; d++)
    n += (size_t)snprintf(buf + n, len - n, d ? "x%" PRId64 : "%" PRId64, a->shape[d]);
}

/* The line of an array of numbers into buf[SUMMARY_MAX]. */
static void number_line(const AuxView *a, char *buf) {
  char shp[96], el[64], vals[400];
  int64_t n = aux_size(a);
  size_t vn = 0;
  shape_text(a, shp, sizeof shp);
  vals[0] = 0;
  for (int64_t i = 0; i < n && vn < sizeof vals - 80; i++) {
    if (n > 6 && i == 3) { vn += (size_t)snprintf(vals + vn, sizeof vals - vn, ", ..."); i = n - 2; continue; }
    format_elem(a, i, el, sizeof el);
    vn += (size_t)snprintf(vals + vn, sizeof vals - vn, "%s%s", i ? ", " : "", el);
  }
  double sum = aux_array_sum(a);
  uint32_t crc = array_crc(a);
  const char *dt = kjit_dtype_name(a->dtype);
  if (a->ndim == 0)
    snprintf(buf, SUMMARY_MAX, "%s[] %s sum=%.10g crc=%08" PRIx32, dt, vals, sum, crc);
  else
    snprintf(buf, SUMMARY_MAX, "%s[%s] [%s] sum=%.10g crc=%08" PRIx32, dt, shp, vals, sum, crc);
}

/* ---- records --------------------------------------------------------- */

/* Text grown by appending; on a failed allocation it stays NULL. */
typedef struct Text {
  char *s;
  size_t len;
} Text;

static void put(Text *t, const char *a, const char *b, const char *c) {
  size_t n = strlen(a) + strlen(b) + strlen(c);
  char *s = t->s ? realloc(t->s, t->len + n + 1) : NULL;
  if (!s) {
    free(t->s);
    t->s = NULL;
    return;
  }
  snprintf(s + t->len, n + 1, "%s%s%s", a, b, c);
  t->s = s;
  t->len += n;
}

static void record_fields(kjit_array *a, const char *prefix, Text *t);

/* "\n.x: float32[4] [...] sum=... crc=..." for field i of a; a nested
 * record gives one line per field of its own (".p.x"). */
static void field_lines(kjit_array *a, int i, const char *prefix, Text *t) {
  char name[300], line[SUMMARY_MAX];
  snprintf(name, sizeof name, "%s.%s", prefix, kjit_array_field_name(a, i));
  kjit_array *f;
  if (kjit_array_field(a, i, &f) != KJIT_OK) {
    snprintf(line, sizeof line, "(more than %d dimensions)", KJIT_MAX_NDIM);
    put(t, "\n", name, ": ");
    put(t, line, "", "");
    return;
  }
  AuxView v;
  if (kjit_array_dtype(f) == KJIT_RECORD)
    record_fields(f, name, t);
  else if (aux_view(f, &v)) {
    number_line(&v, line);
    put(t, "\n", name, ": ");
    put(t, line, "", "");
  }
  kjit_array_destroy(f);
}

static void record_fields(kjit_array *a, const char *prefix, Text *t) {
  for (int i = 0; i < kjit_array_field_count(a); i++)
    field_lines(a, i, prefix, t);
}

/* "record[4] itemsize=8 DESCR crc=..." then the field lines. */
static char *record_summary(kjit_array *a, const AuxView *v) {
  char shp[96], head[160];
  shape_text(v, shp, sizeof shp);
  uint32_t crc = 0;
  for (int64_t i = 0, n = aux_size(v); i < n; i++)
    crc = aux_crc32(crc, aux_elem(v, i), (size_t)v->itemsize);
  const char *descr = kjit_array_descr(a);
  Text t = {.s = malloc(1), .len = 0};
  if (t.s)
    t.s[0] = 0;
  snprintf(head, sizeof head, "] itemsize=%" PRId64 " ", v->itemsize);
  put(&t, "record[", shp, head);
  snprintf(head, sizeof head, " crc=%08" PRIx32, crc);
  put(&t, descr ? descr : "", head, "");
  record_fields(a, "", &t);
  if (t.s && t.len >= SUMMARY_MAX)     /* a record's text has one line's room */
    t.s[SUMMARY_MAX - 1] = 0;
  return t.s;
}

kjit_status kjitaux_array_summary(kjit_array *a, char **out) {
  AuxView v;
  if (!out || !aux_view(a, &v) || v.dtype == KJIT_DTYPE_INVALID)
    return KJIT_ERROR_INVALID_ARGUMENT;
  char line[SUMMARY_MAX];
  char *s = v.dtype == KJIT_RECORD ? record_summary(a, &v) : (number_line(&v, line), strdup(line));
  if (!s)
    return KJIT_ERROR_OUT_OF_MEMORY;
  *out = s;
  return KJIT_OK;
}
