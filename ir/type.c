/* type.c - kjit's types: scalar singletons, interned arrays and tuples, and
 * Numba's typing rules for operators and unification.
 *
 * Sits under typing/infer.c, which applies these rules to IR.  Invariant: two
 * Type pointers are equal exactly when the types are equal (scalars are
 * static singletons, arrays and tuples are interned in a TypeTable), so
 * callers compare types with ==.  Every rule returns NULL where Numba has no
 * typing; the caller reports the error.  The rules are the ones measured on
 * Numba 0.68 / numba-cuda 0.30 (docs/language.md, "Typing rules"). */
#include "ir/type.h"

#include <stdio.h>
#include <string.h>

#include "common/hash.h"
#include "ir/ops.h"

const Type ty_unknown_ = {.kind = TY_UNKNOWN}, ty_void_ = {.kind = TY_VOID},
           ty_none_ = {.kind = TY_NONE}, ty_bool_ = {.kind = TY_BOOL},
           ty_i8_ = {.kind = TY_I8}, ty_i16_ = {.kind = TY_I16},
           ty_i32_ = {.kind = TY_I32}, ty_i64_ = {.kind = TY_I64},
           ty_u8_ = {.kind = TY_U8}, ty_u16_ = {.kind = TY_U16},
           ty_u32_ = {.kind = TY_U32}, ty_u64_ = {.kind = TY_U64},
           ty_f16_ = {.kind = TY_F16}, ty_f32_ = {.kind = TY_F32},
           ty_f64_ = {.kind = TY_F64}, ty_c64_ = {.kind = TY_C64},
           ty_c128_ = {.kind = TY_C128}, ty_str_ = {.kind = TY_STR},
           ty_grid_group_ = {.kind = TY_GRID_GROUP}, ty_bf16_ = {.kind = TY_BF16},
           ty_fp8_e4m3_ = {.kind = TY_FP8_E4M3}, ty_fp8_e5m2_ = {.kind = TY_FP8_E5M2},
           ty_fp8_e8m0_ = {.kind = TY_FP8_E8M0}, ty_bytes_ = {.kind = TY_BYTES};

/* ------------------------------------------------------------ interning -- */

#define NBUCKETS 256

typedef struct TypeNode {
  struct TypeNode *next; /* bucket chain */
  uint64_t hash;
  Type type;
} TypeNode;

struct TypeTable {
  Arena *arena;                 /* owns every interned type */
  TypeNode *buckets[NBUCKETS];
};

TypeTable *ty_table_new(Arena *arena) {
  TypeTable *tt = arena_alloc(arena, sizeof *tt);
  tt->arena = arena;
  return tt;
}

/* Structural hash; components are already interned, so their addresses
 * identify them within one process (the table is never persisted). */
static uint64_t hash_type(const Type *t) {
  uint64_t h = hash_u64(HASH_SEED, (uint64_t)t->kind);
  h = hash_u64(h, (uint64_t)(uintptr_t)t->elem);
  h = hash_u64(h, (uint64_t)t->ndim * 8 + (uint64_t)t->layout * 2 + t->readonly);
  h = hash_u64(h, (uint64_t)t->nelems);
  for (int i = 0; i < t->nelems; i++)
    h = hash_u64(h, (uint64_t)(uintptr_t)t->elems[i]);
  h = hash_u64(h, (uint64_t)(uintptr_t)t->func);
  h = hash_u64(h, (uint64_t)(uintptr_t)t->fields);
  h = hash_u64(h, t->fname && !t->func ? hash_str(HASH_SEED, t->fname) : 0);
  h = hash_u64(h, (uint64_t)t->size * 2 + t->aligned);
  for (int i = 0; t->kind == TY_RECORD && i < t->nelems; i++)
    h = hash_u64(hash_u64(h, hash_str(HASH_SEED, t->fnames[i])), (uint64_t)t->offsets[i]);
  for (int i = 0; t->kind == TY_NESTED && i < t->ndim; i++)
    h = hash_u64(h, (uint64_t)t->dims[i]);
  return h;
}

