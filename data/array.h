/* array.h - host arrays and typed scalars shared by the .npy reader/writer
 * (npy.c), the host executor and the public API.
 *
 * An RtArray is a dtype, up to 4 dimensions and byte strides over `data`.
 * Strides may describe any layout (a Fortran-order .npy is a strided view);
 * element helpers take a *C-order linear index* and follow the strides, so
 * summaries and checksums never depend on the memory layout. */
#ifndef KJIT_RUNTIME_ARRAY_H
#define KJIT_RUNTIME_ARRAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RT_MAX_NDIM 8   /* as TY_MAX_NDIM (ir/type.h) and KJIT_MAX_NDIM */

typedef enum RtDtype {
  RT_BOOL, RT_I8, RT_I16, RT_I32, RT_I64, RT_U8, RT_U16, RT_U32, RT_U64,
  RT_F16, RT_F32, RT_F64, RT_C64, RT_C128,
  RT_NDTYPES,
  RT_RECORD = RT_NDTYPES,         /* a structured dtype: RtArray.rec says which */
} RtDtype;

typedef struct RtRecord RtRecord;

typedef struct RtArray {
  RtDtype dtype;
  int ndim;                       /* 0..RT_MAX_NDIM; 0 is a one-element array */
  int64_t shape[RT_MAX_NDIM];     /* entries past ndim are 0 */
  int64_t strides[RT_MAX_NDIM];   /* bytes; C order from rt_array_alloc */
  void *data;                     /* never NULL after a successful alloc/read */
  size_t nbytes;                  /* bytes of the buffer behind data */
  bool owns;                      /* rt_array_free releases data */
  bool readonly;                  /* kernels see `readonly array(...)` and may
                                     not write it (kjit_array_set_readonly,
                                     a read-only DLPack import) */
  RtRecord *rec;                  /* dtype RT_RECORD: its fields (one reference,
                                     dropped by rt_array_free; copies that are
                                     freed on their own take rt_record_retain) */
  void *map;                      /* non-NULL: data lies in this mapping, */
  size_t map_len;                 /* which rt_array_free unmaps (if owns) */
} RtArray;

/* ---- records (record.c) ---------------------------------------------- */
/* A field of a structured dtype: a number, a nested record, a fixed-size
 * array (ndim > 0) of either, or a string (text 'S': uint8 bytes, 'U':
 * uint32 UCS-4 characters, held as a 1-d array of shape[0] characters). */
typedef struct RtField {
  char *name;
  char text;                      /* 'S', 'U', or 0 for other fields */
  RtDtype dtype;                  /* RT_RECORD: rec */
  RtRecord *rec;                  /* nested record (owned by the parent) */
  int64_t offset;                 /* bytes from the record's start */
  int ndim;                       /* 0: one element; else shape[0..ndim) */
  int64_t shape[RT_MAX_NDIM];
} RtField;

struct RtRecord {
  int refs;                       /* references (atomic) */
  int64_t itemsize;
  bool aligned;                   /* NumPy's align=True ('aligned': True) */
  int nfields;
  RtField *fields;                /* in offset order */
  char *descr;                    /* NumPy's descr text for .npy headers */
};

/* Parses a NumPy descr of a structured dtype: the list form
 * "[('x', '<f4'), ('', '|V4'), ('v', '<i2', (3,))]" (unnamed '|Vn' entries
 * are padding) or the dict form "{'names': [...], 'formats': [...],
 * 'offsets': [...], 'itemsize': n, 'aligned': True}", fields of kjit's
 * number dtypes (little-endian or byte-order free), strings ('|S12',
 * '<U12'), nested records and fixed-size arrays.  Returns a new record (one reference) or NULL with
 * what is wrong in err. */
