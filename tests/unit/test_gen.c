/* test_gen.c - the `kjit run` VALUE specs of libkjitaux (auxlib/value.c:
 * generators, typed and bare scalars, .npy paths) and their error
 * messages, kjitaux_array_summary with its fast sum and CRC-32, plus the
 * library's dtype names and scalar conversions. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "auxlib/value_internal.h"
#include "auxlib/view_internal.h"
#include "kjitaux.h"
#include "data/array.h"
#include "check.h"

static kjit_context *ctx;

/* Parses text, expecting success; returns the value (free with drop). */
static kjit_arg ok(const char *text) {
  kjit_arg v;
  char err[1024] = "";
  if (aux_value_parse(ctx, text, &v, err, sizeof err) != 0) {
    fprintf(stderr, "unexpected error for '%s': %s\n", text, err);
    failures++;
  }
  return v;
}

static void drop(kjit_arg *v) { aux_arg_discard(v); }

static void bad(const char *text, const char *want) {
  kjit_arg v;
  char err[1024] = "";
  CHECK(aux_value_parse(ctx, text, &v, err, sizeof err) == -1);
  CHECK_STR(err, want);
}

/* The array of a parsed value. */
static AuxView arr(const kjit_arg *v) {
  AuxView a;
  memset(&a, 0, sizeof a);
  a.dtype = KJIT_DTYPE_INVALID;
  CHECK(v->kind == KJIT_ARG_ARRAY && aux_view(v->value.array, &a));
  return a;
}

static const char *summary_of(kjit_array *a) {
  static char buf[1024];
  char *s = NULL;
  CHECK(kjitaux_array_summary(a, &s) == KJIT_OK && s);
  snprintf(buf, sizeof buf, "%s", s ? s : "");
  kjit_free(s);
  return buf;
}

static const char *summary(const kjit_arg *v) { return summary_of(v->value.array); }

/* ---- dtypes ----------------------------------------------------------- */

static void test_dtypes(void) {
  static const struct { const char *name; RtDtype dt; } cases[] = {
    {"float32", RT_F32}, {"f32", RT_F32}, {"f4", RT_F32}, {"FLOAT32", RT_F32}, {"i64", RT_I64},
    {"int64", RT_I64}, {"u8", RT_U64}, {"uint8", RT_U8}, {"i8", RT_I64}, {"bool", RT_BOOL}, {"b1", RT_BOOL},
    {"f2", RT_F16}, {"float16", RT_F16}, {"f8", RT_F64}, {"c8", RT_C64}, {"complex128", RT_C128},
    {"u64", RT_U64}, {"i1", RT_I8}, {"u2", RT_U16}, {"u1", RT_U8}, {"<i8", RT_I64}, {"=f4", RT_F32},
    {"|b1", RT_BOOL}, {"<u8", RT_U64},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    RtDtype dt = RT_NDTYPES;
    CHECK(rt_dtype_parse(cases[i].name, strlen(cases[i].name), &dt) && dt == cases[i].dt);
  }
  RtDtype dt;
  CHECK(!rt_dtype_parse("flt32", 5, &dt) && !rt_dtype_parse("", 0, &dt) && !rt_dtype_parse("f", 1, &dt));
  /* NumPy reads these as other types (float128, complex256) or big-endian */
  CHECK(!rt_dtype_parse("f16", 3, &dt) && !rt_dtype_parse("c32", 3, &dt) && !rt_dtype_parse(">i8", 3, &dt));
  CHECK_STR(rt_dtype_name(RT_F32), "float32");
  CHECK(rt_dtype_size(RT_C128) == 16 && rt_dtype_size(RT_F16) == 2 && rt_dtype_size(RT_BOOL) == 1);
  /* binary16 */
  CHECK(rt_f32_to_f16(1.0f) == 0x3c00 && rt_f32_to_f16(-2.0f) == 0xc000 && rt_f32_to_f16(65504.0f) == 0x7bff);
  CHECK(rt_f32_to_f16(65520.0f) == 0x7c00 && rt_f32_to_f16(5.960464477539063e-08f) == 0x0001);
  CHECK(rt_f16_to_f32(0x3555) == 0.333251953125f && rt_f16_to_f32(0x0001) == 5.960464477539063e-08f);
  CHECK(isnan(rt_f16_to_f32(rt_f32_to_f16(NAN))));
  CHECK(aux_crc32(0, "123456789", 9) == 0xcbf43926u);
  CHECK(kjit_dtype_from_name("F4") == KJIT_FLOAT32 && kjit_dtype_from_name("u1") == KJIT_UINT8);
  CHECK(kjit_dtype_from_name("record") == KJIT_DTYPE_INVALID && kjit_dtype_from_name(NULL) == KJIT_DTYPE_INVALID);
  CHECK(aux_f32_to_f16(1.0f) == 0x3c00 && aux_f16_to_f32(0x3555) == 0.333251953125f);
}

