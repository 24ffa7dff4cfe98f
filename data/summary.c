/* summary.c - the one-line array summaries of `kjit run` and
 * kjit_array_summary: a few values, the sum and the CRC-32.
 *
 * The sum is defined as a sequential loop (s += x in C order, in double),
 * whose 4-cycle dependency chain made it the slowest part of a run.  It is
 * computed exactly the same, faster: when every element is a multiple of
 * 2^G and n * max|x| < 2^(51+G), every partial sum, in any order, is a
 * multiple of 2^G below 2^(53+G) in magnitude, so no addition rounds and
 * four independent accumulators give the sequential loop's bits.  Other
 * arrays (NaN, inf, values spanning too many binades) take the sequential
 * loop.  Arrays are walked row by row (rt_array_rows), never element by
 * element through their strides. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "data/array.h"

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
#define HALF_DOUBLE(v) ((double)rt_f16_to_f32(v))

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
static const SumOps *const sum_ops[RT_NDTYPES] = {
  [RT_BOOL] = &sum_b_ops, [RT_I8] = &sum_i8_ops, [RT_I16] = &sum_i16_ops,
  [RT_I32] = &sum_i32_ops, [RT_I64] = &sum_i64_ops, [RT_U8] = &sum_u8_ops,
  [RT_U16] = &sum_u16_ops, [RT_U32] = &sum_u32_ops, [RT_U64] = &sum_u64_ops,
  [RT_F16] = &sum_f16_ops, [RT_F32] = &sum_f32_ops, [RT_F64] = &sum_f64_ops,
  [RT_C64] = &sum_f32_ops, [RT_C128] = &sum_f64_ops,
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

double rt_array_sum(const RtArray *a) {
  if ((unsigned)a->dtype >= RT_NDTYPES) return 0;
  SumWalk w = {.ops = sum_ops[a->dtype], .ok = true};
  rt_array_rows(a, row_amax, &w);
  w.c = exact_constant(w.amax, rt_array_size(a));
  if (w.c > 0) {
    rt_array_rows(a, row_fast, &w);
    if (w.ok) return 0.0 + ((w.acc[0] + w.acc[1]) + (w.acc[2] + w.acc[3]));
  }
  rt_array_rows(a, row_seq, &w);
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
    w->crc = rt_crc32(w->crc, p, (size_t)n * w->es);
    return;
  }
  char buf[4096];
  size_t used = 0;
  for (int64_t i = 0; i < n; i++) {
    memcpy(buf + used, p + i * st, w->es);
    used += w->es;
    if (used + w->es > sizeof buf || i + 1 == n) {
      w->crc = rt_crc32(w->crc, buf, used);
      used = 0;
    }
  }
}

static uint32_t array_crc(const RtArray *a) {
  CrcWalk w = {.crc = 0, .es = rt_dtype_size(a->dtype)};
  rt_array_rows(a, row_crc, &w);
  return w.crc;
}

/* ---- the line -------------------------------------------------------- */

/* Formats element i as NumPy would print it (roughly): ints exact, floats %g,
 * complex (re+imj), bool True/False. */
void rt_array_format_elem(const RtArray *a, int64_t i, char *buf, size_t len) {
  const void *p = rt_array_elem(a, i);
  if (a->dtype == RT_BOOL) snprintf(buf, len, "%s", *(const uint8_t *)p ? "True" : "False");
  else if (a->dtype == RT_U64) { uint64_t v; memcpy(&v, p, 8); snprintf(buf, len, "%" PRIu64, v); }
  else if (rt_dtype_is_int(a->dtype)) snprintf(buf, len, "%" PRId64, rt_array_get_i64(a, i));
  else if (rt_dtype_is_complex(a->dtype)) {
    double re, im;
    if (a->dtype == RT_C64) { float c[2]; memcpy(c, p, 8); re = c[0]; im = c[1]; }
    else { double c[2]; memcpy(c, p, 16); re = c[0]; im = c[1]; }
    snprintf(buf, len, "(%.6g%+.6gj)", re, im);
  } else snprintf(buf, len, "%.6g", rt_array_get_f64(a, i));
}

static void shape_text(const RtArray *a, char *buf, size_t len) {
  size_t n = 0;
  buf[0] = 0;
  for (int d = 0; d < a->ndim && n < len; d++)
    n += (size_t)snprintf(buf + n, len - n, d ? "x%" PRId64 : "%" PRId64, a->shape[d]);
}

size_t rt_array_summary(const RtArray *a, char *buf, size_t len) {
  if (a->dtype == RT_RECORD && a->rec) /* one line per field (data/record.c) */
    return rt_record_summary(a, buf, len);
  char shp[96], el[64], vals[400];
  int64_t n = rt_array_size(a);
  size_t vn = 0;
  shape_text(a, shp, sizeof shp);
  vals[0] = 0;
  for (int64_t i = 0; i < n && vn < sizeof vals - 80; i++) {
    if (n > 6 && i == 3) { vn += (size_t)snprintf(vals + vn, sizeof vals - vn, ", ..."); i = n - 2; continue; }
    rt_array_format_elem(a, i, el, sizeof el);
    vn += (size_t)snprintf(vals + vn, sizeof vals - vn, "%s%s", i ? ", " : "", el);
  }
  double sum = rt_array_sum(a);
  uint32_t crc = array_crc(a);
  char tmp[RT_SUMMARY_MAX];
  int w = a->ndim == 0
      ? snprintf(tmp, sizeof tmp, "%s[] %s sum=%.10g crc=%08" PRIx32, rt_dtype_name(a->dtype), vals, sum, crc)
      : snprintf(tmp, sizeof tmp, "%s[%s] [%s] sum=%.10g crc=%08" PRIx32, rt_dtype_name(a->dtype), shp, vals, sum, crc);
  if (len) snprintf(buf, len, "%s", tmp);
  return w < 0 ? 0 : (size_t)w;
}