static bool same_shape(const Type *a, const Type *b) {
  if (a->kind != b->kind || a->elem != b->elem || a->ndim != b->ndim ||
      a->layout != b->layout || a->readonly != b->readonly || a->nelems != b->nelems ||
      a->func != b->func || a->fields != b->fields ||
      (a->tname != b->tname && (!a->tname || !b->tname || strcmp(a->tname, b->tname) != 0)))
    return false;
  if (a->kind == TY_FUNC && !a->func && strcmp(a->fname, b->fname) != 0)
    return false; /* builtins are identified by their path */
  for (int i = 0; i < a->nelems; i++)
    if (a->elems[i] != b->elems[i])
      return false;
  if (a->size != b->size || a->aligned != b->aligned)
    return false;
  for (int i = 0; a->kind == TY_RECORD && i < a->nelems; i++)
    if (a->offsets[i] != b->offsets[i] || strcmp(a->fnames[i], b->fnames[i]) != 0)
      return false;
  for (int i = 0; a->kind == TY_NESTED && i < a->ndim; i++)
    if (a->dims[i] != b->dims[i])
      return false;
  return true;
}

/* A record's names and offsets, copied into the table's arena. */
static void copy_record(Arena *a, Type *dst, const Type *key) {
  const char **names = arena_alloc(a, sizeof *names * (size_t)(key->nelems + 1));
  int *offs = arena_alloc(a, sizeof *offs * (size_t)(key->nelems + 1));
  for (int i = 0; i < key->nelems; i++) {
    size_t len = strlen(key->fnames[i]);
    char *s = arena_alloc(a, len + 1);
    memcpy(s, key->fnames[i], len + 1);
    names[i] = s;
    offs[i] = key->offsets[i];
  }
  dst->fnames = names;
  dst->offsets = offs;
}

/* Return the interned copy of *key, creating it (and copying its element
 * array into the arena) on first use. */
static const Type *intern(TypeTable *tt, const Type *key) {
  uint64_t h = hash_type(key);
  TypeNode **slot = &tt->buckets[h % NBUCKETS];
  for (TypeNode *n = *slot; n; n = n->next)
    if (n->hash == h && same_shape(&n->type, key))
      return &n->type;
  TypeNode *n = arena_alloc(tt->arena, sizeof *n);
  n->hash = h;
  n->type = *key;
  if (key->nelems > 0) {
    const Type **el = arena_alloc(tt->arena, sizeof *el * (size_t)key->nelems);
    memcpy(el, key->elems, sizeof *el * (size_t)key->nelems);
    n->type.elems = el;
  }
  if (key->kind == TY_RECORD)
    copy_record(tt->arena, &n->type, key);
  if (key->kind == TY_NESTED) {
    int *d = arena_alloc(tt->arena, sizeof *d * (size_t)key->ndim);
    memcpy(d, key->dims, sizeof *d * (size_t)key->ndim);
    n->type.dims = d;
  }
  n->next = *slot;
  *slot = n;
  return &n->type;
}

/* Array elements: numbers, records, and bfloat16 (local and shared memory
 * only: ir/lower_bf16.c). */
static bool is_elem(const Type *t) {
  return ty_is_scalar(t) || (t && t->kind == TY_RECORD) || t == TY_BF16_T;
}

const Type *ty_array(TypeTable *tt, const Type *elem, int ndim, Layout layout) {
  if (!tt || !is_elem(elem) || ndim < 1 || ndim > TY_MAX_NDIM)
    return NULL;
  Type key = {.kind = TY_ARRAY, .elem = elem, .ndim = ndim, .layout = layout};
  return intern(tt, &key);
}

const Type *ty_array_readonly(TypeTable *tt, const Type *elem, int ndim, Layout layout) {
  if (!tt || !is_elem(elem) || ndim < 1 || ndim > TY_MAX_NDIM)
    return NULL;
  Type key = {.kind = TY_ARRAY, .elem = elem, .ndim = ndim, .layout = layout, .readonly = true};
  return intern(tt, &key);
}

const Type *ty_tuple(TypeTable *tt, const Type *const *elems, int n) {
  if (!tt || n < 0)
    return NULL;
  for (int i = 0; i < n; i++)
    if (!elems[i])
      return NULL;
  Type key = {.kind = TY_TUPLE, .nelems = n, .elems = (const Type **)elems};
  return intern(tt, &key);
}

const Type *ty_named_tuple(TypeTable *tt, const char *tname, const char *const *fields,
                           const Type *const *elems, int n) {
  if (!tt || n < 0 || !tname || !fields)
    return NULL;
  for (int i = 0; i < n; i++)
    if (!elems[i])
      return NULL;
  Type key = {.kind = TY_TUPLE, .nelems = n, .elems = (const Type **)elems, .tname = tname,
              .fields = fields};
  return intern(tt, &key);
}

int ty_field_index(const Type *t, const char *name) {
  for (int i = 0; t && t->kind == TY_TUPLE && t->fields && name && i < t->nelems; i++)
    if (strcmp(t->fields[i], name) == 0)
      return i;
  return -1;
}

