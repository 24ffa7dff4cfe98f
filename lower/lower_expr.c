/* lower_expr.c - expressions and assignment targets -> generic kjit IR.
 *
 * Each function returns the instruction holding the value, or -1 after an
 * error was reported (lower_emit turns a -1 operand into a placeholder so
 * lowering carries on and reports every error).  Short-circuit operators,
 * chained comparisons and conditional expressions branch and leave their
 * result in a hidden local, loaded in the join block. */
#include <stdio.h>

#include "lower/lower_internal.h"

static IrOp binop_of(AstOp op) {
  switch (op) {
  case AOP_ADD: return OP_ADD;
  case AOP_SUB: return OP_SUB;
  case AOP_MUL: return OP_MUL;
  case AOP_DIV: return OP_TRUEDIV;
  case AOP_FLOORDIV: return OP_FLOORDIV;
  case AOP_MOD: return OP_MOD;
  case AOP_POW: return OP_POW;
  case AOP_LSHIFT: return OP_LSHIFT;
  case AOP_RSHIFT: return OP_RSHIFT;
  case AOP_BITAND: return OP_BITAND;
  case AOP_BITOR: return OP_BITOR;
  case AOP_BITXOR: return OP_BITXOR;
  case AOP_EQ: return OP_EQ;
  case AOP_NE: return OP_NE;
  case AOP_LT: return OP_LT;
  case AOP_LE: return OP_LE;
  case AOP_GT: return OP_GT;
  case AOP_GE: return OP_GE;
  case AOP_IS: return OP_IS;
  case AOP_ISNOT: return OP_ISNOT;
  default: return OP__COUNT;
  }
}

static int unsupported_op(Lower *L, AstOp op, SrcLoc loc) {
  const char *hint = op == AOP_IS || op == AOP_ISNOT ? "compare values with == or !=" : NULL;
  diag_error(L->d, E_UNSUPPORTED, loc, hint, "the operator '%s' is not supported in kernels",
             ast_op_str(op));
  return -1;
}

int lower_binop(Lower *L, AstOp op, int a, int b, SrcLoc loc) {
  IrOp o = binop_of(op);
  if (op == AOP_IN || op == AOP_NOTIN) /* lower_contains.c */
    return lower_contains(L, op == AOP_NOTIN, a, b, loc);
  if (o == OP__COUNT)
    return unsupported_op(L, op, loc);
  return lower_emit2(L, o, loc, a, b);
}

int lower_global(Lower *L, const IrGlobal *g, SrcLoc loc) {
  if (g->type && g->type->kind == TY_NONE) {
    int id = lower_emit0(L, OP_CONST_NONE, loc);
    lower_inst(L, id)->type = TY_NONE_T;
    return id;
  }
  if (g->type && g->type->kind == TY_ARRAY) { /* a module-level np.array literal */
    int id = lower_emit0(L, OP_CONST_ARRAY, loc);
    Inst *in = lower_inst(L, id);
    in->tyimm = g->type;
    in->shape = g->shape;
    in->data = g->data;
    in->str = g->name;
    return id;
  }
  if (g->type && g->type->kind == TY_TUPLE) {
    int *elems = arena_alloc(L->a, sizeof(int) * (size_t)(g->nelems + 1));
    for (int i = 0; i < g->nelems; i++)
      elems[i] = lower_global(L, &g->elems[i], loc);
    return lower_emit(L, OP_TUPLE, loc, elems, g->nelems);
  }
  if (g->type && (ty_is_float(g->type) || ty_is_complex(g->type))) {
    int id = lower_emit0(L, OP_CONST_FLOAT, loc);
    lower_inst(L, id)->fval = g->fval;
    lower_inst(L, id)->fimag = g->fimag;
    lower_inst(L, id)->type = g->type;
    return id;
  }
  if (g->type == TY_BOOL_T) {
    int id = lower_emit0(L, OP_CONST_BOOL, loc);
    lower_inst(L, id)->ival = g->ival != 0;
    lower_inst(L, id)->type = TY_BOOL_T;
    return id;
  }
  int id = lower_const_int(L, g->ival, loc);
  lower_inst(L, id)->type = g->type ? g->type : TY_I64_T;
  return id;
}

/* ------------------------------------------------------------ literals -- */

static int expr_literal(Lower *L, const Node *n) {
  IrOp op = n->kind == ND_FLOAT ? OP_CONST_FLOAT : n->kind == ND_BOOL ? OP_CONST_BOOL
                                                                    : OP_CONST_NONE;
  if (n->kind == ND_INT && n->big && n->huge) {
    diag_error(L->d, E_BIGINT, n->loc, NULL, "integer literal too large for uint64");
    return -1;
  }
  if (n->kind == ND_INT && n->big) /* [2**63, 2**64): uint64, as Numba types it */
    return lower_cast(L, lower_const_int(L, n->ival, n->loc), TY_U64_T, n->loc);
  if (n->kind == ND_INT)
    return lower_const_int(L, n->ival, n->loc);
  int id = lower_emit0(L, op, n->loc);
  Inst *in = lower_inst(L, id);
  in->fval = n->fval;
  in->ival = n->ival != 0;
  in->type = op == OP_CONST_FLOAT ? TY_F64_T : op == OP_CONST_BOOL ? TY_BOOL_T : TY_NONE_T;
  if (n->kind == ND_FLOAT && n->imag) /* 3j is complex128 */
    in->type = TY_C128_T, in->fimag = n->fval, in->fval = 0;
  return id;
}

/* A string constant: text (UTF-8) or bytes (b'...', typed TY_BYTES, the
 * value a bytes field of a record takes); ival is its length in bytes,
 * which may count NULs. */
