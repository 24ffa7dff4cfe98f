/* gen_tuple.c - the `kjit run` spelling of a tuple VALUE:
 * "(1, 2.5, (float32:1, True))" and of a namedtuple instance
 * "Point(1.5, y=2.5)" (rt_tuple_parse, array.h).
 *
 * Elements are the VALUEs of gen.c (bare numbers: int -> int64, float ->
 * float64, as Numba types Python values; DTYPE:V; arrays such as
 * zeros:f64:8 or x.npy), True/False (boolean) or nested tuples; "()" is the
 * empty tuple.  The element list is malloc'd and freed by rt_value_free. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/array.h"

#define MAX_ELEMS 16            /* elements per tuple (Numba has no limit) */
#define MAX_DEPTH 4             /* nesting of tuples in tuples */

typedef struct TupleText {
  const char *text;             /* the whole VALUE, for messages */
  char *err;
  size_t errlen;
} TupleText;

static int tuple_fail(TupleText *t, const char *what) {
  snprintf(t->err, t->errlen, "tuple '%s': %s; write a tuple as (1, 2.5) or (int32:1, (zeros:f32:4, "
           "True)), a namedtuple as Point(1.5, y=2.5)", t->text, what);
  return -1;
}

/* The length of the identifier at p (0 if none). */
static size_t ident_len(const char *p) {
  size_t n = 0;
  if ((*p >= '0' && *p <= '9'))
    return 0;
  while (p[n] == '_' || (p[n] >= 'a' && p[n] <= 'z') || (p[n] >= 'A' && p[n] <= 'Z') ||
         (p[n] >= '0' && p[n] <= '9'))
    n++;
  return n;
}

bool rt_tuple_is_named(const char *text) {
  const char *p = text + strspn(text, " \t");
  size_t n = ident_len(p);
  return n > 0 && p[n] == '(';
}

/* NAME= at p (not NAME==): the field a keyword element names. */
static size_t key_len(const char *p) {
  size_t n = ident_len(p);
  const char *q = p + n;
  while (*q == ' ' || *q == '\t')
    q++;
  return n > 0 && q[0] == '=' && q[1] != '=' ? n : 0;
}

static void free_keys(const char **keys, int n) {
  for (int i = 0; keys && i < n; i++)
    free((char *)keys[i]);
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
  if (*p == '(' || rt_tuple_is_named(p))
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

/* Releases what a failed parse_tuple_at made so far. */
static int drop(RtValue *el, const char **keys, int n, char *name) {
  free_keys(keys, n);
  while (n > 0)
    rt_value_free(&el[--n]);
  free(name);
  return -1;
}

/* Moves the n parsed elements (and keys, when any was given) into out. */
static int finish(TupleText *t, RtValue *out, RtValue *el, const char **keys, int n, bool any_key,
                  char *name) {
  if (n > 0 && !(out->elems = malloc(sizeof *el * (size_t)n)))
    return drop(el, keys, n, name), tuple_fail(t, "out of memory");
  if (n > 0)
    memcpy(out->elems, el, sizeof *el * (size_t)n);
  if (any_key && !(out->keys = malloc(sizeof *keys * (size_t)n))) {
    free(out->elems);
    out->elems = NULL;
    return drop(el, keys, n, name), tuple_fail(t, "out of memory");
  }
  if (any_key)
    memcpy(out->keys, keys, sizeof *keys * (size_t)n);
  else
    free_keys(keys, n);
  out->nelems = n;
  out->tname = name;
  return 0;
}

/* [NAME] '(' [KEY '='] elem {',' [KEY '='] elem} [','] ')' at *pp; *pp
 * moves past the ')'.  As in Python, "(x)" without a comma is x itself,
 * "(x,)" the 1-tuple; a keyword element needs a NAME and follows the
 * positional ones. */
static int parse_tuple_at(TupleText *t, const char **pp, RtValue *out, int depth) {
  memset(out, 0, sizeof *out);
  out->is_tuple = true;
  if (depth > MAX_DEPTH)
    return tuple_fail(t, "tuples nest at most 4 deep");
  RtValue el[MAX_ELEMS];
  const char *keys[MAX_ELEMS] = {0};
  int n = 0;
  bool comma = false, any_key = false;
  const char *p = skip_space(*pp);
  size_t nl = ident_len(p);
  char *name = nl ? strndup(p, nl) : NULL;
  p = skip_space(p + nl) + 1;                    /* past '(' */
  while (*(p = skip_space(p)) != ')') {
    if (!*p)
      return drop(el, keys, n, name), tuple_fail(t, "missing ')'");
    if (n == MAX_ELEMS)
      return drop(el, keys, n, name), tuple_fail(t, "a tuple argument has at most 16 elements");
    size_t kl = key_len(p);
    if (!kl && any_key)
      return drop(el, keys, n, name), tuple_fail(t, "a positional element follows a NAME=VALUE one");
    if (kl && !name)
      return drop(el, keys, n, name), tuple_fail(t, "NAME=VALUE elements need a namedtuple: Point(x=1.5)");
    if (kl) {
      keys[n] = strndup(p, kl);
      p = strchr(p, '=') + 1;
      any_key = true;
    }
    if (parse_elem(t, &p, &el[n], depth) != 0) {
      free((char *)keys[n]);
      return drop(el, keys, n, name);
    }
    n++;
    if (*p == ',')
      p++, comma = true;
    else if (*p != ')')
      return drop(el, keys, n, name), tuple_fail(t, *p ? "expected ',' or ')'" : "missing ')'");
  }
  *pp = p + 1;
  if (n == 1 && !comma && !name) {               /* (x) is x */
    *out = el[0];
    return 0;
  }
  return finish(t, out, el, keys, n, any_key, name);
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

