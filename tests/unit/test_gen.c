/* test_gen.c - the `kjit run` VALUE specs of runtime/gen.c (generators,
 * typed and bare scalars, .npy paths) and their error messages, plus
 * dtype names and rt_array_summary. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime/array.h"
#include "runtime/npy.h"
#include "check.h"

/* Parses text, expecting success; returns the value (caller frees). */
static RtValue ok(const char *text) {
  RtValue v;
  char err[1024] = "";
  if (rt_value_parse(text, &v, err, sizeof err) != 0) {
    fprintf(stderr, "unexpected error for '%s': %s\n", text, err);
    failures++;
  }
  return v;
}

static void bad(const char *text, const char *want) {
  RtValue v;
  char err[1024] = "";
  CHECK(rt_value_parse(text, &v, err, sizeof err) == -1);
  CHECK(!v.is_array && v.array.data == NULL);
  CHECK_STR(err, want);
}

static const char *summary(const RtArray *a) {
  static char buf[512];
  rt_array_summary(a, buf, sizeof buf);
  return buf;
}

/* ---- dtypes ----------------------------------------------------------- */

static void test_dtypes(void) {
  static const struct { const char *name; RtDtype dt; } cases[] = {
    {"float32", RT_F32}, {"f32", RT_F32}, {"f4", RT_F32}, {"FLOAT32", RT_F32}, {"i64", RT_I64},
    {"int64", RT_I64}, {"u8", RT_U8}, {"uint8", RT_U8}, {"i8", RT_I8}, {"bool", RT_BOOL}, {"b1", RT_BOOL},
    {"f2", RT_F16}, {"float16", RT_F16}, {"f8", RT_F64}, {"c8", RT_C64}, {"complex128", RT_C128},
    {"u64", RT_U64}, {"i1", RT_I8}, {"u2", RT_U16},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    RtDtype dt = RT_NDTYPES;
    CHECK(rt_dtype_parse(cases[i].name, strlen(cases[i].name), &dt) && dt == cases[i].dt);
  }
  RtDtype dt;
  CHECK(!rt_dtype_parse("flt32", 5, &dt) && !rt_dtype_parse("", 0, &dt) && !rt_dtype_parse("f", 1, &dt));
  CHECK_STR(rt_dtype_name(RT_F32), "float32");
  CHECK(rt_dtype_size(RT_C128) == 16 && rt_dtype_size(RT_F16) == 2 && rt_dtype_size(RT_BOOL) == 1);
  /* binary16 */
  CHECK(rt_f32_to_f16(1.0f) == 0x3c00 && rt_f32_to_f16(-2.0f) == 0xc000 && rt_f32_to_f16(65504.0f) == 0x7bff);
  CHECK(rt_f32_to_f16(65520.0f) == 0x7c00 && rt_f32_to_f16(5.960464477539063e-08f) == 0x0001);
  CHECK(rt_f16_to_f32(0x3555) == 0.333251953125f && rt_f16_to_f32(0x0001) == 5.960464477539063e-08f);
  CHECK(isnan(rt_f16_to_f32(rt_f32_to_f16(NAN))));
  CHECK(rt_crc32(0, "123456789", 9) == 0xcbf43926u);
}

/* ---- generators ------------------------------------------------------- */

static void test_generators(void) {
  RtValue v = ok("zeros:f32:10");
  CHECK(v.is_array && v.array.dtype == RT_F32 && v.array.ndim == 1 && v.array.shape[0] == 10);
  CHECK_STR(summary(&v.array), "float32[10] [0, 0, 0, ..., 0] sum=0 crc=e9ec3db1");
  rt_value_free(&v);
  v = ok("zeros:float64:2x3x4x5");
  CHECK(v.array.ndim == 4 && v.array.shape[3] == 5 && rt_array_size(&v.array) == 120);
  rt_value_free(&v);
  v = ok("zeros:i32:0");
  CHECK(v.is_array && rt_array_size(&v.array) == 0 && v.array.data != NULL);
  CHECK_STR(summary(&v.array), "int32[0] [] sum=0 crc=00000000");
  rt_value_free(&v);

  v = ok("arange:i32:10");
  CHECK_STR(summary(&v.array), "int32[10] [0, 1, 2, ..., 9] sum=45 crc=8def7902");
  rt_value_free(&v);
  v = ok("arange:f32:2x3");
  CHECK_STR(summary(&v.array), "float32[2x3] [0, 1, 2, 3, 4, 5] sum=15 crc=91e79017");
  rt_value_free(&v);
  v = ok("arange:u8:300");
  CHECK(rt_array_get_i64(&v.array, 299) == 43);   /* wraps like astype */
  rt_value_free(&v);

  v = ok("full:i16:3x2:-7");
  CHECK(v.array.dtype == RT_I16 && rt_array_get_i64(&v.array, 5) == -7);
  rt_value_free(&v);
  v = ok("full:f32:3:2.5");
  CHECK(((float *)v.array.data)[2] == 2.5f);
  rt_value_free(&v);
  v = ok("full:bool:2:True");
  CHECK_STR(summary(&v.array), "bool[2] [True, True] sum=2 crc=2fc51328");
  rt_value_free(&v);
  v = ok("full:c64:2:1-2j");
  CHECK(((float *)v.array.data)[2] == 1.0f && ((float *)v.array.data)[3] == -2.0f);
  CHECK(strncmp(summary(&v.array), "complex64[2] [(1-2j), (1-2j)] sum=2 ", 36) == 0);
  rt_value_free(&v);
}