static int expr_string(Lower *L, const Node *n) {
  if (n->fstring) {
    diag_error(L->d, E_NOTYET, n->loc, "print the values as separate arguments: print(\"x =\", x)",
               "f-strings are not supported in kernels");
    return -1;
  }
  int id = lower_emit0(L, OP_CONST_STR, n->loc);
  lower_inst(L, id)->str = n->str ? n->str : "";
  lower_inst(L, id)->ival = n->str ? (int64_t)n->strlen : 0;
  lower_inst(L, id)->type = n->bytes ? TY_BYTES_T : TY_STR_T;
  return id;
}

/* --------------------------------------------------------------- names -- */

typedef Vec(const char *) NameVec;

static void collect_names(Lower *L, NameVec *c) {
  for (int i = 0; i < L->f->locals.len; i++)
    vec_push(L->a, c, L->f->locals.data[i].name);
  for (int i = 0; i < L->p->globals.len; i++)
    vec_push(L->a, c, L->p->globals.data[i].name);
  for (int i = 0; i < L->p->ast->funcs.len; i++)
    vec_push(L->a, c, L->p->ast->funcs.data[i]->name);
  for (int i = 0; i < L->p->ast->imports.len; i++)
    vec_push(L->a, c, L->p->ast->imports.data[i].alias);
  static const char *const builtins[] = {"range", "len", "min", "max", "abs", "int",
                                         "float", "bool", "round", "print", "complex"};
  for (size_t i = 0; i < sizeof builtins / sizeof *builtins; i++)
    vec_push(L->a, c, builtins[i]);
}

/* Python builtins that Numba kernels lack, with what to write instead: the
 * name is defined in Python, so "is not defined" would mislead. */
static const char *unsupported_builtin_hint(const char *name) {
  static const struct { const char *names, *hint; } groups[] = {
      {" sum any all map filter zip enumerate sorted reversed iter next ",
       "write the loop explicitly"},
      {" divmod ", "use // and %"},
      {" list dict set tuple frozenset ", "use cuda.local.array(n, dtype) for a per-thread array"},
      {" str repr format chr ord ascii bytes bytearray ",
       "kernels have no strings; print values as separate arguments: print(\"x =\", x)"},
      {" type issubclass callable hasattr getattr setattr id hash ",
       "types are fixed when the kernel is compiled"},
      {" open input exit quit eval exec compile globals locals vars help dir ",
       "do this in host code, outside the kernel"},
  };
  char key[40];
  if (strlen(name) > sizeof key - 3)
    return NULL;
  snprintf(key, sizeof key, " %s ", name);
  for (size_t i = 0; i < sizeof groups / sizeof *groups; i++)
    if (strstr(groups[i].names, key))
      return groups[i].hint;
  return NULL;
}

static int undefined_name(Lower *L, const Node *n) {
  const char *hint = unsupported_builtin_hint(n->name);
  if (hint) {
    diag_error(L->d, E_UNSUPPORTED, n->loc, hint, "'%s' is not supported in kernels", n->name);
    return -1;
  }
  NameVec cands = {0};
  collect_names(L, &cands);
  const char *near = ir_closest(n->name, cands.data, cands.len);
  diag_error(L->d, E_UNDEFINED, n->loc, near ? arena_printf(L->a, "did you mean '%s'?", near) : NULL,
             "name '%s' is not defined", n->name);
  return -1;
}

static bool is_module_def(Lower *L, const char *name) {
  for (int i = 0; i < L->p->ast->funcs.len; i++)
    if (strcmp(L->p->ast->funcs.data[i]->name, name) == 0)
      return true;
  return false;
}

/* The numpy call (np.zeros(...), np.array(...)) that made global `name` an
 * array, or NULL: kernels see arrays only through their parameters. */
static const Node *global_array_call(Lower *L, const char *name) {
  const Module *m = L->p->ast;
  for (int i = m->globals.len - 1; i >= 0; i--) {
    const GlobalAssign *ga = &m->globals.data[i];
    if (strcmp(ga->name, name) != 0)
      continue;
    const Node *v = ga->value;
    const char *path = v && v->kind == ND_CALL ? ir_resolve_path(L->lp, NULL, v->lhs) : NULL;
    return path && ir_starts_with(path, "numpy.") && !ir_path_dtype(path) ? v : NULL;
  }
  return NULL;
}

static int nonconst_global(Lower *L, const NonConst *nc, SrcLoc loc) {
  if (nc->why_loc.src) { /* an np.array literal: point at its culprit */
    diag_error(L->d, E_NOTCONST, nc->why_loc, nc->hint, "constant array '%s': %s", nc->name,
               nc->why);
    diag_add(L->d, DL_NOTE, E_NOTCONST, loc, NULL, "'%s' is used in a kernel here", nc->name);
    return -1;
  }
  const Node *arr = global_array_call(L, nc->name);
  if (arr) {
    diag_error(L->d, E_NOTCONST, loc, "pass the array to the kernel as an argument",
               "global '%s' is not a compile-time constant: %s creates an array", nc->name,
               ir_dotted(L->a, arr));
    return -1;
  }
  diag_error(L->d, E_NOTCONST, loc,
             "kernels can read module constants: int, float and bool literals, tuples of them, "
             "np.float32(...)-style casts and arithmetic on them",
             "global '%s' is not a compile-time constant (%s)", nc->name, nc->why);
  return -1;
}

/* A local bound to a value that failed to lower (a lambda, a nested def, a
 * walrus...): its error is already out, so using it reports nothing more.
 * Lowering stops the compile on any error, so the marker never reaches
 * type inference. */
static bool bound_to_error(Lower *L, const char *name) {
  int l = ir_local_find(L->f, name);
  return l >= 0 && L->f->locals.data[l].type == TY_UNKNOWN_T;
}

