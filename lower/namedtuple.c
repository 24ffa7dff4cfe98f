/* namedtuple.c - collections.namedtuple classes of the kernel file.
 *
 * Numba types an instance of a namedtuple class as NamedUniTuple (all
 * fields of one type) or NamedTuple: a tuple whose elements are also
 * fields, so p.x, p[0], len(p) and unpacking all work.  kjit reads the
 * classes from the top-level assignments `Point = namedtuple('Point',
 * ['x', 'y'])` (field names as a list or tuple of strings, or one string
 * "x y" / "x, y"), and from `class Point(NamedTuple): x: float` (the
 * parser turns the class into the same call).  Instances come from the
 * host (kjit run "p=Point(1.5, 2.5)", kjit_arg_named_tuple) or from a
 * constructor call in the kernel (lower_namedtuple.c); either way the type is ty_named_tuple,
 * laid out as the plain tuple of its elements. */
#include <string.h>

#include "lower/lower_internal.h"


const IrNamedTuple *ir_namedtuple_find(const IrProgram *p, const char *name) {
  for (int i = p->namedtuples.len - 1; name && i >= 0; i--)
    if (strcmp(p->namedtuples.data[i]->name, name) == 0)
      return p->namedtuples.data[i];
  return NULL;
}

static bool is_ident(const char *s, size_t n) {
  if (n == 0 || (s[0] >= '0' && s[0] <= '9'))
    return false;
  for (size_t i = 0; i < n; i++)
    if (!(s[i] == '_' || (s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
          (s[i] >= '0' && s[i] <= '9')))
      return false;
  return true;
}

/* "x y" or "x, y": the names into f (false on anything else). */
static bool split_names(LowerProg *lp, const char *s, const char **f, int *n) {
  for (const char *p = s; *p;) {
    p += strspn(p, " ,\t");
    size_t len = strcspn(p, " ,\t");
    if (!len)
      break;
    if (*n == NT_MAX_FIELDS || !is_ident(p, len))
      return false;
    f[(*n)++] = arena_strndup(lp->a, p, len);
    p += len;
  }
  return true;
}

static bool field_names(LowerProg *lp, const Node *v, const char **f, int *n) {
  if (v->kind == ND_STR)
    return split_names(lp, v->str, f, n);
  if (v->kind != ND_LIST && v->kind != ND_TUPLE)
    return false;
  for (int i = 0; i < v->args.len; i++) {
    const Node *e = v->args.data[i];
    if (e->kind == ND_TUPLE && e->args.len == 2) /* typing.NamedTuple('P', [('x', float)]) */
      e = e->args.data[0];
    if (e->kind != ND_STR || *n == NT_MAX_FIELDS || !is_ident(e->str, strlen(e->str)))
      return false;
    f[(*n)++] = e->str;
  }
  return true;
}

bool ir_fold_namedtuple(LowerProg *lp, const GlobalAssign *ga) {
  const Node *v = ga->value;
  if (!v || v->kind != ND_CALL || v->args.len != 2 || v->args.data[0]->kind != ND_STR)
    return false;
  const char *path = ir_resolve_path(lp, NULL, v->lhs);
  if (!path || (strcmp(path, "collections.namedtuple") != 0 &&
                strcmp(path, "typing.NamedTuple") != 0))
    return false;
  const char *f[NT_MAX_FIELDS];
  int n = 0;
  if (!field_names(lp, v->args.data[1], f, &n))
    return false;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < i; j++)
      if (strcmp(f[i], f[j]) == 0)
        return false; /* Python raises ValueError: a host error, not ours */
  IrNamedTuple *nt = arena_alloc(lp->a, sizeof *nt);
  nt->name = ga->name;
  nt->tname = v->args.data[0]->str;
  nt->nfields = n;
  nt->fields = arena_alloc(lp->a, sizeof(char *) * (size_t)(n ? n : 1));
  memcpy(nt->fields, f, sizeof(char *) * (size_t)n);
  nt->loc = ga->loc;
  vec_push(lp->a, &lp->p->namedtuples, nt);
  return true;
}