const Type *ty_func(TypeTable *tt, const void *func, const char *name) {
  if (!tt || !name)
    return NULL;
  Type key = {.kind = TY_FUNC, .func = func, .fname = name};
  return intern(tt, &key);
}

const Type *ty_ptr(TypeTable *tt, const Type *elem) {
  if (!tt || !ty_is_number(elem))
    return NULL;
  Type key = {.kind = TY_PTR, .elem = elem};
  return intern(tt, &key);
}

const Type *ty_dtype(TypeTable *tt, const Type *elem) {
  if (!tt || !is_elem(elem))
    return NULL;
  Type key = {.kind = TY_DTYPE, .elem = elem};
  return intern(tt, &key);
}

/* ------------------------------------------------------------- records -- */

int ty_align(const Type *t) {
  if (!t)
    return 1;
  if (t->kind == TY_RECORD || t->kind == TY_NESTED || t->kind == TY_CHARSEQ)
    return t->align > 0 ? t->align : 1;
  if (ty_is_complex(t))
    return ty_size(t) / 2;
  return ty_size(t) > 0 ? ty_size(t) : 1;
}

static bool is_field_type(const Type *t) {
  return ty_is_number(t) || (t && (t->kind == TY_RECORD || t->kind == TY_NESTED ||
                                   t->kind == TY_CHARSEQ));
}

/* Field i goes before field j: by offset, then by name (Numba's order). */
static bool field_before(const char *const *names, const int *offs, int i, int j) {
  return offs[i] != offs[j] ? offs[i] < offs[j] : strcmp(names[i], names[j]) < 0;
}

const Type *ty_record(TypeTable *tt, int n, const char *const *names, const Type *const *types,
                      const int *offsets, int size, bool aligned) {
  if (!tt || n < 1 || n > 64 || size < 1)
    return NULL;
  int order[64];
  for (int i = 0; i < n; i++) {
    if (!names[i] || !is_field_type(types[i]) || offsets[i] < 0 ||
        offsets[i] + ty_size(types[i]) > size)
      return NULL;
    int k = i; /* insertion sort into order[0..i] */
    while (k > 0 && field_before(names, offsets, i, order[k - 1])) {
      order[k] = order[k - 1];
      k--;
    }
    order[k] = i;
  }
  const char *nm[64];
  const Type *ts[64];
  int of[64], align = 1;
  for (int i = 0; i < n; i++) {
    nm[i] = names[order[i]];
    ts[i] = types[order[i]];
    of[i] = offsets[order[i]];
    if (aligned && ty_align(ts[i]) > align)
      align = ty_align(ts[i]);
  }
  Type key = {.kind = TY_RECORD, .nelems = n, .elems = ts, .fnames = nm, .offsets = of,
              .size = size, .align = align, .aligned = aligned};
  return intern(tt, &key);
}

const Type *ty_nested(TypeTable *tt, const Type *elem, int ndim, const int *dims) {
  if (!tt || !(ty_is_number(elem) || (elem && elem->kind == TY_RECORD)) || ndim < 1 || ndim > 4)
    return NULL;
  int64_t n = 1;
  for (int i = 0; i < ndim; i++) {
    if (dims[i] < 1 || dims[i] > (1 << 20))
      return NULL;
    n *= dims[i];
  }
  if (n * ty_size(elem) > (1 << 24))
    return NULL;
  Type key = {.kind = TY_NESTED, .elem = elem, .ndim = ndim, .dims = dims,
              .size = (int)(n * ty_size(elem)), .align = ty_align(elem)};
  return intern(tt, &key);
}

const Type *ty_charseq(TypeTable *tt, bool unicode, int count) {
  if (!tt || count < 1 || count > (1 << 20))
    return NULL;
  int width = unicode ? 4 : 1;
  Type key = {.kind = TY_CHARSEQ, .elem = unicode ? TY_U32_T : TY_U8_T, .size = count * width,
              .align = width};
  return intern(tt, &key);
}

bool ty_record_layout_eq(const Type *a, const Type *b) {
  if (a == b)
    return true;
  if (!a || !b || a->kind != b->kind || a->nelems != b->nelems || a->size != b->size)
    return false;
  if (a->kind == TY_CHARSEQ)
    return a->elem == b->elem;
  if (a->kind == TY_NESTED)
    return a->ndim == b->ndim && ty_record_layout_eq(a->elem, b->elem) &&
           memcmp(a->dims, b->dims, sizeof *a->dims * (size_t)a->ndim) == 0;
  if (a->kind != TY_RECORD)
    return false;
  for (int i = 0; i < a->nelems; i++)
    if (a->offsets[i] != b->offsets[i] || strcmp(a->fnames[i], b->fnames[i]) != 0 ||
        !ty_record_layout_eq(a->elems[i], b->elems[i]))
      return false;
  return true;
}