/* Python scoping: local, module constant, function, import, builtin. */
/* The function a call from GPU code reaches: a kernel's device twin (numba-
 * cuda compiles a kernel called from GPU code as a device function; the
 * twin's body is filled in once the program is lowered, fill_twins). */
static IrFunc *device_callee(Lower *L, IrFunc *callee) {
  if (!callee->is_kernel || callee->is_ufunc || L->f->generated)
    return callee;
  if (!callee->device_twin) {
    IrFunc *t = ir_func_new(L->a, callee->name);
    *t = *callee; /* parameters already lowered; the body follows */
    callee->device_twin = t;
  }
  return callee->device_twin;
}

static int expr_name(Lower *L, const Node *n) {
  if (bound_to_error(L, n->name))
    return -1; /* its value is the failure already reported */
  if (lower_is_nested(L, n->name)) {
    diag_error(L->d, E_CALLEE, n->loc, "call it: passing or returning it is not supported",
               "nested function '%s' can only be called", n->name);
    return -1;
  }
  int l = ir_local_find(L->f, n->name);
  if (l >= 0)
    return lower_load(L, l, n->loc);
  if (ir_host_global_find(L->p, n->name)) { /* bound by the host: read when typed */
    int id = lower_emit0(L, OP_HOST_GLOBAL, n->loc);
    lower_inst(L, id)->str = n->name;
    return id;
  }
  const IrGlobal *g = ir_global_find(L->p, n->name);
  if (g)
    return lower_global(L, g, n->loc);
  const NonConst *nc = ir_nonconst_find(L->lp, n->name);
  if (nc)
    return nonconst_global(L, nc, n->loc);
  IrFunc *fn = ir_find_func(L->p, n->name);
  if (fn && !fn->is_ufunc && !fn->is_reduce) { /* a function as a value (Numba freezes it) */
    fn = device_callee(L, fn);
    int v = lower_emit0(L, OP_VALUE, n->loc);
    lower_inst(L, v)->tyimm = ty_func(L->p->types, fn, fn->name);
    return v;
  }
  if (is_module_def(L, n->name)) {
    diag_error(L->d, E_CALLEE, n->loc, "decorate it with @cuda.jit(device=True)",
               "'%s' is a host function and cannot be used in GPU code", n->name);
    return -1;
  }
  const char *path = ir_import_path(L->lp, n->name);
  if (path)
    return lower_path_value(L, path, n);
  if (lower_is_builtin(n->name)) {
    diag_error(L->d, E_CALLEE, n->loc, NULL, "builtin '%s' can only be called", n->name);
    return -1;
  }
  return undefined_name(L, n);
}

/* ---------------------------------------------------------- attributes -- */

/* Color.blue where Color is an enum class (of this file or an imported
 * one: its members are the globals "Color.x"; the merged spelling of an
 * imported one is "colors.Color") without that member: Python's
 * AttributeError, named as the user wrote the class, with the members as
 * candidates.  Returns false when lhs is no enum class. */
static bool enum_member_error(Lower *L, const Node *n) {
  const Node *c = n->lhs;
  if (!c || c->kind != ND_NAME || !c->name || ir_local_find(L->f, c->name) >= 0)
    return false;
  size_t len = strlen(c->name);
  NameVec members = {0};
  for (int i = 0; i < L->p->ast->globals.len; i++) {
    const char *g = L->p->ast->globals.data[i].name;
    if (g && strncmp(g, c->name, len) == 0 && g[len] == '.' && !strchr(g + len + 1, '.'))
      vec_push(L->a, &members, g + len + 1);
  }
  if (!members.len)
    return false;
  const char *near = ir_closest(n->name ? n->name : "", members.data, members.len);
  const char *shown = loc_text(L->a, c->loc, false);
  diag_error(L->d, E_NOATTR, n->loc, near ? arena_printf(L->a, "did you mean '%s'?", near) : NULL,
             "enum class '%s' has no member '%s'", shown ? shown : c->name, n->name ? n->name : "");
  return true;
}

static int expr_attr(Lower *L, const Node *n) {
  const IrGlobal *member = ir_member_global(L->lp, L->f, n);
  if (member)
    return lower_global(L, member, n->loc);
  if (enum_member_error(L, n))
    return -1;
  const char *path = ir_resolve_path(L->lp, L->f, n);
  if (path)
    return lower_path_value(L, path, n);
  const char *a = n->name ? n->name : "";
  if (strcmp(a, "dtype") == 0) { /* a dtype value, for cuda.local.array(n, a.dtype) */
    int base = lower_expr(L, n->lhs);
    return base < 0 ? -1 : lower_emit1(L, OP_ARRAY_DTYPE, n->loc, base);
  }
  IrOp op = strcmp(a, "shape") == 0     ? OP_ARRAY_SHAPE
            : strcmp(a, "strides") == 0 ? OP_ARRAY_STRIDE
            : strcmp(a, "size") == 0    ? OP_ARRAY_SIZE
            : strcmp(a, "ndim") == 0    ? OP_ARRAY_NDIM
            : strcmp(a, "T") == 0       ? OP_ARRAY_T
                                        : OP__COUNT;
  int base = lower_expr(L, n->lhs);
  if (base < 0)
    return -1;
  if (op == OP__COUNT && lower_num_is_attr(a))
    return lower_num_attr(L, n, base);
  int r = op == OP__COUNT ? lower_vector_attr(L, n, base) : -2;
  if (r == -2 && op == OP__COUNT)
    r = lower_field_attr(L, n, base); /* p.x of a namedtuple */
  if (r != -2)
    return r;
  if (op == OP__COUNT) { /* r.x: a record field; typing checks base is a record */
    int id = lower_emit1(L, OP_REC_GET, n->loc, base);
    lower_inst(L, id)->str = arena_strdup(L->a, a);
    return id;
  }
  int id = lower_emit1(L, op, n->loc, base);
  lower_inst(L, id)->ival = -1;
  return id;
}

