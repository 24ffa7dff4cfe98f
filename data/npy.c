/* npy.c - NumPy .npy reader and writer (see npy.h for the contract).
 *
 * A .npy file is "\x93NUMPY", a version (major, minor), the header length
 * (2 bytes little-endian in 1.0, 4 in 2.0/3.0), a Python dict literal
 * {'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), } padded with
 * spaces and '\n', then the raw data.  The reader never trusts a length or
 * a shape from the file before checking it, so no input can crash it. */
#include "data/npy.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define NPY_MAX_HEADER (1u << 20) /* NumPy itself rejects > 10000 by default */
#define SUPPORTED_DTYPES "bool, int8..int64, uint8..uint64, float16/32/64, complex64/128"

static int fail(int code, char *err, size_t errlen, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

static int fail(int code, char *err, size_t errlen, const char *name, const char *fmt, ...) {
  if (!err || !errlen) return code;
  int n = snprintf(err, errlen, "%s: ", name);
  if (n >= 0 && (size_t)n < errlen) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
    va_end(ap);
  }
  return code;
}

static bool host_is_little(void) {
  uint16_t one = 1;
  uint8_t b;
  memcpy(&b, &one, 1);
  return b == 1;
}

/* ---- header dict ----------------------------------------------------- */

typedef struct Header {
  char descr[64];
  const char *rdescr;       /* a structured dtype's descr: its text in the */
  size_t rlen;              /* header ([...] or {...}), parsed by record.c */
  bool have_descr, have_fortran, have_shape, fortran;
  int ndim;                 /* may exceed RT_MAX_NDIM: checked by the caller */
  int64_t shape[RT_MAX_NDIM];
} Header;

typedef struct Scan {
  const char *p, *end;
  char why[256];            /* what is wrong, when a parse function fails */
} Scan;

static void skip_ws(Scan *s) {
  while (s->p < s->end && (*s->p == ' ' || *s->p == '\t' || *s->p == '\n' || *s->p == '\r')) s->p++;
}

static bool expect(Scan *s, char c, const char *where) {
  skip_ws(s);
  if (s->p < s->end && *s->p == c) { s->p++; return true; }
  snprintf(s->why, sizeof s->why, "expected '%c' %s", c, where);
  return false;
}

/* string := '...' | "..."  (no escapes: NumPy's keys and descrs have none) */
static bool scan_string(Scan *s, char *out, size_t cap) {
  skip_ws(s);
  if (s->p >= s->end || (*s->p != '\'' && *s->p != '"')) {
    snprintf(s->why, sizeof s->why, "expected a quoted string");
    return false;
  }
  char q = *s->p++;
  const char *b = s->p;
  while (s->p < s->end && *s->p != q) s->p++;
  if (s->p >= s->end) { snprintf(s->why, sizeof s->why, "unterminated string"); return false; }
  size_t n = (size_t)(s->p - b);
  s->p++;
  if (n >= cap) n = cap - 1;   /* long strings are never valid keys or dtypes */
  memcpy(out, b, n);
  out[n] = 0;
  return true;
}

static bool scan_word(Scan *s, const char *w) {
  size_t n = strlen(w);
  skip_ws(s);
  if ((size_t)(s->end - s->p) >= n && memcmp(s->p, w, n) == 0) { s->p += n; return true; }
  return false;
}

/* int := digits ['L']   (Python 2 wrote 3L) */
static bool scan_dim(Scan *s, int64_t *out) {
  skip_ws(s);
  if (s->p >= s->end || *s->p < '0' || *s->p > '9') {
    snprintf(s->why, sizeof s->why, "shape entries must be non-negative integers");
    return false;
  }
  int64_t v = 0;
  while (s->p < s->end && *s->p >= '0' && *s->p <= '9') {
    if (v > (INT64_MAX - 9) / 10) { snprintf(s->why, sizeof s->why, "shape overflow"); return false; }
    v = v * 10 + (*s->p++ - '0');
  }
  if (s->p < s->end && *s->p == 'L') s->p++;
  *out = v;
  return true;
}

