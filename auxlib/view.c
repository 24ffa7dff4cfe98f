/* view.c - host arrays through include/kjit.h's accessors: C-order element
 * addressing, row walks, loads and stores with the library's conversions
 * (data/array.c defines them for the library; these give the same bits)
 * and IEEE binary16.
 *
 * Only host arrays are viewed: a device array's data pointer is a device
 * address, so aux_view refuses it. */
#include <string.h>

#include "auxlib/view_internal.h"

bool aux_view(const kjit_array *a, AuxView *v) {
  if (kjit_array_is_device(a) != 0)
    return false;
  memset(v, 0, sizeof *v);
  v->dtype = kjit_array_dtype(a);
  v->ndim = kjit_array_ndim(a);
  v->data = kjit_array_data(a);
  v->itemsize = kjit_array_itemsize(a);
  const int64_t *shape = kjit_array_shape(a), *strides = kjit_array_strides(a);
  for (int d = 0; d < v->ndim; d++) {
    v->shape[d] = shape[d];
    v->strides[d] = strides[d];
  }
  return true;
}

int64_t aux_size(const AuxView *v) {
  int64_t n = 1;
  for (int d = 0; d < v->ndim; d++)
    n *= v->shape[d];
  return n;
}

void *aux_elem(const AuxView *v, int64_t i) {
  int64_t off = 0;
  for (int d = v->ndim - 1; d >= 0; d--) {
    off += (i % v->shape[d]) * v->strides[d];
    i /= v->shape[d];
  }
  return v->data + off;
}

static bool is_c_contiguous(const AuxView *v) {
  int64_t s = v->itemsize;
  for (int d = v->ndim - 1; d >= 0; d--) {
    if (v->shape[d] == 0)
      return true;
    if (v->shape[d] != 1 && v->strides[d] != s)
      return false;
    s *= v->shape[d];
  }
  return true;
}

void aux_rows(const AuxView *v, AuxRowFn *fn, void *ctx) {
  int64_t n = aux_size(v);
  int last = v->ndim - 1;
  if (n == 0)
    return;
  if (v->ndim == 0 || is_c_contiguous(v)) {
    fn(ctx, v->data, n, v->itemsize);
    return;
  }
  int64_t idx[KJIT_MAX_NDIM] = {0};
  for (int64_t r = 0, rows = n / v->shape[last]; r < rows; r++) {
    int64_t off = 0;
    for (int d = 0; d < last; d++)
      off += idx[d] * v->strides[d];
    fn(ctx, v->data + off, v->shape[last], v->strides[last]);
    for (int d = last - 1; d >= 0 && ++idx[d] == v->shape[d]; d--)
      idx[d] = 0;
  }
}

/* ---- dtypes and conversions ------------------------------------------ */

bool aux_dtype_is_int(kjit_dtype dt) { return dt >= KJIT_INT8 && dt <= KJIT_UINT64; }
bool aux_dtype_is_signed(kjit_dtype dt) { return dt >= KJIT_INT8 && dt <= KJIT_INT64; }
bool aux_dtype_is_complex(kjit_dtype dt) { return dt == KJIT_COMPLEX64 || dt == KJIT_COMPLEX128; }

double aux_get_f64(const AuxView *v, int64_t i) {
  const void *p = aux_elem(v, i);
  switch (v->dtype) {
  case KJIT_BOOL: return *(const uint8_t *)p != 0;
  case KJIT_INT8: return *(const int8_t *)p;
  case KJIT_INT16: { int16_t x; memcpy(&x, p, 2); return x; }
  case KJIT_INT32: { int32_t x; memcpy(&x, p, 4); return x; }
  case KJIT_INT64: { int64_t x; memcpy(&x, p, 8); return (double)x; }
  case KJIT_UINT8: return *(const uint8_t *)p;
  case KJIT_UINT16: { uint16_t x; memcpy(&x, p, 2); return x; }
  case KJIT_UINT32: { uint32_t x; memcpy(&x, p, 4); return x; }
  case KJIT_UINT64: { uint64_t x; memcpy(&x, p, 8); return (double)x; }
  case KJIT_FLOAT16: { uint16_t x; memcpy(&x, p, 2); return aux_f16_to_f32(x); }
  case KJIT_FLOAT32: case KJIT_COMPLEX64: { float x; memcpy(&x, p, 4); return x; }
  case KJIT_FLOAT64: case KJIT_COMPLEX128: { double x; memcpy(&x, p, 8); return x; }
  default: return 0;
  }
}

/* Float to int64 without UB: NaN -> 0, out of range saturates. */
static int64_t f64_to_i64(double x) {
  if (x != x) return 0;
  if (x >= 9223372036854775807.0) return INT64_MAX;
  if (x <= -9223372036854775808.0) return INT64_MIN;
  return (int64_t)x;
}

int64_t aux_get_i64(const AuxView *v, int64_t i) {
  if (v->dtype == KJIT_INT64 || v->dtype == KJIT_UINT64) {
    int64_t x;
    memcpy(&x, aux_elem(v, i), 8);
    return x;
  }
  if (aux_dtype_is_int(v->dtype) || v->dtype == KJIT_BOOL)
    return (int64_t)aux_get_f64(v, i);    /* exact for <= 32 bits */
  return f64_to_i64(aux_get_f64(v, i));
}

/* Writes the low `n` bytes of x (little- or big-endian host alike). */
static void store_int(void *p, uint64_t x, size_t n) {
  uint8_t u8 = (uint8_t)x; uint16_t u16 = (uint16_t)x; uint32_t u32 = (uint32_t)x;
  if (n == 1) memcpy(p, &u8, 1);
  else if (n == 2) memcpy(p, &u16, 2);
  else if (n == 4) memcpy(p, &u32, 4);
  else memcpy(p, &x, 8);
}

static void store_float(void *p, kjit_dtype dt, double x) {
  if (dt == KJIT_FLOAT16) { uint16_t h = aux_f32_to_f16((float)x); memcpy(p, &h, 2); }
  else if (dt == KJIT_FLOAT32) { float f = (float)x; memcpy(p, &f, 4); }
  else if (dt == KJIT_FLOAT64) memcpy(p, &x, 8);
  else if (dt == KJIT_COMPLEX64) { float c[2] = {(float)x, 0}; memcpy(p, c, 8); }
  else { double c[2] = {x, 0}; memcpy(p, c, 16); }
}

void aux_store_f64(void *p, kjit_dtype dt, double x) {
  if (dt == KJIT_BOOL) *(uint8_t *)p = x != 0;
  else if (aux_dtype_is_int(dt)) {
    int64_t iv = f64_to_i64(x);
    if (!aux_dtype_is_signed(dt) && x >= 9223372036854775808.0)
      iv = x >= 18446744073709551616.0 ? -1 : (int64_t)(uint64_t)x;
    store_int(p, (uint64_t)iv, kjit_dtype_size(dt));
  } else store_float(p, dt, x);
}

void aux_store_i64(void *p, kjit_dtype dt, int64_t x) {
  if (dt == KJIT_BOOL) *(uint8_t *)p = x != 0;
  else if (aux_dtype_is_int(dt)) store_int(p, (uint64_t)x, kjit_dtype_size(dt));
  else store_float(p, dt, (double)x);
}

/* ---- binary16 -------------------------------------------------------- */

uint16_t aux_f32_to_f16(float f) {
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

float aux_f16_to_f32(uint16_t h) {
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
