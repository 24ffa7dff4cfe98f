/* test_npy.c - data/npy.c: round trips of every dtype, NumPy's exact
 * header bytes, big-endian and Fortran-order inputs built byte by byte,
 * versions 2.0/3.0, every malformed case with its message, atomic writes,
 * and a quick mutation/truncation fuzz (run it under ASan). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kjitaux.h"
#include "data/npy.h"
#include "check.h"

static char tmpdir[256];

static const char *tmp_path(const char *name) {
  static char buf[4][512];
  static int k;
  k = (k + 1) % 4;
  snprintf(buf[k], sizeof buf[k], "%s/%s", tmpdir, name);
  return buf[k];
}

/* Writes "\x93NUMPY" + version + header (padded like NumPy) + data. */
static const char *make_npy(const char *name, int major, const char *dict, const void *data, size_t dlen) {
  const char *path = tmp_path(name);
  FILE *f = fopen(path, "wb");
  size_t pre = major == 1 ? 10 : 12, hl = strlen(dict) + 1;
  hl += (64 - (pre + hl) % 64) % 64;
  unsigned char p[12] = {0x93, 'N', 'U', 'M', 'P', 'Y', (unsigned char)major, 0,
                         (unsigned char)hl, (unsigned char)(hl >> 8), 0, 0};
  fwrite(p, 1, pre, f);
  char *h = malloc(hl);
  memset(h, ' ', hl);
  memcpy(h, dict, strlen(dict));
  h[hl - 1] = '\n';
  fwrite(h, 1, hl, f);
  free(h);
  if (dlen) fwrite(data, 1, dlen, f);
  fclose(f);
  return path;
}

static const char *make_raw(const char *name, const void *bytes, size_t n) {
  const char *path = tmp_path(name);
  FILE *f = fopen(path, "wb");
  if (n) fwrite(bytes, 1, n, f);
  fclose(f);
  return path;
}

/* ---- round trips ----------------------------------------------------- */

static void test_round_trip(void) {
  for (int dt = 0; dt < RT_NDTYPES; dt++) {
    int64_t shape[3] = {2, 3, 5};
    RtArray a, b;
    CHECK(rt_array_alloc(&a, (RtDtype)dt, 3, shape) == 0);
    for (int64_t i = 0; i < 30; i++) rt_array_set_i64(&a, i, i * 3 - 7);
    char err[512];
    const char *path = tmp_path("rt.npy");
    CHECK(rt_npy_write(path, &a, err, sizeof err) == 0);
    CHECK(rt_npy_read(path, &b, err, sizeof err) == 0);
    CHECK(b.dtype == (RtDtype)dt && b.ndim == 3 && b.shape[0] == 2 && b.shape[2] == 5);
    CHECK(rt_array_is_c_contiguous(&b) && b.nbytes == a.nbytes);
    CHECK(b.data && memcmp(a.data, b.data, a.nbytes) == 0);
    rt_array_free(&a);
    rt_array_free(&b);
  }
}

/* The bytes NumPy writes for np.save(f, np.arange(3, dtype=np.float32)). */
static void test_exact_header(void) {
  int64_t shape[1] = {3};
  RtArray a;
  rt_array_alloc(&a, RT_F32, 1, shape);
  char err[256];
  const char *path = tmp_path("exact.npy");
  CHECK(rt_npy_write(path, &a, err, sizeof err) == 0);
  FILE *f = fopen(path, "rb");
  char buf[256];
  size_t n = fread(buf, 1, sizeof buf, f);
  fclose(f);
  CHECK(n == 128 + 12);
  CHECK(memcmp(buf, "\x93NUMPY\x01\x00\x76\x00", 10) == 0);
  const char *dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }";
  CHECK(memcmp(buf + 10, dict, strlen(dict)) == 0 && buf[127] == '\n' && buf[126] == ' ');
  struct stat st;
  CHECK(stat(path, &st) == 0 && (st.st_mode & 0777) == 0644);
  rt_array_free(&a);
  /* 2-D and 0-d shapes */
  int64_t s2[2] = {4, 5};
  RtArray z;
  rt_array_alloc(&z, RT_I64, 2, s2);
  CHECK(rt_npy_write(path, &z, err, sizeof err) == 0);
  f = fopen(path, "rb");
  n = fread(buf, 1, sizeof buf, f);
  fclose(f);
  CHECK(memcmp(buf + 10, "{'descr': '<i8', 'fortran_order': False, 'shape': (4, 5), }", 59) == 0);
  rt_array_free(&z);
}