/* ---- generators ------------------------------------------------------- */

static void test_generators(void) {
  kjit_arg v = ok("zeros:f32:10");
  AuxView a = arr(&v);
  CHECK(a.dtype == KJIT_FLOAT32 && a.ndim == 1 && a.shape[0] == 10);
  CHECK_STR(summary(&v), "float32[10] [0, 0, 0, ..., 0] sum=0 crc=e9ec3db1");
  drop(&v);
  v = ok("zeros:float64:2x3x4x5");
  a = arr(&v);
  CHECK(a.ndim == 4 && a.shape[3] == 5 && aux_size(&a) == 120);
  drop(&v);
  v = ok("zeros:i32:0");
  a = arr(&v);
  CHECK(aux_size(&a) == 0);
  CHECK_STR(summary(&v), "int32[0] [] sum=0 crc=00000000");
  drop(&v);

  v = ok("arange:i32:10");
  CHECK_STR(summary(&v), "int32[10] [0, 1, 2, ..., 9] sum=45 crc=8def7902");
  drop(&v);
  v = ok("arange:f32:2x3");
  CHECK_STR(summary(&v), "float32[2x3] [0, 1, 2, 3, 4, 5] sum=15 crc=91e79017");
  drop(&v);
  v = ok("arange:u1:300");
  a = arr(&v);
  CHECK(aux_get_i64(&a, 299) == 43);   /* wraps like astype */
  drop(&v);

  v = ok("full:i16:3x2:-7");
  a = arr(&v);
  CHECK(a.dtype == KJIT_INT16 && aux_get_i64(&a, 5) == -7);
  drop(&v);
  v = ok("full:f32:3:2.5");
  CHECK(((float *)arr(&v).data)[2] == 2.5f);
  drop(&v);
  v = ok("full:bool:2:True");
  CHECK_STR(summary(&v), "bool[2] [True, True] sum=2 crc=2fc51328");
  drop(&v);
  v = ok("full:c64:2:1-2j");
  a = arr(&v);
  CHECK(((float *)a.data)[2] == 1.0f && ((float *)a.data)[3] == -2.0f);
  CHECK(strncmp(summary(&v), "complex64[2] [(1-2j), (1-2j)] sum=2 ", 36) == 0);
  drop(&v);
}

/* rand and randint of a named argument: the seed mixed with the name, so
 * two arguments differ; the same name and seed give the same values. */
static void test_named_seeds(void) {
  kjit_arg x, y, x2, x7, un;
  CHECK(kjitaux_arg_parse(ctx, "rand:f32:1000", "x", &x) == KJIT_OK);
  CHECK(kjitaux_arg_parse(ctx, "rand:f32:1000", "y", &y) == KJIT_OK);
  CHECK(kjitaux_arg_parse(ctx, "rand:f32:1000", "x", &x2) == KJIT_OK);
  CHECK(kjitaux_arg_parse(ctx, "rand:f32:1000:7", "x", &x7) == KJIT_OK);
  CHECK(kjitaux_arg_parse(ctx, "rand:f32:1000", NULL, &un) == KJIT_OK);
  CHECK(memcmp(arr(&x).data, arr(&y).data, 4000) != 0);
  CHECK(memcmp(arr(&x).data, arr(&x2).data, 4000) == 0);
  CHECK(memcmp(arr(&x).data, arr(&x7).data, 4000) != 0);
  CHECK(memcmp(arr(&x).data, arr(&un).data, 4000) != 0);
  CHECK(((float *)arr(&un).data)[0] == 0.8833107948303223f); /* unnamed: splitmix64(0) */
  kjit_arg a, b;
  CHECK(kjitaux_arg_parse(ctx, "randint:i64:1000:0:1000000", "a", &a) == KJIT_OK);
  CHECK(kjitaux_arg_parse(ctx, "randint:i64:1000:0:1000000", "b", &b) == KJIT_OK);
  CHECK(memcmp(arr(&a).data, arr(&b).data, 8000) != 0);
  drop(&x), drop(&y), drop(&x2), drop(&x7), drop(&un), drop(&a), drop(&b);
}

