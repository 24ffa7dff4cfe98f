/* array.c - dtypes, host array allocation, element access and summaries.
 *
 * Everything here works on any strided RtArray: elements are addressed by
 * their C-order linear index, so a Fortran-order view summarizes (and
 * checksums) exactly like its C-order copy. */
#include "data/array.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>

typedef struct DtypeInfo {
  const char *name;    /* NumPy's name */
  size_t size;         /* bytes */
  const char *aliases; /* space-separated short forms */
} DtypeInfo;

static const DtypeInfo dtype_info[RT_NDTYPES] = {
  [RT_BOOL] = {"bool", 1, "b1 ? bool_ boolean"},
  [RT_I8] = {"int8", 1, "i1 byte"},
  [RT_I16] = {"int16", 2, "i16 i2 short"},
  [RT_I32] = {"int32", 4, "i32 i4 intc"},
  [RT_I64] = {"int64", 8, "i64 i8 int intp long"},
  [RT_U8] = {"uint8", 1, "u1 ubyte"},
  [RT_U16] = {"uint16", 2, "u16 u2 ushort"},
  [RT_U32] = {"uint32", 4, "u32 u4 uintc"},
  [RT_U64] = {"uint64", 8, "u64 u8 uintp"},
  [RT_F16] = {"float16", 2, "f2 half"},
  [RT_F32] = {"float32", 4, "f32 f4 single"},
  [RT_F64] = {"float64", 8, "f64 f8 float double"},
  [RT_C64] = {"complex64", 8, "c64 c8 csingle"},
  [RT_C128] = {"complex128", 16, "c128 c16 complex cdouble"},
};

size_t rt_dtype_size(RtDtype dt) {
  return (unsigned)dt < RT_NDTYPES ? dtype_info[dt].size : 0;
}

const char *rt_dtype_name(RtDtype dt) {
  return (unsigned)dt < RT_NDTYPES ? dtype_info[dt].name : "?";
}

const char *rt_dtype_known_list(void) {
  return "bool, int8, int16, int32, int64, uint8, uint16, uint32, uint64, "
         "float16, float32, float64, complex64, complex128 "
         "(NumPy's codes, in bytes, with or without '<': b1, i1, i2, i4, i8, u1, u2, u4, u8, "
         "f2, f4, f8, c8, c16; in bits: i16, i32, i64, u16, u32, u64, f32, f64, c64, c128)";
}

/* Whether the space-separated `list` contains the word name[0..len). */
static bool word_in(const char *list, const char *name, size_t len) {
  for (const char *p = list; *p;) {
    size_t n = strcspn(p, " ");
    if (n == len && strncasecmp(p, name, len) == 0) return true;
    p += n;
    while (*p == ' ') p++;
  }
  return false;
}

/* Short forms: NumPy's character codes count bytes (b1 i1 i2 i4 i8 u1 ...
 * f2 f4 f8 c8 c16) and mean what they mean in NumPy (i8 is int64); forms
 * NumPy does not have count bits (i16 i32 i64 u16 u32 u64 f32 f64 c64
 * c128).  A spelling NumPy reads as another type is refused: f16 (NumPy's
 * float128), c32 (complex256).  NumPy's little-endian and native byte-order
 * marks ('<', '=', '|') are accepted before a code; big-endian ('>') is
 * not. */
bool rt_dtype_parse(const char *name, size_t len, RtDtype *out) {
  if (len > 1 && (name[0] == '<' || name[0] == '=' || name[0] == '|') && name[1] != '<' &&
      name[1] != '=' && name[1] != '|')
    name++, len--;
  for (int i = 0; i < RT_NDTYPES; i++) {
    const DtypeInfo *d = &dtype_info[i];
    if ((strlen(d->name) == len && strncasecmp(d->name, name, len) == 0) ||
        word_in(d->aliases, name, len)) {
      *out = (RtDtype)i;
      return true;
    }
  }
  return false;
}

bool rt_dtype_is_int(RtDtype dt) { return dt >= RT_I8 && dt <= RT_U64; }
bool rt_dtype_is_signed(RtDtype dt) { return dt >= RT_I8 && dt <= RT_I64; }
bool rt_dtype_is_float(RtDtype dt) { return dt >= RT_F16 && dt <= RT_F64; }
bool rt_dtype_is_complex(RtDtype dt) { return dt == RT_C64 || dt == RT_C128; }

/* ---- binary16 -------------------------------------------------------- */