static void test_zero_d_and_empty(void) {
  char err[256];
  RtArray a, b;
  double v = 2.5;
  const char *p = make_npy("zd.npy", 1, "{'descr': '<f8', 'fortran_order': False, 'shape': (), }", &v, 8);
  CHECK(rt_npy_read(p, &a, err, sizeof err) == 0);
  CHECK(a.ndim == 0 && rt_array_size(&a) == 1 && rt_array_get_f64(&a, 0) == 2.5);
  CHECK(rt_npy_write(tmp_path("zd2.npy"), &a, err, sizeof err) == 0);
  CHECK(rt_npy_read(tmp_path("zd2.npy"), &b, err, sizeof err) == 0 && b.ndim == 0 && rt_array_get_f64(&b, 0) == 2.5);
  rt_array_free(&a);
  rt_array_free(&b);
  p = make_npy("empty.npy", 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 0), }", NULL, 0);
  CHECK(rt_npy_read(p, &a, err, sizeof err) == 0);
  CHECK(a.ndim == 2 && a.shape[1] == 0 && rt_array_size(&a) == 0 && a.data != NULL);
  CHECK(rt_npy_write(tmp_path("empty2.npy"), &a, err, sizeof err) == 0);
  CHECK(rt_npy_read(tmp_path("empty2.npy"), &b, err, sizeof err) == 0 && b.shape[0] == 2 && b.shape[1] == 0);
  rt_array_free(&a);
  rt_array_free(&b);
}

/* ---- byte order, Fortran order, versions ------------------------------ */

static void test_big_endian(void) {
  char err[256];
  RtArray a;
  const unsigned char i4[] = {0, 0, 1, 2, 0xff, 0xff, 0xff, 0xfe};
  CHECK(rt_npy_read(make_npy("be.npy", 1, "{'descr': '>i4', 'fortran_order': False, 'shape': (2,), }", i4, 8), &a,
                    err, sizeof err) == 0);
  CHECK(a.dtype == RT_I32 && rt_array_get_i64(&a, 0) == 258 && rt_array_get_i64(&a, 1) == -2);
  rt_array_free(&a);
  const unsigned char f8[] = {0x40, 0x09, 0x21, 0xfb, 0x54, 0x44, 0x2d, 0x18};  /* pi */
  CHECK(rt_npy_read(make_npy("bef.npy", 1, "{'descr': '>f8', 'fortran_order': False, 'shape': (1,), }", f8, 8), &a,
                    err, sizeof err) == 0);
  CHECK(a.dtype == RT_F64 && rt_array_get_f64(&a, 0) == 3.141592653589793);
  rt_array_free(&a);
  const unsigned char c8[] = {0x3f, 0x80, 0, 0, 0xc0, 0, 0, 0};  /* 1 - 2j */
  CHECK(rt_npy_read(make_npy("bec.npy", 1, "{'descr': '>c8', 'fortran_order': False, 'shape': (1,), }", c8, 8), &a,
                    err, sizeof err) == 0);
  CHECK(a.dtype == RT_C64 && ((float *)a.data)[0] == 1.0f && ((float *)a.data)[1] == -2.0f);
  rt_array_free(&a);
  const unsigned char f2[] = {0x3c, 0x00, 0xc0, 0x00};  /* 1.0, -2.0 */
  CHECK(rt_npy_read(make_npy("beh.npy", 1, "{'descr': '>f2', 'fortran_order': False, 'shape': (2,), }", f2, 4), &a,
                    err, sizeof err) == 0);
  CHECK(a.dtype == RT_F16 && rt_array_get_f64(&a, 0) == 1.0 && rt_array_get_f64(&a, 1) == -2.0);
  rt_array_free(&a);
  const unsigned char u2[] = {0x12, 0x34};
  CHECK(rt_npy_read(make_npy("beu.npy", 1, "{\"descr\": \">u2\", \"fortran_order\": False, \"shape\": (1L,)}", u2, 2),
                    &a, err, sizeof err) == 0);
  CHECK(rt_array_get_i64(&a, 0) == 0x1234);
  rt_array_free(&a);
}