int ty_record_field(const Type *t, const char *name) {
  for (int i = 0; t && t->kind == TY_RECORD && name && i < t->nelems; i++)
    if (strcmp(t->fnames[i], name) == 0)
      return i;
  return -1;
}

bool ty_is_ctvalue(const Type *t) { return t && (t->kind == TY_FUNC || t->kind == TY_DTYPE); }

const Type *ty_unituple(TypeTable *tt, const Type *elem, int n) {
  if (n < 0 || n > 64)
    return NULL;
  const Type *el[64];
  for (int i = 0; i < n; i++)
    el[i] = elem;
  return ty_tuple(tt, el, n);
}

const Type *ty_vector(TypeTable *tt, const Type *base, int n) {
  if (!tt || n < 1 || n > 4 || !(ty_is_int(base) || ty_is_float(base)))
    return NULL;
  const Type *el[4] = {base, base, base, base};
  Type key = {.kind = TY_TUPLE, .elem = base, .nelems = n, .elems = el};
  return intern(tt, &key);
}

bool ty_is_vector(const Type *t) { return t && t->kind == TY_TUPLE && t->elem; }

/* -------------------------------------------------------- classification -- */

bool ty_is_int(const Type *t) { return t && t->kind >= TY_I8 && t->kind <= TY_U64; }
bool ty_is_signed(const Type *t) { return t && t->kind >= TY_I8 && t->kind <= TY_I64; }
bool ty_is_float(const Type *t) { return t && t->kind >= TY_F16 && t->kind <= TY_F64; }
bool ty_is_complex(const Type *t) { return t && (t->kind == TY_C64 || t->kind == TY_C128); }
bool ty_is_number(const Type *t) { return t && t->kind >= TY_BOOL && t->kind <= TY_C128; }
bool ty_is_scalar(const Type *t) { return ty_is_number(t); }

int ty_bits(const Type *t) {
  if (!t)
    return 0;
  switch (t->kind) {
  case TY_BOOL: return 1;
  case TY_I8: case TY_U8: case TY_FP8_E4M3: case TY_FP8_E5M2: case TY_FP8_E8M0: return 8;
  case TY_I16: case TY_U16: case TY_F16: case TY_BF16: return 16;
  case TY_I32: case TY_U32: case TY_F32: return 32;
  case TY_I64: case TY_U64: case TY_F64: case TY_C64: return 64;
  case TY_C128: return 128;
  default: return 0;
  }
}

int ty_size(const Type *t) {
  if (t && (t->kind == TY_RECORD || t->kind == TY_NESTED || t->kind == TY_CHARSEQ))
    return t->size;
  if (t && t->kind == TY_BOOL)
    return 1; /* stored as a byte, as NumPy does */
  return ty_bits(t) / 8;
}

const Type *ty_int(int bits, bool is_signed) {
  switch (bits) {
  case 8: return is_signed ? TY_I8_T : TY_U8_T;
  case 16: return is_signed ? TY_I16_T : TY_U16_T;
  case 32: return is_signed ? TY_I32_T : TY_U32_T;
  case 64: return is_signed ? TY_I64_T : TY_U64_T;
  default: return NULL;
  }
}

const Type *ty_float(int bits) {
  switch (bits) {
  case 16: return TY_F16_T;
  case 32: return TY_F32_T;
  case 64: return TY_F64_T;
  default: return NULL;
  }
}

/* ------------------------------------------------------------- the rules -- */

static bool is_intlike(const Type *t) { return ty_is_int(t) || (t && t->kind == TY_BOOL); }

/* Integer binary arithmetic: Numba only has 64-bit integer kernels
 * (machine_ints int64/uint64), so the result is 64 bits, unsigned only when
 * both sides are unsigned integers: bool with anything is int64 (overload
 * resolution prefers the (int64, uint64) case for bool + uint32). */
static const Type *widen_ints(const Type *a, const Type *b) {
  bool both_unsigned = ty_is_int(a) && !ty_is_signed(a) && ty_is_int(b) && !ty_is_signed(b);
  return both_unsigned ? TY_U64_T : TY_I64_T;
}

/* Shifts take the left operand's signedness (uint8 << int8 is uint64). */
static const Type *widen_shift(const Type *a) {
  return ty_is_int(a) && !ty_is_signed(a) ? TY_U64_T : TY_I64_T;
}