/* ---------------------------------------------------------- subscripts -- */

static bool has_slice(const Node *ix) {
  if (!ix)
    return false;
  if (ix->kind == ND_SLICE)
    return true;
  if (ix->kind == ND_TUPLE)
    for (int i = 0; i < ix->args.len; i++)
      if (ix->args.data[i] && ix->args.data[i]->kind == ND_SLICE)
        return true;
  return false;
}

int lower_index(Lower *L, const Node *ix, int *out, int max) {
  if (has_slice(ix)) { /* reads go through lower_view, stores fill a view: a += */
    diag_error(L->d, E_NOTYET, ix->loc,
               "update element by element in a loop: a[i] += x",
               "augmented assignment to an array slice is not supported");
    out[0] = -1;
    return 1;
  }
  if (!ix || ix->kind != ND_TUPLE) {
    out[0] = lower_check_index(L, ix) ? lower_expr(L, ix) : -1;
    return 1;
  }
  if (ix->args.len > max || ix->args.len == 0) {
    diag_error(L->d, E_UNSUPPORTED, ix->loc, NULL, "arrays have 1 to %d dimensions, not %d",
               max, ix->args.len);
    out[0] = -1;
    return 1;
  }
  for (int i = 0; i < ix->args.len; i++)
    out[i] = lower_check_index(L, ix->args.data[i]) ? lower_expr(L, ix->args.data[i]) : -1;
  return ix->args.len;
}

static bool const_index(Lower *L, const Node *ix, int64_t *k) {
  IrGlobal g;
  if (!ix || ix->kind == ND_TUPLE || !ir_fold(L->lp, L->f, ix, &g, NULL))
    return false;
  if (!g.type || !ty_is_int(g.type))
    return false;
  *k = g.ival;
  return true;
}

/* a.shape[k] / a.strides[k] with a constant k read one extent directly. */
static int shape_subscript(Lower *L, const Node *n, int64_t k) {
  const Node *attr = n->lhs;
  IrOp op = strcmp(attr->name, "shape") == 0 ? OP_ARRAY_SHAPE : OP_ARRAY_STRIDE;
  int base = lower_expr(L, attr->lhs);
  if (base < 0)
    return -1;
  int id = lower_emit1(L, op, n->loc, base);
  lower_inst(L, id)->ival = k >= 0 ? k : -1;
  if (k >= 0)
    return id;
  id = lower_emit1(L, OP_TUPLE_GET, n->loc, id); /* negative: counted from the end */
  lower_inst(L, id)->ival = k;
  return id;
}

static bool is_tuple_value(const Inst *in) {
  return in->op == OP_TUPLE ||
         ((in->op == OP_ARRAY_SHAPE || in->op == OP_ARRAY_STRIDE) && in->ival == -1);
}

/* An index out of range is typing's to report (infer_ops.c), so that one in
 * a branch Numba prunes (`if len(T) == 3: T[2]`) is no error. */
static int tuple_get(Lower *L, int base, int64_t k, SrcLoc loc) {
  const Inst *in = lower_inst(L, base);
  if (in->op == OP_TUPLE && k < 0 && k + in->nargs >= 0)
    k += in->nargs;
  int id = lower_emit1(L, OP_TUPLE_GET, loc, base);
  lower_inst(L, id)->ival = k;
  return id;
}

static int expr_subscript(Lower *L, const Node *n) {
  IrGlobal g;
  int64_t k;
  const Node *b = n->lhs;
  if (!has_slice(n->rhs) && ir_fold(L->lp, L->f, n, &g, NULL))
    return lower_global(L, &g, n->loc); /* SHAPE[0] of a module tuple */
  if (b && b->kind == ND_ATTR && b->name && !ir_resolve_path(L->lp, L->f, b) &&
      (strcmp(b->name, "shape") == 0 || strcmp(b->name, "strides") == 0) &&
      const_index(L, n->rhs, &k))
    return shape_subscript(L, n, k);
  int ops[1 + TY_MAX_NDIM];
  ops[0] = lower_expr(L, b);
  if (ops[0] < 0)
    return -1; /* the base's error is out; its index count says nothing */
  if (is_tuple_value(lower_inst(L, ops[0])) && const_index(L, n->rhs, &k))
    return tuple_get(L, ops[0], k, n->loc);
  if (has_slice(n->rhs))
    return lower_view(L, n->rhs, ops[0], n->loc);
  int ni = lower_index(L, n->rhs, ops + 1, TY_MAX_NDIM);
  return lower_emit(L, OP_ARRAY_LOAD, n->loc, ops, ni + 1);
}

/* ------------------------------------------------- operators, control -- */

static int expr_unary(Lower *L, const Node *n) {
  const Node *x = n->lhs;
  if (ast_is_int64_min(n))
    return lower_const_int(L, INT64_MIN, n->loc);
  if (n->op == AOP_NEG && x && ((x->kind == ND_INT && !x->big && x->ival != INT64_MIN) ||
                                (x->kind == ND_FLOAT && !x->imag))) {
    int v = expr_literal(L, x); /* -1 is a constant, as Numba folds it */
    lower_inst(L, v)->ival = -x->ival;
    lower_inst(L, v)->fval = -x->fval;
    lower_inst(L, v)->loc = n->loc;
    return v;
  }
  IrOp op = n->op == AOP_NEG ? OP_NEG : n->op == AOP_POS ? OP_POS
          : n->op == AOP_INVERT ? OP_INVERT : OP_NOT;
  int v = lower_expr(L, n->lhs);
  return lower_emit1(L, op, n->loc, v);
}