uint16_t rt_f32_to_f16(float f) {
  uint32_t x;
  memcpy(&x, &f, 4);
  uint32_t sign = (x >> 16) & 0x8000u, exp = (x >> 23) & 0xffu, man = x & 0x7fffffu;
  if (exp == 0xff) return (uint16_t)(sign | 0x7c00u | (man ? 0x200u | (man >> 13) : 0));
  int e = (int)exp - 127 + 15;
  if (e >= 31) return (uint16_t)(sign | 0x7c00u);
  if (e <= 0) {                          /* subnormal or zero */
    if (e < -10) return (uint16_t)sign;
    man |= 0x800000u;
    int shift = 14 - e;
    uint32_t h = man >> shift, rem = man & ((1u << shift) - 1), half = 1u << (shift - 1);
    if (rem > half || (rem == half && (h & 1))) h++;
    return (uint16_t)(sign | h);
  }
  uint32_t h = ((uint32_t)e << 10) | (man >> 13), rem = man & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (h & 1))) h++; /* may carry into exp: fine */
  return (uint16_t)(sign | h);
}

float rt_f16_to_f32(uint16_t h) {
  uint32_t sign = (uint32_t)(h & 0x8000u) << 16, exp = (h >> 10) & 0x1fu, man = h & 0x3ffu;
  uint32_t x;
  if (exp == 0x1f) x = sign | 0x7f800000u | (man << 13);
  else if (exp) x = sign | ((exp + 112) << 23) | (man << 13);
  else if (!man) x = sign;
  else {                                 /* subnormal: normalize */
    int e = 113;
    while (!(man & 0x400u)) { man <<= 1; e--; }
    x = sign | ((uint32_t)e << 23) | ((man & 0x3ffu) << 13);
  }
  float f;
  memcpy(&f, &x, 4);
  return f;
}

/* ---- arrays ---------------------------------------------------------- */

bool rt_shape_nbytes(RtDtype dt, int ndim, const int64_t *shape, size_t *out) {
  uint64_t n = rt_dtype_size(dt);
  for (int i = 0; i < ndim; i++) {
    if (shape[i] < 0) return false;
    if (shape[i] && n > (uint64_t)INT64_MAX / (uint64_t)shape[i]) return false;
    n *= (uint64_t)shape[i];
  }
  if (n > (uint64_t)SIZE_MAX / 2) return false;
  *out = (size_t)n;
  return true;
}

bool rt_array_set_c_strides(RtArray *a) {
  int64_t s = (int64_t)rt_array_itemsize(a);
  for (int i = a->ndim - 1; i >= 0; i--) {
    a->strides[i] = s;
    if (a->shape[i] > 1 && s > INT64_MAX / a->shape[i]) return false;
    s *= a->shape[i] ? a->shape[i] : 1;
  }
  return true;
}

/* Arrays from 1 MiB up get their own mapping: its pages arrive zeroed (no
 * memset, and pages only read cost nothing), and, 2 MiB aligned and marked
 * for transparent huge pages, a 64 MB array takes 32 page faults instead
 * of 16384 (measured: first touch of 64 MB 20-30 ms instead of ~100 ms). */
#define HUGE_PAGE ((size_t)2 << 20)

