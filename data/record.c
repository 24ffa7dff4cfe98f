/* record.c - structured dtypes (records) of host arrays: NumPy's descr
 * text parsed into an RtRecord, written back, and summarized per field.
 *
 * A record array is an RtArray of dtype RT_RECORD whose `rec` lists the
 * fields (name, dtype, byte offset, optional fixed shape); its elements are
 * rec->itemsize bytes.  Records are shared by reference count between the
 * arrays that hold them (a device copy keeps its host array's), so none is
 * freed while an array uses it.  The parser never trusts the text: every
 * offset and size is checked against the itemsize. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/array.h"

enum { MAX_FIELDS = 64, MAX_DEPTH = 8 };

typedef struct RScan {
  const char *p, *end;
  char *err;
  size_t errlen;
  bool failed;
  int depth;
} RScan;

static bool bad(RScan *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool bad(RScan *s, const char *fmt, ...) {
  if (!s->failed && s->err && s->errlen) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->err, s->errlen, fmt, ap);
    va_end(ap);
  }
  s->failed = true;
  return false;
}

static void ws(RScan *s) {
  while (s->p < s->end && (*s->p == ' ' || *s->p == '\n' || *s->p == '\t' || *s->p == '\r'))
    s->p++;
}

static bool peek(RScan *s, char c) {
  ws(s);
  return s->p < s->end && *s->p == c;
}

static bool eat(RScan *s, char c) {
  if (!peek(s, c))
    return false;
  s->p++;
  return true;
}

static bool need(RScan *s, char c) {
  return eat(s, c) || bad(s, "malformed record descr: expected '%c'", c);
}

/* ',' before the closing bracket c, or the bracket itself. */
static bool sep(RScan *s, char c) {
  if (eat(s, ','))
    return true;
  return peek(s, c) || bad(s, "malformed record descr: expected ',' or '%c'", c);
}

/* A quoted string (no escapes: NumPy's field names and codes have none). */
static char *string(RScan *s) {
  ws(s);
  if (s->p >= s->end || (*s->p != '\'' && *s->p != '"'))
    return bad(s, "malformed record descr: expected a quoted string"), NULL;
  char q = *s->p++;
  const char *b = s->p;
  while (s->p < s->end && *s->p != q)
    s->p++;
  if (s->p >= s->end || s->p - b > 255)
    return bad(s, "malformed record descr: unterminated or too long string"), NULL;
  char *out = malloc((size_t)(s->p - b) + 1);
  if (!out)
    return bad(s, "out of memory"), NULL;
  memcpy(out, b, (size_t)(s->p - b));
  out[s->p - b] = 0;
  s->p++;
  return out;
}

static bool integer(RScan *s, int64_t *v) {
  ws(s);
  *v = 0;
  if (s->p >= s->end || *s->p < '0' || *s->p > '9')
    return bad(s, "malformed record descr: expected a non-negative integer");
  while (s->p < s->end && *s->p >= '0' && *s->p <= '9') {
    if (*v > (1 << 28))
      return bad(s, "record descr: number too large");
    *v = *v * 10 + (*s->p++ - '0');
  }
  return true;
}

/* -------------------------------------------------------------- fields -- */

typedef struct Fmt {
  RtDtype dt;
  RtRecord *rec;        /* a nested record */
  int64_t size;         /* bytes */
  bool is_void;         /* '|Vn': raw bytes, only as unnamed padding */
  char text;            /* 'S' / 'U': a string of count characters (dt the character) */
  int64_t count;
  RtField sub;          /* the dict form's ('<f4', (3,)): ndim and shape */
} Fmt;

static RtRecord *parse_record(RScan *s);
static bool shaped_format(RScan *s, Fmt *f);