/* The narrowest float an integer (or bool) converts to safely, from Numba's
 * casting rules as measured: bool and int8 -> float16; uint8 and int16 ->
 * float32; anything wider (uint16 included) -> float64. */
static int int_float_bits(const Type *i) {
  switch (i->kind) {
  case TY_BOOL: case TY_I8: return 16;
  case TY_U8: case TY_I16: return 32;
  default: return 64;
  }
}

/* NumPy's promote_types for int with float, which unification uses (it
 * differs from the casting rules above: uint8 -> float16, uint16 -> float32). */
static int numpy_float_bits(const Type *i) {
  int bits = ty_bits(i);
  return bits <= 8 ? 16 : bits == 16 ? 32 : 64;
}

static const Type *max_float(const Type *a, const Type *b) {
  return ty_bits(a) >= ty_bits(b) ? a : b;
}

/* Float with float or float with int: the float both convert to safely
 * (numpy: NumPy's promotion table instead of Numba's casting rules). */
static const Type *float_with(const Type *a, const Type *b, bool numpy) {
  if (ty_is_float(a) && ty_is_float(b))
    return max_float(a, b);
  const Type *f = ty_is_float(a) ? a : b, *i = ty_is_float(a) ? b : a;
  return max_float(f, ty_float(numpy ? numpy_float_bits(i) : int_float_bits(i)));
}

static const Type *unify_float(const Type *a, const Type *b) { return float_with(a, b, false); }

/* Complex with any number: complex64 holds float32 and what converts
 * safely to it; anything wider needs complex128. */
static const Type *unify_complex(const Type *a, const Type *b) {
  const Type *c = ty_is_complex(a) ? a : b, *o = ty_is_complex(a) ? b : a;
  if (c->kind == TY_C128 || o->kind == TY_C128)
    return TY_C128_T;
  if (ty_is_complex(o))
    return TY_C64_T;
  const Type *f = ty_is_float(o) ? o : ty_float(int_float_bits(o));
  return ty_bits(f) <= 32 ? TY_C64_T : TY_C128_T;
}

/* Unification of two integers (NumPy's promote_types, as Numba's
 * Integer.unify uses): same signedness -> the wider; mixed -> a signed type
 * holding both; uint64 with a signed type has none, and NumPy (so Numba)
 * gives float64. */
static const Type *unify_ints(const Type *a, const Type *b) {
  if (ty_is_signed(a) == ty_is_signed(b))
    return ty_bits(a) >= ty_bits(b) ? a : b;
  const Type *s = ty_is_signed(a) ? a : b, *u = ty_is_signed(a) ? b : a;
  if (ty_bits(s) > ty_bits(u))
    return s;
  return ty_bits(u) < 64 ? ty_int(ty_bits(u) * 2, true) : TY_F64_T;
}

/* Unification of numbers (NumPy's promote_types, as Numba's Number.unify
 * uses); the result may not be an integer (uint64 with signed: float64). */
static const Type *unify_numbers(const Type *a, const Type *b) {
  if (a == b)
    return a;
  if (ty_is_complex(a) || ty_is_complex(b))
    return unify_complex(a, b);
  if (ty_is_float(a) || ty_is_float(b))
    return float_with(a, b, true);
  if (a->kind == TY_BOOL)
    return b;
  if (b->kind == TY_BOOL)
    return a;
  return unify_ints(a, b);
}

static const Type *unify_tuples(TypeTable *tt, const Type *a, const Type *b) {
  if (a->nelems != b->nelems || a->nelems > 64 || a->fields != b->fields)
    return NULL; /* a namedtuple unifies only with its own class */
  const Type *el[64];
  for (int i = 0; i < a->nelems; i++) {
    el[i] = ty_unify(tt, a->elems[i], b->elems[i]);
    if (!el[i])
      return NULL;
  }
  return a->fields ? ty_named_tuple(tt, a->tname, a->fields, el, a->nelems)
                   : ty_tuple(tt, el, a->nelems);
}