/* shape := '(' [int (',' int)* [',']] ')' */
static bool scan_shape(Scan *s, Header *h) {
  if (!expect(s, '(', "to open the shape tuple")) return false;
  h->ndim = 0;
  for (;;) {
    skip_ws(s);
    if (s->p < s->end && *s->p == ')') { s->p++; return true; }
    int64_t d;
    if (!scan_dim(s, &d)) return false;
    if (h->ndim < RT_MAX_NDIM) h->shape[h->ndim] = d;
    if (h->ndim < 1000) h->ndim++;
    skip_ws(s);
    if (s->p < s->end && *s->p == ',') s->p++;
    else if (s->p >= s->end || *s->p != ')') {
      snprintf(s->why, sizeof s->why, "expected ',' or ')' in the shape tuple");
      return false;
    }
  }
}

/* A structured descr: the bracketed text up to its matching close (quotes
 * skipped), kept for record.c to parse. */
static bool scan_balanced(Scan *s, Header *h) {
  const char *b = s->p;
  int depth = 0;
  char q = 0;
  for (; s->p < s->end; s->p++) {
    char c = *s->p;
    if (q) { if (c == q) q = 0; continue; }
    if (c == '\'' || c == '"') q = c;
    else if (c == '[' || c == '{' || c == '(') depth++;
    else if ((c == ']' || c == '}' || c == ')') && --depth == 0) break;
  }
  if (s->p >= s->end) { snprintf(s->why, sizeof s->why, "unterminated structured descr"); return false; }
  s->p++;
  h->rdescr = b;
  h->rlen = (size_t)(s->p - b);
  return true;
}

static bool scan_value(Scan *s, const char *key, Header *h) {
  if (strcmp(key, "descr") == 0) {
    skip_ws(s);
    h->have_descr = true;
    if (s->p < s->end && (*s->p == '[' || *s->p == '{'))
      return scan_balanced(s, h);
    return scan_string(s, h->descr, sizeof h->descr);
  }
  if (strcmp(key, "fortran_order") == 0) {
    h->have_fortran = true;
    if (scan_word(s, "True")) { h->fortran = true; return true; }
    if (scan_word(s, "False")) { h->fortran = false; return true; }
    snprintf(s->why, sizeof s->why, "'fortran_order' must be True or False");
    return false;
  }
  if (strcmp(key, "shape") == 0) { h->have_shape = true; return scan_shape(s, h); }
  snprintf(s->why, sizeof s->why, "unexpected key '%.40s'", key);
  return false;
}

/* dict := '{' (string ':' value ',')* [string ':' value] '}' ws* */
static bool scan_header(Scan *s, Header *h) {
  if (!expect(s, '{', "at the start of the header")) return false;
  for (;;) {
    skip_ws(s);
    if (s->p < s->end && *s->p == '}') { s->p++; break; }
    char key[48];
    if (!scan_string(s, key, sizeof key) || !expect(s, ':', "after a key") || !scan_value(s, key, h))
      return false;
    skip_ws(s);
    if (s->p < s->end && *s->p == ',') s->p++;
    else if (s->p >= s->end || *s->p != '}') {
      snprintf(s->why, sizeof s->why, "expected ',' or '}' after the value of '%.40s'", key);
      return false;
    }
  }
  skip_ws(s);
  if (s->p != s->end) { snprintf(s->why, sizeof s->why, "unexpected text after '}'"); return false; }
  const char *miss = !h->have_descr ? "descr" : !h->have_fortran ? "fortran_order" : !h->have_shape ? "shape" : NULL;
  if (miss) { snprintf(s->why, sizeof s->why, "missing key '%s'", miss); return false; }
  return true;
}

/* ---- dtypes ---------------------------------------------------------- */

typedef struct DescrMap { const char *code; RtDtype dt; } DescrMap;

static const DescrMap descr_map[] = {
  {"b1", RT_BOOL}, {"?", RT_BOOL}, {"i1", RT_I8}, {"i2", RT_I16}, {"i4", RT_I32},
  {"i8", RT_I64}, {"u1", RT_U8}, {"u2", RT_U16}, {"u4", RT_U32}, {"u8", RT_U64},
  {"f2", RT_F16}, {"f4", RT_F32}, {"f8", RT_F64}, {"c8", RT_C64}, {"c16", RT_C128},
};

/* Parses a descr like "<f4"; *swap is set when the data needs byte swapping.
 * Returns 0, or RT_NPY_E_DTYPE with the message in *why. */