/* '<f4', '|b1', '|V8', or a nested record (list or dict). */
static bool format(RScan *s, Fmt *f) {
  memset(f, 0, sizeof *f);
  if (peek(s, '[') || peek(s, '{')) {
    if (++s->depth > MAX_DEPTH)
      return bad(s, "record descr: records nested too deeply");
    f->rec = parse_record(s);
    s->depth--;
    f->dt = RT_RECORD;
    f->size = f->rec ? f->rec->itemsize : 0;
    return f->rec != NULL;
  }
  char *c = string(s);
  if (!c)
    return false;
  const char *k = c;
  bool big = *k == '>';
  if (*k == '<' || *k == '>' || *k == '|' || *k == '=')
    k++;
  bool ok = true;
  if (*k == 'V') {
    f->is_void = true;
    f->size = atoll(k + 1);
    ok = f->size > 0 && f->size < (1 << 24);
  } else if ((*k == 'S' || *k == 'U') && k[1] >= '1' && k[1] <= '9') {
    f->text = *k;
    f->dt = *k == 'S' ? RT_U8 : RT_U32;
    f->count = atoll(k + 1);
    f->size = f->count * (int64_t)rt_dtype_size(f->dt);
    ok = f->count <= (1 << 20) && !(big && *k == 'U');
  } else {
    static const char *const codes[RT_NDTYPES] = {"b1", "i1", "i2", "i4", "i8", "u1", "u2",
                                                  "u4", "u8", "f2", "f4", "f8", "c8", "c16"};
    f->dt = RT_NDTYPES;
    for (int i = 0; i < RT_NDTYPES; i++)
      if (strcmp(k, codes[i]) == 0)
        f->dt = (RtDtype)i;
    ok = f->dt != RT_NDTYPES && !(big && rt_dtype_size(f->dt) > 1);
    f->size = (int64_t)rt_dtype_size(f->dt);
  }
  if (!ok)
    bad(s, "record field dtype '%s' is not supported (record fields hold little-endian bool, "
           "int8..int64, uint8..uint64, float16/32/64, complex64/128, strings ('|S<n>', "
           "'<U<n>'), records and fixed-size arrays of them)", c);
  free(c);
  return ok;
}

/* A fixed shape: an int or a tuple of 1 to 4 ints. */
static bool shape(RScan *s, RtField *fl) {
  if (!eat(s, '(')) {
    fl->ndim = 1;
    return integer(s, &fl->shape[0]);
  }
  while (!eat(s, ')')) {
    if (fl->ndim == RT_MAX_NDIM)
      return bad(s, "record field arrays have at most 4 dimensions");
    if (!integer(s, &fl->shape[fl->ndim++]) || !sep(s, ')'))
      return false;
  }
  return true;
}

static int64_t field_size(const RtField *fl, const Fmt *f) {
  int64_t n = f->size;
  for (int i = 0; i < fl->ndim; i++)
    n *= fl->shape[i];
  return n;
}

static void free_fields(RtField *f, int n) {
  for (int i = 0; i < n; i++) {
    free(f[i].name);
    rt_record_release(f[i].rec);
  }
}

/* A string field: a 1-d array of its characters, which has no shape of its
 * own (NumPy's ('s', 'U4', 2) is an array of strings, which kernels cannot
 * use). */
static bool text_field(RScan *s, RtField *fl, Fmt *f) {
  if (fl->ndim || f->sub.ndim)
    return bad(s, "record field '%s' is an array of strings, which kernels cannot use", fl->name);
  fl->text = f->text;
  fl->ndim = 1;
  fl->shape[0] = f->count;
  f->size = (int64_t)rt_dtype_size(f->dt);
  return true;
}

/* ('name', format[, shape]); unnamed '|Vn' entries are padding (*pad). */
static bool list_entry(RScan *s, RtField *fl, int64_t *size, bool *pad) {
  memset(fl, 0, sizeof *fl);
  if (!need(s, '('))
    return false;
  if (peek(s, '('))
    return bad(s, "record fields with titles are not supported");
  Fmt f;
  if (!(fl->name = string(s)) || !need(s, ',') || !format(s, &f))
    return false;
  fl->dtype = f.dt;
  fl->rec = f.rec;
  if (eat(s, ',') && !peek(s, ')') && !shape(s, fl))
    return false;
  eat(s, ',');
  if (f.text && !text_field(s, fl, &f))
    return false;
  *pad = f.is_void && fl->name[0] == 0;
  if (f.is_void && !*pad)
    return bad(s, "record field '%s' is raw bytes (a void dtype), which kernels cannot use", fl->name);
  *size = field_size(fl, &f);
  return need(s, ')');
}

