/* type.h - kjit's types and Numba's typing rules.
 *
 * Scalar types are static singletons; array and tuple types are interned in a
 * TypeTable, so two Type pointers are equal exactly when the types are equal.
 * The rules here (binary-op result types, unification, literal types) are
 * Numba's, as listed in docs/language.md; typing/infer.c applies them. */
#ifndef KJIT_IR_TYPE_H
#define KJIT_IR_TYPE_H

#include <stdbool.h>
#include <stdint.h>

#include "common/arena.h"

typedef enum TypeKind {
  TY_UNKNOWN,   /* not yet inferred */
  TY_VOID,      /* no value (kernels, statements) */
  TY_NONE,      /* the value None */
  TY_BOOL,
  TY_I8, TY_I16, TY_I32, TY_I64,
  TY_U8, TY_U16, TY_U32, TY_U64,
  TY_F16, TY_F32, TY_F64,
  TY_C64, TY_C128,
  TY_ARRAY,     /* elem, ndim, layout */
  TY_TUPLE,     /* elems[0..nelems) */
  TY_STR,       /* a string constant (only as a print argument) */
  TY_FUNC,      /* a function as a compile-time value: func (a device function's
                   generic IrFunc) or builtin (a path, "numba.cuda.atomic.add");
                   no run-time data (Numba's function and dispatcher types) */
  TY_DTYPE,     /* a dtype as a value (np.float32, arr.dtype): elem
                   (Numba's NumberClass, printed class(float32)) */
  TY_GRID_GROUP,/* cuda.cg.this_grid()'s value (Numba's GridGroup): .sync() */
  TY_RECORD,    /* a structured dtype (Numba's Record): fields elems[0..nelems)
                   named fnames[] at byte offsets offsets[], size bytes, align
                   bytes; a value is a reference to the bytes (an element of a
                   record array, or a record argument passed by reference) */
  TY_NESTED,    /* a fixed-size array field of a record (('v', f4, 3); Numba's
                   NestedArray): elem, ndim, dims[]; reading the field gives a
                   C array(elem, ndim) viewing the record's bytes */
  TY_BF16,      /* numba.cuda.bf16.bfloat16: 16-bit storage, not a number to
                   the generic rules (Numba's Bfloat16 is no Float); its
                   typing is ir/infer_bf16.c's */
  TY_FP8_E4M3,  /* numba.cuda._internal.cuda_fp8's fp8 scalars: one byte of */
  TY_FP8_E5M2,  /* storage (the cuda_fp8.h bits), no arithmetic; made and   */
  TY_FP8_E8M0,  /* read only by conversions (typing/infer_fp8.c)            */
  TY_PTR,       /* a raw pointer to elem (Numba's CPointer(T), printed
                   "float32*"): a kernel parameter given as types.CPointer;
                   p[i] loads and stores, no shape, no wraparound */
  TY_CHARSEQ,   /* a string field of a record (NumPy 'S<n>' / 'U<n>'; Numba's
                   CharSeq / UnicodeCharSeq): elem the character (uint8 for
                   bytes, uint32 for UCS-4 text), size bytes, align the
                   character's size; only ever stored into, from a constant */
  TY_BYTES,     /* a bytes constant (b'...'; Numba's readonly Bytes): only as
                   the value stored into a CharSeq field */
} TypeKind;

typedef enum Layout {
  LAYOUT_A,     /* any strides: address = ptr + sum(i_k * strides[k]) (bytes) */
  LAYOUT_C,     /* C-contiguous: strides are implied by the shape */
} Layout;

/* Dimensions of an array type.  Numba takes NumPy's limit (32); kjit
 * stops at 8, which every array in numba-cuda's tests and the public code
 * measured fits, so descriptors stay fixed-size arrays. */
#define TY_MAX_NDIM 8

