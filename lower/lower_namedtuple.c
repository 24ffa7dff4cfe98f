/* lower_namedtuple.c - namedtuples in kernel code: a constructor call
 * Point(1.0, y=2.0) of a class namedtuple.c registered at module level, and
 * p.field on a value of such a class (typing resolves it to the element). */
#include <string.h>

#include "lower/lower_internal.h"

/* Point(1.0, 2.0), Point(x=1.0, y=2.0), Point(1.0, y=2.0): the fields in
 * class order, as a tuple of the class's type (typed in infer_ops.c). */
int lower_namedtuple_new(Lower *L, const IrNamedTuple *nt, const Node *call) {
  int n = nt->nfields, *el = arena_alloc(L->a, sizeof(int) * (size_t)(n + 1));
  const Node *given[NT_MAX_FIELDS] = {0};
  if (call->args.len > n) {
    diag_error(L->d, E_ARITY, call->loc, NULL, "%s() takes %d fields (%d given)", nt->name, n,
               call->args.len);
    return -1;
  }
  for (int i = 0; i < call->args.len; i++)
    given[i] = call->args.data[i];
  for (int i = 0; i < call->args2.len; i++) {
    const Node *kw = call->args2.data[i];
    int k = 0;
    while (k < n && kw->name && strcmp(kw->name, nt->fields[k]) != 0)
      k++;
    if (k == n || given[k]) {
      diag_error(L->d, E_ARITY, kw->loc, NULL, k == n ? "%s() has no field '%s'"
                                                      : "%s() got field '%s' twice",
                 nt->name, kw->name ? kw->name : "**");
      return -1;
    }
    given[k] = kw->lhs;
  }
  for (int k = 0; k < n; k++) {
    if (!given[k]) {
      diag_error(L->d, E_ARITY, call->loc, "give every field (defaults are not supported)",
                 "%s() is missing field '%s'", nt->name, nt->fields[k]);
      return -1;
    }
    if ((el[k] = lower_expr(L, given[k])) < 0)
      return -1;
  }
  int v = lower_emit(L, OP_TUPLE, call->loc, el, n);
  lower_inst(L, v)->data = nt; /* typed as the class's NamedTuple */
  return v;
}

/* p.x where some namedtuple class of the file has a field x: an element
 * taken by name once p's type is known. */
int lower_field_attr(Lower *L, const Node *n, int base) {
  for (int i = 0; i < L->p->namedtuples.len; i++) {
    const IrNamedTuple *nt = L->p->namedtuples.data[i];
    for (int k = 0; k < nt->nfields; k++)
      if (strcmp(nt->fields[k], n->name) == 0) {
        int v = lower_emit1(L, OP_TUPLE_GET, n->loc, base);
        lower_inst(L, v)->ival = -1;
        lower_inst(L, v)->str = nt->fields[k];
        return v;
      }
  }
  return -2;
}
