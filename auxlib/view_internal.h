/* view.h - what the files of auxlib/ share: a host array seen through the
 * accessors of include/kjit.h (AuxView), element loads and stores with the
 * library's conversions, binary16, the exact sum and zlib's CRC-32.
 *
 * auxlib/ is a client of include/kjit.h like tools/: these helpers work on
 * the pointers, shapes and strides the public accessors give, never on the
 * library's own structures.  Element helpers take a C-order linear index
 * and follow the strides, so summaries never depend on the layout. */
#ifndef KJIT_AUXLIB_VIEW_H
#define KJIT_AUXLIB_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kjit.h"

typedef struct AuxView {
  kjit_dtype dtype;
  int ndim;                          /* 0..KJIT_MAX_NDIM; 0 is one element */
  int64_t shape[KJIT_MAX_NDIM];
  int64_t strides[KJIT_MAX_NDIM];    /* bytes */
  char *data;
  int64_t itemsize;                  /* bytes per element (records too) */
} AuxView;

/* The view of a live host array; false for NULL, destroyed or device. */
bool aux_view(const kjit_array *a, AuxView *v);
int64_t aux_size(const AuxView *v);                 /* element count */
void *aux_elem(const AuxView *v, int64_t i);        /* element i, C order */
/* Calls fn once per innermost row in C order: n elements `stride` bytes
 * apart from p.  A C-contiguous array is one row; an empty one none. */
typedef void AuxRowFn(void *ctx, const char *p, int64_t n, int64_t stride);
void aux_rows(const AuxView *v, AuxRowFn *fn, void *ctx);

bool aux_dtype_is_int(kjit_dtype dt);               /* not bool */
bool aux_dtype_is_signed(kjit_dtype dt);
bool aux_dtype_is_complex(kjit_dtype dt);
double aux_get_f64(const AuxView *v, int64_t i);    /* complex: real part */
int64_t aux_get_i64(const AuxView *v, int64_t i);   /* floats truncate */
/* Stores at an element's address as C converts: ints wrap, floats round,
 * complex get a zero imaginary part. */
void aux_store_f64(void *p, kjit_dtype dt, double v);
void aux_store_i64(void *p, kjit_dtype dt, int64_t v);
uint16_t aux_f32_to_f16(float f);                   /* round to nearest even */
float aux_f16_to_f32(uint16_t h);

/* Sum of the elements as double in C order (real parts for complex), bit
 * for bit what a sequential loop gives (summary.c). */
double aux_array_sum(const AuxView *v);
/* zlib's CRC-32 (crc32.c): crc of the bytes so far (0 to start), updated
 * with data[0..n).  The portable form is the reference the fast one must
 * match. */
uint32_t aux_crc32(uint32_t crc, const void *data, size_t n);
uint32_t aux_crc32_portable(uint32_t crc, const void *data, size_t n);

#endif
