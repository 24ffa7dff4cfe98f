/* arg_tuple.c - tuples as kernel arguments: their kjit types and the
 * kjit_arg form (the `kjit run` spelling is parsed in auxlib/value_tuple.c).
 *
 * A tuple is an RtValue with is_tuple set whose elems are scalars, arrays
 * or tuples: Numba types a Python tuple argument element by element (int ->
 * int64, float -> float64, bool -> boolean, an array by dtype, ndim and
 * layout), giving UniTuple when all are equal and Tuple otherwise; ty_tuple
 * interns both the same way.  Elements taken from a kjit_arg at launch live
 * in the call's arena; their arrays are the caller's, used in place. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/api_internal.h"
#include "host/launch.h"
#include "runtime/runtime.h"

#define MAX_ELEMS 16            /* elements per tuple (Numba has no limit) */
#define MAX_DEPTH 4             /* nesting of tuples in tuples */

/* ------------------------------------------------------------- types --- */

/* ------------------------------------------------------- namedtuples --- */

/* v's elements in the class's field order: positional ones first, then
 * NAME=VALUE ones placed by name.  NULL, or what is wrong. */
static const char *place_fields(Arena *a, const IrNamedTuple *nt, RtValue *v) {
  RtValue *el = arena_alloc(a, sizeof *el * (size_t)(nt->nfields ? nt->nfields : 1));
  bool given[MAX_ELEMS] = {false};
  if (v->nelems > nt->nfields)
    return arena_printf(a, "%s has %d fields, %d values given", nt->name, nt->nfields, v->nelems);
  for (int i = 0; i < v->nelems; i++) {
    int k = i;
    if (v->keys && v->keys[i]) {
      for (k = 0; k < nt->nfields && strcmp(nt->fields[k], v->keys[i]) != 0; k++)
        ;
      if (k == nt->nfields)
        return arena_printf(a, "%s has no field '%s'", nt->name, v->keys[i]);
    }
    if (given[k])
      return arena_printf(a, "field '%s' of %s is given twice", nt->fields[k], nt->name);
    given[k] = true;
    el[k] = v->elems[i];
  }
  for (int k = 0; k < nt->nfields; k++)
    if (!given[k])
      return arena_printf(a, "field '%s' of %s is missing", nt->fields[k], nt->name);
  v->elems = el;
  v->nelems = nt->nfields;
  v->keys = NULL;
  v->cls = nt;
  return NULL;
}

const char *rt_tuple_resolve(const IrProgram *p, Arena *a, RtValue *v) {
  if (!v->is_tuple)
    return NULL;
  for (int i = 0; i < v->nelems; i++) {
    const char *why = rt_tuple_resolve(p, a, &v->elems[i]);
    if (why)
      return why;
  }
  if (!v->tname)
    return v->keys ? "NAME=VALUE elements need a namedtuple class: Point(x=1.5)" : NULL;
  const IrNamedTuple *nt = ir_namedtuple_find(p, v->tname);
  if (!nt)
    return arena_printf(a, "no namedtuple class '%s' in '%s' (define it: %s = "
                        "namedtuple('%s', ['x', 'y']))", v->tname, p->src ? p->src->path : "?",
                        v->tname, v->tname);
  return place_fields(a, nt, v);
}

/* --------------------------------------------------- kjit_arg forms --- */

/* One scalar kjit_arg as an RtScalar; false for another kind. */
static bool scalar_of(const kjit_arg *a, RtScalar *s) {
  memset(s, 0, sizeof *s);
  switch (a->kind) {
  case KJIT_ARG_INT64: s->dtype = RT_I64; s->v.i64 = a->value.i64; return true;
  case KJIT_ARG_FLOAT64: s->dtype = RT_F64; s->v.f64 = a->value.f64; return true;
  case KJIT_ARG_SCALAR:
    if ((int)a->dtype < 0 || (int)a->dtype >= RT_NDTYPES)
      return false;
    s->dtype = (RtDtype)a->dtype;
    memcpy(s->v.bytes, a->value.bits, rt_dtype_size(s->dtype));
    return true;
  default: return false;
  }
}

/* An array element: a live host array of ctx with 1 to 4 dimensions, used
 * in place.  NULL, or what is wrong. */
static const char *array_of(kjit_context *ctx, const kjit_array *h, RtValue *out) {
  if (!h)
    return "an array in the tuple is NULL";
  if (h->magic == RT_ARRAY_DEAD)
    return "an array in the tuple was destroyed";
  if (!rt_array_is_live(h) || h->ctx != ctx)
    return "an array in the tuple is not a kjit_array of this context";
  if (h->device)
    return "device arrays cannot be tuple elements (tuple arguments run on the cpu target)";
  if (h->a.ndim < 1)
    return "an array in the tuple has 0 dimensions; pass an array of shape (1,)";
  out->is_array = true;
  out->array = h->a;
  out->array.owns = false;
  return NULL;
}

const char *rt_tuple_take(kjit_context *ctx, Arena *arena, const kjit_arg *a, RtValue *out,
                          int depth) {
  memset(out, 0, sizeof *out);
  out->is_tuple = true;
  int n = a->value.tuple.count;
  if (depth > MAX_DEPTH)
    return "tuples nest at most 4 deep";
  if (n < 0 || n > MAX_ELEMS || (n > 0 && !a->value.tuple.elems))
    return n < 0 ? "a tuple's count is negative"
                 : n > MAX_ELEMS ? "a tuple argument has at most 16 elements" : "the tuple's elems is NULL";
  out->elems = n ? arena_alloc(arena, sizeof *out->elems * (size_t)n) : NULL;
  out->nelems = n;
  out->tname = a->value.tuple.name; /* borrowed, as the elements */
  out->keys = (const char **)a->value.tuple.keys;
  for (int i = 0; i < n; i++) {
    const kjit_arg *e = &a->value.tuple.elems[i];
    const char *why = NULL;
    memset(&out->elems[i], 0, sizeof out->elems[i]);
    if (e->kind == KJIT_ARG_TUPLE)
      why = rt_tuple_take(ctx, arena, e, &out->elems[i], depth + 1);
    else if (e->kind == KJIT_ARG_ARRAY)
      why = array_of(ctx, e->value.array, &out->elems[i]);
    else if (!scalar_of(e, &out->elems[i].scalar))
      why = "a tuple element has an invalid kind or dtype";
    if (why)
      return why;
  }
  return NULL;
}

kjit_arg kjit_arg_named_tuple(const char *name, const kjit_arg *elems, int count) {
  kjit_arg a = kjit_arg_tuple(elems, count);
  a.value.tuple.name = name;
  return a;
}

kjit_arg kjit_arg_tuple(const kjit_arg *elems, int count) {
  kjit_arg a;
  memset(&a, 0, sizeof a);
  a.kind = KJIT_ARG_TUPLE;
  a.value.tuple.elems = elems;
  a.value.tuple.count = count;
  return a;
}