static int expr_binop(Lower *L, const Node *n) {
  if (n->op == AOP_MATMUL)
    return unsupported_op(L, n->op, n->oploc.src ? n->oploc : n->loc);
  int a = lower_expr(L, n->lhs);
  int b = lower_expr(L, n->rhs);
  return lower_binop(L, n->op, a, b, n->loc);
}

/* operator.add(a, b), operator.neg(a), ... (Python's operator module, often
 * through a module variable: op = operator.add): the operator itself, with
 * the same typing.  Returns -2 for a name that is not one of them. */
int lower_operator_call(Lower *L, const char *m, const Node *call) {
  static const struct { const char *name; AstOp op; int arity; } ops[] = {
      {"add", AOP_ADD, 2}, {"sub", AOP_SUB, 2}, {"mul", AOP_MUL, 2}, {"truediv", AOP_DIV, 2},
      {"floordiv", AOP_FLOORDIV, 2}, {"mod", AOP_MOD, 2}, {"pow", AOP_POW, 2},
      {"lshift", AOP_LSHIFT, 2}, {"rshift", AOP_RSHIFT, 2}, {"and_", AOP_BITAND, 2},
      {"or_", AOP_BITOR, 2}, {"xor", AOP_BITXOR, 2}, {"iadd", AOP_ADD, 2}, {"isub", AOP_SUB, 2},
      {"imul", AOP_MUL, 2}, {"itruediv", AOP_DIV, 2}, {"ifloordiv", AOP_FLOORDIV, 2},
      {"imod", AOP_MOD, 2}, {"ipow", AOP_POW, 2}, {"ilshift", AOP_LSHIFT, 2},
      {"irshift", AOP_RSHIFT, 2}, {"iand", AOP_BITAND, 2}, {"ior", AOP_BITOR, 2},
      {"ixor", AOP_BITXOR, 2}, {"eq", AOP_EQ, 2}, {"ne", AOP_NE, 2}, {"lt", AOP_LT, 2},
      {"le", AOP_LE, 2}, {"gt", AOP_GT, 2}, {"ge", AOP_GE, 2}, {"neg", AOP_NEG, 1},
      {"pos", AOP_POS, 1}, {"invert", AOP_INVERT, 1}, {"inv", AOP_INVERT, 1},
      {"not_", AOP_NOT, 1}};
  for (size_t i = 0; i < sizeof ops / sizeof *ops; i++) {
    if (strcmp(m, ops[i].name) != 0)
      continue;
    if (call->args.len != ops[i].arity || call->args2.len) {
      diag_error(L->d, E_ARITY, call->loc, NULL, "operator.%s() takes exactly %d argument%s (%d given)",
                 m, ops[i].arity, ops[i].arity == 1 ? "" : "s", call->args.len + call->args2.len);
      return -1;
    }
    if (ops[i].arity == 1) { /* as the unary expression, constant folding included */
      Node *u = arena_alloc(L->a, sizeof *u);
      *u = (Node){.kind = ND_UNARY, .loc = call->loc, .op = ops[i].op, .lhs = call->args.data[0]};
      return expr_unary(L, u);
    }
    int a = lower_expr(L, call->args.data[0]);
    int b = lower_expr(L, call->args.data[1]);
    return lower_binop(L, ops[i].op, a, b, call->loc);
  }
  return -2;
}

/* a < b < c: b is evaluated once; evaluation stops at the first false. */
static int expr_compare(Lower *L, const Node *n) {
  if (n->args.len < 2 || n->ops.len < n->args.len - 1)
    return -1;
  for (int i = 0; i < n->ops.len; i++)
    if (binop_of((AstOp)n->ops.data[i]) == OP__COUNT && n->ops.data[i] != AOP_IN &&
        n->ops.data[i] != AOP_NOTIN)
      return unsupported_op(L, (AstOp)n->ops.data[i], n->loc);
  int a = lower_expr(L, n->args.data[0]);
  if (n->args.len == 2)
    return lower_binop(L, (AstOp)n->ops.data[0], a, lower_expr(L, n->args.data[1]), n->loc);
  int t = lower_temp(L, n->loc), end = lower_new_block(L);
  for (int i = 0; i + 1 < n->args.len; i++) {
    int b = lower_expr(L, n->args.data[i + 1]);
    int c = lower_binop(L, (AstOp)n->ops.data[i], a, b, n->loc);
    lower_store(L, t, c, n->loc);
    if (i + 2 == n->args.len) {
      lower_br(L, end, n->loc);
      break;
    }
    int next = lower_new_block(L);
    lower_cbr(L, c, next, end, n->loc);
    lower_set_block(L, next);
    a = b;
  }
  lower_set_block(L, end);
  return lower_load(L, t, n->loc);
}

/* x and y / x or y return an operand's value, as in Python. */
static int expr_boolop(Lower *L, const Node *n) {
  if (n->args.len == 0)
    return -1;
  int t = lower_temp(L, n->loc), end = lower_new_block(L);
  for (int i = 0; i < n->args.len; i++) {
    const Node *e = n->args.data[i];
    int v = lower_expr(L, e);
    lower_store(L, t, v, e ? e->loc : n->loc);
    if (i + 1 == n->args.len) {
      lower_br(L, end, n->loc);
      break;
    }
    int c = lower_truth(L, v, e ? e->loc : n->loc), next = lower_new_block(L);
    if (n->op == AOP_AND)
      lower_cbr(L, c, next, end, n->loc);
    else
      lower_cbr(L, c, end, next, n->loc);
    lower_set_block(L, next);
  }
  lower_set_block(L, end);
  return lower_load(L, t, n->loc);
}