static void test_random(void) {
  kjit_arg a = ok("rand:f64:1"), b = ok("rand:f32:1:0");
  CHECK(((double *)arr(&a).data)[0] == 0.8833108082136426);   /* splitmix64(0) */
  CHECK(((float *)arr(&b).data)[0] == 0.8833107948303223f);
  drop(&a);
  drop(&b);
  a = ok("rand:f32:100000:7");
  b = ok("rand:f32:100000:7");
  kjit_arg c = ok("rand:f32:100000:8");
  AuxView av = arr(&a);
  CHECK(memcmp(av.data, arr(&b).data, 400000) == 0);
  CHECK(memcmp(av.data, arr(&c).data, 400000) != 0);
  double sum = 0, lo = 1, hi = 0;
  for (int i = 0; i < 100000; i++) {
    double x = aux_get_f64(&av, i);
    sum += x;
    lo = fmin(lo, x);
    hi = fmax(hi, x);
  }
  CHECK(lo >= 0 && hi < 1 && fabs(sum / 100000 - 0.5) < 0.01);
  drop(&a);
  drop(&b);
  drop(&c);
  a = ok("rand:i32:10000");
  av = arr(&a);
  int64_t mn = 100, mx = -1;
  for (int i = 0; i < 10000; i++) {
    int64_t x = aux_get_i64(&av, i);
    mn = x < mn ? x : mn;
    mx = x > mx ? x : mx;
  }
  CHECK(mn == 0 && mx == 99);
  drop(&a);
  a = ok("randint:i64:10000:-5:5:3");
  av = arr(&a);
  mn = 100, mx = -100;
  for (int i = 0; i < 10000; i++) {
    int64_t x = aux_get_i64(&av, i);
    mn = x < mn ? x : mn;
    mx = x > mx ? x : mx;
  }
  CHECK(mn == -5 && mx == 4);
  drop(&a);
  a = ok("randint:u1:4x4:0:256");
  av = arr(&a);
  CHECK(av.dtype == KJIT_UINT8 && av.ndim == 2);
  drop(&a);
  a = ok("rand:c128:3");
  CHECK(arr(&a).dtype == KJIT_COMPLEX128);
  drop(&a);
}

/* ---- scalars ---------------------------------------------------------- */

/* A scalar argument's kind and dtype, and its value bits. */
static bool is_scalar(const kjit_arg *v, kjit_dtype dt) {
  return v->kind == KJIT_ARG_SCALAR && v->dtype == dt;
}