static void test_fortran(void) {
  /* np.asfortranarray([[1, 2, 3], [4, 5, 6]], dtype='<i4'): column-major */
  const int32_t data[6] = {1, 4, 2, 5, 3, 6};
  char err[256];
  RtArray a, b;
  const char *p = make_npy("f.npy", 1, "{'descr': '<i4', 'fortran_order': True, 'shape': (2, 3), }", data, 24);
  CHECK(rt_npy_read(p, &a, err, sizeof err) == 0);
  CHECK(a.ndim == 2 && a.shape[0] == 2 && a.shape[1] == 3 && a.strides[0] == 4 && a.strides[1] == 8);
  CHECK(!rt_array_is_c_contiguous(&a));
  int bad = 0;
  for (int i = 0; i < 6; i++) bad += rt_array_get_i64(&a, i) != i + 1;
  CHECK(bad == 0);
  /* written back in C order */
  CHECK(rt_npy_write(tmp_path("f2.npy"), &a, err, sizeof err) == 0);
  CHECK(rt_npy_read(tmp_path("f2.npy"), &b, err, sizeof err) == 0);
  CHECK(rt_array_is_c_contiguous(&b) && b.strides[0] == 12);
  for (int i = 0; i < 6; i++) bad += ((int32_t *)b.data)[i] != i + 1;
  CHECK(bad == 0);
  rt_array_free(&a);
  rt_array_free(&b);
}

static void test_versions(void) {
  const uint8_t d[3] = {1, 0, 1};
  char err[256];
  RtArray a;
  for (int v = 2; v <= 3; v++) {
    const char *p = make_npy("v.npy", v, "{'descr': '|b1', 'fortran_order': False, 'shape': (3,), }", d, 3);
    CHECK(rt_npy_read(p, &a, err, sizeof err) == 0);
    CHECK(a.dtype == RT_BOOL && rt_array_get_i64(&a, 0) == 1 && rt_array_get_i64(&a, 1) == 0);
    rt_array_free(&a);
  }
}

/* ---- NumPy-written fixtures (tests/data/npy, from make_fixtures.py) ------ */

static const char *fixture(const char *name) {
  static char buf[1024];
  const char *slash = strrchr(__FILE__, '/');
  int dl = slash ? (int)(slash - __FILE__) : 0;
  snprintf(buf, sizeof buf, "%.*s%s../data/npy/%s", dl, __FILE__, slash ? "/" : "", name);
  if (access(buf, R_OK) != 0) snprintf(buf, sizeof buf, "data/npy/%s", name);  /* cwd tests/ */
  return buf;
}

static void test_fixtures(void) {
  static const char *const codes[RT_NDTYPES] = {"b1", "i1", "i2", "i4", "i8", "u1", "u2", "u4", "u8",
                                                "f2", "f4", "f8", "c8", "c16"};
  char err[1200], name[64];
  RtArray a;
  for (int dt = 0; dt < RT_NDTYPES; dt++)
    for (int be = 0; be < 2; be++) {
      snprintf(name, sizeof name, "%s_%s.npy", be ? "be" : "le", codes[dt]);
      int rc = rt_npy_read(fixture(name), &a, err, sizeof err);
      CHECK(rc == 0);
      if (rc) { fprintf(stderr, "  %s\n", err); continue; }
      CHECK(a.dtype == (RtDtype)dt && a.ndim == 2 && a.shape[0] == 2 && a.shape[1] == 3);
      int bad = 0;
      for (int i = 0; i < 6; i++) bad += rt_array_get_i64(&a, i) != (dt == RT_BOOL ? i != 0 : i);
      CHECK(bad == 0);
      rt_array_free(&a);
    }
  CHECK(rt_npy_read(fixture("fortran_f8.npy"), &a, err, sizeof err) == 0);
  CHECK(a.ndim == 3 && a.strides[0] == 8 && a.strides[1] == 16 && a.strides[2] == 48);
  int bad = 0;
  for (int i = 0; i < 24; i++) bad += rt_array_get_f64(&a, i) != i;
  CHECK(bad == 0);
  rt_array_free(&a);
  CHECK(rt_npy_read(fixture("v2_i4.npy"), &a, err, sizeof err) == 0 && a.shape[0] == 5 && rt_array_get_i64(&a, 4) == 4);
  rt_array_free(&a);
  CHECK(rt_npy_read(fixture("v3_i4.npy"), &a, err, sizeof err) == 0 && a.shape[0] == 5 && rt_array_get_i64(&a, 4) == 4);
  rt_array_free(&a);
  CHECK(rt_npy_read(fixture("scalar_f8.npy"), &a, err, sizeof err) == 0 && a.ndim == 0 && rt_array_get_f64(&a, 0) == 2.5);
  rt_array_free(&a);
  CHECK(rt_npy_read(fixture("empty_f4.npy"), &a, err, sizeof err) == 0 && a.shape[0] == 0 && a.shape[1] == 3);
  rt_array_free(&a);
  CHECK(rt_npy_read(fixture("unicode_U3.npy"), &a, err, sizeof err) == RT_NPY_E_DTYPE);
  CHECK(strstr(err, "unsupported dtype '<U3'") != NULL);
  /* string fields of a record: 'U' four bytes a character, 'S' one; the
   * descr written back is NumPy's */
  unsigned char rec[2 * 24] = {0};
  const char *path = make_npy("strs.npy", 1, "{'descr': [('x', '<i4'), ('u', '<U4'), ('s', '|S4')], "
                              "'fortran_order': False, 'shape': (2,), }", rec, sizeof rec);
  CHECK(rt_npy_read(path, &a, err, sizeof err) == 0);
  CHECK(a.rec && a.rec->itemsize == 24 && a.rec->nfields == 3 && a.rec->fields[1].text == 'U' &&
        a.rec->fields[1].dtype == RT_U32 && a.rec->fields[1].shape[0] == 4 &&
        a.rec->fields[1].offset == 4 && a.rec->fields[2].text == 'S' && a.rec->fields[2].offset == 20);
  CHECK(a.rec && strcmp(a.rec->descr, "[('x', '<i4'), ('u', '<U4'), ('s', '|S4')]") == 0);
  rt_array_free(&a);
}