static int expr_ifexp(Lower *L, const Node *n) {
  int t = lower_temp(L, n->loc);
  int then_b = lower_new_block(L), else_b = lower_new_block(L), end = lower_new_block(L);
  lower_branch(L, n->cond, then_b, else_b, n->loc); /* lower_cond.c */
  lower_set_block(L, then_b);
  lower_store(L, t, lower_expr(L, n->lhs), n->loc);
  lower_br(L, end, n->loc);
  lower_set_block(L, else_b);
  lower_store(L, t, lower_expr(L, n->rhs), n->loc);
  lower_br(L, end, n->loc);
  lower_set_block(L, end);
  return lower_load(L, t, n->loc);
}

/* Tuples are LLVM structs, whose size the backend handles in quadratic
 * time and memory (3,000 elements: 1.3 s and 330 MB), so a literal is
 * bounded; an array is the type for many values. */
#define MAX_TUPLE_LITERAL 1024

static int expr_tuple(Lower *L, const Node *n) {
  if (n->args.len > MAX_TUPLE_LITERAL) {
    diag_error(L->d, E_UNSUPPORTED, n->loc,
               "use an array (an argument, cuda.local.array or a module-level np.array constant)",
               "a tuple literal of %d elements exceeds the limit of %d", n->args.len, MAX_TUPLE_LITERAL);
    return -1;
  }
  int *elems = arena_alloc(L->a, sizeof(int) * (size_t)(n->args.len + 1));
  for (int i = 0; i < n->args.len; i++) {
    const Node *e = n->args.data[i];
    if (e && e->kind == ND_STARRED) {
      diag_error(L->d, E_UNSUPPORTED, e->loc, NULL, "starred expressions are not supported");
      elems[i] = -1;
      continue;
    }
    elems[i] = lower_expr(L, e);
  }
  return lower_emit(L, OP_TUPLE, n->loc, elems, n->args.len);
}

/* --------------------------------------------------------------- calls -- */

static int device_args(Lower *L, const IrFunc *callee, const Node *call, int *args) {
  const Func *fn = callee->ast;
  int np = callee->nparams, va = ir_vararg_index(fn); /* *args: lower_varargs.c */
  for (int i = 0; i < np; i++)
    args[i] = -2;
  for (int i = 0; i < call->args.len && i < (va >= 0 ? va : ir_npositional(fn, np)); i++)
    args[i] = lower_expr(L, call->args.data[i]);
  if (va >= 0)
    args[va] = lower_varargs(L, call, va);
  for (int k = 0; k < call->args2.len; k++) {
    const Node *kw = call->args2.data[k];
    int i = 0;
    while (i < np && (i == va || !kw->name || strcmp(fn->params.data[i].name, kw->name) != 0))
      i++;
    if (i == np || args[i] != -2) {
      diag_error(L->d, E_ARITY, kw->loc, NULL, i == np ? "%s() got an unexpected keyword argument '%s'"
                                                       : "%s() got multiple values for argument '%s'",
                 callee->name, kw->name ? kw->name : "**");
      continue;
    }
    args[i] = lower_expr(L, kw->lhs);
  }
  for (int i = 0; i < np; i++)
    if (args[i] == -2 && fn->params.data[i].star)
      return -1; /* a rejected star parameter: reported at the def */
    else if (args[i] == -2 && fn->params.data[i].deflt) /* its default, lower_contains.c */
      args[i] = lower_default_arg(L, &fn->params.data[i]);
  for (int i = 0; i < np; i++)
    if (args[i] == -2) {
      diag_error(L->d, E_ARITY, call->loc, NULL, "%s() missing required argument '%s'",
                 callee->name, fn->params.data[i].name);
      return -1;
    }
  return np;
}

static int call_function(Lower *L, IrFunc *callee, const Node *call) {
  callee = device_callee(L, callee);
  if (callee->is_reduce && !L->f->generated) {
    diag_error(L->d, E_REDUCE, call->loc,
               "reduce arrays from host code (kjit_reduce, kjit run); to call the binary "
               "function in a kernel, decorate it with @cuda.jit(device=True) instead",
               "'%s' is a @cuda.reduce function and cannot be called from GPU code", callee->name);
    return -1;
  }
  int npos = ir_npositional(callee->ast, callee->nparams); /* lower_varargs.c */
  if (call->args.len > npos) {
    diag_error(L->d, E_ARITY, call->loc, NULL, "%s() takes %d %sargument%s (%d given)",
               callee->name, npos, npos < callee->nparams ? "positional " : "", npos == 1 ? "" : "s",
               npos < callee->nparams ? call->args.len : call->args.len + call->args2.len);
    return -1;
  }
  int *args = arena_alloc(L->a, sizeof(int) * (size_t)(callee->nparams + 1));
  if (device_args(L, callee, call, args) < 0)
    return -1;
  int id = lower_emit(L, OP_CALL, call->loc, args, callee->nparams);
  lower_inst(L, id)->callee = callee;
  return id;
}

/* f(x) where f is a variable holding a function or a dtype (a device
 * function's parameter, a local): resolved by typing (infer_ctvalue.c). */
static int call_value(Lower *L, const Node *call) {
  if (call->args2.len) {
    diag_error(L->d, E_CALLEE, call->args2.data[0]->loc,
               "pass the arguments by position", "keyword arguments in a call through a variable are not supported");
    return -1;
  }
  int n = call->args.len + 1;
  int *args = arena_alloc(L->a, sizeof(int) * (size_t)n);
  if ((args[0] = lower_expr(L, call->lhs)) < 0)
    return -1;
  for (int i = 1; i < n; i++)
    if ((args[i] = lower_expr(L, call->args.data[i - 1])) < 0)
      return -1;
  return lower_emit(L, OP_CALL_VALUE, call->loc, args, n);
}