static bool add_or_pad(RScan *s, RtField *fields, int *n, RtField *fl, bool pad) {
  if (pad) {
    free(fl->name);
    return true;
  }
  if (*n == MAX_FIELDS) {
    free(fl->name);
    rt_record_release(fl->rec);
    return bad(s, "records have at most %d fields", MAX_FIELDS);
  }
  fields[(*n)++] = *fl;
  return true;
}

/* [('x', '<f4'), ('', '|V4'), ...]: fields back to back from offset 0. */
static bool list_form(RScan *s, RtRecord *r, RtField *fields) {
  int64_t off = 0;
  need(s, '[');
  while (!s->failed && !eat(s, ']')) {
    RtField fl;
    int64_t size = 0;
    bool pad = false;
    if (!list_entry(s, &fl, &size, &pad)) {
      free(fl.name);
      rt_record_release(fl.rec);
      return false;
    }
    fl.offset = off;
    off += size;
    if (!add_or_pad(s, fields, &r->nfields, &fl, pad) || !sep(s, ']'))
      return false;
  }
  r->itemsize = off;
  return !s->failed;
}

/* The dict form's lists: names, formats and offsets (ints), index by index. */
typedef struct DictLists {
  char *names[MAX_FIELDS];
  Fmt fmts[MAX_FIELDS];
  int64_t offsets[MAX_FIELDS];
  int nn, nf, no;
  int64_t itemsize;
} DictLists;

static bool dict_list(RScan *s, const char *key, DictLists *d) {
  if (!need(s, '['))
    return false;
  while (!eat(s, ']')) {
    int *n = !strcmp(key, "names") ? &d->nn : !strcmp(key, "formats") ? &d->nf : &d->no;
    if (*n == MAX_FIELDS)
      return bad(s, "records have at most %d fields", MAX_FIELDS);
    bool ok = !strcmp(key, "names")     ? (d->names[*n] = string(s)) != NULL
              : !strcmp(key, "formats") ? shaped_format(s, &d->fmts[*n])
                                        : integer(s, &d->offsets[*n]);
    (*n)++;
    if (!ok || !sep(s, ']'))
      return false;
  }
  return true;
}

/* A format of the dict form: a format, or (format, shape). */
static bool shaped_format(RScan *s, Fmt *f) {
  if (!eat(s, '('))
    return format(s, f);
  RtField sub = {0};
  bool ok = format(s, f) && need(s, ',') && shape(s, &sub);
  eat(s, ',');
  f->sub = sub;
  f->size = field_size(&sub, f);
  return ok && need(s, ')');
}

static bool dict_value(RScan *s, const char *key, DictLists *d, RtRecord *r) {
  if (!strcmp(key, "names") || !strcmp(key, "formats") || !strcmp(key, "offsets"))
    return dict_list(s, key, d);
  if (!strcmp(key, "itemsize"))
    return integer(s, &d->itemsize);
  if (!strcmp(key, "aligned")) {
    ws(s);
    r->aligned = s->end - s->p >= 4 && !memcmp(s->p, "True", 4);
    s->p += r->aligned ? 4 : 5;
    return s->p <= s->end || bad(s, "malformed record descr: 'aligned'");
  }
  return bad(s, "record descr key '%s' is not supported (titles?)", key);
}