static void test_random(void) {
  RtValue a = ok("rand:f64:1"), b = ok("rand:f32:1:0");
  CHECK(((double *)a.array.data)[0] == 0.8833108082136426);   /* splitmix64(0) */
  CHECK(((float *)b.array.data)[0] == 0.8833107948303223f);
  rt_value_free(&a);
  rt_value_free(&b);
  a = ok("rand:f32:100000:7");
  b = ok("rand:f32:100000:7");
  RtValue c = ok("rand:f32:100000:8");
  CHECK(memcmp(a.array.data, b.array.data, a.array.nbytes) == 0);
  CHECK(memcmp(a.array.data, c.array.data, a.array.nbytes) != 0);
  double sum = 0, lo = 1, hi = 0;
  for (int i = 0; i < 100000; i++) {
    double x = rt_array_get_f64(&a.array, i);
    sum += x;
    lo = fmin(lo, x);
    hi = fmax(hi, x);
  }
  CHECK(lo >= 0 && hi < 1 && fabs(sum / 100000 - 0.5) < 0.01);
  rt_value_free(&a);
  rt_value_free(&b);
  rt_value_free(&c);
  a = ok("rand:i32:10000");
  int64_t mn = 100, mx = -1;
  for (int i = 0; i < 10000; i++) {
    int64_t x = rt_array_get_i64(&a.array, i);
    mn = x < mn ? x : mn;
    mx = x > mx ? x : mx;
  }
  CHECK(mn == 0 && mx == 99);
  rt_value_free(&a);
  a = ok("randint:i64:10000:-5:5:3");
  mn = 100, mx = -100;
  for (int i = 0; i < 10000; i++) {
    int64_t x = rt_array_get_i64(&a.array, i);
    mn = x < mn ? x : mn;
    mx = x > mx ? x : mx;
  }
  CHECK(mn == -5 && mx == 4);
  rt_value_free(&a);
  a = ok("randint:u8:4x4:0:256");
  CHECK(a.array.dtype == RT_U8 && a.array.ndim == 2);
  rt_value_free(&a);
  a = ok("rand:c128:3");
  CHECK(a.array.dtype == RT_C128);
  rt_value_free(&a);
}

/* ---- scalars ---------------------------------------------------------- */

static void test_scalars(void) {
  RtValue v = ok("3");
  CHECK(!v.is_array && v.scalar.dtype == RT_I64 && v.scalar.v.i64 == 3);
  v = ok("-2");
  CHECK(v.scalar.dtype == RT_I64 && v.scalar.v.i64 == -2);
  v = ok("0x10");
  CHECK(v.scalar.dtype == RT_I64 && v.scalar.v.i64 == 16);
  v = ok("0b101");
  CHECK(v.scalar.v.i64 == 5);
  v = ok("1_000_000");
  CHECK(v.scalar.v.i64 == 1000000);
  v = ok("-9223372036854775808");
  CHECK(v.scalar.v.i64 == INT64_MIN);
  v = ok("012");
  CHECK(v.scalar.dtype == RT_I64 && v.scalar.v.i64 == 12);   /* as int("012") */
  v = ok("1e3");
  CHECK(v.scalar.dtype == RT_F64 && v.scalar.v.f64 == 1000.0);
  v = ok("2.5");
  CHECK(v.scalar.dtype == RT_F64 && v.scalar.v.f64 == 2.5);
  v = ok("inf");
  CHECK(v.scalar.dtype == RT_F64 && isinf(v.scalar.v.f64) && v.scalar.v.f64 > 0);
  v = ok("-inf");
  CHECK(isinf(v.scalar.v.f64) && v.scalar.v.f64 < 0);
  v = ok("nan");
  CHECK(v.scalar.dtype == RT_F64 && isnan(v.scalar.v.f64));
  v = ok("float32:2.5");
  CHECK(v.scalar.dtype == RT_F32 && v.scalar.v.f32 == 2.5f);
  v = ok("f16:1.5");
  CHECK(v.scalar.dtype == RT_F16 && v.scalar.v.f16 == 0x3e00);
  v = ok("u64:18446744073709551615");
  CHECK(v.scalar.dtype == RT_U64 && v.scalar.v.u64 == UINT64_MAX);
  v = ok("i8:-128");
  CHECK(v.scalar.dtype == RT_I8 && v.scalar.v.i8 == -128);
  v = ok("uint16:0xffff");
  CHECK(v.scalar.v.u16 == 0xffff);
  v = ok("bool:True");
  CHECK(v.scalar.dtype == RT_BOOL && v.scalar.v.b);
  v = ok("c128:(1-2j)");
  CHECK(v.scalar.dtype == RT_C128 && v.scalar.v.c128[0] == 1 && v.scalar.v.c128[1] == -2);
  v = ok("float64:7");
  CHECK(v.scalar.v.f64 == 7.0);
  char buf[64];
  v = ok("int32:-5");
  rt_scalar_format(&v.scalar, buf, sizeof buf);
  CHECK_STR(buf, "int32 -5");
}

