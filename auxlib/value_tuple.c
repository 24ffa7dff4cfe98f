/* value_tuple.c - the `kjit run` spelling of a tuple VALUE:
 * "(1, 2.5, (float32:1, True))" and of a namedtuple instance
 * "Point(1.5, y=2.5)" (aux_tuple_parse, value.h), as a KJIT_ARG_TUPLE.
 *
 * Elements are the VALUEs of value.c (bare numbers: int -> int64, float ->
 * float64, as Numba types Python values; DTYPE:V; arrays such as
 * zeros:f64:8 or x.npy), True/False (boolean) or nested tuples; "()" is the
 * empty tuple.  The element list, name and keys are malloc'd and freed by
 * kjitaux_arg_free; the arrays are handles of the context. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "auxlib/value_internal.h"
#include "kjitaux.h"

#define MAX_ELEMS 16            /* elements per tuple (Numba has no limit) */
#define MAX_DEPTH 4             /* nesting of tuples in tuples */

typedef struct TupleText {
  kjit_context *ctx;
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

bool aux_tuple_is_named(const char *text) {
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

static int parse_tuple_at(TupleText *t, const char **pp, kjit_arg *out, int depth);

/* One element: a nested tuple, True/False, or a scalar VALUE. */
static int parse_elem(TupleText *t, const char **pp, kjit_arg *out, int depth) {
  const char *p = skip_space(*pp);
  if (*p == '(' || aux_tuple_is_named(p))
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
    unsigned char b = buf[0] == 'T';
    *out = kjit_arg_scalar(KJIT_BOOL, &b);
    return 0;
  }
  char why[512];
  if (aux_value_parse(t->ctx, buf, out, why, sizeof why) != 0)
    return tuple_fail(t, why);
  return 0;
}

/* Releases what a failed parse_tuple_at made so far. */
static int drop(kjit_arg *el, const char **keys, int n, char *name) {
  free_keys(keys, n);
  while (n > 0)
    aux_arg_discard(&el[--n]);
  free(name);
  return -1;
}

/* Moves the n parsed elements (and keys, when any was given) into out. */
static int finish(TupleText *t, kjit_arg *out, kjit_arg *el, const char **keys, int n, bool any_key,
                  char *name) {
  kjit_arg *elems = n > 0 ? malloc(sizeof *el * (size_t)n) : NULL;
  const char **k = any_key ? malloc(sizeof *keys * (size_t)n) : NULL;
  if ((n > 0 && !elems) || (any_key && !k)) {
    free(elems);
    free(k);
    return drop(el, keys, n, name), tuple_fail(t, "out of memory");
  }
  if (n > 0)
    memcpy(elems, el, sizeof *el * (size_t)n);
  if (any_key)
    memcpy(k, keys, sizeof *keys * (size_t)n);
  else
    free_keys(keys, n);
  *out = kjit_arg_named_tuple(name, elems, n);
  out->value.tuple.keys = k;
  return 0;
}

/* [NAME] '(' [KEY '='] elem {',' [KEY '='] elem} [','] ')' at *pp; *pp
 * moves past the ')'.  As in Python, "(x)" without a comma is x itself,
 * "(x,)" the 1-tuple; a keyword element needs a NAME and follows the
 * positional ones. */
static int parse_tuple_at(TupleText *t, const char **pp, kjit_arg *out, int depth) {
  *out = kjit_arg_tuple(NULL, 0);
  if (depth > MAX_DEPTH)
    return tuple_fail(t, "tuples nest at most 4 deep");
  kjit_arg el[MAX_ELEMS];
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

int aux_tuple_parse(kjit_context *ctx, const char *text, kjit_arg *out, char *err, size_t errlen) {
  TupleText t = {ctx, text, err, errlen};
  const char *p = text;
  if (parse_tuple_at(&t, &p, out, 1) != 0)
    return -1;
  if (*skip_space(p) == '\0')
    return 0;
  aux_arg_discard(out);
  return tuple_fail(&t, "unexpected text after ')'");
}

/* The element lists, name and keys of a parsed tuple (arrays: keep). */
void kjitaux_arg_free(kjit_arg *a) {
  if (!a || a->kind != KJIT_ARG_TUPLE)
    return;
  for (int i = 0; a->value.tuple.keys && i < a->value.tuple.count; i++)
    free((char *)a->value.tuple.keys[i]);
  free((char **)a->value.tuple.keys);
  free((char *)a->value.tuple.name);
  a->value.tuple.keys = NULL;
  a->value.tuple.name = NULL;
  if (!a->value.tuple.elems)
    return;
  kjit_arg *el = (kjit_arg *)a->value.tuple.elems;
  for (int i = 0; i < a->value.tuple.count; i++)
    kjitaux_arg_free(&el[i]);
  free(el);
  a->value.tuple.elems = NULL;
  a->value.tuple.count = 0;
}

/* The arrays of a value too: a parse that fails leaves nothing behind. */
static void destroy_arrays(const kjit_arg *a) {
  if (a->kind == KJIT_ARG_ARRAY)
    kjit_array_destroy(a->value.array);
  for (int i = 0; a->kind == KJIT_ARG_TUPLE && i < a->value.tuple.count; i++)
    destroy_arrays(&a->value.tuple.elems[i]);
}

void aux_arg_discard(kjit_arg *a) {
  destroy_arrays(a);
  kjitaux_arg_free(a);
}