static void test_scalars(void) {
  kjit_arg v = ok("3");
  CHECK(v.kind == KJIT_ARG_INT64 && v.value.i64 == 3);
  v = ok("-2");
  CHECK(v.kind == KJIT_ARG_INT64 && v.value.i64 == -2);
  v = ok("0x10");
  CHECK(v.kind == KJIT_ARG_INT64 && v.value.i64 == 16);
  v = ok("0b101");
  CHECK(v.value.i64 == 5);
  v = ok("1_000_000");
  CHECK(v.value.i64 == 1000000);
  v = ok("-9223372036854775808");
  CHECK(v.value.i64 == INT64_MIN);
  v = ok("012");
  CHECK(v.kind == KJIT_ARG_INT64 && v.value.i64 == 12);   /* as int("012") */
  v = ok("1e3");
  CHECK(v.kind == KJIT_ARG_FLOAT64 && v.value.f64 == 1000.0);
  v = ok("2.5");
  CHECK(v.kind == KJIT_ARG_FLOAT64 && v.value.f64 == 2.5);
  v = ok("inf");
  CHECK(v.kind == KJIT_ARG_FLOAT64 && isinf(v.value.f64) && v.value.f64 > 0);
  v = ok("-inf");
  CHECK(isinf(v.value.f64) && v.value.f64 < 0);
  v = ok("nan");
  CHECK(v.kind == KJIT_ARG_FLOAT64 && isnan(v.value.f64));
  float f;
  v = ok("float32:2.5");
  memcpy(&f, v.value.bits, 4);
  CHECK(is_scalar(&v, KJIT_FLOAT32) && f == 2.5f);
  uint16_t h;
  v = ok("f2:1.5");
  memcpy(&h, v.value.bits, 2);
  CHECK(is_scalar(&v, KJIT_FLOAT16) && h == 0x3e00);
  uint64_t u;
  v = ok("u64:18446744073709551615");
  memcpy(&u, v.value.bits, 8);
  CHECK(is_scalar(&v, KJIT_UINT64) && u == UINT64_MAX);
  v = ok("i1:-128");
  CHECK(is_scalar(&v, KJIT_INT8) && (int8_t)v.value.bits[0] == -128);
  v = ok("uint16:0xffff");
  memcpy(&h, v.value.bits, 2);
  CHECK(h == 0xffff);
  v = ok("bool:True");
  CHECK(is_scalar(&v, KJIT_BOOL) && v.value.bits[0] == 1);
  double c[2];
  v = ok("c128:(1-2j)");
  memcpy(c, v.value.bits, 16);
  CHECK(is_scalar(&v, KJIT_COMPLEX128) && c[0] == 1 && c[1] == -2);
  v = ok("float64:7");                  /* int64 and float64: Python's kinds */
  CHECK(v.kind == KJIT_ARG_FLOAT64 && v.value.f64 == 7.0);
  v = ok("int64:-7");
  CHECK(v.kind == KJIT_ARG_INT64 && v.value.i64 == -7);
  char buf[64];
  RtScalar sc = {.dtype = RT_I32};
  v = ok("int32:-5");
  memcpy(sc.v.bytes, v.value.bits, 4);
  rt_scalar_format(&sc, buf, sizeof buf);
  CHECK_STR(buf, "int32 -5");
}

/* ---- .npy paths ------------------------------------------------------- */

static void test_npy_path(void) {
  char dir[] = "/tmp/kjit_gen_XXXXXX", path[64];
  if (!mkdtemp(dir)) return;
  snprintf(path, sizeof path, "%s/x.npy", dir);
  kjit_arg v = ok("arange:i64:2x2");
  CHECK(kjit_array_save_npy(v.value.array, path) == KJIT_OK);
  drop(&v);
  v = ok(path);
  AuxView a = arr(&v);
  CHECK(a.dtype == KJIT_INT64 && aux_get_i64(&a, 3) == 3);
  drop(&v);
  unlink(path);
  char want[600];
  snprintf(want, sizeof want, "%s: cannot open: No such file or directory", path);
  bad(path, want);
  rmdir(dir);
}

/* ---- errors ----------------------------------------------------------- */

