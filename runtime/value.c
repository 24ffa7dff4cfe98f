/* value.c - the kjit types of launch values: dtypes, records, arrays and
 * tuples as the IR types they specialize a kernel to.  Shared by every
 * launch path (the launch plan, both targets, the dispatcher) so that each
 * mapping exists once. */
#include <stdio.h>
#include <string.h>

#include "runtime/value.h"

#define MAX_TUPLE_ELEMS 16      /* elements per tuple argument (api/arg_tuple.c) */


const Type *rt_dtype_type(RtDtype dt) {
  static const Type *const map[RT_NDTYPES] = {
      [RT_BOOL] = TY_BOOL_T, [RT_I8] = TY_I8_T, [RT_I16] = TY_I16_T, [RT_I32] = TY_I32_T,
      [RT_I64] = TY_I64_T, [RT_U8] = TY_U8_T, [RT_U16] = TY_U16_T, [RT_U32] = TY_U32_T,
      [RT_U64] = TY_U64_T, [RT_F16] = TY_F16_T, [RT_F32] = TY_F32_T, [RT_F64] = TY_F64_T,
      [RT_C64] = TY_C64_T, [RT_C128] = TY_C128_T};
  return (unsigned)dt < RT_NDTYPES ? map[dt] : NULL;
}

bool rt_type_dtype(const Type *t, RtDtype *out) {
  for (int d = 0; d < RT_NDTYPES; d++)
    if (rt_dtype_type((RtDtype)d) == t) {
      *out = (RtDtype)d;
      return true;
    }
  return false;
}

/* A field's type: its number or record type, or the nested array of it. */
static const Type *field_type(TypeTable *tt, const RtField *f) {
  if (f->text) /* a string: its characters as one value */
    return ty_charseq(tt, f->text == 'U', (int)f->shape[0]);
  const Type *t = f->dtype == RT_RECORD ? rt_record_type(tt, f->rec) : rt_dtype_type(f->dtype);
  if (!t || !f->ndim)
    return t;
  int dims[RT_MAX_NDIM];
  for (int d = 0; d < f->ndim; d++)
    dims[d] = (int)f->shape[d];
  return ty_nested(tt, t, f->ndim, dims);
}

const Type *rt_record_type(TypeTable *tt, const RtRecord *r) {
  if (!r || r->nfields > 64)
    return NULL;
  const char *names[64];
  const Type *types[64];
  int offs[64];
  for (int i = 0; i < r->nfields; i++) {
    names[i] = r->fields[i].name;
    offs[i] = (int)r->fields[i].offset;
    if (!(types[i] = field_type(tt, &r->fields[i])))
      return NULL;
  }
  return ty_record(tt, r->nfields, names, types, offs, (int)r->itemsize, r->aligned);
}

static bool field_matches(const RtField *f, const Type *t) {
  if (f->text || t->kind == TY_CHARSEQ)
    return f->text && t->kind == TY_CHARSEQ && t->elem == (f->text == 'U' ? TY_U32_T : TY_U8_T) &&
           t->size / t->align == f->shape[0];
  if (f->ndim) {
    if (t->kind != TY_NESTED || t->ndim != f->ndim)
      return false;
    for (int d = 0; d < f->ndim; d++)
      if (t->dims[d] != f->shape[d])
        return false;
    t = t->elem;
  }
  return f->dtype == RT_RECORD ? rt_record_matches(f->rec, t) : rt_dtype_type(f->dtype) == t;
}

bool rt_record_matches(const RtRecord *r, const Type *t) {
  if (!r || !t || t->kind != TY_RECORD || t->nelems != r->nfields || t->size != r->itemsize)
    return false;
  for (int i = 0; i < r->nfields; i++) /* both in offset order; names break ties */
    if (t->offsets[i] != r->fields[i].offset || strcmp(t->fnames[i], r->fields[i].name) != 0 ||
        !field_matches(&r->fields[i], t->elems[i]))
      return false;
  return true;
}

/* The element type of an array: its dtype's, or its record's. */
static const Type *elem_type(TypeTable *tt, const RtArray *a) {
  return a->dtype == RT_RECORD ? rt_record_type(tt, a->rec) : rt_dtype_type(a->dtype);
}

const Type *rt_value_type(TypeTable *tt, const RtValue *v) {
  if (v->is_tuple)
    return rt_tuple_type(tt, v);
  if (v->is_ptr)
    return rt_dtype_type(v->ptr_dtype) ? ty_ptr(tt, rt_dtype_type(v->ptr_dtype)) : NULL;
  if (!v->is_array)
    return rt_dtype_type(v->scalar.dtype);
  const RtArray *a = &v->array;
  if (a->ndim == 0 && a->dtype == RT_RECORD) /* a record, passed by reference */
    return rt_record_type(tt, a->rec);
  if (a->ndim < 1 || a->ndim > RT_MAX_NDIM || !elem_type(tt, a))
    return NULL;
  Layout l = rt_array_is_c_contiguous(a) ? LAYOUT_C : LAYOUT_A;
  return a->readonly ? ty_array_readonly(tt, elem_type(tt, a), a->ndim, l)
                     : ty_array(tt, elem_type(tt, a), a->ndim, l);
}

const Type *rt_tuple_type(TypeTable *tt, const RtValue *v) {
  const Type *el[MAX_TUPLE_ELEMS];
  const IrNamedTuple *nt = v->cls;
  if (v->nelems < 0 || v->nelems > MAX_TUPLE_ELEMS || (v->tname && !nt))
    return NULL;
  for (int i = 0; i < v->nelems; i++)
    if (!(el[i] = rt_value_type(tt, &v->elems[i])))
      return NULL;
  return nt ? ty_named_tuple(tt, nt->tname, (const char *const *)nt->fields, el, v->nelems)
            : ty_tuple(tt, el, v->nelems);
}

static void elem_text(const RtValue *e, char *buf, size_t n) {
  if (e->is_tuple)
    rt_tuple_text(e, buf, n);
  else if (e->is_array)
    snprintf(buf, n, "%sarray(%s, %dd, %s)", e->array.readonly ? "readonly " : "",
             rt_dtype_name(e->array.dtype), e->array.ndim,
             rt_array_is_c_contiguous(&e->array) ? "C" : "A");
  else if (e->is_ptr)
    snprintf(buf, n, "%s*", rt_dtype_name(e->ptr_dtype));
  else
    snprintf(buf, n, "%s", rt_dtype_name(e->scalar.dtype));
}

/* Numba's name of a tuple value's type, "UniTuple(int64 x 2)" or
 * "Tuple(int64, float64)", for messages. */
void rt_tuple_text(const RtValue *v, char *buf, size_t n) {
  char first[96], el[96];
  bool uni = v->nelems > 0;
  if (uni)
    elem_text(&v->elems[0], first, sizeof first);
  for (int i = 1; i < v->nelems && uni; i++) {
    elem_text(&v->elems[i], el, sizeof el);
    uni = strcmp(el, first) == 0;
  }
  const char *cls = v->cls ? ((const IrNamedTuple *)v->cls)->tname : v->tname;
  if (uni) {
    snprintf(buf, n, "%s(%s x %d)", cls ? cls : "UniTuple", first, v->nelems);
    return;
  }
  size_t w = (size_t)snprintf(buf, n, "%s(", cls ? cls : "Tuple");
  for (int i = 0; i < v->nelems && w < n; i++) {
    elem_text(&v->elems[i], el, sizeof el);
    w += (size_t)snprintf(buf + w, n - w, "%s%s", i ? ", " : "", el);
  }
  if (w < n)
    snprintf(buf + w, n - w, ")");
}