const Type *ty_unify(TypeTable *tt, const Type *a, const Type *b) {
  if (!a || !b || a->kind == TY_UNKNOWN || b->kind == TY_UNKNOWN)
    return NULL;
  if (a == b)
    return a;
  if (ty_is_number(a) && ty_is_number(b))
    return unify_numbers(a, b);
  if (a->kind == TY_ARRAY && b->kind == TY_ARRAY) {
    /* C with A is A (Numba's Array.unify); dtype and ndim must agree;
     * read-only with mutable is read-only */
    if (a->elem != b->elem || a->ndim != b->ndim)
      return NULL;
    Layout l = a->layout == b->layout ? a->layout : LAYOUT_A;
    return a->readonly || b->readonly ? ty_array_readonly(tt, a->elem, a->ndim, l)
                                      : ty_array(tt, a->elem, a->ndim, l);
  }
  if (ty_is_vector(a) || ty_is_vector(b))
    return NULL; /* a vector type unifies only with itself (a == b above) */
  if (a->kind == TY_TUPLE && b->kind == TY_TUPLE)
    return unify_tuples(tt, a, b);
  return NULL; /* none with anything: optional types are not supported */
}

static bool is_cmp(int op) { return op >= OP_EQ && op <= OP_GE; }

/* The type two numbers are compared in.  Numba has comparison cases for
 * every int width, so ints unify (int32 < int32 stays int32), but the
 * overload rating (not NumPy) decides: uint64 with a signed int compares
 * as int64 (the first of two tied unsafe cases), int with float by the
 * casting rules (uint16 < float32 in float64). */
static const Type *compare_operand(const Type *a, const Type *b) {
  if (ty_is_complex(a) || ty_is_complex(b))
    return unify_complex(a, b);
  if (ty_is_float(a) || ty_is_float(b))
    return unify_float(a, b);
  const Type *u = unify_numbers(a, b);
  return ty_is_float(u) ? TY_I64_T : u;
}

/* + - * / // % ** with at least one float or complex operand. */
static const Type *float_arith(int op, const Type *a, const Type *b,
                               const Type **operand) {
  if (ty_is_complex(a) || ty_is_complex(b)) {
    if (op == OP_FLOORDIV || op == OP_MOD)
      return NULL; /* Python rejects // and % on complex */
    return *operand = unify_complex(a, b);
  }
  const Type *f = unify_float(a, b);
  /* numba-cuda has float16 kernels for + - * / only: // % ** go to float32 */
  bool no_f16 = op == OP_FLOORDIV || op == OP_MOD || op == OP_POW;
  if (op == OP_POW && ty_is_float(a) && is_intlike(b)) {
    /* float ** int keeps the float type; the exponent stays int64 (the
     * caller converts args[1] to int64, not to *operand) */
    f = a;
    if (f == TY_F16_T)
      f = TY_F32_T;
    *operand = f;
    return f;
  }
  if (no_f16 && f == TY_F16_T)
    f = TY_F32_T;
  return *operand = f;
}

/* Arithmetic on ints and bools only. */
static const Type *int_arith(int op, const Type *a, const Type *b,
                             const Type **operand) {
  bool both_bool = a->kind == TY_BOOL && b->kind == TY_BOOL;
  if (both_bool && (op == OP_BITAND || op == OP_BITOR || op == OP_BITXOR))
    return *operand = TY_BOOL_T;
  if (op == OP_TRUEDIV) {
    *operand = TY_F64_T;
    return TY_F64_T;
  }
  if (op == OP_POW && a->kind == TY_BOOL && b->kind == TY_I32) {
    /* measured Numba quirk: the (float32, intp) pow case wins the overload
     * tie for bool ** int32; the exponent stays an integer */
    *operand = TY_F32_T;
    return TY_F32_T;
  }
  if (op == OP_LSHIFT || op == OP_RSHIFT)
    return *operand = widen_shift(a);
  return *operand = widen_ints(a, b);
}

const Type *ty_binop(int op, const Type *a, const Type *b, const Type **operand) {
  const Type *dummy;
  if (!operand)
    operand = &dummy;
  *operand = NULL;
  if (!ty_is_number(a) || !ty_is_number(b))
    return NULL;
  if (is_cmp(op)) {
    bool ordered = op != OP_EQ && op != OP_NE;
    if (ordered && (ty_is_complex(a) || ty_is_complex(b)))
      return NULL;
    *operand = compare_operand(a, b);
    return TY_BOOL_T;
  }
  bool bitwise = op == OP_LSHIFT || op == OP_RSHIFT || op == OP_BITAND ||
                 op == OP_BITOR || op == OP_BITXOR;
  bool arith = op == OP_ADD || op == OP_SUB || op == OP_MUL || op == OP_TRUEDIV ||
               op == OP_FLOORDIV || op == OP_MOD || op == OP_POW;
  if (is_intlike(a) && is_intlike(b) && (bitwise || arith))
    return int_arith(op, a, b, operand);
  if (arith)
    return float_arith(op, a, b, operand);
  return NULL; /* bitwise op on a float or complex */
}