static int parse_descr(const char *d, RtDtype *dt, bool *swap, char *why, size_t wl) {
  char order = '=';
  const char *code = d;
  if (*code == '<' || *code == '>' || *code == '|' || *code == '=') order = *code++;
  for (size_t i = 0; i < sizeof descr_map / sizeof descr_map[0]; i++) {
    if (strcmp(code, descr_map[i].code) == 0) {
      *dt = descr_map[i].dt;
      bool little = host_is_little();
      *swap = rt_dtype_size(*dt) > 1 && ((order == '<' && !little) || (order == '>' && little));
      return 0;
    }
  }
  bool known_kind = *code && strchr("biufcmMOSUVa", *code) != NULL;
  snprintf(why, wl, "%s dtype '%.40s' (kjit arrays hold %s)",
           known_kind ? "unsupported" : "unknown", d, SUPPORTED_DTYPES);
  return RT_NPY_E_DTYPE;
}

/* Byte-swaps each scalar of n bytes; complex numbers swap each half. */
static void swap_bytes(void *data, size_t nbytes, size_t scalar) {
  uint8_t *p = data;
  for (size_t off = 0; off + scalar <= nbytes; off += scalar)
    for (size_t i = 0; i < scalar / 2; i++) {
      uint8_t t = p[off + i];
      p[off + i] = p[off + scalar - 1 - i];
      p[off + scalar - 1 - i] = t;
    }
}

/* ---- reading --------------------------------------------------------- */

/* Reads the preamble and the header text (malloc'd into *text). */
static int read_preamble(FILE *f, const char *name, char **text, size_t *tlen, char *err, size_t el) {
  uint8_t pre[12];
  size_t got = fread(pre, 1, 8, f);
  if (ferror(f)) return fail(RT_NPY_E_IO, err, el, name, "cannot read: %s", strerror(errno));
  if (got == 0) return fail(RT_NPY_E_FORMAT, err, el, name, "not a .npy file (the file is empty)");
  if (got < 6 || memcmp(pre, "\x93NUMPY", 6) != 0)
    return fail(RT_NPY_E_FORMAT, err, el, name, "not a .npy file (bad magic; expected \\x93NUMPY)");
  if (got < 8) return fail(RT_NPY_E_FORMAT, err, el, name, "truncated file (no version after the magic)");
  if ((pre[6] != 1 && pre[6] != 2 && pre[6] != 3) || pre[7] != 0)
    return fail(RT_NPY_E_FORMAT, err, el, name, "unsupported .npy format version %u.%u (kjit reads 1.0, 2.0, 3.0)", pre[6], pre[7]);
  size_t lenbytes = pre[6] == 1 ? 2 : 4;
  if (fread(pre + 8, 1, lenbytes, f) != lenbytes)
    return fail(RT_NPY_E_FORMAT, err, el, name, "truncated file (no header length)");
  uint32_t hlen = pre[8] | (uint32_t)pre[9] << 8;
  if (lenbytes == 4) hlen |= (uint32_t)pre[10] << 16 | (uint32_t)pre[11] << 24;
  if (hlen > NPY_MAX_HEADER)
    return fail(RT_NPY_E_FORMAT, err, el, name, "header length %" PRIu32 " is implausible (over %u bytes)", hlen, NPY_MAX_HEADER);
  *text = malloc(hlen + 1);
  if (!*text) return fail(RT_NPY_E_NOMEM, err, el, name, "out of memory");
  *tlen = fread(*text, 1, hlen, f);
  if (*tlen != hlen) {
    free(*text);
    *text = NULL;
    return fail(RT_NPY_E_FORMAT, err, el, name, "truncated header: expected %" PRIu32 " bytes, found %zu", hlen, *tlen);
  }
  (*text)[hlen] = 0;
  return 0;
}

static int parse_header_text(const char *text, size_t tlen, const char *name, Header *h, char *err, size_t el) {
  memset(h, 0, sizeof *h);
  Scan s = {.p = text, .end = text + tlen};
  if (!scan_header(&s, h)) {
    if (strstr(s.why, "structured")) return fail(RT_NPY_E_DTYPE, err, el, name, "%s", s.why);
    return fail(RT_NPY_E_FORMAT, err, el, name, "malformed header dict: %s", s.why);
  }
  if (h->ndim > RT_MAX_NDIM)
    return fail(RT_NPY_E_SHAPE, err, el, name, "kjit arrays have at most %d dimensions (the file has %d)", RT_MAX_NDIM, h->ndim);
  return 0;
}

static void set_fortran_strides(RtArray *a) {
  int64_t st = (int64_t)rt_array_itemsize(a);
  for (int i = 0; i < a->ndim; i++) {
    a->strides[i] = st;
    st *= a->shape[i] ? a->shape[i] : 1;
  }
}

