/* gen_tuple.c - the `kjit run` spelling of a tuple VALUE:
 * "(1, 2.5, (float32:1, True))" (rt_tuple_parse, array.h).
 *
 * Elements are the VALUEs of gen.c (bare numbers: int -> int64, float ->
 * float64, as Numba types Python values; DTYPE:V; arrays such as
 * zeros:f64:8 or x.npy), True/False (boolean) or nested tuples; "()" is the
 * empty tuple.  The element list is malloc'd and freed by rt_value_free. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/array.h"

#define MAX_ELEMS 16            /* elements per tuple (Numba has no limit) */
#define MAX_DEPTH 4             /* nesting of tuples in tuples */

typedef struct TupleText {
  const char *text;             /* the whole VALUE, for messages */
  char *err;
  size_t errlen;
} TupleText;

static int tuple_fail(TupleText *t, const char *what) {
  snprintf(t->err, t->errlen, "tuple '%s': %s; write a tuple as (1, 2.5) or (int32:1, (zeros:f32:4, True))",
           t->text, what);
  return -1;
}

static const char *skip_space(const char *p) {
  while (*p == ' ' || *p == '\t')
    p++;
  return p;
}

/* The end of one element starting at p: the next ',' or ')' outside
 * parentheses. */
static const char *elem_end(const char *p) {
  int depth = 0;
  for (; *p; p++) {
    if (*p == '(')
      depth++;
    else if (*p == ')' && depth-- == 0)
      return p;
    else if (*p == ',' && depth == 0)
      return p;
  }
  return p;
}

static int parse_tuple_at(TupleText *t, const char **pp, RtValue *out, int depth);

/* One element: a nested tuple, True/False, or a scalar VALUE. */
static int parse_elem(TupleText *t, const char **pp, RtValue *out, int depth) {
  const char *p = skip_space(*pp);
  if (*p == '(')
    return parse_tuple_at(t, pp, out, depth + 1);
  const char *e = elem_end(p);
  size_t n = (size_t)(e - p);
  while (n > 0 && (p[n - 1] == ' ' || p[n - 1] == '\t'))
    n--;
  char buf[1024];
  if (n == 0 || n >= sizeof buf)
    return tuple_fail(t, n ? "an element is too long" : "an element is missing");
  memcpy(buf, p, n);
  buf[n] = '\0';
  *pp = e;
  memset(out, 0, sizeof *out);
  if (!strcmp(buf, "True") || !strcmp(buf, "False")) {
    out->scalar.dtype = RT_BOOL;
    out->scalar.v.b = buf[0] == 'T';
    return 0;
  }
  char why[512];
  if (rt_value_parse(buf, out, why, sizeof why) != 0)
    return tuple_fail(t, why);
  return 0;
}

/* '(' elem {',' elem} [','] ')' at *pp; *pp moves past the ')'.  As in
 * Python, "(x)" without a comma is x itself, "(x,)" the 1-tuple. */
static int parse_tuple_at(TupleText *t, const char **pp, RtValue *out, int depth) {
  memset(out, 0, sizeof *out);
  out->is_tuple = true;
  if (depth > MAX_DEPTH)
    return tuple_fail(t, "tuples nest at most 4 deep");
  RtValue el[MAX_ELEMS];
  int n = 0;
  bool comma = false;
  const char *p = skip_space(*pp) + 1;           /* past '(' */
  while (*(p = skip_space(p)) != ')') {
    if (!*p) {
      while (n > 0)
        rt_value_free(&el[--n]);
      return tuple_fail(t, "missing ')'");
    }
    if (n == MAX_ELEMS || parse_elem(t, &p, &el[n], depth) != 0) {
      if (n == MAX_ELEMS)
        tuple_fail(t, "a tuple argument has at most 16 elements");
      while (n > 0)
        rt_value_free(&el[--n]);
      return -1;
    }
    n++;
    if (*p == ',')
      p++, comma = true;
    else if (*p != ')') {
      while (n > 0)
        rt_value_free(&el[--n]);
      return tuple_fail(t, *p ? "expected ',' or ')'" : "missing ')'");
    }
  }
  if (n == 1 && !comma) {                        /* (x) is x */
    *out = el[0];
    *pp = p + 1;
    return 0;
  }
  if (n > 0 && !(out->elems = malloc(sizeof *el * (size_t)n))) {
    while (n > 0)
      rt_value_free(&el[--n]);
    return tuple_fail(t, "out of memory");
  }
  if (n > 0)
    memcpy(out->elems, el, sizeof *el * (size_t)n);
  out->nelems = n;
  *pp = p + 1;
  return 0;
}

int rt_tuple_parse(const char *text, RtValue *out, char *err, size_t errlen) {
  TupleText t = {text, err, errlen};
  const char *p = text;
  if (parse_tuple_at(&t, &p, out, 1) != 0)
    return -1;
  if (*skip_space(p) == '\0')
    return 0;
  rt_value_free(out);
  return tuple_fail(&t, "unexpected text after ')'");
}