/* Unary - and +: Numba's UnaryOp has cases intp->intp, uintp->uintp, each
 * float, each complex, bool->intp; so signed ints give int64, unsigned ints
 * uint64, bool int64. */
static const Type *unary_arith(const Type *a) {
  if (a->kind == TY_BOOL || ty_is_signed(a))
    return TY_I64_T;
  if (ty_is_int(a))
    return TY_U64_T;
  return a;
}

const Type *ty_unop(int op, const Type *a) {
  if (!ty_is_number(a))
    return NULL;
  switch (op) {
  case OP_NEG:
  case OP_POS:
    return unary_arith(a);
  case OP_INVERT:
    /* NumPy semantics: ~bool is logical not (BitwiseInvert) */
    if (a->kind == TY_BOOL)
      return TY_BOOL_T;
    if (!ty_is_int(a))
      return NULL;
    return ty_is_signed(a) ? TY_I64_T : TY_U64_T;
  case OP_NOT:
    return TY_BOOL_T;
  default:
    return NULL;
  }
}

/* ----------------------------------------------------------------- names -- */

typedef struct NameBuf {
  char *buf;
  int size, len; /* len may exceed size: output is truncated, never overrun */
} NameBuf;

static void put(NameBuf *nb, const char *s) {
  for (; *s; s++, nb->len++)
    if (nb->len < nb->size - 1)
      nb->buf[nb->len] = *s;
}

static const char *scalar_name(TypeKind k) {
  switch (k) {
  case TY_UNKNOWN: return "undefined";
  case TY_VOID: return "void";
  case TY_NONE: return "none";
  case TY_BOOL: return "bool";
  case TY_I8: return "int8";
  case TY_I16: return "int16";
  case TY_I32: return "int32";
  case TY_I64: return "int64";
  case TY_U8: return "uint8";
  case TY_U16: return "uint16";
  case TY_U32: return "uint32";
  case TY_U64: return "uint64";
  case TY_F16: return "float16";
  case TY_F32: return "float32";
  case TY_F64: return "float64";
  case TY_C64: return "complex64";
  case TY_C128: return "complex128";
  case TY_STR: return "unicode_type";
  case TY_BYTES: return "readonly bytes(uint8, 1d, C)";
  case TY_GRID_GROUP: return "GridGroup";
  case TY_BF16: return "bfloat16";
  case TY_FP8_E4M3: return "fp8_e4m3";
  case TY_FP8_E5M2: return "fp8_e5m2";
  case TY_FP8_E8M0: return "fp8_e8m0";
  default: return "?";
  }
}

static bool is_unituple(const Type *t) {
  if (t->nelems < 1)
    return false;
  for (int i = 1; i < t->nelems; i++)
    if (t->elems[i] != t->elems[0])
      return false;
  return true;
}

static void put_type(NameBuf *nb, const Type *t, int depth);

/* Numba's Record name: Record(x[type=float32;offset=0],...;8;True). */
static void put_record(NameBuf *nb, const Type *t, int depth) {
  char num[48];
  put(nb, "Record(");
  for (int i = 0; i < t->nelems; i++) {
    put(nb, i ? "," : "");
    put(nb, t->fnames[i]);
    put(nb, "[type=");
    put_type(nb, t->elems[i], depth + 1);
    snprintf(num, sizeof num, ";offset=%d]", t->offsets[i]);
    put(nb, num);
  }
  snprintf(num, sizeof num, ";%d;%s)", t->size, t->aligned ? "True" : "False");
  put(nb, num);
}