/* mul(x, y), mul a cuda.declare_device binding (foreign.c): the argument
 * count is checked here, the types by typing (infer_foreign.c). */
static int foreign_call(Lower *L, const IrExtern *e, const Node *call) {
  if (e->failed)
    return -1; /* the declaration's error is out already */
  if (call->args2.len || call->args.len != e->sig.nparams) {
    diag_error(L->d, E_ARITY, call->loc, NULL, "%s() takes %d argument%s (%d given)", e->name,
               e->sig.nparams, e->sig.nparams == 1 ? "" : "s", call->args.len + call->args2.len);
    return -1;
  }
  int *args = arena_alloc(L->a, sizeof(int) * (size_t)(e->sig.nparams + 1));
  for (int i = 0; i < call->args.len; i++)
    if ((args[i] = lower_expr(L, call->args.data[i])) < 0)
      return -1;
  int id = lower_emit(L, OP_CALL_FOREIGN, call->loc, args, e->sig.nparams);
  lower_inst(L, id)->ext = e;
  return id;
}

static int call_name(Lower *L, const Node *call) {
  const Node *c = call->lhs;
  const char *name = c->name;
  if (bound_to_error(L, name))
    return -1;
  const Node *nested_call = call;
  IrFunc *nested = lower_nested_callee(L, call, &nested_call); /* lower_nested.c */
  if (nested)
    return lower_nested_result(L, call, call_function(L, nested, nested_call));
  const IrExtern *ext = ir_local_find(L->f, name) < 0 ? ir_find_extern(L->p, name) : NULL;
  if (ext)
    return foreign_call(L, ext, call);
  if (ir_local_find(L->f, name) >= 0)
    return call_value(L, call);
  const Node *alias = ir_sig_resolve(L->p, c);
  if (alias != c && (alias->kind == ND_NAME || alias->kind == ND_ATTR)) {
    Node *again = arena_alloc(L->a, sizeof *again); /* op = math.pow; op(x, y) */
    *again = *call;
    again->lhs = (Node *)alias;
    return lower_expr(L, again);
  }
  const IrNamedTuple *nt = ir_namedtuple_find(L->p, name);
  if (nt)
    return lower_namedtuple_new(L, nt, call);
  if (ir_global_find(L->p, name) || ir_nonconst_find(L->lp, name)) {
    diag_error(L->d, E_CALLEE, c->loc, NULL, "'%s' is not a function", name);
    return -1;
  }
  IrFunc *callee = ir_find_func(L->p, name);
  if (callee)
    return call_function(L, callee, call);
  if (is_module_def(L, name) && ir_extension_error(L->lp, name, call->loc))
    return -1; /* overload.c */
  if (is_module_def(L, name)) {
    diag_error(L->d, E_CALLEE, call->loc, "decorate it with @cuda.jit(device=True)",
               "'%s' is a host function and cannot be called from GPU code", name);
    return -1;
  }
  const char *path = ir_import_path(L->lp, name);
  if (path)
    return lower_path_call(L, path, call);
  if (lower_is_builtin(name))
    return lower_builtin_call(L, name, call);
  return undefined_name(L, c);
}

/* a.transpose() with no axes is a.T. */
static int call_transpose(Lower *L, const Node *call) {
  int base = lower_expr(L, call->lhs->lhs);
  if (base < 0)
    return -1;
  if (call->args.len || call->args2.len) {
    diag_error(L->d, E_NOTYET, call->loc, "use a.T or a.transpose() on a 2-d array",
               "transpose() with axes is not supported");
    return -1;
  }
  return lower_emit1(L, OP_ARRAY_T, call->loc, base);
}

static int expr_call(Lower *L, const Node *n) {
  const Node *c = n->lhs;
  if (!c)
    return -1;
  if (c->kind == ND_NAME)
    return call_name(L, n);
  const char *path = ir_resolve_path(L->lp, L->f, c);
  if (path)
    return lower_path_call(L, path, n);
  if (c->kind == ND_ATTR && c->name && strcmp(c->name, "transpose") == 0)
    return call_transpose(L, n);
  if (c->kind == ND_ATTR && c->name && strcmp(c->name, "reshape") == 0)
    return lower_reshape(L, n);
  if (c->kind == ND_ATTR && c->name && strcmp(c->name, "sync") == 0)
    return lower_grid_sync(L, n);
  int r = c->kind == ND_ATTR ? lower_num_method(L, n) : -2;
  if (r == -2 && c->kind == ND_ATTR)
    r = lower_reduce_method(L, n); /* a.sum(), array_reduce.c */
  if (r == -2 && c->kind == ND_ATTR)
    r = lower_scalar_method(L, n); /* x.bit_count(), lower_contains.c */
  if (r == -2 && c->kind == ND_ATTR)
    r = lower_int_method(L, n);
  if (r != -2)
    return r;
  if (c->kind == ND_ATTR) {
    lower_expr(L, c->lhs);
    diag_error(L->d, E_UNSUPPORTED, c->loc, NULL, "method calls ('.%s()') are not supported in kernels",
               c->name ? c->name : "?");
    return -1;
  }
  diag_error(L->d, E_UNSUPPORTED, c->loc, NULL, "calling a %s is not supported",
             ast_kind_name(c->kind));
  return -1;
}

/* --------------------------------------------------------- dispatcher -- */