static bool dict_fields(RScan *s, DictLists *d, RtRecord *r, RtField *fields) {
  if (d->nn != d->nf || (d->no && d->no != d->nn) || d->nn == 0)
    return bad(s, "record descr: 'names', 'formats' and 'offsets' differ in length");
  int64_t end = 0;
  for (int i = 0; i < d->nn; i++) {
    RtField *fl = &fields[r->nfields++];
    fl->name = d->names[i];
    d->names[i] = NULL;
    fl->dtype = d->fmts[i].dt;
    fl->ndim = d->fmts[i].sub.ndim;
    memcpy(fl->shape, d->fmts[i].sub.shape, sizeof fl->shape);
    fl->rec = d->fmts[i].rec;
    d->fmts[i].rec = NULL;
    if (d->fmts[i].text) {
      Fmt f = d->fmts[i];
      if (!text_field(s, fl, &f))
        return false;
    }
    fl->offset = d->no ? d->offsets[i] : end;
    if (d->fmts[i].is_void)
      return bad(s, "record field '%s' is raw bytes (a void dtype), which kernels cannot use",
                 fl->name);
    end = fl->offset + d->fmts[i].size > end ? fl->offset + d->fmts[i].size : end;
  }
  r->itemsize = d->itemsize ? d->itemsize : end;
  return true;
}

/* {'names': [...], 'formats': [...], 'offsets': [...], 'itemsize': n} */
static bool dict_form(RScan *s, RtRecord *r, RtField *fields) {
  DictLists *d = calloc(1, sizeof *d);
  if (!d)
    return bad(s, "out of memory");
  need(s, '{');
  while (!s->failed && !eat(s, '}')) {
    char *key = string(s);
    bool ok = key && need(s, ':') && dict_value(s, key, d, r) && sep(s, '}');
    free(key);
    if (!ok)
      break;
  }
  bool ok = !s->failed && dict_fields(s, d, r, fields);
  for (int i = 0; i < MAX_FIELDS; i++) {
    free(d->names[i]);
    rt_record_release(d->fmts[i].rec);
  }
  free(d);
  return ok;
}

/* --------------------------------------------------------------- records -- */

static int64_t rec_field_size(const RtField *f) {
  int64_t n = f->dtype == RT_RECORD ? f->rec->itemsize : (int64_t)rt_dtype_size(f->dtype);
  for (int i = 0; i < f->ndim; i++)
    n *= f->shape[i];
  return n;
}

/* Every field inside the itemsize, names unique and non-empty. */
static bool check_layout(RScan *s, const RtRecord *r) {
  if (r->nfields == 0 || r->itemsize < 1 || r->itemsize > (1 << 24))
    return bad(s, "record descr: a record needs fields and an itemsize of 1 to 2^24 bytes");
  for (int i = 0; i < r->nfields; i++) {
    const RtField *f = &r->fields[i];
    for (int d = 0; d < f->ndim; d++)
      if (f->shape[d] < 1)
        return bad(s, "record field '%s' has an empty shape", f->name);
    if (!f->name[0] || f->offset + rec_field_size(f) > r->itemsize)
      return bad(s, "record field '%s' lies outside the itemsize (%" PRId64 ")", f->name,
                 r->itemsize);
    for (int j = 0; j < i; j++)
      if (strcmp(f->name, r->fields[j].name) == 0)
        return bad(s, "record field name '%s' repeats", f->name);
  }
  return true;
}

/* By offset, then name: Numba's order of a Record's fields. */
static bool before(const RtField *a, const RtField *b) {
  return a->offset != b->offset ? a->offset < b->offset : strcmp(a->name, b->name) < 0;
}

static void sort_fields(RtRecord *r) {
  for (int i = 1; i < r->nfields; i++)
    for (int j = i; j > 0 && before(&r->fields[j], &r->fields[j - 1]); j--) {
      RtField t = r->fields[j];
      r->fields[j] = r->fields[j - 1];
      r->fields[j - 1] = t;
    }
}

static RtRecord *parse_record(RScan *s) {
  RtRecord *r = calloc(1, sizeof *r);
  RtField *fields = calloc(MAX_FIELDS, sizeof *fields);
  if (!r || !fields) {
    free(r);
    free(fields);
    return bad(s, "out of memory"), NULL;
  }
  r->refs = 1;
  r->fields = fields;
  bool ok = peek(s, '{') ? dict_form(s, r, fields) : list_form(s, r, fields);
  if (ok) {
    sort_fields(r);
    ok = check_layout(s, r);
  }
  if (!ok) {
    rt_record_release(r);
    return NULL;
  }
  return r;
}