/* Bytes from the position of a seekable stream to its end; false for a
 * pipe (then the data is simply read until it runs out). */
static bool bytes_left(FILE *f, size_t *left) {
  long here = ftell(f);
  if (here < 0 || fseek(f, 0, SEEK_END) != 0) return false;
  long end = ftell(f);
  if (fseek(f, here, SEEK_SET) != 0 || end < here) return false;
  *left = (size_t)(end - here);
  return true;
}

/* Allocates the array of the header and reads its data.  A header that
 * promises more data than the file holds is rejected before allocating
 * (a 140-byte file must not cost gigabytes: found by tests/fuzz/fuzz_npy). */
static int read_data(FILE *f, const char *name, const Header *h, RtDtype dt, RtRecord *rec, bool swap,
                     RtArray *out, char *err, size_t el) {
  size_t nb, left;
  if (!rt_shape_nbytes(rec ? RT_U8 : dt, h->ndim, h->shape, &nb) ||
      (rec && nb > SIZE_MAX / 4 / (size_t)rec->itemsize))
    return fail(RT_NPY_E_SHAPE, err, el, name, "shape overflow: the array would not fit in memory");
  nb *= rec ? (size_t)rec->itemsize : 1;
  if (bytes_left(f, &left) && left < nb)
    return fail(RT_NPY_E_FORMAT, err, el, name, "truncated data: expected %zu bytes of data, found %zu", nb, left);
  if ((rec ? rt_array_alloc_record(out, rec, h->ndim, h->shape) : rt_array_alloc(out, dt, h->ndim, h->shape)) != 0)
    return fail(RT_NPY_E_NOMEM, err, el, name, "out of memory for %zu bytes of data", nb);
  if (h->fortran) set_fortran_strides(out);
  size_t got = fread(out->data, 1, nb, f);
  if (got != nb) {
    int e = ferror(f) ? errno : 0;
    rt_array_free(out);
    if (e) return fail(RT_NPY_E_IO, err, el, name, "cannot read the data: %s", strerror(e));
    return fail(RT_NPY_E_FORMAT, err, el, name, "truncated data: expected %zu bytes of data, found %zu", nb, got);
  }
  if (swap) swap_bytes(out->data, nb, rt_dtype_is_complex(dt) ? rt_dtype_size(dt) / 2 : rt_dtype_size(dt));
  return 0;
}

/* Reads the preamble and the header dict; leaves f at the first data byte.
 * A structured dtype gives *rec (a reference for the caller to release),
 * any other *dt and *swap. */
static int read_head(FILE *f, const char *name, Header *h, RtDtype *dt, bool *swap, RtRecord **rec,
                     char *err, size_t el) {
  char *text = NULL;
  size_t tlen = 0;
  *rec = NULL;
  *dt = RT_RECORD;
  *swap = false;
  int rc = read_preamble(f, name, &text, &tlen, err, el);
  if (rc) return rc;
  rc = parse_header_text(text, tlen, name, h, err, el);
  if (rc) { free(text); return rc; }
  char why[400];
  if (h->rdescr && !(*rec = rt_record_parse(h->rdescr, h->rlen, why, sizeof why))) {
    free(text);
    return fail(RT_NPY_E_DTYPE, err, el, name, "%s", why);
  }
  free(text); /* rdescr pointed into it: parsed above */
  if (!*rec && parse_descr(h->descr, dt, swap, why, sizeof why)) return fail(RT_NPY_E_DTYPE, err, el, name, "%s", why);
  return 0;
}

int rt_npy_read_stream(FILE *f, const char *name, RtArray *out, char *err, size_t el) {
  memset(out, 0, sizeof *out);
  Header h;
  RtDtype dt;
  bool swap;
  RtRecord *rec;
  int rc = read_head(f, name, &h, &dt, &swap, &rec, err, el);
  if (rc == 0)
    rc = read_data(f, name, &h, dt, rec, swap, out, err, el);
  rt_record_release(rec); /* the array holds its own reference */
  return rc;
}

/* Large files in native byte order whose data starts 64-byte aligned (as
 * NumPy writes them) are mapped copy-on-write instead of read: their pages
 * come from the page cache as they are, without a copy or fresh memory,
 * and only the pages a kernel writes are copied.  Returns true when *out
 * holds the mapping; false to read the file instead. */