static int unsupported_expr(Lower *L, const Node *n) {
  const char *what = ast_kind_name(n->kind), *hint = NULL;
  switch (n->kind) {
  case ND_LIST: hint = "use cuda.local.array(n, dtype) for a per-thread array"; break;
  case ND_DICT:
  case ND_SET: hint = "use cuda.local.array or cuda.shared.array"; break;
  case ND_LAMBDA: hint = "define a device function at module level with @cuda.jit(device=True)"; break;
  case ND_COMPREHENSION: hint = "write a for loop over range(...)"; break;
  case ND_NAMEDEXPR:
    what = "the ':=' operator", hint = "assign in a separate statement";
    lower_assign_to(L, n, -1); /* n still binds its name, as "already failed" */
    break;
  case ND_SLICE: what = "a slice outside a subscript"; break;
  default: break;
  }
  diag_error(L->d, E_UNSUPPORTED, n->loc, hint, "%s is not supported in kernels", what);
  return -1;
}

int lower_expr(Lower *L, const Node *n) {
  if (!n)
    return -1;
  switch (n->kind) {
  case ND_INT:
  case ND_FLOAT:
  case ND_BOOL:
  case ND_NONE: return expr_literal(L, n);
  case ND_STR: return expr_string(L, n);
  case ND_NAME: return n->name ? expr_name(L, n) : -1;
  case ND_ATTR: return expr_attr(L, n);
  case ND_SUBSCRIPT: return expr_subscript(L, n);
  case ND_CALL: return expr_call(L, n);
  case ND_BINOP: return expr_binop(L, n);
  case ND_UNARY: return expr_unary(L, n);
  case ND_BOOLOP: return expr_boolop(L, n);
  case ND_COMPARE: return expr_compare(L, n);
  case ND_IFEXP: return expr_ifexp(L, n);
  case ND_TUPLE: return expr_tuple(L, n);
  default: return unsupported_expr(L, n);
  }
}

/* ------------------------------------------------------------- targets -- */

static void assign_unpack(Lower *L, const Node *t, int v) {
  if (v >= 0 && lower_inst(L, v)->op == OP_TUPLE && lower_inst(L, v)->nargs != t->args.len) {
    diag_error(L->d, E_TARGET, t->loc, NULL, "cannot unpack %d values into %d targets",
               lower_inst(L, v)->nargs, t->args.len);
    return;
  }
  for (int i = 0; i < t->args.len; i++) {
    int e = -1;
    if (v >= 0) {
      e = lower_emit1(L, OP_TUPLE_GET, t->args.data[i] ? t->args.data[i]->loc : t->loc, v);
      lower_inst(L, e)->ival = i;
    }
    lower_assign_to(L, t->args.data[i], e);
  }
}

/* a[i, j] = v stores an element; a[lo:hi] = v (any slice among the
 * indices) fills the view, Numba's setitem with slices. */
static void assign_subscript(Lower *L, const Node *t, int v) {
  int ops[2 + TY_MAX_NDIM];
  ops[0] = lower_expr(L, t->lhs);
  if (ops[0] < 0)
    return; /* as in expr_subscript */
  if (has_slice(t->rhs)) {
    int fill[2] = {lower_view(L, t->rhs, ops[0], t->loc), v};
    if (fill[0] >= 0)
      lower_emit(L, OP_ARRAY_FILL, t->loc, fill, 2);
    return;
  }
  ops[1] = v;
  int ni = lower_index(L, t->rhs, ops + 2, TY_MAX_NDIM);
  lower_emit(L, OP_ARRAY_STORE, t->loc, ops, ni + 2);
}

static bool is_array_attr(const char *a) {
  static const char *const names[] = {"shape", "strides", "size", "ndim", "T", "dtype"};
  for (size_t i = 0; a && i < sizeof names / sizeof *names; i++)
    if (strcmp(a, names[i]) == 0)
      return true;
  return false;
}

/* r.x = v: a record field (typing checks r is a record; array attributes
 * and everything else are refused there, as read-only). */
static void assign_field(Lower *L, const Node *t, int v) {
  int ops[2] = {t->lhs ? lower_expr(L, t->lhs) : -1, v};
  if (ops[0] < 0)
    return;
  int id = lower_emit(L, OP_REC_SET, t->loc, ops, 2);
  lower_inst(L, id)->str = arena_strdup(L->a, t->name ? t->name : "");
}

void lower_assign_to(Lower *L, const Node *t, int v) {
  if (!t)
    return;
  switch (t->kind) {
  case ND_NAME:
  case ND_NAMEDEXPR: /* rejected binding constructs still bind their name */
  case ND_FUNCDEF:
  case ND_CLASS: {
    if (!t->name)
      return;
    int l = ir_local_find(L->f, t->name);
    if (l < 0)
      l = ir_local_new(L->a, L->f, t->name, t->loc);
    lower_store(L, l, v, t->loc);
    if (v < 0) /* its error is out: mark the name so its uses stay silent */
      L->f->locals.data[l].type = TY_UNKNOWN_T;
    return;
  }
  case ND_SUBSCRIPT: assign_subscript(L, t, v); return;
  case ND_TUPLE:
  case ND_LIST: assign_unpack(L, t, v); return;
  case ND_ATTR:
    if (ir_resolve_path(L->lp, L->f, t)) /* cuda.threadIdx.x, math.pi... */
      diag_error(L->d, E_TARGET, t->loc, "copy it into a local variable and change that",
                 "cannot assign to %s: it is read-only", ir_dotted(L->a, t));
    else if (is_array_attr(t->name))
      diag_error(L->d, E_TARGET, t->loc, "array attributes are read-only",
                 "assigning to an attribute is not supported in kernels");
    else
      assign_field(L, t, v);
    return;
  default:
    diag_error(L->d, E_TARGET, t->loc, NULL, "cannot assign to a %s", ast_kind_name(t->kind));
    return;
  }
}