/* ---- malformed files --------------------------------------------------- */

static void expect_error(const char *path, int code, const char *want_suffix) {
  char err[512] = "";
  RtArray a;
  memset(&a, 0x5a, sizeof a);
  int rc = rt_npy_read(path, &a, err, sizeof err);
  CHECK(rc == code);
  CHECK(a.data == NULL && !a.owns);
  char want[512];
  snprintf(want, sizeof want, "%s: %s", path, want_suffix);
  CHECK_STR(err, want);
}

static void test_malformed(void) {
  float data[1000] = {0};
  const char *D = "{'descr': '<f4', 'fortran_order': False, 'shape': (1000,), }";
  expect_error(make_raw("empty.npy", "", 0), RT_NPY_E_FORMAT, "not a .npy file (the file is empty)");
  expect_error(make_raw("magic.npy", "PK\x03\x04 zip", 8), RT_NPY_E_FORMAT,
               "not a .npy file (bad magic; expected \\x93NUMPY)");
  expect_error(make_raw("ver.npy", "\x93NUMPY\x04\x00\x10\x00", 10), RT_NPY_E_FORMAT,
               "unsupported .npy format version 4.0 (kjit reads 1.0, 2.0, 3.0)");
  expect_error(make_raw("nolen.npy", "\x93NUMPY\x01\x00\x10", 9), RT_NPY_E_FORMAT, "truncated file (no header length)");
  expect_error(make_raw("hdr.npy", "\x93NUMPY\x01\x00\x40\x00{'descr'", 18), RT_NPY_E_FORMAT,
               "truncated header: expected 64 bytes, found 8");
  expect_error(make_raw("huge.npy", "\x93NUMPY\x02\x00\xff\xff\xff\x7f", 12), RT_NPY_E_FORMAT,
               "header length 2147483647 is implausible (over 1048576 bytes)");
  expect_error(make_npy("trunc.npy", 1, D, data, 1200), RT_NPY_E_FORMAT,
               "truncated data: expected 4000 bytes of data, found 1200");
  expect_error(make_npy("nokey.npy", 1, "{'descr': '<f4', 'shape': (3,), }", data, 12), RT_NPY_E_FORMAT,
               "malformed header dict: missing key 'fortran_order'");
  expect_error(make_npy("badfo.npy", 1, "{'descr': '<f4', 'fortran_order': 0, 'shape': (3,), }", data, 12),
               RT_NPY_E_FORMAT, "malformed header dict: 'fortran_order' must be True or False");
  expect_error(make_npy("xkey.npy", 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), 'x': 1}", data, 12),
               RT_NPY_E_FORMAT, "malformed header dict: unexpected key 'x'");
  expect_error(make_npy("nodict.npy", 1, "descr", data, 0), RT_NPY_E_FORMAT,
               "malformed header dict: expected '{' at the start of the header");
  expect_error(make_npy("neg.npy", 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (-3,), }", data, 12),
               RT_NPY_E_FORMAT, "malformed header dict: shape entries must be non-negative integers");
  expect_error(make_npy("tup.npy", 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (3 4), }", data, 12),
               RT_NPY_E_FORMAT, "malformed header dict: expected ',' or ')' in the shape tuple");
  expect_error(make_npy("str.npy", 1, "{'descr': '<U10', 'fortran_order': False, 'shape': (3,), }", data, 120),
               RT_NPY_E_DTYPE,
               "unsupported dtype '<U10' (kjit arrays hold bool, int8..int64, uint8..uint64, float16/32/64, complex64/128)");
  expect_error(make_npy("obj.npy", 1, "{'descr': '|O', 'fortran_order': False, 'shape': (3,), }", data, 24),
               RT_NPY_E_DTYPE,
               "unsupported dtype '|O' (kjit arrays hold bool, int8..int64, uint8..uint64, float16/32/64, complex64/128)");
  expect_error(make_npy("ld.npy", 1, "{'descr': '<f16', 'fortran_order': False, 'shape': (3,), }", data, 48),
               RT_NPY_E_DTYPE,
               "unsupported dtype '<f16' (kjit arrays hold bool, int8..int64, uint8..uint64, float16/32/64, complex64/128)");
  expect_error(make_npy("zz.npy", 1, "{'descr': 'zz', 'fortran_order': False, 'shape': (3,), }", data, 24),
               RT_NPY_E_DTYPE,
               "unknown dtype 'zz' (kjit arrays hold bool, int8..int64, uint8..uint64, float16/32/64, complex64/128)");
  expect_error(make_npy("rec.npy", 1, "{'descr': [('a', '|O')], 'fortran_order': False, 'shape': (3,), }", data, 24),
               RT_NPY_E_DTYPE,
               "record field dtype '|O' is not supported (record fields hold little-endian bool, int8..int64, "
               "uint8..uint64, float16/32/64, complex64/128, strings ('|S<n>', '<U<n>'), records and "
               "fixed-size arrays of them)");
  expect_error(make_npy("recstrs.npy", 1, "{'descr': [('a', '<U4', (2,))], 'fortran_order': False, 'shape': (1,), }",
                        data, 32), RT_NPY_E_DTYPE,
               "record field 'a' is an array of strings, which kernels cannot use");
  expect_error(make_npy("recbe.npy", 1, "{'descr': [('a', '>f4')], 'fortran_order': False, 'shape': (3,), }", data, 12),
               RT_NPY_E_DTYPE,
               "record field dtype '>f4' is not supported (record fields hold little-endian bool, int8..int64, "
               "uint8..uint64, float16/32/64, complex64/128, strings ('|S<n>', '<U<n>'), records and "
               "fixed-size arrays of them)");
  expect_error(make_npy("recdup.npy", 1, "{'descr': [('a', '<f4'), ('a', '<i4')], 'fortran_order': False, 'shape': (1,), }",
                        data, 8), RT_NPY_E_DTYPE, "record field name 'a' repeats");
  expect_error(make_npy("recout.npy", 1, "{'descr': {'names': ['a'], 'formats': ['<f8'], 'offsets': [4], 'itemsize': 8}, "
                        "'fortran_order': False, 'shape': (1,), }", data, 8),
               RT_NPY_E_DTYPE, "record field 'a' lies outside the itemsize (8)");
  expect_error(make_npy("rectrunc.npy", 1, "{'descr': [('a', '<f8'), ('b', '<i4')], 'fortran_order': False, 'shape': (3,), }",
                        data, 24), RT_NPY_E_FORMAT, "truncated data: expected 36 bytes of data, found 24");
  expect_error(make_npy("9d.npy", 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 1, 1, 1, 1, 1, 1, 1, 2), }", data, 8),
               RT_NPY_E_SHAPE, "kjit arrays have at most 8 dimensions (the file has 9)");
  expect_error(make_npy("ovf.npy", 1,
                        "{'descr': '<f8', 'fortran_order': False, 'shape': (4294967296, 4294967296), }", data, 8),
               RT_NPY_E_SHAPE, "shape overflow: the array would not fit in memory");
  expect_error(make_npy("ovf2.npy", 1, "{'descr': '<f8', 'fortran_order': False, 'shape': (99999999999999999999,), }",
                        data, 8),
               RT_NPY_E_FORMAT, "malformed header dict: shape overflow");
  expect_error(tmp_path("missing.npy"), RT_NPY_E_IO, "cannot open: No such file or directory");
  expect_error(tmpdir, RT_NPY_E_IO, "cannot read: it is a directory, not a regular file");
}