static void test_errors(void) {
  bad("zeros:flt32:10",
      "unknown dtype 'flt32' in 'zeros:flt32:10'; known: bool, int8, int16, int32, int64, uint8, uint16, uint32, "
      "uint64, float16, float32, float64, complex64, complex128 "
      "(NumPy's codes, in bytes, with or without '<': b1, i1, i2, i4, i8, u1, u2, u4, u8, f2, f4, f8, c8, c16; in bits: i16, i32, i64, u16, u32, u64, f32, f64, c64, c128)");
  bad("zeros:f32:10x",
      "shape '10x' in 'zeros:f32:10x' is malformed; expected N or up to 8 extents joined by x (e.g. 1000, 64x64, 2x3x4)");
  bad("zeros:f32:",
      "shape '' in 'zeros:f32:' is malformed; expected N or up to 8 extents joined by x (e.g. 1000, 64x64, 2x3x4)");
  bad("zeros:f32:-3",
      "shape '-3' in 'zeros:f32:-3' is malformed; expected N or up to 8 extents joined by x (e.g. 1000, 64x64, 2x3x4)");
  bad("zeros:f32:1x2x3x4x5x1x1x1x1", "shape '1x2x3x4x5x1x1x1x1' in 'zeros:f32:1x2x3x4x5x1x1x1x1' is over 8 dimensions "
                                     "(kjit arrays have at most 8); expected N or up to 8 extents joined by x (e.g. 1000, 64x64, 2x3x4)");
  bad("zeros:f32:99999999999x99999999999",
      "shape '99999999999x99999999999' in 'zeros:f32:99999999999x99999999999' is too large; expected N or up to 8 "
      "extents joined by x (e.g. 1000, 64x64, 2x3x4)");
  bad("zeros:f32", "'zeros:f32' has 2 fields; expected zeros:DTYPE:SHAPE");
  bad("full:f32:10", "'full:f32:10' has 3 fields; expected full:DTYPE:SHAPE:V");
  bad("full:i32:4:3.5", "value '3.5' in 'full:i32:4:3.5' is not an integer (int32 needs one, e.g. 3, -2, 0x10)");
  bad("full:int8:4:300", "value '300' in 'full:int8:4:300' is out of range for int8");
  bad("full:f32:4:abc", "value 'abc' in 'full:f32:4:abc' is not a number (e.g. 2.5, -1e3, inf, nan)");
  bad("full:bool:4:yes", "value 'yes' in 'full:bool:4:yes' is not a bool; use True, False, 1 or 0");
  bad("rand:f32:10:x", "seed 'x' in 'rand:f32:10:x' is not an integer");
  bad("rand:f32:10:1:2", "'rand:f32:10:1:2' has 5 fields; expected rand:DTYPE:SHAPE[:SEED]");
  bad("randint:i32:10:5:5", "randint needs LO < HI (HI is exclusive), got LO=5 HI=5 in 'randint:i32:10:5:5'");
  bad("randint:u1:10:0:257", "randint range [0, 257) in 'randint:u1:10:0:257' does not fit uint8");
  bad("randint:i32:10:0", "'randint:i32:10:0' has 4 fields; expected randint:DTYPE:SHAPE:LO:HI[:SEED]");
  bad("randint:i32:10:a:5", "LO 'a' in 'randint:i32:10:a:5' is not an integer");
  bad("f32:", "value '' in 'f32:' is not a number (e.g. 2.5, -1e3, inf, nan)");
  bad("f32:1:2", "'f32:1:2' has 3 fields; a typed scalar is DTYPE:V (e.g. float32:2.5)");
  bad("u1:-1", "value '-1' in 'u1:-1' is out of range for uint8");
  bad("u8:-1", "value '-1' in 'u8:-1' is out of range for uint64"); /* u8 is NumPy's uint64 */
  bad("zeros:f16:4", "dtype 'f16' in 'zeros:f16:4': 'f16' is float128 in NumPy (16 bytes); float16 is f2 or "
      "float16");
  bad("f16:1.5", "dtype 'f16' in 'f16:1.5': 'f16' is float128 in NumPy (16 bytes); float16 is f2 or float16");
  bad("foo:1",
      "unknown generator or dtype 'foo' in 'foo:1'; generators: zeros, full, rand, randint, arange, xoroshiro; dtypes: bool, "
      "int8, int16, int32, int64, uint8, uint16, uint32, uint64, float16, float32, float64, complex64, complex128 "
      "(NumPy's codes, in bytes, with or without '<': b1, i1, i2, i4, i8, u1, u2, u4, u8, f2, f4, f8, c8, c16; in bits: i16, i32, i64, u16, u32, u64, f32, f64, c64, c128)");
  bad("", "empty value; expected PATH.npy, a generator such as rand:f32:1000, DTYPE:V or a number");
  bad("9223372036854775808",
      "integer '9223372036854775808' does not fit int64; write it as uint64:9223372036854775808 or as a float "
      "(9223372036854775808.0)");
  bad("12abc", "cannot understand the value '12abc'; expected PATH.npy, zeros:DTYPE:SHAPE, full:DTYPE:SHAPE:V, "
             "rand:DTYPE:SHAPE[:SEED], randint:DTYPE:SHAPE:LO:HI[:SEED], arange:DTYPE:SHAPE, xoroshiro:N:SEED[:SUBSEQ], DTYPE:V or a number");
  bad("0x1p3", "cannot understand the value '0x1p3'; expected PATH.npy, zeros:DTYPE:SHAPE, full:DTYPE:SHAPE:V, "
               "rand:DTYPE:SHAPE[:SEED], randint:DTYPE:SHAPE:LO:HI[:SEED], arange:DTYPE:SHAPE, xoroshiro:N:SEED[:SUBSEQ], DTYPE:V or a number");
  bad("a:b:c:d:e:f:g:h", "'a:b:c:d:e:f:g:h' has too many ':' fields");
}