RtRecord *rt_record_parse(const char *descr, size_t len, char *err, size_t errlen);
RtRecord *rt_record_retain(RtRecord *r);   /* returns r; NULL is ignored */
void rt_record_release(RtRecord *r);       /* frees at the last reference */
bool rt_record_same(const RtRecord *a, const RtRecord *b); /* same layout */
/* Bytes of one element: the dtype's size, or the record's itemsize. */
size_t rt_array_itemsize(const RtArray *a);
/* Allocates a zero-filled C-contiguous record array (takes a reference to
 * rec).  As rt_array_alloc. */
int rt_array_alloc_record(RtArray *a, RtRecord *rec, int ndim, const int64_t *shape);
/* Field i of every element of record array a as a strided array of its own
 * (a nested array field adds its dimensions after a's), viewing a's data
 * (owns false; takes a reference to a nested record).  false when that
 * makes more than RT_MAX_NDIM dimensions. */
bool rt_record_field_view(const RtArray *a, int i, RtArray *out);


/* A typed scalar: the value stored as the dtype's own bit pattern, so it can
 * be packed into a kernel argument struct as it is. */
typedef struct RtScalar {
  RtDtype dtype;
  union {
    bool b;
    int8_t i8; int16_t i16; int32_t i32; int64_t i64;
    uint8_t u8; uint16_t u16; uint32_t u32; uint64_t u64;
    uint16_t f16;                 /* IEEE binary16 bits */
    float f32; double f64;
    float c64[2]; double c128[2]; /* real, imaginary */
    unsigned char bytes[16];
  } v;
} RtScalar;

/* ---- dtypes ---------------------------------------------------------- */
size_t rt_dtype_size(RtDtype dt);
const char *rt_dtype_name(RtDtype dt);          /* "float32" (NumPy's names) */
/* Accepts NumPy names and short forms: float32 f32 f4 float, int64 i64
 * int, uint8 u8 u1, int8 i8 i1, bool b1 ?, complex64 c64 c8 ... (i8/u8 are
 * the 8-bit types: short forms count bits, or bytes where unambiguous).
 * Not case-sensitive.
 * `len` bytes of `name` are read (no NUL needed).  false if unknown. */
bool rt_dtype_parse(const char *name, size_t len, RtDtype *out);
const char *rt_dtype_known_list(void);          /* "bool, int8, ..., complex128" */
bool rt_dtype_is_int(RtDtype dt);               /* signed or unsigned, not bool */
bool rt_dtype_is_signed(RtDtype dt);
bool rt_dtype_is_float(RtDtype dt);             /* f16/f32/f64 */
bool rt_dtype_is_complex(RtDtype dt);

/* IEEE binary16 conversions (round to nearest even). */
uint16_t rt_f32_to_f16(float f);
float rt_f16_to_f32(uint16_t h);

/* ---- arrays ---------------------------------------------------------- */
/* Arrays of this many bytes and more live in their own mapping (array.c,
 * npy.c), not on the heap. */
#define RT_MAP_MIN ((size_t)1 << 20)
/* Allocates a zero-filled C-contiguous array (64-byte aligned).  Returns 0,
 * or -1 when the size overflows or memory runs out (a->data NULL then).
 * Shape entries must be >= 0. */
int rt_array_alloc(RtArray *a, RtDtype dt, int ndim, const int64_t *shape);
void rt_array_free(RtArray *a);                 /* frees data if owned; resets *a */
int64_t rt_array_size(const RtArray *a);        /* element count (1 for 0-d) */
bool rt_array_is_c_contiguous(const RtArray *a);
/* NumPy's F_CONTIGUOUS (size-1 axes have any stride; an empty array is). */
bool rt_array_is_f_contiguous(const RtArray *a);
/* Sets C-order strides for a->shape; returns false on overflow. */
bool rt_array_set_c_strides(RtArray *a);
/* Product of shape * itemsize with overflow check; false on overflow. */
bool rt_shape_nbytes(RtDtype dt, int ndim, const int64_t *shape, size_t *out);

/* Element at C-order linear index i (0 <= i < size), following strides. */
void *rt_array_elem(const RtArray *a, int64_t i);
/* Calls fn once per innermost row, in C order: `n` elements `stride` bytes
 * apart from p.  A C-contiguous array is a single row; an empty one none. */