/* ---- .npy paths ------------------------------------------------------- */

static void test_npy_path(void) {
  char dir[] = "/tmp/kjit_gen_XXXXXX", path[64], err[512];
  if (!mkdtemp(dir)) return;
  snprintf(path, sizeof path, "%s/x.npy", dir);
  RtValue v = ok("arange:i64:2x2");
  CHECK(rt_npy_write(path, &v.array, err, sizeof err) == 0);
  rt_value_free(&v);
  v = ok(path);
  CHECK(v.is_array && v.array.dtype == RT_I64 && rt_array_get_i64(&v.array, 3) == 3);
  rt_value_free(&v);
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
      "uint64, float16, float32, float64, complex64, complex128 (short forms: b1, i8/i1, i16/i2, i32/i4, i64, "
      "u8/u1, u16/u2, u32/u4, u64, f16/f2, f32/f4, f64/f8, c64/c8, c128/c16)");
  bad("zeros:f32:10x",
      "shape '10x' in 'zeros:f32:10x' is malformed; expected N, AxB, AxBxC or AxBxCxD (e.g. 1000, 64x64)");
  bad("zeros:f32:",
      "shape '' in 'zeros:f32:' is malformed; expected N, AxB, AxBxC or AxBxCxD (e.g. 1000, 64x64)");
  bad("zeros:f32:-3",
      "shape '-3' in 'zeros:f32:-3' is malformed; expected N, AxB, AxBxC or AxBxCxD (e.g. 1000, 64x64)");
  bad("zeros:f32:1x2x3x4x5", "shape '1x2x3x4x5' in 'zeros:f32:1x2x3x4x5' is over 4 dimensions (kjit arrays have "
                             "at most 4); expected N, AxB, AxBxC or AxBxCxD (e.g. 1000, 64x64)");
  bad("zeros:f32:99999999999x99999999999",
      "shape '99999999999x99999999999' in 'zeros:f32:99999999999x99999999999' is too large; expected N, AxB, AxBxC "
      "or AxBxCxD (e.g. 1000, 64x64)");
  bad("zeros:f32", "'zeros:f32' has 2 fields; expected zeros:DTYPE:SHAPE");
  bad("full:f32:10", "'full:f32:10' has 3 fields; expected full:DTYPE:SHAPE:V");
  bad("full:i32:4:3.5", "value '3.5' in 'full:i32:4:3.5' is not an integer (int32 needs one, e.g. 3, -2, 0x10)");
  bad("full:int8:4:300", "value '300' in 'full:int8:4:300' is out of range for int8");
  bad("full:f32:4:abc", "value 'abc' in 'full:f32:4:abc' is not a number (e.g. 2.5, -1e3, inf, nan)");
  bad("full:bool:4:yes", "value 'yes' in 'full:bool:4:yes' is not a bool; use True, False, 1 or 0");
  bad("rand:f32:10:x", "seed 'x' in 'rand:f32:10:x' is not an integer");
  bad("rand:f32:10:1:2", "'rand:f32:10:1:2' has 5 fields; expected rand:DTYPE:SHAPE[:SEED]");
  bad("randint:i32:10:5:5", "randint needs LO < HI (HI is exclusive), got LO=5 HI=5 in 'randint:i32:10:5:5'");
  bad("randint:u8:10:0:257", "randint range [0, 257) in 'randint:u8:10:0:257' does not fit uint8");
  bad("randint:i32:10:0", "'randint:i32:10:0' has 4 fields; expected randint:DTYPE:SHAPE:LO:HI[:SEED]");
  bad("randint:i32:10:a:5", "LO 'a' in 'randint:i32:10:a:5' is not an integer");
  bad("f32:", "value '' in 'f32:' is not a number (e.g. 2.5, -1e3, inf, nan)");
  bad("f32:1:2", "'f32:1:2' has 3 fields; a typed scalar is DTYPE:V (e.g. float32:2.5)");
  bad("u8:-1", "value '-1' in 'u8:-1' is out of range for uint8");
  bad("foo:1",
      "unknown generator or dtype 'foo' in 'foo:1'; generators: zeros, full, rand, randint, arange, xoroshiro; dtypes: bool, "
      "int8, int16, int32, int64, uint8, uint16, uint32, uint64, float16, float32, float64, complex64, complex128 "
      "(short forms: b1, i8/i1, i16/i2, i32/i4, i64, u8/u1, u16/u2, u32/u4, u64, f16/f2, f32/f4, f64/f8, c64/c8, "
      "c128/c16)");
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
  RtValue v = ok("arange:f32:2x3");
  float *d = v.array.data;
  float f[6] = {0, 3, 1, 4, 2, 5};   /* the same matrix, column-major */
  memcpy(d, f, sizeof f);
  v.array.strides[0] = 4;
  v.array.strides[1] = 8;
  CHECK_STR(summary(&v.array), "float32[2x3] [0, 1, 2, 3, 4, 5] sum=15 crc=91e79017");
  rt_value_free(&v);
  RtArray z;
  rt_array_alloc(&z, RT_F64, 0, NULL);
  rt_array_set_f64(&z, 0, 3.5);
  CHECK(strncmp(summary(&z), "float64[] 3.5 sum=3.5 crc=", 26) == 0);
  rt_array_free(&z);
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
static double plain_sum(const RtArray *a) {
  double s = 0;
  for (int64_t i = 0; i < rt_array_size(a); i++) s += rt_array_get_f64(a, i);
  return s;
}