/* ---- atomic writes ----------------------------------------------------- */

static int count_files(const char *dir) {
  DIR *d = opendir(dir);
  int n = 0;
  for (struct dirent *e; d && (e = readdir(d));) n += e->d_name[0] != '.';
  if (d) closedir(d);
  return n;
}

static void test_write_errors(void) {
  int64_t shape[1] = {4};
  RtArray a;
  rt_array_alloc(&a, RT_F64, 1, shape);
  char err[512];
  int before = count_files(tmpdir);
  const char *bad = tmp_path("no/such/dir/x.npy");
  CHECK(rt_npy_write(bad, &a, err, sizeof err) == RT_NPY_E_IO);
  char want[600];
  snprintf(want, sizeof want, "%s: cannot create: No such file or directory", bad);
  CHECK_STR(err, want);
  /* replacing an existing file leaves no temporary behind */
  CHECK(rt_npy_write(tmp_path("repl.npy"), &a, err, sizeof err) == 0);
  rt_array_set_f64(&a, 0, 9.5);
  CHECK(rt_npy_write(tmp_path("repl.npy"), &a, err, sizeof err) == 0);
  CHECK(count_files(tmpdir) == before + 1);
  RtArray b;
  CHECK(rt_npy_read(tmp_path("repl.npy"), &b, err, sizeof err) == 0 && rt_array_get_f64(&b, 0) == 9.5);
  rt_array_free(&b);
  /* writing into a directory path fails cleanly too */
  CHECK(rt_npy_write(tmpdir, &a, err, sizeof err) == RT_NPY_E_IO);
  CHECK(count_files(tmpdir) == before + 1);
  rt_array_free(&a);
}