/* ----------------------------------------------------------- descr text -- */

static void put_fmt(char **p, size_t *left, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(*p, *left, fmt, ap);
  va_end(ap);
  n = n < 0 ? 0 : (size_t)n >= *left ? (int)*left - 1 : n;
  *p += n;
  *left -= (size_t)n;
}

static void put_descr(const RtRecord *r, char **p, size_t *left);

static void put_field_fmt(const RtField *f, char **p, size_t *left) {
  static const char *const codes[RT_NDTYPES] = {"|b1", "|i1", "<i2", "<i4", "<i8", "|u1", "<u2",
                                                "<u4", "<u8", "<f2", "<f4", "<f8", "<c8", "<c16"};
  if (f->dtype == RT_RECORD)
    put_descr(f->rec, p, left);
  else if (f->text)
    put_fmt(p, left, "'%s%c%" PRId64 "'", f->text == 'S' ? "|" : "<", f->text, f->shape[0]);
  else
    put_fmt(p, left, "'%s'", codes[f->dtype]);
}

static void put_shape(const RtField *f, char **p, size_t *left) {
  if (!f->ndim || f->text)
    return;
  put_fmt(p, left, ", (");
  for (int d = 0; d < f->ndim; d++)
    put_fmt(p, left, d ? ", %" PRId64 : "%" PRId64, f->shape[d]);
  put_fmt(p, left, f->ndim == 1 ? ",)" : ")");
}

static bool in_order(const RtRecord *r) {
  for (int i = 1; i < r->nfields; i++)
    if (r->fields[i].offset < r->fields[i - 1].offset + rec_field_size(&r->fields[i - 1]))
      return false;
  return true;
}

/* NumPy's own descr: the list form with '|Vn' padding where fields are in
 * order and apart, else the dict form. */
static void put_descr(const RtRecord *r, char **p, size_t *left) {
  if (in_order(r) && !r->aligned) {
    int64_t off = 0;
    put_fmt(p, left, "[");
    for (int i = 0; i < r->nfields; i++) {
      const RtField *f = &r->fields[i];
      if (f->offset > off)
        put_fmt(p, left, "('', '|V%" PRId64 "'), ", f->offset - off);
      put_fmt(p, left, "('%s', ", f->name);
      put_field_fmt(f, p, left);
      put_shape(f, p, left);
      put_fmt(p, left, ")%s", i + 1 < r->nfields ? ", " : "");
      off = f->offset + rec_field_size(f);
    }
    if (r->itemsize > off)
      put_fmt(p, left, ", ('', '|V%" PRId64 "')", r->itemsize - off);
    put_fmt(p, left, "]");
    return;
  }
  put_fmt(p, left, "{'names': [");
  for (int i = 0; i < r->nfields; i++)
    put_fmt(p, left, "%s'%s'", i ? ", " : "", r->fields[i].name);
  put_fmt(p, left, "], 'formats': [");
  for (int i = 0; i < r->nfields; i++) {
    put_fmt(p, left, i ? ", " : "");
    bool shaped = r->fields[i].ndim && !r->fields[i].text;
    if (shaped)
      put_fmt(p, left, "(");
    put_field_fmt(&r->fields[i], p, left);
    put_shape(&r->fields[i], p, left);
    if (shaped)
      put_fmt(p, left, ")");
  }
  put_fmt(p, left, "], 'offsets': [");
  for (int i = 0; i < r->nfields; i++)
    put_fmt(p, left, i ? ", %" PRId64 : "%" PRId64, r->fields[i].offset);
  put_fmt(p, left, "], 'itemsize': %" PRId64 "%s}", r->itemsize, r->aligned ? ", 'aligned': True" : "");
}