static void check_sum(const RtArray *a, const char *what) {
  double want = plain_sum(a), got = rt_array_sum(a);
  if (memcmp(&want, &got, sizeof want) != 0) {
    fprintf(stderr, "sum of %s: got %.17g, want %.17g\n", what, got, want);
    failures++;
  }
}

/* A 1-d array of n elements of dt holding f64 values vals[i % nv]. */
static RtArray filled(RtDtype dt, int64_t n, const double *vals, int nv) {
  RtArray a;
  rt_array_alloc(&a, dt, 1, &n);
  for (int64_t i = 0; i < n; i++) rt_array_set_f64(&a, i, vals[i % nv]);
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
  static const RtDtype dts[] = {RT_F32, RT_F64, RT_F16, RT_I32, RT_I64, RT_U8, RT_BOOL, RT_C64, RT_C128};
  static const int64_t lens[] = {0, 1, 3, 7, 8, 9, 17, 1000, 100003};
  for (size_t s = 0; s < sizeof sets / sizeof sets[0]; s++)
    for (size_t d = 0; d < sizeof dts / sizeof dts[0]; d++)
      for (size_t l = 0; l < sizeof lens / sizeof lens[0]; l++) {
        if (rt_dtype_is_int(dts[d]) && s > 1) continue;   /* NaN/inf do not convert */
        RtArray a = filled(dts[d], lens[l], sets[s].v, sets[s].n);
        char what[64];
        snprintf(what, sizeof what, "set %zu, %s[%lld]", s, rt_dtype_name(dts[d]), (long long)lens[l]);
        check_sum(&a, what);
        rt_array_free(&a);
      }
  RtValue v = ok("rand:f32:300001:3");                    /* exact path */
  check_sum(&v.array, "rand f32");
  rt_value_free(&v);
  v = ok("rand:f64:300001:3");                            /* 53-bit values: rounds */
  check_sum(&v.array, "rand f64");
  rt_value_free(&v);
  v = ok("arange:i64:300001");
  check_sum(&v.array, "arange i64");
  rt_value_free(&v);
  /* A strided view: every other column of a 301x257 float32 array. */
  v = ok("rand:f32:301x257:5");
  RtArray view = v.array;
  view.shape[1] = 128;
  view.strides[1] *= 2;
  check_sum(&view, "strided f32");
  rt_value_free(&v);
}

static void test_fast_crc(void) {
  unsigned char buf[400];
  for (size_t i = 0; i < sizeof buf; i++) buf[i] = (unsigned char)(i * 131 + 7);
  for (size_t off = 0; off < 4; off++)
    for (size_t n = 0; n + off <= 300; n++)
      CHECK(rt_crc32(0x1234u, buf + off, n) == rt_crc32_portable(0x1234u, buf + off, n));
  CHECK(rt_crc32_portable(0, "123456789", 9) == 0xcbf43926u);
}

int main(void) {
  test_scalar_convert();
  test_dtypes();
  test_generators();
  test_random();
  test_scalars();
  test_npy_path();
  test_errors();
  test_summary_strided();
  test_fast_sum();
  test_fast_crc();
  if (failures) fprintf(stderr, "%d check(s) failed\n", failures);
  else printf("test_gen: all passed\n");
  return failures ? 1 : 0;
}
