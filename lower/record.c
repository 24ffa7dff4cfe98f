/* record.c - record types (NumPy structured dtypes) from the module's AST.
 *
 * A kernel file names a record type through module variables, as Numba
 * code does: `dt = np.dtype([('x', np.float32), ('y', np.int32)],
 * align=True)` and `rec_t = numba.from_dtype(dt)`.  This file evaluates
 * those expressions into a TY_RECORD with the offsets NumPy gives: packed
 * (fields back to back) unless align=True, where each field starts at a
 * multiple of its alignment and the size is rounded up to the largest one.
 * The dict form ({'names', 'formats', 'offsets', 'itemsize'}) keeps the
 * offsets it states.  Field dtypes: numbers (by name, np.float32, or a
 * NumPy type string '<f4'), strings ('S12' bytes, '<U12' UCS-4 text:
 * one and four bytes a character, aligned as NumPy aligns them), other
 * record types, and fixed-size arrays (('v', np.float32, 3) or
 * ('v', (np.float32, (2, 3)))). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lower/lower_internal.h"

enum { MAX_FIELDS = 64 };

#define FIELD_KINDS                                                                           \
  "record fields hold bool, ints, floats, complex, strings ('S<n>', 'U<n>'), records or "   \
  "fixed-size arrays"


typedef struct RecBuild {
  IrProgram *p;
  Diags *d;
  int depth;                        /* records nested in records */
} RecBuild;

static const Type *field_dtype(RecBuild *rb, const Node *n);
static const Type *record_of(RecBuild *rb, const Node *n);

static bool fail(RecBuild *rb, const Node *n, const char *hint, const char *msg) {
  diag_error(rb->d, E_SIG_UNKNOWN_TYPE, n->loc, hint, "%s", msg);
  return false;
}

/* The callee's last name: dtype of np.dtype, from_dtype of numba.from_dtype. */
static const char *callee_name(const Node *n) {
  return n && n->kind == ND_CALL && n->lhs && (n->lhs->kind == ND_NAME || n->lhs->kind == ND_ATTR)
             ? n->lhs->name
             : NULL;
}

/* Keyword `kw` of a call (in args or args2), or NULL. */
static const Node *keyword(const Node *call, const char *kw) {
  const NodeList *lists[2] = {&call->args, &call->args2};
  for (int l = 0; l < 2; l++)
    for (int i = 0; i < lists[l]->len; i++) {
      const Node *a = lists[l]->data[i];
      if (a->kind == ND_KEYWORD && a->name && strcmp(a->name, kw) == 0)
        return a->lhs;
    }
  return NULL;
}

static bool truthy(const IrProgram *p, const Node *n) {
  n = n ? ir_sig_resolve(p, n) : NULL;
  return n && (n->kind == ND_BOOL || n->kind == ND_INT) && n->ival != 0;
}

/* np.dtype's first argument: positional, or dtype= (np.dtype(dtype=[...])). */
static const Node *first_arg(const Node *call) {
  return call->args.len > 0 && call->args.data[0]->kind != ND_KEYWORD ? call->args.data[0]
                                                                       : keyword(call, "dtype");
}

bool ir_is_record_expr(const IrProgram *p, const Node *n) {
  const Node *v = n && n->kind == ND_NAME ? ir_sig_resolve(p, n) : n;
  const char *c = callee_name(v);
  if (!c)
    return false;
  if (!strcmp(c, "from_dtype") || !strcmp(c, "Record"))
    return true;
  const Node *a = first_arg(v);
  return !strcmp(c, "dtype") && a &&
         (a->kind == ND_LIST || a->kind == ND_DICT || ir_is_record_expr(p, a));
}

/* ---------------------------------------------------------- field types -- */

/* 'S12' / 'U12' (after the byte order): a string field of 12 characters. */
static const Type *charseq_dtype(RecBuild *rb, const char *s) {
  if ((s[0] != 'S' && s[0] != 'U') || s[1] < '1' || s[1] > '9' || strlen(s) > 8)
    return NULL;
  for (const char *c = s + 1; *c; c++)
    if (*c < '0' || *c > '9')
      return NULL;
  return ty_charseq(rb->p->types, s[0] == 'U', atoi(s + 1));
}