static bool map_data(FILE *f, const Header *h, RtDtype dt, RtArray *out) {
  struct stat st;
  size_t nb;
  long off = ftell(f);
  if (off < 0 || off % 64 || fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode) ||
      !rt_shape_nbytes(dt, h->ndim, h->shape, &nb) || nb < RT_MAP_MIN ||
      (uint64_t)st.st_size < (uint64_t)off + nb)
    return false;
  size_t len = (size_t)off + nb;
  /* Populated read-only (no fault per page later), then made writable: a
   * write then copies just its page. */
  char *base = mmap(NULL, len, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fileno(f), 0);
  if (base == MAP_FAILED) return false;
  if (mprotect(base, len, PROT_READ | PROT_WRITE) != 0) {
    munmap(base, len);
    return false;
  }
  memset(out, 0, sizeof *out);
  out->dtype = dt;
  out->ndim = h->ndim;
  memcpy(out->shape, h->shape, sizeof out->shape);
  if (h->fortran) set_fortran_strides(out);
  else rt_array_set_c_strides(out);
  out->data = base + off;
  out->nbytes = nb;
  out->owns = true;
  out->map = base;
  out->map_len = len;
  return true;
}

int rt_npy_read(const char *path, RtArray *out, char *err, size_t errlen) {
  memset(out, 0, sizeof *out);
  const char *why;
  int fd = rt_open_regular(path, &why);
  FILE *f = fd >= 0 ? fdopen(fd, "rb") : NULL;
  if (fd >= 0 && !f) close(fd);
  if (!f && why) return fail(RT_NPY_E_IO, err, errlen, path, "cannot read: it is %s, not a regular file", why);
  if (!f) return fail(RT_NPY_E_IO, err, errlen, path, "cannot open: %s", strerror(errno));
  Header h;
  RtDtype dt;
  bool swap;
  RtRecord *rec;
  int rc = read_head(f, path, &h, &dt, &swap, &rec, err, errlen);
  /* records are read (their fields may need no mapping's alignment care) */
  if (rc == 0 && (swap || rec || !map_data(f, &h, dt, out)))
    rc = read_data(f, path, &h, dt, rec, swap, out, err, errlen);
  rt_record_release(rec);
  fclose(f);
  return rc;
}

/* ---- writing --------------------------------------------------------- */

static const char *descr_of(RtDtype dt) {
  static const char *const le[RT_NDTYPES] = {"|b1", "|i1", "<i2", "<i4", "<i8", "|u1", "<u2", "<u4", "<u8",
                                             "<f2", "<f4", "<f8", "<c8", "<c16"};
  static const char *const be[RT_NDTYPES] = {"|b1", "|i1", ">i2", ">i4", ">i8", "|u1", ">u2", ">u4", ">u8",
                                             ">f2", ">f4", ">f8", ">c8", ">c16"};
  return host_is_little() ? le[dt] : be[dt];
}

/* Builds the preamble + header, padded so the data starts 64-byte aligned
 * (as NumPy does).  Returns its length. */
static size_t build_header(const RtArray *a, char *buf, size_t cap) {
  char dict[16640], dims[160] = "";
  size_t n = 0;
  for (int i = 0; i < a->ndim; i++)
    n += (size_t)snprintf(dims + n, sizeof dims - n, "%" PRId64 ",%s", a->shape[i], i + 1 < a->ndim ? " " : "");
  if (a->ndim > 1) dims[n - 1] = 0;   /* (3, 4) but (3,) */
  int dl = a->dtype == RT_RECORD
      ? snprintf(dict, sizeof dict, "{'descr': %s, 'fortran_order': False, 'shape': (%s), }", a->rec->descr, dims)
      : snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }",
                 descr_of(a->dtype), dims);
  if (dl < 0 || (size_t)dl >= sizeof dict) return 0;
  size_t pre = 10, total = ((pre + (size_t)dl + 1) + 63) / 64 * 64;
  if (total - pre > 65535) { pre = 12; total = ((pre + (size_t)dl + 1) + 63) / 64 * 64; }
  if (total > cap) return 0;
  size_t hlen = total - pre;
  memcpy(buf, "\x93NUMPY", 6);
  buf[6] = pre == 10 ? 1 : 2;
  buf[7] = 0;
  for (size_t i = 0; i < pre - 8; i++) buf[8 + i] = (char)((hlen >> (8 * i)) & 0xff);
  memset(buf + pre, ' ', hlen);
  memcpy(buf + pre, dict, (size_t)dl);
  buf[total - 1] = '\n';
  return total;
}

