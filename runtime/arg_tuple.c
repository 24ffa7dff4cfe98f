/* arg_tuple.c - tuples as kernel arguments: their kjit types and the
 * kjit_arg form (the `kjit run` spelling is parsed in gen_tuple.c).
 *
 * A tuple is an RtValue with nelems > 0 whose elems are scalars or tuples
 * (never arrays): Numba types a Python tuple argument element by element
 * (int -> int64, float -> float64, bool -> boolean), giving UniTuple when
 * all are equal and Tuple otherwise; ty_tuple interns both the same way.
 * Elements taken from a kjit_arg at launch live in the call's arena. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/launch.h"
#include "runtime/runtime.h"

#define MAX_ELEMS 16            /* elements per tuple (Numba has no limit) */
#define MAX_DEPTH 4             /* nesting of tuples in tuples */

/* ------------------------------------------------------------- types --- */

const Type *rt_tuple_type(TypeTable *tt, const RtValue *v) {
  const Type *el[MAX_ELEMS];
  if (v->nelems < 1 || v->nelems > MAX_ELEMS)
    return NULL;
  for (int i = 0; i < v->nelems; i++)
    if (!(el[i] = rt_value_type(tt, &v->elems[i])) || el[i]->kind == TY_ARRAY)
      return NULL;
  return ty_tuple(tt, el, v->nelems);
}

static void elem_text(const RtValue *e, char *buf, size_t n) {
  if (e->nelems)
    rt_tuple_text(e, buf, n);
  else
    snprintf(buf, n, "%s", e->scalar.dtype == RT_BOOL ? "bool" : rt_dtype_name(e->scalar.dtype));
}

/* Numba's name of a tuple value's type, "UniTuple(int64 x 2)" or
 * "Tuple(int64, float64)", for messages. */
void rt_tuple_text(const RtValue *v, char *buf, size_t n) {
  char first[96], el[96];
  bool uni = v->nelems > 0;
  elem_text(&v->elems[0], first, sizeof first);
  for (int i = 1; i < v->nelems && uni; i++) {
    elem_text(&v->elems[i], el, sizeof el);
    uni = strcmp(el, first) == 0;
  }
  if (uni) {
    snprintf(buf, n, "UniTuple(%s x %d)", first, v->nelems);
    return;
  }
  size_t w = (size_t)snprintf(buf, n, "Tuple(");
  for (int i = 0; i < v->nelems && w < n; i++) {
    elem_text(&v->elems[i], el, sizeof el);
    w += (size_t)snprintf(buf + w, n - w, "%s%s", i ? ", " : "", el);
  }
  if (w < n)
    snprintf(buf + w, n - w, ")");
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

const char *rt_tuple_take(Arena *arena, const kjit_arg *a, RtValue *out, int depth) {
  memset(out, 0, sizeof *out);
  int n = a->value.tuple.count;
  if (depth > MAX_DEPTH)
    return "tuples nest at most 4 deep";
  if (n < 1 || n > MAX_ELEMS || !a->value.tuple.elems)
    return n < 1 ? "empty tuples cannot be kernel arguments"
                 : n > MAX_ELEMS ? "a tuple argument has at most 16 elements" : "the tuple's elems is NULL";
  out->elems = arena_alloc(arena, sizeof *out->elems * (size_t)n);
  out->nelems = n;
  for (int i = 0; i < n; i++) {
    const kjit_arg *e = &a->value.tuple.elems[i];
    if (e->kind == KJIT_ARG_TUPLE) {
      const char *why = rt_tuple_take(arena, e, &out->elems[i], depth + 1);
      if (why)
        return why;
    } else if (!scalar_of(e, &out->elems[i].scalar)) {
      return e->kind == KJIT_ARG_ARRAY ? "tuple elements are numbers or tuples, not arrays"
                                       : "a tuple element has an invalid kind or dtype";
    }
  }
  return NULL;
}

/* The kjit_arg of one parsed scalar (as kjit_arg_parse gives them). */
static kjit_arg arg_of_scalar(const RtScalar *s) {
  if (s->dtype == RT_I64)
    return kjit_arg_i64(s->v.i64);
  if (s->dtype == RT_F64)
    return kjit_arg_f64(s->v.f64);
  return kjit_arg_scalar((kjit_dtype)s->dtype, s->v.bytes);
}

bool rt_tuple_to_arg(const RtValue *v, kjit_arg *out) {
  kjit_arg *el = calloc((size_t)v->nelems, sizeof *el);
  if (!el)
    return false;
  for (int i = 0; i < v->nelems; i++) {
    if (!v->elems[i].nelems) {
      el[i] = arg_of_scalar(&v->elems[i].scalar);
    } else if (!rt_tuple_to_arg(&v->elems[i], &el[i])) {
      *out = kjit_arg_tuple(el, i);
      kjit_arg_tuple_free(out);
      return false;
    }
  }
  *out = kjit_arg_tuple(el, v->nelems);
  return true;
}

kjit_arg kjit_arg_tuple(const kjit_arg *elems, int count) {
  kjit_arg a;
  memset(&a, 0, sizeof a);
  a.kind = KJIT_ARG_TUPLE;
  a.value.tuple.elems = elems;
  a.value.tuple.count = count;
  return a;
}

void kjit_arg_tuple_free(kjit_arg *a) {
  if (!a || a->kind != KJIT_ARG_TUPLE || !a->value.tuple.elems)
    return;
  kjit_arg *el = (kjit_arg *)a->value.tuple.elems;
  for (int i = 0; i < a->value.tuple.count; i++)
    kjit_arg_tuple_free(&el[i]);
  free(el);
  a->value.tuple.elems = NULL;
  a->value.tuple.count = 0;
}
