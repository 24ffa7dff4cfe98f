/* lower_vector.c - CUDA vector types (cuda.float32x4, cuda.int2, cuda.double3
 * ...): their constructors and the .x .y .z .w attributes.
 *
 * numba-cuda offers <base>x<n> for base int8..uint64, float32, float64 and n
 * 1..4, and C aliases (char, short, int, long, longlong, uchar, ushort,
 * uint, ulong, ulonglong, float, double + n).  A constructor becomes one
 * OP_VECTOR (typing, typing/infer_vector.c, checks the operands); v.x is a
 * TUPLE_GET marked with its attribute name. */
#include <stdio.h>

#include "lower/lower_internal.h"

/* The C aliases, with LP64's sizes (numba-cuda derives them from NumPy's
 * C types). */
static const char *alias_base(const char *name, size_t len) {
  static const struct { const char *alias, *base; } tab[] = {
      {"char", "int8"}, {"short", "int16"}, {"int", "int32"}, {"long", "int64"},
      {"longlong", "int64"}, {"uchar", "uint8"}, {"ushort", "uint16"}, {"uint", "uint32"},
      {"ulong", "uint64"}, {"ulonglong", "uint64"}, {"float", "float32"}, {"double", "float64"},
  };
  for (size_t i = 0; i < sizeof tab / sizeof *tab; i++)
    if (strlen(tab[i].alias) == len && strncmp(tab[i].alias, name, len) == 0)
      return tab[i].base;
  return NULL;
}

const Type *lower_vector_type(TypeTable *tt, const char *name) {
  static const char *const bases[] = {"int8", "int16", "int32", "int64", "uint8", "uint16",
                                      "uint32", "uint64", "float32", "float64", NULL};
  size_t len = strlen(name);
  if (len < 2 || name[len - 1] < '1' || name[len - 1] > '4')
    return NULL;
  int n = name[len - 1] - '0';
  const char *base = alias_base(name, len - 1);
  for (int i = 0; !base && bases[i]; i++)
    if (strlen(bases[i]) == len - 2 && strncmp(bases[i], name, len - 2) == 0 && name[len - 2] == 'x')
      base = bases[i];
  return base ? ty_vector(tt, ty_from_name(base), n) : NULL;
}

/* numba.cuda.<vector type>(...); -2 for other paths. */
int lower_vector_call(Lower *L, const char *path, const Node *call) {
  const Type *vt = ir_starts_with(path, "numba.cuda.") && !strchr(path + 11, '.')
                       ? lower_vector_type(L->p->types, path + 11)
                       : NULL;
  if (!vt)
    return -2;
  if (call->args2.len) {
    diag_error(L->d, E_ARITY, call->args2.data[0]->loc, NULL, "%s() takes no keyword arguments",
               ir_dotted(L->a, call->lhs));
    return -1;
  }
  int *args = arena_alloc(L->a, sizeof(int) * (size_t)(call->args.len + 1));
  for (int i = 0; i < call->args.len; i++)
    args[i] = lower_expr(L, call->args.data[i]);
  int v = lower_emit(L, OP_VECTOR, call->loc, args, call->args.len);
  lower_inst(L, v)->tyimm = vt;
  return v;
}

/* v.x, v.y, v.z, v.w; -2 for other attributes. */
int lower_vector_attr(Lower *L, const Node *n, int base) {
  static const char *const names[] = {"x", "y", "z", "w"};
  for (int i = 0; i < 4; i++) {
    if (!n->name || strcmp(n->name, names[i]) != 0)
      continue;
    int v = lower_emit1(L, OP_TUPLE_GET, n->loc, base);
    lower_inst(L, v)->ival = i;
    lower_inst(L, v)->str = names[i];
    return v;
  }
  return -2;
}