typedef struct Type Type;
struct Type {
  TypeKind kind;
  const Type *elem;       /* TY_ARRAY: element dtype (a scalar type);
                             TY_PTR: the pointee (a number);
                             TY_TUPLE: NULL, or for a CUDA vector type
                             (float32x4...) its base type */
  int ndim;               /* TY_ARRAY: 1..TY_MAX_NDIM */
  Layout layout;          /* TY_ARRAY */
  bool readonly;          /* TY_ARRAY: constant memory (cuda.const.array_like,
                             module-level arrays); stores are type errors */
  int nelems;             /* TY_TUPLE */
  const Type **elems;     /* TY_TUPLE */
  const char *tname;      /* TY_TUPLE of a namedtuple class (Numba's NamedTuple /
                             NamedUniTuple): the class name; NULL otherwise */
  const char *const *fields; /* its nelems field names (the class's own array:
                             interned by identity) */
  const void *func;       /* TY_FUNC: the generic IrFunc, or NULL for a builtin */
  const char *fname;      /* TY_FUNC: the function's name or builtin path (interned
                             by identity of func/builtin, the name is for messages) */
  const char *const *fnames; /* TY_RECORD: field names (nelems) */
  const int *offsets;     /* TY_RECORD: byte offset of each field */
  const int *dims;        /* TY_NESTED: the ndim extents */
  int size;               /* TY_RECORD, TY_NESTED: bytes of storage */
  int align;              /* TY_RECORD: alignment (NumPy's: the largest field
                             alignment when aligned, else 1); TY_NESTED: elem's */
  bool aligned;           /* TY_RECORD: made with align=True (printed in the name) */
};

extern const Type ty_unknown_, ty_void_, ty_none_, ty_bool_, ty_i8_, ty_i16_,
    ty_i32_, ty_i64_, ty_u8_, ty_u16_, ty_u32_, ty_u64_, ty_f16_, ty_f32_,
    ty_f64_, ty_c64_, ty_c128_, ty_str_, ty_grid_group_, ty_bf16_,
    ty_fp8_e4m3_, ty_fp8_e5m2_, ty_fp8_e8m0_, ty_bytes_;
#define TY_UNKNOWN_T (&ty_unknown_)
#define TY_VOID_T (&ty_void_)
#define TY_NONE_T (&ty_none_)
#define TY_BOOL_T (&ty_bool_)
#define TY_I8_T (&ty_i8_)
#define TY_I16_T (&ty_i16_)
#define TY_I32_T (&ty_i32_)
#define TY_I64_T (&ty_i64_)
#define TY_U8_T (&ty_u8_)
#define TY_U16_T (&ty_u16_)
#define TY_U32_T (&ty_u32_)
#define TY_U64_T (&ty_u64_)
#define TY_F16_T (&ty_f16_)
#define TY_F32_T (&ty_f32_)
#define TY_F64_T (&ty_f64_)
#define TY_C64_T (&ty_c64_)
#define TY_C128_T (&ty_c128_)
#define TY_STR_T (&ty_str_)
#define TY_BYTES_T (&ty_bytes_)
#define TY_GRID_GROUP_T (&ty_grid_group_)
#define TY_BF16_T (&ty_bf16_)
#define TY_FP8_E4M3_T (&ty_fp8_e4m3_)
#define TY_FP8_E5M2_T (&ty_fp8_e5m2_)
#define TY_FP8_E8M0_T (&ty_fp8_e8m0_)
/* One of the three fp8 types. */
static inline bool ty_is_fp8(const Type *t) {
  return t && (t->kind == TY_FP8_E4M3 || t->kind == TY_FP8_E5M2 || t->kind == TY_FP8_E8M0);
}

/* Interning table for arrays and tuples; lives as long as the program. */
typedef struct TypeTable TypeTable;
TypeTable *ty_table_new(Arena *arena);
const Type *ty_array(TypeTable *tt, const Type *elem, int ndim, Layout layout);
/* The same array type, read-only (Numba's `readonly array(...)`). */
const Type *ty_array_readonly(TypeTable *tt, const Type *elem, int ndim, Layout layout);
const Type *ty_tuple(TypeTable *tt, const Type *const *elems, int n);
const Type *ty_unituple(TypeTable *tt, const Type *elem, int n);
/* A namedtuple class's instance type: a tuple of elems whose element i is
 * also field fields[i] (fields: n names that live as long as the table). */