/* ---- fuzz ---------------------------------------------------------------- */

static uint64_t rng(uint64_t *s) {
  uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

static void read_mem(const unsigned char *buf, size_t n) {
  FILE *f = fmemopen((void *)buf, n ? n : 1, "rb");
  if (!f) return;
  if (n == 0) fgetc(f);  /* fmemopen needs size > 0: consume the byte */
  RtArray a;
  char err[256];
  if (rt_npy_read_stream(f, "fuzz", &a, err, sizeof err) == 0) {
    CHECK(a.data != NULL);
    double sum = 0;   /* every element read, through the strides */
    for (int64_t i = 0; a.dtype != RT_RECORD && i < rt_array_size(&a); i++) sum += rt_array_get_f64(&a, i);
    (void)sum;
    rt_array_free(&a);
  } else CHECK(err[0] != 0);
  fclose(f);
}

/* kjitaux_array_summary of the .npy file at path (through the public API,
 * as `kjit run` prints it). */
static void record_summary(const char *path, char *buf, size_t len) {
  kjit_context *ctx;
  kjit_array *a;
  char *s = NULL;
  buf[0] = 0;
  CHECK(kjit_context_create(NULL, &ctx) == KJIT_OK);
  CHECK(kjit_array_load_npy(ctx, path, &a) == KJIT_OK && kjitaux_array_summary(a, &s) == KJIT_OK);
  snprintf(buf, len, "%s", s ? s : "");
  kjit_free(s);
  kjit_context_destroy(ctx);
}

/* Structured dtypes: NumPy's list form with '|Vn' padding (what np.save
 * writes for align=True), nested records and array fields, the dict form;
 * written back in NumPy's own spelling and read again unchanged. */
static void test_records(void) {
  unsigned char data[64];
  for (int i = 0; i < 64; i++) data[i] = (unsigned char)i;
  RtArray a;
  char err[512];
  const char *D = "{'descr': [('x', '|i1'), ('', '|V7'), ('y', '<f8'), ('v', '<i2', (3,)), ('', '|V2')], "
                  "'fortran_order': False, 'shape': (2,), }";
  CHECK(rt_npy_read(make_npy("rec1.npy", 1, D, data, 48), &a, err, sizeof err) == 0);
  CHECK(a.dtype == RT_RECORD && a.rec && a.rec->itemsize == 24 && a.rec->nfields == 3);
  CHECK(a.rec->fields[1].offset == 8 && a.rec->fields[2].offset == 16 && a.rec->fields[2].ndim == 1);
  CHECK(a.strides[0] == 24 && rt_array_itemsize(&a) == 24);
  CHECK_STR(a.rec->descr, "[('x', '|i1'), ('', '|V7'), ('y', '<f8'), ('v', '<i2', (3,)), ('', '|V2')]");
  char sum[2048];
  record_summary(tmp_path("rec1.npy"), sum, sizeof sum);
  CHECK(strstr(sum, "record[2] itemsize=24 ") == sum);
  CHECK(strstr(sum, "\n.x: int8[2] [0, 24] sum=24 ") != NULL);
  CHECK(strstr(sum, "\n.v: int16[2x3] ") != NULL);
  CHECK(rt_npy_write(tmp_path("rec_out.npy"), &a, err, sizeof err) == 0);
  RtArray b;
  CHECK(rt_npy_read(tmp_path("rec_out.npy"), &b, err, sizeof err) == 0);
  CHECK(b.dtype == RT_RECORD && rt_record_same(a.rec, b.rec) && memcmp(a.data, b.data, 48) == 0);
  rt_array_free(&a);
  rt_array_free(&b);
  const char *N = "{'descr': {'names': ['b', 'a', 'p'], 'formats': ['<i4', '<f4', [('q', '<u2')]], "
                  "'offsets': [4, 0, 8], 'itemsize': 12, 'aligned': True}, 'fortran_order': False, 'shape': (), }";
  CHECK(rt_npy_read(make_npy("rec2.npy", 1, N, data, 12), &a, err, sizeof err) == 0);
  CHECK(a.ndim == 0 && a.rec->aligned && a.rec->fields[0].name[0] == 'a' && a.rec->fields[2].dtype == RT_RECORD);
  CHECK_STR(a.rec->descr, "{'names': ['a', 'b', 'p'], 'formats': ['<f4', '<i4', [('q', '<u2')]], "
                          "'offsets': [0, 4, 8], 'itemsize': 12, 'aligned': True}");
  record_summary(tmp_path("rec2.npy"), sum, sizeof sum);
  CHECK(strstr(sum, "\n.p.q: uint16[] ") != NULL);
  rt_array_free(&a);
}

static void test_fuzz(void) {
  static const char *const dicts[] = {
    "{'descr': '<f4', 'fortran_order': True, 'shape': (3, 4), }",
    "{'descr': '>c16', 'fortran_order': False, 'shape': (2, 1, 2, 1), }",
    "{'descr': '|b1', 'fortran_order': False, 'shape': (), }",
    "{'descr': [('x', '<f4'), ('', '|V4'), ('v', '<i2', (2, 2))], 'fortran_order': False, 'shape': (3,), }",
  };
  unsigned char base[512], buf[512];
  uint64_t st = 42;
  for (int d = 0; d < 3; d++) {
    const char *p = make_npy("fz.npy", d + 1, dicts[d], base, 200);
    FILE *f = fopen(p, "rb");
    size_t n = fread(base, 1, sizeof base, f);
    fclose(f);
    for (size_t cut = 0; cut <= n; cut++) read_mem(base, cut);        /* every truncation */
    for (int it = 0; it < 20000; it++) {                              /* random mutations */
      memcpy(buf, base, n);
      int k = 1 + (int)(rng(&st) % 4);
      for (int j = 0; j < k; j++) {
        size_t at = rng(&st) % n;
        uint64_t r = rng(&st);
        buf[at] = (r & 3) == 0 ? (unsigned char)"(),:'{} 0123456789TFLx<>|"[r % 25] : (unsigned char)(r >> 8);
      }
      read_mem(buf, rng(&st) % 4 == 0 ? rng(&st) % (n + 1) : n);
    }
  }
}

/* Files of 1 MiB and more are mapped copy-on-write: the array reads what
 * the file holds, a write to it stays in the process, and a Fortran file
 * keeps its strides. */
static void test_mapped(void) {
  int64_t shape[2] = {512, 1024};
  RtArray a, b, c;
  char err[512];
  CHECK(rt_array_alloc(&a, RT_F32, 2, shape) == 0 && a.map != NULL);
  for (int64_t i = 0; i < 512 * 1024; i++) ((float *)a.data)[i] = (float)i * 0.5f;
  const char *path = tmp_path("mapped.npy");
  CHECK(rt_npy_write(path, &a, err, sizeof err) == 0);
  CHECK(rt_npy_read(path, &b, err, sizeof err) == 0 && b.map != NULL && b.owns);
  CHECK(b.nbytes == a.nbytes && memcmp(a.data, b.data, a.nbytes) == 0);
  CHECK((uintptr_t)b.data % 64 == 0);
  ((float *)b.data)[7] = -1.0f;                       /* copy on write */
  CHECK(rt_npy_read(path, &c, err, sizeof err) == 0 && ((float *)c.data)[7] == 3.5f);
  rt_array_free(&b);
  rt_array_free(&c);
  RtArray f = a;                                      /* Fortran order view */
  f.strides[0] = 4;
  f.strides[1] = 4 * 512;
  f.shape[0] = 1024;
  f.shape[1] = 512;
  CHECK(rt_npy_write(path, &f, err, sizeof err) == 0);
  CHECK(rt_npy_read(path, &b, err, sizeof err) == 0 && b.map != NULL);
  CHECK(rt_array_get_f64(&b, 1) == rt_array_get_f64(&f, 1) && b.strides[1] == 4);
  rt_array_free(&b);
  rt_array_free(&a);
}

/* kjit_array_save_npy, the C API, follows -o's rules (docs/api.md,
 * "Writing files"): /dev/null stays a device, a FIFO and a dangling link
 * are refused without blocking and stay as they were, a link to a file
 * stays a link and the file behind it is written. */
static void test_save_rules(void) {
  kjit_context *ctx;
  kjit_array *a = NULL;
  int64_t n = 4;
  char fifo[300], link[300], file[300], dangling[300];
  struct stat st;
  CHECK(kjit_context_create(NULL, &ctx) == KJIT_OK);
  CHECK(kjit_array_create(ctx, KJIT_FLOAT32, 1, &n, &a) == KJIT_OK);
  if (!a) return;
  CHECK(kjit_array_save_npy(a, "/dev/null") == KJIT_OK);
  CHECK(stat("/dev/null", &st) == 0 && S_ISCHR(st.st_mode));
  snprintf(fifo, sizeof fifo, "%s/out.fifo", tmpdir);
  CHECK(mkfifo(fifo, 0600) == 0);
  CHECK(kjit_array_save_npy(a, fifo) != KJIT_OK && strstr(kjit_last_error(ctx), "it is a FIFO"));
  CHECK(lstat(fifo, &st) == 0 && S_ISFIFO(st.st_mode));
  snprintf(file, sizeof file, "%s/real.npy", tmpdir);
  snprintf(link, sizeof link, "%s/via.npy", tmpdir);
  FILE *f = fopen(file, "w");
  if (f) fputs("old", f), fclose(f);
  CHECK(symlink("real.npy", link) == 0);
  CHECK(kjit_array_save_npy(a, link) == KJIT_OK);
  CHECK(lstat(link, &st) == 0 && S_ISLNK(st.st_mode));
  CHECK(stat(file, &st) == 0 && st.st_size == 128 + 16);
  snprintf(dangling, sizeof dangling, "%s/dangling.npy", tmpdir);
  CHECK(symlink("nowhere/x.npy", dangling) == 0);
  CHECK(kjit_array_save_npy(a, dangling) != KJIT_OK && strstr(kjit_last_error(ctx), "missing file"));
  CHECK(lstat(dangling, &st) == 0 && S_ISLNK(st.st_mode));
  kjit_context_destroy(ctx);
}

int main(void) {
  snprintf(tmpdir, sizeof tmpdir, "%s/kjit_npy_XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
  if (!mkdtemp(tmpdir)) { perror("mkdtemp"); return 1; }
  test_round_trip();
  test_exact_header();
  test_zero_d_and_empty();
  test_big_endian();
  test_fortran();
  test_versions();
  test_fixtures();
  test_malformed();
  test_write_errors();
  test_records();
  test_mapped();
  test_fuzz();
  test_save_rules();
  char cmd[300];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
  if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", tmpdir);
  if (failures) fprintf(stderr, "%d check(s) failed\n", failures);
  else printf("test_npy: all passed\n");
  return failures ? 1 : 0;
}