/* A NumPy type string: '<f4', '=i8', 'f8', 'float32', '?', 'c8', '<U12'. */
static const Type *string_dtype(RecBuild *rb, const char *s) {
  if (s[0] == '<' || s[0] == '=' || s[0] == '|')
    s++;
  const Type *cs = charseq_dtype(rb, s);
  if (cs)
    return cs;
  /* NumPy's codes count bytes (i8 is int64), kjit's names bits (i8 is int8) */
  static const struct { const char *code, *name; } codes[] = {
      {"?", "bool_"}, {"b1", "bool_"}, {"i1", "int8"}, {"i2", "int16"}, {"i4", "int32"},
      {"i8", "int64"}, {"u1", "uint8"}, {"u2", "uint16"}, {"u4", "uint32"}, {"u8", "uint64"},
      {"f2", "float16"}, {"f4", "float32"}, {"f8", "float64"}, {"c8", "complex64"},
      {"c16", "complex128"}, {"b", "int8"}, {"B", "uint8"}, {"h", "int16"}, {"H", "uint16"},
      {"e", "float16"}, {"f", "float32"}, {"d", "float64"}, {"F", "complex64"},
      {"D", "complex128"}};
  for (size_t i = 0; i < sizeof codes / sizeof *codes; i++)
    if (strcmp(s, codes[i].code) == 0)
      return ty_from_name(codes[i].name);
  return ty_from_name(s);
}

/* The extents of a nested array: an int or a tuple of ints. */
static int shape_of(RecBuild *rb, const Node *n, int dims[4]) {
  n = ir_sig_resolve(rb->p, n);
  if (n->kind == ND_INT && !n->big && n->ival >= 1) {
    dims[0] = (int)n->ival;
    return 1;
  }
  if (n->kind != ND_TUPLE || n->args.len < 1 || n->args.len > 4)
    return 0;
  for (int i = 0; i < n->args.len; i++) {
    const Node *e = ir_sig_resolve(rb->p, n->args.data[i]);
    if (e->kind != ND_INT || e->big || e->ival < 1 || e->ival > (1 << 20))
      return 0;
    dims[i] = (int)e->ival;
  }
  return n->args.len;
}

/* 'U' for a text class (np.str_, str, 'U'), 'S' for a bytes one
 * (np.bytes_, bytes, 'S'), else 0: ('name', np.str_, 12) is NumPy's 'U12'. */
static char text_class(RecBuild *rb, const Node *dt) {
  const Node *v = ir_sig_resolve(rb->p, dt);
  const char *s = v->kind == ND_STR ? v->str
                  : v->kind == ND_ATTR || (v->kind == ND_NAME && !ir_global_find(rb->p, v->name))
                      ? v->name
                      : NULL;
  static const char *const text[] = {"U", "str_", "unicode_", "str", NULL};
  static const char *const raw[] = {"S", "bytes_", "string_", "bytes", NULL};
  for (int i = 0; s && text[i]; i++)
    if (!strcmp(s, text[i]) && (v->kind != ND_STR || i == 0))
      return 'U';
  for (int i = 0; s && raw[i]; i++)
    if (!strcmp(s, raw[i]) && (v->kind != ND_STR || i == 0))
      return 'S';
  return 0;
}

/* A field's dtype with an optional shape: (dtype, shape) or dtype, shape. */
static const Type *shaped(RecBuild *rb, const Node *dt, const Node *shape) {
  const Node *n = shape ? ir_sig_resolve(rb->p, shape) : NULL;
  char text = n ? text_class(rb, dt) : 0;
  if (text && n->kind == ND_INT && !n->big && n->ival >= 1 && n->ival <= (1 << 20))
    return ty_charseq(rb->p->types, text == 'U', (int)n->ival); /* ('s', np.str_, 12) */
  const Type *el = field_dtype(rb, dt);
  if (!el || !shape)
    return el;
  int dims[4];
  int nd = shape_of(rb, shape, dims);
  if (nd == 0) {
    fail(rb, shape, "write the shape as an int or a tuple of 1 to 4 ints",
         "malformed shape of a record field");
    return NULL;
  }
  if (nd == 1 && dims[0] == 1 && ir_sig_resolve(rb->p, shape)->kind == ND_INT)
    return el; /* ('x', f4, 1) is a scalar field in NumPy */
  if (el->kind == TY_CHARSEQ) {
    fail(rb, shape, "give each string its own field", "arrays of string fields are not supported");
    return NULL;
  }
  const Type *t = ty_nested(rb->p->types, el, nd, dims);
  if (!t)
    fail(rb, shape, NULL, "record field array is too large or holds unsupported elements");
  return t;
}

/* Python's float, int, bool and complex as a field dtype: NumPy's float64,
 * int64 (np.int_ on 64-bit Linux), bool and complex128. */