RtRecord *rt_record_parse(const char *descr, size_t len, char *err, size_t errlen) {
  RScan s = {descr, descr + len, err, errlen, false, 0};
  RtRecord *r = parse_record(&s);
  ws(&s);
  if (r && s.p != s.end) {
    bad(&s, "malformed record descr: unexpected text after it");
    rt_record_release(r);
    return NULL;
  }
  size_t cap = 16384;
  char *text = r ? malloc(cap) : NULL, *p = text;
  if (r && !text) {
    rt_record_release(r);
    return bad(&s, "out of memory"), NULL;
  }
  if (r) {
    put_descr(r, &p, &cap);
    r->descr = text;
  }
  return r;
}

RtRecord *rt_record_retain(RtRecord *r) {
  if (r)
    __atomic_add_fetch(&r->refs, 1, __ATOMIC_RELAXED);
  return r;
}

void rt_record_release(RtRecord *r) {
  if (!r || __atomic_sub_fetch(&r->refs, 1, __ATOMIC_ACQ_REL) > 0)
    return;
  free_fields(r->fields, r->nfields);
  free(r->fields);
  free(r->descr);
  free(r);
}

bool rt_record_same(const RtRecord *a, const RtRecord *b) {
  if (a == b)
    return true;
  if (!a || !b || a->itemsize != b->itemsize || a->nfields != b->nfields)
    return false;
  for (int i = 0; i < a->nfields; i++) {
    const RtField *x = &a->fields[i], *y = &b->fields[i];
    if (strcmp(x->name, y->name) || x->dtype != y->dtype || x->text != y->text ||
        x->offset != y->offset ||
        x->ndim != y->ndim || memcmp(x->shape, y->shape, sizeof x->shape) ||
        (x->dtype == RT_RECORD && !rt_record_same(x->rec, y->rec)))
      return false;
  }
  return true;
}

size_t rt_array_itemsize(const RtArray *a) {
  return a->dtype == RT_RECORD && a->rec ? (size_t)a->rec->itemsize : rt_dtype_size(a->dtype);
}

/* ------------------------------------------------------------- summary -- */

bool rt_record_field_view(const RtArray *a, int i, RtArray *out) {
  const RtField *f = &a->rec->fields[i];
  if (a->ndim + f->ndim > RT_MAX_NDIM)
    return false;
  RtArray v = {.dtype = f->dtype, .rec = rt_record_retain(f->rec), .ndim = a->ndim + f->ndim,
               .data = (char *)a->data + f->offset, .nbytes = a->nbytes};
  for (int d = 0; d < a->ndim; d++) {
    v.shape[d] = a->shape[d];
    v.strides[d] = a->strides[d];
  }
  int64_t st = f->dtype == RT_RECORD ? f->rec->itemsize : (int64_t)rt_dtype_size(f->dtype);
  for (int d = f->ndim - 1; d >= 0; d--) {
    v.shape[a->ndim + d] = f->shape[d];
    v.strides[a->ndim + d] = st;
    st *= f->shape[d];
  }
  *out = v;
  return true;
}

int rt_array_alloc_record(RtArray *a, RtRecord *rec, int ndim, const int64_t *shape) {
  memset(a, 0, sizeof *a);
  if (!rec || ndim < 0 || ndim > RT_MAX_NDIM)
    return -1;
  uint64_t nb = (uint64_t)rec->itemsize;
  for (int i = 0; i < ndim; i++) {
    if (shape[i] < 0 || (shape[i] && nb > (uint64_t)INT64_MAX / 4 / (uint64_t)shape[i]))
      return -1;
    nb *= (uint64_t)shape[i];
  }
  size_t cap = ((size_t)nb + 63) / 64 * 64;
  a->data = aligned_alloc(64, cap ? cap : 64);
  if (!a->data)
    return -1;
  memset(a->data, 0, cap ? cap : 64);
  a->dtype = RT_RECORD;
  a->rec = rt_record_retain(rec);
  a->ndim = ndim;
  for (int i = 0; i < ndim; i++)
    a->shape[i] = shape[i];
  rt_array_set_c_strides(a);
  a->nbytes = (size_t)nb;
  a->owns = true;
  return 0;
}