/* Summaries follow strides: a Fortran view prints in C order. */
static void test_summary_strided(void) {
  kjit_arg v = ok("arange:f32:2x3");
  float *d = kjit_array_data(v.value.array);
  float f[6] = {0, 3, 1, 4, 2, 5};   /* the same matrix, column-major */
  memcpy(d, f, sizeof f);
  int64_t shape[2] = {2, 3}, strides[2] = {4, 8};
  kjit_array *w;
  CHECK(kjit_array_wrap(ctx, KJIT_FLOAT32, 2, shape, strides, d, &w) == KJIT_OK);
  CHECK_STR(summary_of(w), "float32[2x3] [0, 1, 2, 3, 4, 5] sum=15 crc=91e79017");
  kjit_array_destroy(w);
  drop(&v);
  kjit_array *z;
  CHECK(kjit_array_create(ctx, KJIT_FLOAT64, 0, NULL, &z) == KJIT_OK);
  *(double *)kjit_array_data(z) = 3.5;
  CHECK(strncmp(summary_of(z), "float64[] 3.5 sum=3.5 crc=", 26) == 0);
  kjit_array_destroy(z);
  CHECK(kjitaux_array_summary(NULL, (char **)&d) == KJIT_ERROR_INVALID_ARGUMENT);
}

/* rt_scalar_convert: the kernel-argument conversions of both targets. */
static void test_scalar_convert(void) {
  RtScalar i = {.dtype = RT_I64}, f = {.dtype = RT_F32}, z = {.dtype = RT_C128}, r;
  i.v.i64 = -3;
  f.v.f32 = 2.75f;
  z.v.c128[0] = 1.5, z.v.c128[1] = -2.0;
  rt_scalar_convert(&i, RT_C64, &r);        /* int -> complex: imaginary 0 */
  CHECK(r.dtype == RT_C64 && r.v.c64[0] == -3.0f && r.v.c64[1] == 0.0f);
  rt_scalar_convert(&f, RT_C128, &r);       /* float32 -> complex128 */
  CHECK(r.v.c128[0] == 2.75 && r.v.c128[1] == 0.0);
  rt_scalar_convert(&z, RT_C64, &r);        /* complex128 -> complex64 */
  CHECK(r.v.c64[0] == 1.5f && r.v.c64[1] == -2.0f);
  rt_scalar_convert(&z, RT_F64, &r);        /* complex -> real part */
  CHECK(r.dtype == RT_F64 && r.v.f64 == 1.5);
  rt_scalar_convert(&f, RT_I32, &r);        /* float -> int truncates */
  CHECK(r.v.i32 == 2);
  i.v.i64 = 300;
  rt_scalar_convert(&i, RT_U8, &r);         /* int -> narrower int wraps */
  CHECK(r.v.u8 == 44);
  rt_scalar_convert(&i, RT_I64, &i);        /* in place */
  CHECK(i.dtype == RT_I64 && i.v.i64 == 300);
}

/* ---- fast summaries: the same bits as the plain loops ------------------ */

/* The definition of the summary's sum: s += x in C order, in double. */
static double plain_sum(const AuxView *a) {
  double s = 0;
  for (int64_t i = 0; i < aux_size(a); i++) s += aux_get_f64(a, i);
  return s;
}

static void check_sum(const AuxView *a, const char *what) {
  double want = plain_sum(a), got = aux_array_sum(a);
  if (memcmp(&want, &got, sizeof want) != 0) {
    fprintf(stderr, "sum of %s: got %.17g, want %.17g\n", what, got, want);
    failures++;
  }
}

/* A 1-d array of n elements of dt holding f64 values vals[i % nv], in
 * malloc'd memory (free a.data). */