static const Type *builtin_dtype(const IrProgram *p, const Node *v) {
  static const struct { const char *name; const Type *t; } b[] = {
      {"float", TY_F64_T}, {"int", TY_I64_T}, {"bool", TY_BOOL_T}, {"complex", TY_C128_T}};
  if (v->kind != ND_NAME || ir_global_find(p, v->name))
    return NULL;
  for (size_t i = 0; i < sizeof b / sizeof *b; i++)
    if (strcmp(v->name, b[i].name) == 0)
      return b[i].t;
  return NULL;
}

static const Type *field_dtype(RecBuild *rb, const Node *n) {
  const Node *v = ir_sig_resolve(rb->p, n);
  if (v->kind == ND_STR && v->str) {
    const Type *t = string_dtype(rb, v->str);
    if (!t)
      fail(rb, n, FIELD_KINDS,
           arena_printf(rb->p->arena, "unsupported record field dtype '%s'", v->str));
    return t;
  }
  const char *c = callee_name(v);
  if (c && !strcmp(c, "dtype") && v->args.len == 1 && /* np.dtype('<U12') */
      ir_sig_resolve(rb->p, v->args.data[0])->kind == ND_STR)
    return field_dtype(rb, v->args.data[0]);
  if (v->kind == ND_TUPLE && v->args.len == 2) /* (np.float32, (2, 3)) */
    return shaped(rb, v->args.data[0], v->args.data[1]);
  if (ir_is_record_expr(rb->p, v) || v->kind == ND_LIST || v->kind == ND_DICT) {
    if (rb->depth > 8)
      return fail(rb, n, NULL, "records nested too deeply (or defined by themselves)"), NULL;
    rb->depth++;
    const Type *t = record_of(rb, n);
    rb->depth--;
    return t;
  }
  const Type *t = builtin_dtype(rb->p, v);
  if (t)
    return t;
  if ((v->kind == ND_NAME || v->kind == ND_ATTR) && !ir_type_from_ast(rb->p, n, &t, rb->d))
    return NULL;
  if (t && ty_is_number(t))
    return t;
  fail(rb, n, FIELD_KINDS, "unsupported record field dtype");
  return NULL;
}

/* ------------------------------------------------------------- layouts -- */

typedef struct Fields {
  int n;
  const char *names[MAX_FIELDS];
  const Type *types[MAX_FIELDS];
  int offsets[MAX_FIELDS];
  bool has_offsets;                 /* the dict form stated them */
  int itemsize;                     /* stated itemsize, or 0 */
} Fields;

static int round_up(int v, int a) { return a > 1 ? (v + a - 1) / a * a : v; }

/* NumPy's layout: packed, or (align=True) C-struct-like padding. */
static const Type *layout(RecBuild *rb, const Node *at, Fields *f, bool aligned) {
  int off = 0, maxalign = 1, end = 0;
  for (int i = 0; i < f->n; i++) {
    int a = aligned ? ty_align(f->types[i]) : 1;
    maxalign = a > maxalign ? a : maxalign;
    if (!f->has_offsets)
      f->offsets[i] = off = round_up(off, a);
    off = f->offsets[i] + ty_size(f->types[i]);
    end = off > end ? off : end;
  }
  int size = f->itemsize ? f->itemsize : round_up(end, aligned ? maxalign : 1);
  const Type *t = ty_record(rb->p->types, f->n, f->names, f->types, f->offsets, size, aligned);
  if (!t)
    fail(rb, at, NULL, "malformed record: a field lies outside the itemsize, or a name repeats");
  return t;
}

static bool add_field(RecBuild *rb, Fields *f, const Node *at, const char *name, const Type *t) {
  if (!t)
    return false;
  if (f->n == MAX_FIELDS)
    return fail(rb, at, NULL, "records have at most 64 fields");
  for (int i = 0; i < f->n; i++)
    if (strcmp(f->names[i], name) == 0)
      return fail(rb, at, NULL, arena_printf(rb->p->arena, "field name '%s' repeats", name));
  f->names[f->n] = name;
  f->types[f->n++] = t;
  return true;
}

/* [('x', dtype), ('v', dtype, shape), ...] */
static bool list_fields(RecBuild *rb, const Node *list, Fields *f) {
  for (int i = 0; i < list->args.len; i++) {
    const Node *e = list->args.data[i];
    const Node *nm = e->kind == ND_TUPLE && e->args.len >= 2 ? ir_sig_resolve(rb->p, e->args.data[0]) : NULL;
    if (!nm || nm->kind != ND_STR || !nm->str || e->args.len > 3)
      return fail(rb, e, "write each field as ('name', dtype) or ('name', dtype, shape)",
                  "malformed field of a structured dtype");
    const Type *t = shaped(rb, e->args.data[1], e->args.len == 3 ? e->args.data[2] : NULL);
    if (!add_field(rb, f, e, nm->str, t))
      return false;
  }
  return true;
}