const Type *ty_named_tuple(TypeTable *tt, const char *tname, const char *const *fields,
                           const Type *const *elems, int n);
/* The index of field `name` of a named tuple type, or -1. */
int ty_field_index(const Type *t, const char *name);
/* A function value: a device function (func = its generic IrFunc, name its
 * Python name) or a builtin (func NULL, name its canonical path). */
const Type *ty_func(TypeTable *tt, const void *func, const char *name);
/* A raw pointer to elem (a number): Numba's CPointer(elem). */
const Type *ty_ptr(TypeTable *tt, const Type *elem);
/* A dtype value: np.float32 used as a value (elem a scalar type). */
const Type *ty_dtype(TypeTable *tt, const Type *elem);
/* A record type of n fields (names are copied; sorted by offset then name,
 * as Numba sorts them), size bytes; NULL when a field type is not a number,
 * a record or a nested array, or a field lies outside size. */
const Type *ty_record(TypeTable *tt, int n, const char *const *names, const Type *const *types,
                      const int *offsets, int size, bool aligned);
/* A nested array field type: ndim (1..4) extents dims of elem (a number). */
const Type *ty_nested(TypeTable *tt, const Type *elem, int ndim, const int *dims);
/* A string field's type: count characters of one byte (bytes, 'S<n>') or
 * four (unicode, 'U<n>'); NULL for a count outside 1..2^20. */
const Type *ty_charseq(TypeTable *tt, bool unicode, int count);
/* a == b, or two records with the same fields, offsets and size (the
 * align flag aside: a .npy file does not keep it), or arrays of such. */
bool ty_record_layout_eq(const Type *a, const Type *b);
/* The index of field `name` of record t, or -1. */
int ty_record_field(const Type *t, const char *name);
/* NumPy's alignment of a field type: numbers their size (complex: its part),
 * records their align, nested arrays their element's. */
int ty_align(const Type *t);
/* A compile-time value with no run-time data (TY_FUNC, TY_DTYPE). */
bool ty_is_ctvalue(const Type *t);
/* The CUDA vector type of n (1..4) elements of int/float type base
 * (cuda.float32x4): a tuple in layout and codegen, distinct from
 * UniTuple(base x n) in typing, named "float32x4". */
const Type *ty_vector(TypeTable *tt, const Type *base, int n);
bool ty_is_vector(const Type *t);

/* Classification. */
bool ty_is_int(const Type *t);     /* signed or unsigned integer, not bool */
bool ty_is_signed(const Type *t);  /* signed integer */
bool ty_is_float(const Type *t);   /* f16/f32/f64 */
bool ty_is_complex(const Type *t);
bool ty_is_number(const Type *t);  /* bool, int, float or complex */
bool ty_is_scalar(const Type *t);  /* number */
int ty_bits(const Type *t);        /* 1 for bool, 8..64 for ints/floats, 64/128 complex */
int ty_size(const Type *t);        /* bytes of storage: bool is 1 byte; records
                                      and nested arrays their size */
const Type *ty_int(int bits, bool is_signed);
const Type *ty_float(int bits);

/* Numba's rules (see docs/language.md).  Each returns NULL where the
 * operation has no typing (the caller reports the error). */
const Type *ty_unify(TypeTable *tt, const Type *a, const Type *b);
/* Result type of an arithmetic binary op (IrOp from ops.h, as int to keep
 * this header independent).  *operand receives the type both operands are
 * converted to before the operation (differs from the result for int / int,
 * comparisons, and pow(float, int)). */
const Type *ty_binop(int op, const Type *a, const Type *b, const Type **operand);
const Type *ty_unop(int op, const Type *a);

/* Numba-style names: "float32", "array(float32, 2d, C)", "UniTuple(int64 x 2)",
 * "Tuple(int64, float32)".  Writes into buf (NUL-terminated, truncated). */
const char *ty_name(const Type *t, char *buf, int size);
/* Lookup by dtype name as written in kernels and signatures ("float32",
 * "f4", "int64", "uint8", "bool_", "boolean", "intp", "complex64", ...). */
const Type *ty_from_name(const char *name);

#endif