static AuxView filled(kjit_dtype dt, int64_t n, const double *vals, int nv) {
  AuxView a = {.dtype = dt, .ndim = 1, .shape = {n}, .itemsize = (int64_t)kjit_dtype_size(dt)};
  a.strides[0] = a.itemsize;
  a.data = malloc((size_t)(n ? n : 1) * (size_t)a.itemsize);
  for (int64_t i = 0; i < n; i++) aux_store_f64(aux_elem(&a, i), dt, vals[i % nv]);
  return a;
}

static void test_fast_sum(void) {
  static const double easy[] = {0, 1, 2.5, -3, 1e6, 0.125};            /* exact path */
  static const double spread[] = {1e16, 1, -1e16, 3.5, 0.1};           /* must round */
  static const double odd[] = {1, NAN, 2};
  static const double infs[] = {1, INFINITY, -2};
  static const double zeros[] = {-0.0};
  static const double tiny[] = {1e-300, 5e-324, -3e-310, 0};
  static const double huge[] = {1e308, 1e308, -1e308};
  static const struct { const double *v; int n; } sets[] = {
    {easy, 6}, {spread, 5}, {odd, 3}, {infs, 3}, {zeros, 1}, {tiny, 4}, {huge, 3},
  };
  static const kjit_dtype dts[] = {KJIT_FLOAT32, KJIT_FLOAT64, KJIT_FLOAT16, KJIT_INT32, KJIT_INT64,
                                   KJIT_UINT8, KJIT_BOOL, KJIT_COMPLEX64, KJIT_COMPLEX128};
  static const int64_t lens[] = {0, 1, 3, 7, 8, 9, 17, 1000, 100003};
  for (size_t s = 0; s < sizeof sets / sizeof sets[0]; s++)
    for (size_t d = 0; d < sizeof dts / sizeof dts[0]; d++)
      for (size_t l = 0; l < sizeof lens / sizeof lens[0]; l++) {
        if (aux_dtype_is_int(dts[d]) && s > 1) continue;   /* NaN/inf do not convert */
        AuxView a = filled(dts[d], lens[l], sets[s].v, sets[s].n);
        char what[64];
        snprintf(what, sizeof what, "set %zu, %s[%lld]", s, kjit_dtype_name(dts[d]), (long long)lens[l]);
        check_sum(&a, what);
        free(a.data);
      }
  kjit_arg v = ok("rand:f32:300001:3");                   /* exact path */
  AuxView a = arr(&v);
  check_sum(&a, "rand f32");
  drop(&v);
  v = ok("rand:f64:300001:3");                            /* 53-bit values: rounds */
  a = arr(&v);
  check_sum(&a, "rand f64");
  drop(&v);
  v = ok("arange:i64:300001");
  a = arr(&v);
  check_sum(&a, "arange i64");
  drop(&v);
  /* A strided view: every other column of a 301x257 float32 array. */
  v = ok("rand:f32:301x257:5");
  a = arr(&v);
  a.shape[1] = 128;
  a.strides[1] *= 2;
  check_sum(&a, "strided f32");
  drop(&v);
}

static void test_fast_crc(void) {
  unsigned char buf[400];
  for (size_t i = 0; i < sizeof buf; i++) buf[i] = (unsigned char)(i * 131 + 7);
  for (size_t off = 0; off < 4; off++)
    for (size_t n = 0; n + off <= 300; n++)
      CHECK(aux_crc32(0x1234u, buf + off, n) == aux_crc32_portable(0x1234u, buf + off, n));
  CHECK(aux_crc32_portable(0, "123456789", 9) == 0xcbf43926u);
}

int main(void) {
  if (kjit_context_create(NULL, &ctx) != KJIT_OK) return 1;
  test_scalar_convert();
  test_dtypes();
  test_generators();
  test_random();
  test_named_seeds();
  test_scalars();
  test_npy_path();
  test_errors();
  test_summary_strided();
  test_fast_sum();
  test_fast_crc();
  kjit_context_destroy(ctx);
  if (failures) fprintf(stderr, "%d check(s) failed\n", failures);
  else printf("test_gen: all passed\n");
  return failures ? 1 : 0;
}