typedef void RtRowFn(void *ctx, const char *p, int64_t n, int64_t stride);
void rt_array_rows(const RtArray *a, RtRowFn *fn, void *ctx);
double rt_array_get_f64(const RtArray *a, int64_t i);   /* complex: real part */
int64_t rt_array_get_i64(const RtArray *a, int64_t i);  /* floats truncate */
/* Stores with C conversion semantics: ints wrap (two's complement), floats
 * round, complex gets a zero imaginary part. */
void rt_array_set_f64(RtArray *a, int64_t i, double v);
void rt_array_set_i64(RtArray *a, int64_t i, int64_t v);
/* The same stores at an element's address (no index arithmetic). */
void rt_store_f64(void *p, RtDtype dt, double v);
void rt_store_i64(void *p, RtDtype dt, int64_t v);

/* Element i formatted as NumPy prints it ("2.5", "True", "(1-2j)"). */
void rt_array_format_elem(const RtArray *a, int64_t i, char *buf, size_t len);
void rt_scalar_format(const RtScalar *s, char *buf, size_t len); /* "float32 2.5" */
/* A scalar argument converted to dtype `to` (array.c); in may be out. */
void rt_scalar_convert(const RtScalar *in, RtDtype to, RtScalar *out);

/* ---- launch values ---------------------------------------------------- */
/* An argument of a launch: a typed scalar, an array or a tuple of them. */
typedef struct RtValue {
  bool is_array;
  RtScalar scalar;                /* when neither is_array nor is_tuple; a raw
                                     pointer (is_ptr): its address as RT_U64 */
  bool is_ptr;                    /* a raw pointer (Numba's CPointer) to ... */
  RtDtype ptr_dtype;              /* ... elements of this dtype */
  RtArray array;                  /* when is_array (owned) */
  bool is_tuple;                  /* a tuple (is_array false) of ... */
  int nelems;                     /* ... elems[0..nelems) (0: empty tuple): */
  struct RtValue *elems;          /* scalars, arrays or tuples
                                     (malloc'd, freed by rt_value_free; or
                                     borrowed, as launches do) */
  const char *tname;              /* a namedtuple instance: the class's name
                                     in the kernel file (Point), else NULL */
  const char **keys;              /* NULL, or nelems entries: the field a
                                     keyword element names (NULL: positional);
                                     malloc'd or borrowed as elems */
  const void *cls;                /* launches: the IrNamedTuple tname names */
} RtValue;

/* The launch fact of 32-bit index arithmetic (IrCompile.fits32) for one
 * argument: an array whose extents and byte span (itemsize + sum of
 * (extent-1)*|stride|) are below 2^31; any scalar; a tuple when all its
 * elements do.  Cheap: launches compute it for their specialization keys
 * (the C API's fast path too, from rt_array_fits32). */
bool rt_value_fits32(const RtValue *v);
bool rt_array_fits32(const RtArray *a);

/* The launch fact of 32-bit grid indices (IrCompile.grid32): gridDim.d *
 * blockDim.d <= 2^31 - 1 in every dimension d, so cuda.grid() and
 * cuda.gridsize() fit int32.  On a GPU only x can fail: CUDA limits
 * gridDim.y and .z to 65535 and blockDim.y to 1024 (.z to 64), so y and z
 * reach at most 65535 * 1024 < 2^27; the CPU target does not limit
 * gridDim.y and .z, so all three are checked (three multiplies; every
 * launch computes it for its specialization key). */
static inline bool rt_launch_grid32(const uint32_t grid[3], const uint32_t block[3]) {
  return (uint64_t)grid[0] * block[0] <= 2147483647u && (uint64_t)grid[1] * block[1] <= 2147483647u &&
         (uint64_t)grid[2] * block[2] <= 2147483647u;
}

/* Frees what v owns (its array, element lists, keys and name). */
void rt_value_free(RtValue *v);

#endif