/* Writes the elements in C order, a row at a time: contiguous rows in one
 * call, strided ones gathered through a buffer. */
typedef struct WriteWalk {
  FILE *f;
  size_t es;
  bool ok;
} WriteWalk;

static void write_row(void *ctx, const char *p, int64_t n, int64_t st) {
  WriteWalk *w = ctx;
  if (!w->ok) return;
  if (st == (int64_t)w->es) {
    w->ok = fwrite(p, w->es, (size_t)n, w->f) == (size_t)n;
    return;
  }
  char chunk[65536];
  size_t used = 0;
  if (w->es > sizeof chunk) { /* a record wider than the buffer: never gathered */
    w->ok = false;
    return;
  }
  for (int64_t i = 0; i < n && w->ok; i++) {
    memcpy(chunk + used, p + i * st, w->es);
    used += w->es;
    if (used + w->es > sizeof chunk || i + 1 == n) {
      w->ok = fwrite(chunk, 1, used, w->f) == used;
      used = 0;
    }
  }
}

static bool write_data(FILE *f, const RtArray *a) {
  WriteWalk w = {.f = f, .es = rt_array_itemsize(a), .ok = true};
  rt_array_rows(a, write_row, &w);
  return w.ok;
}

int rt_npy_write_stream(FILE *f, const char *name, const RtArray *a, char *err, size_t el) {
  if (((unsigned)a->dtype >= RT_NDTYPES && !(a->dtype == RT_RECORD && a->rec && a->rec->descr)) ||
      a->ndim < 0 || a->ndim > RT_MAX_NDIM)
    return fail(RT_NPY_E_SHAPE, err, el, name, "invalid array (dtype or ndim out of range)");
  char hdr[16896];
  size_t hl = build_header(a, hdr, sizeof hdr);
  if (!hl) return fail(RT_NPY_E_SHAPE, err, el, name, "header too long");
  if (fwrite(hdr, 1, hl, f) != hl || !write_data(f, a))
    return fail(RT_NPY_E_IO, err, el, name, "cannot write: %s", strerror(errno));
  return 0;
}

/* One array into an output begun by rt_out_begin. */
static int write_out(RtOutFile *o, const char *path, const RtArray *a, char *err, size_t el) {
  int fd = dup(o->fd);
  FILE *f = fd >= 0 ? fdopen(fd, "wb") : NULL;
  if (!f) {
    if (fd >= 0)
      close(fd);
    return fail(RT_NPY_E_IO, err, el, path, "cannot write: %s", strerror(errno));
  }
  int rc = rt_npy_write_stream(f, path, a, err, el);
  if (fclose(f) != 0 && rc == 0)
    rc = fail(RT_NPY_E_IO, err, el, path, "cannot write: %s", strerror(errno));
  return rc;
}

int rt_npy_write_all(const char *const *paths, const RtArray *const *arrays, int n, char *err, size_t el) {
  RtOutFile *outs = calloc((size_t)(n > 0 ? n : 1), sizeof *outs);
  if (!outs)
    return fail(RT_NPY_E_NOMEM, err, el, n > 0 ? paths[0] : "output", "out of memory");
  int rc = 0, begun = 0;
  for (int i = 0; i < n && rc == 0; i++) {
    if (rt_out_begin(paths[i], &outs[i], err, el) != 0) {
      rc = RT_NPY_E_IO;
      break;
    }
    begun++;
    for (int j = 0; j < i && rc == 0; j++)
      if (strcmp(outs[j].target, outs[i].target) == 0)
        rc = fail(RT_NPY_E_IO, err, el, paths[i], "written twice (also as '%s'): ambiguous", paths[j]);
    if (rc == 0)
      rc = write_out(&outs[i], paths[i], arrays[i], err, el);
  }
  for (int i = 0; i < begun; i++) { /* all complete: rename each; else none */
    if (rc == 0 && rt_out_commit(&outs[i], paths[i], err, el) != 0)
      rc = RT_NPY_E_IO;
    else if (outs[i].target)
      rt_out_abort(&outs[i]);
  }
  free(outs);
  return rc;
}

int rt_npy_write(const char *path, const RtArray *a, char *err, size_t el) {
  return rt_npy_write_all(&path, &a, 1, err, el);
}