/* The value of key `k` of a dict literal, or NULL. */
static const Node *dict_get(const IrProgram *p, const Node *dict, const char *k) {
  for (int i = 0; i < dict->args.len && i < dict->args2.len; i++) {
    const Node *key = dict->args.data[i] ? ir_sig_resolve(p, dict->args.data[i]) : NULL;
    if (key && key->kind == ND_STR && key->str && strcmp(key->str, k) == 0)
      return ir_sig_resolve(p, dict->args2.data[i]);
  }
  return NULL;
}

/* {'names': [...], 'formats': [...], 'offsets': [...], 'itemsize': n} */
static bool dict_fields(RecBuild *rb, const Node *dict, Fields *f, bool *aligned) {
  const Node *names = dict_get(rb->p, dict, "names"), *fmts = dict_get(rb->p, dict, "formats");
  const Node *offs = dict_get(rb->p, dict, "offsets"), *size = dict_get(rb->p, dict, "itemsize");
  const char *hint = "write {'names': [...], 'formats': [...]} with optional 'offsets' and 'itemsize'";
  if (!names || !fmts || (names->kind != ND_LIST && names->kind != ND_TUPLE) ||
      (fmts->kind != ND_LIST && fmts->kind != ND_TUPLE) || names->args.len != fmts->args.len ||
      (offs && ((offs->kind != ND_LIST && offs->kind != ND_TUPLE) || offs->args.len != names->args.len)))
    return fail(rb, dict, hint, "malformed structured dtype dict");
  for (int i = 0; i < names->args.len; i++) {
    const Node *nm = ir_sig_resolve(rb->p, names->args.data[i]);
    if (nm->kind != ND_STR || !nm->str)
      return fail(rb, nm, hint, "field names must be strings");
    if (!add_field(rb, f, nm, nm->str, field_dtype(rb, fmts->args.data[i])))
      return false;
    const Node *o = offs ? ir_sig_resolve(rb->p, offs->args.data[i]) : NULL;
    if (o && (o->kind != ND_INT || o->big || o->ival < 0 || o->ival > (1 << 24)))
      return fail(rb, o, hint, "record field offsets must be ints");
    f->offsets[i] = o ? (int)o->ival : 0;
  }
  f->has_offsets = offs != NULL;
  if (size && (size->kind != ND_INT || size->big || size->ival < 1 || size->ival > (1 << 24)))
    return fail(rb, size, hint, "the itemsize must be a positive int");
  f->itemsize = size ? (int)size->ival : 0;
  *aligned = *aligned || truthy(rb->p, dict_get(rb->p, dict, "aligned"));
  return true;
}

/* np.dtype(FIELDS, align=...) */
static const Type *dtype_call(RecBuild *rb, const Node *call) {
  const Node *arg = ir_sig_resolve(rb->p, first_arg(call));
  bool aligned = truthy(rb->p, keyword(call, "align")) ||
                 (call->args.len > 1 && call->args.data[1]->kind != ND_KEYWORD &&
                  truthy(rb->p, call->args.data[1]));
  if (arg->kind != ND_LIST && arg->kind != ND_DICT)
    return field_dtype(rb, first_arg(call)); /* np.dtype(other_record) */
  Fields f = {0};
  bool ok = arg->kind == ND_LIST ? list_fields(rb, arg, &f) : dict_fields(rb, arg, &f, &aligned);
  if (ok && f.n == 0)
    ok = fail(rb, arg, NULL, "a structured dtype needs at least one field");
  return ok ? layout(rb, arg, &f, aligned) : NULL;
}

static const Type *record_of(RecBuild *rb, const Node *n) {
  const Node *v = ir_sig_resolve(rb->p, n);
  const char *c = callee_name(v);
  if (v->kind == ND_LIST) { /* a bare field list nested in a field */
    Fields f = {0};
    return list_fields(rb, v, &f) && f.n > 0 ? layout(rb, v, &f, false) : NULL;
  }
  if (!c || (strcmp(c, "dtype") == 0 ? !first_arg(v) : v->args.len < 1) || strcmp(c, "Record") == 0) {
    fail(rb, n, "build it with np.dtype([...]) and numba.from_dtype(dt)",
         "this record type is not supported (write np.dtype([...]) or numba.from_dtype(dt))");
    return NULL;
  }
  if (strcmp(c, "from_dtype") == 0)
    return field_dtype(rb, v->args.data[0]);
  return dtype_call(rb, v);
}

const Type *ir_record_from_ast(IrProgram *p, const Node *n, Diags *d) {
  RecBuild rb = {p, d, 0};
  return record_of(&rb, n);
}