static void *map_zeroed(size_t nbytes, void **base, size_t *len) {
  size_t want = (nbytes + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE, span = want + HUGE_PAGE;
  char *p = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return NULL;
  size_t head = (HUGE_PAGE - (uintptr_t)p % HUGE_PAGE) % HUGE_PAGE;
  if (head) munmap(p, head);                      /* trim to a 2 MiB boundary */
  munmap(p + head + want, span - head - want);
#ifdef MADV_HUGEPAGE
  (void)madvise(p + head, want, MADV_HUGEPAGE);   /* a hint: failure is harmless */
#endif
  *base = p + head;
  *len = want;
  return p + head;
}

int rt_array_alloc(RtArray *a, RtDtype dt, int ndim, const int64_t *shape) {
  memset(a, 0, sizeof *a);
  a->dtype = dt;
  if (ndim < 0 || ndim > RT_MAX_NDIM || (unsigned)dt >= RT_NDTYPES) return -1;
  a->ndim = ndim;
  for (int i = 0; i < ndim; i++) a->shape[i] = shape[i];
  size_t nb;
  if (!rt_shape_nbytes(dt, ndim, shape, &nb) || !rt_array_set_c_strides(a)) return -1;
  if (nb >= RT_MAP_MIN) {
    a->data = map_zeroed(nb, &a->map, &a->map_len);
  } else {
    size_t cap = (nb + 63) / 64 * 64;
    a->data = aligned_alloc(64, cap ? cap : 64);
    if (a->data) memset(a->data, 0, cap ? cap : 64);
  }
  if (!a->data) return -1;
  a->nbytes = nb;
  a->owns = true;
  return 0;
}

void rt_array_free(RtArray *a) {
  if (!a) return;
  if (a->owns && a->map) munmap(a->map, a->map_len);
  else if (a->owns) free(a->data);
  rt_record_release(a->rec);
  memset(a, 0, sizeof *a);
}

int64_t rt_array_size(const RtArray *a) {
  int64_t n = 1;
  for (int i = 0; i < a->ndim; i++) n *= a->shape[i];
  return n;
}

#define FITS32_MAX 2147483647LL

/* Bytes from the lowest to the highest element, plus one item: every
 * element's byte offset from the data pointer is below it in magnitude. */
bool rt_array_fits32(const RtArray *a) {
  bool empty = false;
  for (int i = 0; i < a->ndim; i++) {
    if (a->shape[i] < 0 || a->shape[i] > FITS32_MAX)
      return false;
    empty |= a->shape[i] == 0;
  }
  if (empty)
    return true;     /* no element to address */
  int64_t span = (int64_t)rt_array_itemsize(a);
  for (int i = 0; i < a->ndim; i++) {
    int64_t st = a->strides[i] < 0 ? -a->strides[i] : a->strides[i];
    if (a->shape[i] == 1)
      continue;      /* its only index is 0, whatever the stride */
    if (st > FITS32_MAX)
      return false;
    span += (a->shape[i] - 1) * st; /* both below 2^31: no overflow */
    if (span > FITS32_MAX)
      return false;
  }
  return span <= FITS32_MAX;
}

bool rt_value_fits32(const RtValue *v) {
  if (v->is_tuple) {
    for (int i = 0; i < v->nelems; i++)
      if (!rt_value_fits32(&v->elems[i]))
        return false;
    return true;
  }
  return !v->is_array || rt_array_fits32(&v->array); /* scalars: no fact about them */
}

bool rt_array_is_c_contiguous(const RtArray *a) {
  int64_t s = (int64_t)rt_array_itemsize(a);
  for (int i = a->ndim - 1; i >= 0; i--) {
    if (a->shape[i] == 0) return true;
    if (a->shape[i] != 1 && a->strides[i] != s) return false;
    s *= a->shape[i];
  }
  return true;
}

bool rt_array_is_f_contiguous(const RtArray *a) {
  int64_t s = (int64_t)rt_array_itemsize(a);
  for (int i = 0; i < a->ndim; i++) {
    if (a->shape[i] == 0) return true;
    if (a->shape[i] != 1 && a->strides[i] != s) return false;
    s *= a->shape[i];
  }
  return true;
}

void *rt_array_elem(const RtArray *a, int64_t i) {
  int64_t off = 0;
  for (int d = a->ndim - 1; d >= 0; d--) {
    int64_t n = a->shape[d];
    off += (i % n) * a->strides[d];
    i /= n;
  }
  return (char *)a->data + off;
}

void rt_array_rows(const RtArray *a, RtRowFn *fn, void *ctx) {
  int64_t n = rt_array_size(a);
  int last = a->ndim - 1;
  if (n == 0) return;
  if (a->ndim == 0 || rt_array_is_c_contiguous(a)) {
    fn(ctx, a->data, n, (int64_t)rt_array_itemsize(a));
    return;
  }
  int64_t idx[RT_MAX_NDIM] = {0};
  for (int64_t r = 0, rows = n / a->shape[last]; r < rows; r++) {
    int64_t off = 0;
    for (int d = 0; d < last; d++) off += idx[d] * a->strides[d];
    fn(ctx, (const char *)a->data + off, a->shape[last], a->strides[last]);
    for (int d = last - 1; d >= 0 && ++idx[d] == a->shape[d]; d--) idx[d] = 0;
  }
}

double rt_array_get_f64(const RtArray *a, int64_t i) {
  const void *p = rt_array_elem(a, i);
  switch (a->dtype) {
  case RT_BOOL: return *(const uint8_t *)p != 0;
  case RT_I8: return *(const int8_t *)p;
  case RT_I16: { int16_t v; memcpy(&v, p, 2); return v; }
  case RT_I32: { int32_t v; memcpy(&v, p, 4); return v; }
  case RT_I64: { int64_t v; memcpy(&v, p, 8); return (double)v; }
  case RT_U8: return *(const uint8_t *)p;
  case RT_U16: { uint16_t v; memcpy(&v, p, 2); return v; }
  case RT_U32: { uint32_t v; memcpy(&v, p, 4); return v; }
  case RT_U64: { uint64_t v; memcpy(&v, p, 8); return (double)v; }
  case RT_F16: { uint16_t v; memcpy(&v, p, 2); return rt_f16_to_f32(v); }
  case RT_F32: case RT_C64: { float v; memcpy(&v, p, 4); return v; }
  case RT_F64: case RT_C128: { double v; memcpy(&v, p, 8); return v; }
  default: return 0;
  }
}

/* Float to int64 without UB: NaN -> 0, out of range saturates. */
static int64_t f64_to_i64(double v) {
  if (v != v) return 0;
  if (v >= 9223372036854775807.0) return INT64_MAX;
  if (v <= -9223372036854775808.0) return INT64_MIN;
  return (int64_t)v;
}

int64_t rt_array_get_i64(const RtArray *a, int64_t i) {
  const void *p = rt_array_elem(a, i);
  switch (a->dtype) {
  case RT_I64: case RT_U64: { int64_t v; memcpy(&v, p, 8); return v; }
  case RT_F16: case RT_F32: case RT_F64: case RT_C64: case RT_C128:
    return f64_to_i64(rt_array_get_f64(a, i));
  default: return (int64_t)rt_array_get_f64(a, i); /* exact for <= 32 bits */
  }
}

/* Writes the low `n` bytes of v (little- or big-endian host alike). */
static void store_int(void *p, uint64_t v, size_t n) {
  uint8_t u8 = (uint8_t)v; uint16_t u16 = (uint16_t)v; uint32_t u32 = (uint32_t)v;
  if (n == 1) memcpy(p, &u8, 1);
  else if (n == 2) memcpy(p, &u16, 2);
  else if (n == 4) memcpy(p, &u32, 4);
  else memcpy(p, &v, 8);
}

static void store_float(void *p, RtDtype dt, double v) {
  if (dt == RT_F16) { uint16_t h = rt_f32_to_f16((float)v); memcpy(p, &h, 2); }
  else if (dt == RT_F32) { float f = (float)v; memcpy(p, &f, 4); }
  else if (dt == RT_F64) memcpy(p, &v, 8);
  else if (dt == RT_C64) { float c[2] = {(float)v, 0}; memcpy(p, c, 8); }
  else { double c[2] = {v, 0}; memcpy(p, c, 16); }
}

void rt_store_f64(void *p, RtDtype dt, double v) {
  if (dt == RT_BOOL) *(uint8_t *)p = v != 0;
  else if (rt_dtype_is_int(dt)) {
    int64_t iv = f64_to_i64(v);
    if (!rt_dtype_is_signed(dt) && v >= 9223372036854775808.0)
      iv = v >= 18446744073709551616.0 ? -1 : (int64_t)(uint64_t)v;
    store_int(p, (uint64_t)iv, rt_dtype_size(dt));
  } else store_float(p, dt, v);
}

void rt_store_i64(void *p, RtDtype dt, int64_t v) {
  if (dt == RT_BOOL) *(uint8_t *)p = v != 0;
  else if (rt_dtype_is_int(dt)) store_int(p, (uint64_t)v, rt_dtype_size(dt));
  else store_float(p, dt, (double)v);
}

void rt_array_set_f64(RtArray *a, int64_t i, double v) {
  rt_store_f64(rt_array_elem(a, i), a->dtype, v);
}

void rt_array_set_i64(RtArray *a, int64_t i, int64_t v) {
  rt_store_i64(rt_array_elem(a, i), a->dtype, v);
}

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

void rt_scalar_format(const RtScalar *s, char *buf, size_t len) {
  RtArray a = {.dtype = s->dtype, .ndim = 0, .data = (void *)s->v.bytes, .nbytes = rt_dtype_size(s->dtype)};
  char el[64];
  rt_array_format_elem(&a, 0, el, sizeof el);
  snprintf(buf, len, "%s %s", rt_dtype_name(s->dtype), el);
}

/* in converted to dtype `to` as a kernel's scalar argument converts
 * (Numba's dispatcher): a complex from a complex or a real (imaginary part
 * 0), a real from a complex's real part, through double when a float is on
 * either side, else through int64 (wrapping into narrower ints).  in may be
 * out. */
void rt_scalar_convert(const RtScalar *in, RtDtype to, RtScalar *out) {
  RtScalar src = *in, r;
  memset(&r, 0, sizeof r);
  r.dtype = to;
  RtArray a = {.dtype = src.dtype, .data = src.v.bytes, .nbytes = sizeof src.v};
  RtArray b = {.dtype = to, .data = r.v.bytes, .nbytes = sizeof r.v};
  if (rt_dtype_is_complex(to)) {
    double re = rt_array_get_f64(&a, 0);
    double im = src.dtype == RT_C64 ? src.v.c64[1] : src.dtype == RT_C128 ? src.v.c128[1] : 0;
    if (to == RT_C64)
      r.v.c64[0] = (float)re, r.v.c64[1] = (float)im;
    else
      r.v.c128[0] = re, r.v.c128[1] = im;
  } else if (rt_dtype_is_float(to) || rt_dtype_is_float(src.dtype) || rt_dtype_is_complex(src.dtype)) {
    rt_array_set_f64(&b, 0, rt_array_get_f64(&a, 0));
  } else {
    rt_array_set_i64(&b, 0, rt_array_get_i64(&a, 0));
  }
  *out = r;
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