static void put_type(NameBuf *nb, const Type *t, int depth) {
  char num[32];
  if (!t) {
    put(nb, "undefined");
    return;
  }
  if (depth > 16) {
    put(nb, "...");
    return;
  }
  if (t->kind == TY_ARRAY) {
    put(nb, t->readonly ? "readonly array(" : "array(");
    put_type(nb, t->elem, depth + 1);
    snprintf(num, sizeof num, ", %dd, %s)", t->ndim, t->layout == LAYOUT_C ? "C" : "A");
    put(nb, num);
  } else if (t->kind == TY_RECORD) {
    put_record(nb, t, depth);
  } else if (t->kind == TY_NESTED) {
    put(nb, "nestedarray(");
    put_type(nb, t->elem, depth + 1);
    put(nb, ", (");
    for (int i = 0; i < t->ndim; i++) {
      snprintf(num, sizeof num, i ? ", %d" : "%d", t->dims[i]);
      put(nb, num);
    }
    put(nb, t->ndim == 1 ? ",))" : "))");
  } else if (t->kind == TY_CHARSEQ) { /* Numba: [char x 12], [unichr x 12] */
    snprintf(num, sizeof num, "[%s x %d]", t->align == 4 ? "unichr" : "char", t->size / t->align);
    put(nb, num);
  } else if (t->kind == TY_FUNC) {
    put(nb, "Function(");
    put(nb, t->fname);
    put(nb, ")");
  } else if (t->kind == TY_PTR) { /* Numba: float32* */
    put_type(nb, t->elem, depth + 1);
    put(nb, "*");
  } else if (t->kind == TY_DTYPE) {
    put(nb, "class(");
    put_type(nb, t->elem, depth + 1);
    put(nb, ")");
  } else if (ty_is_vector(t)) {
    put(nb, scalar_name(t->elem->kind));
    snprintf(num, sizeof num, "x%d", t->nelems);
    put(nb, num);
  } else if (t->kind == TY_TUPLE && t->tname) { /* Numba: Point(float64 x 2) */
    put(nb, t->tname);
    put(nb, "(");
    for (int i = 0; i < t->nelems; i++) {
      if (i && !is_unituple(t))
        put(nb, ", ");
      if (i == 0 || !is_unituple(t))
        put_type(nb, t->elems[i], depth + 1);
    }
    if (is_unituple(t)) {
      snprintf(num, sizeof num, " x %d", t->nelems);
      put(nb, num);
    }
    put(nb, ")");
  } else if (t->kind == TY_TUPLE && is_unituple(t)) {
    put(nb, "UniTuple(");
    put_type(nb, t->elems[0], depth + 1);
    snprintf(num, sizeof num, " x %d)", t->nelems);
    put(nb, num);
  } else if (t->kind == TY_TUPLE) {
    put(nb, "Tuple(");
    for (int i = 0; i < t->nelems; i++) {
      if (i)
        put(nb, ", ");
      put_type(nb, t->elems[i], depth + 1);
    }
    put(nb, ")");
  } else {
    put(nb, scalar_name(t->kind));
  }
}

const char *ty_name(const Type *t, char *buf, int size) {
  if (!buf || size <= 0)
    return "";
  NameBuf nb = {buf, size, 0};
  put_type(&nb, t, 0);
  buf[nb.len < size - 1 ? nb.len : size - 1] = '\0';
  return buf;
}

/* Every spelling Numba and NumPy accept for a dtype (numba.types aliases
 * and NumPy's character codes), C-platform names for x86-64 / aarch64. */
static const struct {
  const char *name;
  const Type *type;
} dtype_names[] = {
    {"int8", &ty_i8_},      {"int16", &ty_i16_},     {"int32", &ty_i32_},
    {"int64", &ty_i64_},    {"uint8", &ty_u8_},      {"uint16", &ty_u16_},
    {"uint32", &ty_u32_},   {"uint64", &ty_u64_},    {"float16", &ty_f16_},
    {"float32", &ty_f32_},  {"float64", &ty_f64_},   {"complex64", &ty_c64_},
    {"complex128", &ty_c128_}, {"bool", &ty_bool_},  {"boolean", &ty_bool_},
    {"bool_", &ty_bool_},   {"b1", &ty_bool_},       {"i1", &ty_i8_},
    {"i2", &ty_i16_},       {"i4", &ty_i32_},        {"i8", &ty_i64_},
    {"u1", &ty_u8_},        {"u2", &ty_u16_},        {"u4", &ty_u32_},
    {"u8", &ty_u64_},       {"f2", &ty_f16_},        {"f4", &ty_f32_},
    {"f8", &ty_f64_},       {"c8", &ty_c64_},        {"c16", &ty_c128_},
    {"intp", &ty_i64_},     {"uintp", &ty_u64_},     {"intc", &ty_i32_},
    {"uintc", &ty_u32_},    {"float_", &ty_f64_},    {"double", &ty_f64_},
    {"single", &ty_f32_},   {"half", &ty_f16_},      {"byte", &ty_i8_},
    {"ubyte", &ty_u8_},     {"short", &ty_i16_},     {"ushort", &ty_u16_},
    {"int_", &ty_i64_},     {"uint", &ty_u64_},      {"longlong", &ty_i64_},
    {"ulonglong", &ty_u64_}, {"void", &ty_void_},    {"none", &ty_none_},
};

const Type *ty_from_name(const char *name) {
  if (!name)
    return NULL;
  for (size_t i = 0; i < sizeof dtype_names / sizeof dtype_names[0]; i++)
    if (strcmp(dtype_names[i].name, name) == 0)
      return dtype_names[i].type;
  return NULL;
}
