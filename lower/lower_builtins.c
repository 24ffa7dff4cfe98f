/* lower_builtins.c - Python builtins (len, min, max, abs, int, float, bool,
 * round, print), dtype constructors, math.*, and the numba.cuda API
 * (thread indexing, grid, synchronisation, atomics, shared/local arrays).
 *
 * Paths are canonical ("numba.cuda.grid", "math.sqrt", "numpy.float32");
 * messages use the spelling of the source ("cuda.grid", "nc.grid").  Every
 * call checks its arity first and names the callee in the error. */
#include <math.h>
#include <stdio.h>
#include <strings.h>

#include "lower/lower_internal.h"
#include "ir/libdevice_fns.h"
#include "ir/npmath.h"

/* ---------------------------------------------------------- namespaces -- */

/* numba.cuda's members in kernels: the table cuda_api (below, with the
 * handlers) lowers them and names them in hints. */
struct CudaMember;
static const struct CudaMember *cuda_member(const char *m);
static const char *const *cuda_member_names(Lower *L);
static const char *const cuda_notyet[] = {
    "nanosleep", "vote_sync_intrinsic",
    "float16", "bf16", "_internal", "complex64", "complex128", "fp8", NULL};
static const char *const cuda_host[] = {
    "to_device", "device_array", "device_array_like", "pinned_array", "mapped_array",
    "synchronize", "stream", "event", "select_device", "get_current_device", "is_available",
    "compile_ptx", "defer_cleanup", "close", "declare_device", NULL};
/* numba.cuda.random: the kernel side is ir_random_names; these are host
 * code, or Numba helpers kjit does not offer. */
static const char *const random_host[] = {
    "create_xoroshiro128p_states", "init_xoroshiro128p_states", "init_xoroshiro128p_states_cpu",
    "init_xoroshiro128p_state", "xoroshiro128p_dtype", NULL};
static const char *const random_notyet[] = {"rotl", "uint64_to_unit_float32",
                                            "uint64_to_unit_float64", NULL};
static const char *const math_notyet[] = {"factorial", "gcd", "lcm", "comb", "perm", "isqrt",
                                          "prod", "fsum", "isclose", "dist",
                                          "ulp", "sumprod", NULL};
static const char *const xyz[] = {"x", "y", "z", NULL};
static const char *const array_member[] = {"array", NULL};
static const char *const const_member[] = {"array_like", NULL};
/* numba.cuda.cg: Numba's cooperative groups offer the grid group only. */
static const char *const cg_member[] = {"this_grid", NULL};
static const char *const math_consts[] = {"pi", "e", "tau", "inf", "nan", NULL};

static int list_index(const char *const *list, const char *s) {
  for (int i = 0; list[i]; i++)
    if (strcmp(list[i], s) == 0)
      return i;
  return -1;
}

static int list_len(const char *const *list) {
  int n = 0;
  while (list[n])
    n++;
  return n;
}

/* Math intrinsics reachable as math.<name> (builtins-only ones excluded). */
static int math_intrinsic(const char *name) {
  for (int i = 0; i < IN__COUNT; i++) {
    if (i == IN_ABS || i == IN_MIN || i == IN_MAX || i == IN_ROUND || i == IN_ROUNDN ||
        i >= IN_POPC)
      continue;
    if (strcmp(ir_intrinsic_info[i].name, name) == 0)
      return i;
  }
  return -1;
}

static const char *member_of(const char *path, const char *ns) {
  size_t n = strlen(ns);
  return strncmp(path, ns, n) == 0 && path[n] == '.' && !strchr(path + n + 1, '.') ? path + n + 1
                                                                                  : NULL;
}

static const char *written(Lower *L, const Node *n) { return ir_dotted(L->a, n); }

/* cands says what was searched: cuda and math are modules; threadIdx & co.,
 * cuda.atomic and cuda.shared/local are objects inside cuda, so they are
 * not called modules; x/y/z is short enough to list whole. */
/* bare: the module, for a name imported bare (`from numba.cuda import
 * x`), whose node does not spell it. */
static void no_attribute(Lower *L, const Node *n, const char *member, const char *const *cands,
                         bool module, const char *bare) {
  const char *near = cands ? ir_closest(member, cands, list_len(cands)) : NULL;
  const char *hint = cands == xyz ? "use x, y or z"
                     : near       ? arena_printf(L->a, "did you mean '%s'?", near)
                                  : NULL;
  const char *mod = n && n->kind == ND_ATTR ? written(L, n->lhs) : bare ? bare : "?";
  diag_error(L->d, E_NOATTR, n ? n->loc : (SrcLoc){0}, hint, "%s'%s' has no attribute '%s'",
             module ? "module " : "", mod, member);
}

/* numba.cuda.bf16 and the bindings under numba.cuda._internal; numba.cuda.fp8
 * (numba-cuda 0.27+: fp8_e4m3, fp8_e5m2, fp8_e8m0 and the conversions). */
static const char *bf16_hint(const char *member) {
  if (strcmp(member, "fp8") == 0)
    return "numba.cuda.fp8 holds only numba-cuda's typing and target registries: the fp8 types "
           "and conversions are in numba.cuda._internal.cuda_fp8";
  return strcmp(member, "bf16") == 0 || strcmp(member, "_internal") == 0
             ? "call bfloat16(x) and the numba.cuda.bf16 functions, or name it as the dtype "
               "of cuda.local.array / cuda.shared.array; the type or module as a value is not supported"
             : NULL;
}

static const char *const fp8_hint =
    "kjit has numba.cuda._internal.cuda_fp8's scalar types (called: fp8_e4m3(x)), their "
    "conversions (float32(v)...), the scalar cvt_* functions and the enums as their arguments";

static int not_yet(Lower *L, const Node *n, const char *hint) {
  diag_error(L->d, E_NOTYET, n->loc, hint, "%s is not supported yet", written(L, n));
  return -1;
}

/* A bfloat16 name, said with its module when it was imported bare
 * ("hmax (numba.cuda.bf16.hmax)"), since cuda.fp16 has the same names. */
static int not_yet_bf16(Lower *L, const Node *n, const char *path, const char *hint) {
  const char *w = written(L, n);
  if (n->kind == ND_NAME)
    diag_error(L->d, E_NOTYET, n->loc, hint, "%s (%s) is not supported yet", w, path);
  else
    diag_error(L->d, E_NOTYET, n->loc, hint, "%s is not supported yet", w);
  return -1;
}

static bool is_namespace(const char *path) {
  static const char *const ns[] = {"numba", "numba.cuda", "math", "numpy", "numba.types",
                                   "numba.cuda.atomic", "numba.cuda.shared", "numba.cuda.local",
                                   "numba.cuda.const",
                                   "numba.cuda.threadIdx", "numba.cuda.blockIdx",
                                   "numba.cuda.blockDim", "numba.cuda.gridDim",
                                   "numba.cuda.random", "numba.cuda.libdevice", NULL};
  return list_index(ns, path) >= 0;
}

static int random_index(const char *m) {
  for (int k = 0; k < RK__COUNT; k++)
    if (strcmp(ir_random_names[k], m) == 0)
      return k;
  return -1;
}

/* numba.cuda.random.<m> that is not a call of a kernel-side function.
 * Returns -1 after a diagnostic, 0 for a known kernel function. */
static int bad_random(Lower *L, const char *m, const Node *n) {
  if (list_index(random_host, m) >= 0) {
    diag_error(L->d, E_CALLEE, n->loc,
               "create the states on the host (kjit run: states=xoroshiro:N:SEED; C API: "
               "kjit_array_xoroshiro128p) and pass them to the kernel",
               "%s is a host API and cannot be used in kernels", written(L, n));
    return -1;
  }
  if (list_index(random_notyet, m) >= 0)
    return not_yet(L, n, NULL);
  if (random_index(m) >= 0)
    return 0;
  const char *near = ir_closest(m, ir_random_names, RK__COUNT);
  diag_error(L->d, E_NOATTR, n->loc, near ? arena_printf(L->a, "did you mean '%s'?", near) : NULL,
             "module '%s' has no attribute '%s'", n->kind == ND_ATTR ? written(L, n->lhs) : "numba.cuda.random", m);
  return -1;
}

/* Explain why a path is no value/callable here.  Returns -1. */
static int bad_path(Lower *L, const char *path, const Node *n, bool called) {
  const char *m;
  if ((m = member_of(path, "numba.cuda.random"))) {
    if (bad_random(L, m, n) < 0)
      return -1;
  } else if ((m = member_of(path, "numba.cuda"))) {
    if (list_index(cuda_notyet, m) >= 0)
      return not_yet(L, n, bf16_hint(m));
    if (list_index(cuda_host, m) >= 0) {
      diag_error(L->d, E_CALLEE, n->loc, "call it from host code", "%s is a host API and cannot be used in kernels",
                 written(L, n));
      return -1;
    }
    if (!cuda_member(m) && !lower_vector_type(L->p->types, m)) {
      no_attribute(L, n, m, cuda_member_names(L), true, "numba.cuda");
      return -1;
    }
  } else if ((m = member_of(path, "numba.cuda.libdevice"))) {
    if (ir_libdevice_find(m) < 0) {
      diag_error(L->d, E_NOATTR, n->loc, NULL, "module 'libdevice' has no attribute '%s'", m);
      return -1;
    }
  } else if (ir_starts_with(path, "numba.cuda.") && strchr(path + 11, '.')) {
    const char *ns = path + 11;
    const char *dot = strchr(ns, '.');
    char head[64];
    snprintf(head, sizeof head, "%.*s", (int)(dot - ns), ns);
    if (!cuda_member(head) && list_index(cuda_notyet, head) < 0) {
      const Node *up = n; /* the node spelling numba.cuda.<head> */
      for (const char *q = dot; q && up && up->kind == ND_ATTR; q = strchr(q + 1, '.'))
        up = up->lhs;
      no_attribute(L, up ? up : n, head, cuda_member_names(L), true, "numba.cuda");
      return -1;
    }
    if (ir_starts_with(ns, "fp8.")) { /* numba/cuda/fp8.py exports only the registries */
      diag_error(L->d, E_NOATTR, n->loc, bf16_hint("fp8"), "module 'numba.cuda.fp8' has no attribute '%s'",
                 ns + 4);
      return -1;
    }
    for (int i = 0; cuda_notyet[i]; i++)
      if (ir_starts_with(ns, cuda_notyet[i]) && ns[strlen(cuda_notyet[i])] == '.')
        return bf16_hint(cuda_notyet[i])
                   ? not_yet_bf16(L, n, path, strstr(ns, "cuda_fp8") ? fp8_hint : bf16_hint(cuda_notyet[i]))
                   : not_yet(L, n, NULL);
    const char *const *cands = ir_starts_with(ns, "atomic.") ? ir_atomic_names
                             : ir_starts_with(ns, "shared.") || ir_starts_with(ns, "local.")
                                 ? array_member
                             : ir_starts_with(ns, "const.") ? const_member
                             : ir_starts_with(ns, "cg.")    ? cg_member
                                                            : xyz;
    no_attribute(L, n, strrchr(path, '.') + 1, cands, false, NULL);
    return -1;
  } else if ((m = member_of(path, "math"))) {
    if (list_index(math_notyet, m) >= 0)
      return not_yet(L, n, NULL);
    if (math_intrinsic(m) < 0 && list_index(math_consts, m) < 0) {
      no_attribute(L, n, m, math_consts, true, "math");
      return -1;
    }
  } else if ((m = member_of(path, "numpy"))) {
    const char *hint = math_intrinsic(m) >= 0 ? arena_printf(L->a, "use math.%s", m) : NULL;
    return not_yet(L, n, hint);
  } else if (!ir_starts_with(path, "numba") && !ir_starts_with(path, "math") &&
             !ir_starts_with(path, "cmath.")) {
    const char *dot = strchr(path, '.');
    diag_error(L->d, E_UNSUPPORTED, n->loc,
               "kernels can use numba, numba.cuda, math, cmath, numpy and operator's arithmetic",
               "'%s' cannot be used in kernels (module '%.*s' is not supported)", written(L, n),
               dot ? (int)(dot - path) : (int)strlen(path), path);
    return -1;
  }
  if (is_namespace(path)) {
    diag_error(L->d, E_CALLEE, n->loc, NULL, "module '%s' cannot be used as a value", written(L, n));
    return -1;
  }
  diag_error(L->d, E_CALLEE, n->loc, NULL, called ? "'%s' is not callable" : "'%s' must be called",
             written(L, n));
  return -1;
}

/* ----------------------------------------------------------- arguments -- */

/* Check the positional argument count (no keywords allowed). */
static bool check_args(Lower *L, const Node *call, const char *name, int lo, int hi) {
  int n = call->args.len;
  if (call->args2.len) {
    diag_error(L->d, E_ARITY, call->args2.data[0]->loc, NULL, "%s() takes no keyword arguments",
               name);
    return false;
  }
  if (n >= lo && n <= hi)
    return true;
  if (lo == hi)
    diag_error(L->d, E_ARITY, call->loc, NULL, "%s() takes exactly %d argument%s (%d given)", name,
               lo, lo == 1 ? "" : "s", n);
  else if (hi > 100)
    diag_error(L->d, E_ARITY, call->loc, NULL, "%s() takes at least %d arguments (%d given)", name,
               lo, n);
  else
    diag_error(L->d, E_ARITY, call->loc, NULL, "%s() takes %d to %d arguments (%d given)", name, lo,
               hi, n);
  return false;
}

static int lower_args(Lower *L, const Node *call, int *out) {
  for (int i = 0; i < call->args.len; i++)
    out[i] = lower_expr(L, call->args.data[i]);
  return call->args.len;
}

static int emit_intrinsic(Lower *L, int id, const Node *call, const char *name) {
  int arity = ir_intrinsic_info[id].arity;
  if (!check_args(L, call, name, arity, arity))
    return -1;
  int args[4];
  lower_args(L, call, args);
  int v = lower_emit(L, OP_INTRINSIC, call->loc, args, arity);
  lower_inst(L, v)->ival = id;
  return v;
}

static int emit_ival(Lower *L, IrOp op, SrcLoc loc, const int *args, int n, int64_t ival) {
  int v = lower_emit(L, op, loc, args, n);
  lower_inst(L, v)->ival = ival;
  return v;
}

/* ------------------------------------------------------------ builtins -- */

bool lower_is_builtin(const char *name) {
  static const char *const names[] = {"range", "len", "min", "max", "abs", "int", "float",
                                      "bool", "round", "print", "complex", "pow", "isinstance",
                                      NULL};
  return list_index(names, name) >= 0;
}

/* min(a, b, c) = min(min(a, b), c).  A call of exactly two operands is
 * marked "num": Numba lowers max/min of two floats (float32/float64) to
 * libdevice's fmax/fmin (cudaimpl.py), where a NaN operand gives the other;
 * more operands, or an int among them, take Python's order (codegen). */
/* min((a, b, c)) / max([a, b]) / min(T) of a module tuple: Numba takes the
 * extreme of the elements, as min(a, b, c) does.  -2: not such a call. */
static int minmax_of_tuple(Lower *L, const Node *call, int id) {
  const Node *t = call->args.data[0];
  IrGlobal g;
  int r = -1;
  if ((t->kind == ND_TUPLE || t->kind == ND_LIST) && t->args.len >= 1) {
    for (int i = 0; i < t->args.len; i++) {
      int args[2] = {r, lower_expr(L, t->args.data[i])};
      r = i == 0 ? args[1] : emit_ival(L, OP_INTRINSIC, call->loc, args, 2, id);
    }
    return r;
  }
  if (t->kind == ND_STARRED || !ir_fold(L->lp, L->f, t, &g, NULL) || !g.type ||
      g.type->kind != TY_TUPLE || g.nelems < 1)
    return -2;
  for (int i = 0; i < g.nelems; i++) {
    int args[2] = {r, lower_global(L, &g.elems[i], t->loc)};
    r = i == 0 ? args[1] : emit_ival(L, OP_INTRINSIC, call->loc, args, 2, id);
  }
  return r;
}

static int builtin_minmax(Lower *L, const Node *call, const char *name, int id) {
  int r;
  if (call->args.len == 1 && !call->args2.len && (r = minmax_of_tuple(L, call, id)) != -2)
    return r;
  if (call->args.len == 1 && !call->args2.len) {
    diag_error(L->d, E_ARITY, call->loc, "pass the values (min(a, b)) or a tuple written out (min((a, b)))",
               "%s() over an iterable is not supported in kernels", name);
    return -1;
  }
  if (!check_args(L, call, name, 2, 1000))
    return -1;
  r = lower_expr(L, call->args.data[0]);
  for (int i = 1; i < call->args.len; i++) {
    int args[2] = {r, lower_expr(L, call->args.data[i])};
    r = emit_ival(L, OP_INTRINSIC, call->loc, args, 2, id);
  }
  if (call->args.len == 2 && r >= 0)
    lower_inst(L, r)->str = "num";
  return r;
}

static int builtin_print(Lower *L, const Node *call) {
  for (int i = 0; i < call->args2.len; i++) {
    const Node *kw = call->args2.data[i];
    diag_error(L->d, E_NOTYET, kw->loc, "print the values separated by spaces (the default)",
               "print(%s=...) is not supported yet", kw->name ? kw->name : "**");
  }
  int *args = arena_alloc(L->a, sizeof(int) * (size_t)(call->args.len + 1));
  for (int i = 0; i < call->args.len; i++) {
    const Node *a = call->args.data[i];
    args[i] = a && a->kind == ND_STARRED ? -1 : lower_expr(L, a);
  }
  return lower_emit(L, OP_PRINT, call->loc, args, call->args.len);
}

static int builtin_len(Lower *L, const Node *call) {
  if (!check_args(L, call, "len", 1, 1))
    return -1;
  int v = lower_expr(L, call->args.data[0]);
  if (v >= 0 && lower_inst(L, v)->op == OP_TUPLE)
    return lower_const_int(L, lower_inst(L, v)->nargs, call->loc);
  int args[1] = {v};
  return emit_ival(L, OP_ARRAY_SHAPE, call->loc, args, 1, -2); /* len(): see ops.h */
}

/* float("nan"), float("inf"), float("-inf"): Python's special values as
 * float64 constants (Numba folds them); -2 for any other argument. */
static int float_of_string(Lower *L, const Node *call) {
  const Node *a = call->args.data[0];
  if (a->kind != ND_STR || !a->str)
    return -2;
  const char *s = a->str;
  double sign = *s == '-' ? -1.0 : 1.0;
  s += *s == '-' || *s == '+';
  double v = strcasecmp(s, "nan") == 0 ? NAN
             : strcasecmp(s, "inf") == 0 || strcasecmp(s, "infinity") == 0 ? INFINITY : 0.0;
  if (v == 0.0)
    return -2;
  int id = lower_emit0(L, OP_CONST_FLOAT, call->loc);
  lower_inst(L, id)->fval = sign * v;
  lower_inst(L, id)->type = TY_F64_T;
  return id;
}

static int builtin_convert(Lower *L, const Node *call, const char *name, const Type *to) {
  if (!check_args(L, call, name, 1, 1))
    return -1;
  int f = strcmp(name, "float") == 0 ? float_of_string(L, call) : -2;
  if (f != -2)
    return f;
  int v = lower_expr(L, call->args.data[0]);
  if (to == TY_BOOL_T)
    return lower_emit1(L, OP_TRUTH, call->loc, v);
  int c = lower_cast(L, v, to, call->loc);
  /* Python's int()/float() keep an operand of the same kind (int(int8) is
   * int8 in Numba); typing reads this mark. */
  bool python_builtin = strcmp(name, "int") == 0 || strcmp(name, "float") == 0;
  if (python_builtin && c >= 0 && c != v && L->f->insts.data[c].op == OP_CAST)
    L->f->insts.data[c].ival = 1;
  return c;
}

static int builtin_round(Lower *L, const Node *call) {
  if (!check_args(L, call, "round", 1, 2))
    return -1;
  return emit_intrinsic(L, call->args.len == 1 ? IN_ROUND : IN_ROUNDN, call, "round");
}

int lower_builtin_call(Lower *L, const char *name, const Node *call) {
  if (strcmp(name, "range") == 0) {
    diag_error(L->d, E_LOOP, call->loc, "write: for i in range(...)",
               "range() is only supported as the iterable of a for loop");
    return -1;
  }
  if (strcmp(name, "len") == 0) return builtin_len(L, call);
  if (strcmp(name, "min") == 0) return builtin_minmax(L, call, name, IN_MIN);
  if (strcmp(name, "max") == 0) return builtin_minmax(L, call, name, IN_MAX);
  if (strcmp(name, "abs") == 0) return emit_intrinsic(L, IN_ABS, call, "abs");
  if (strcmp(name, "int") == 0) return builtin_convert(L, call, name, TY_I64_T);
  if (strcmp(name, "float") == 0) return builtin_convert(L, call, name, TY_F64_T);
  if (strcmp(name, "bool") == 0) return builtin_convert(L, call, name, TY_BOOL_T);
  if (strcmp(name, "round") == 0) return builtin_round(L, call);
  if (strcmp(name, "complex") == 0) return lower_num_complex(L, call);
  if (strcmp(name, "pow") == 0) return lower_pow_call(L, call);
  if (strcmp(name, "isinstance") == 0) return lower_isinstance(L, call);
  return builtin_print(L, call);
}

/* ---------------------------------------------------------------- cuda -- */

static int special_reg(Lower *L, IrOp op, int64_t dim, SrcLoc loc) {
  return emit_ival(L, op, loc, NULL, 0, dim);
}

static int reg64(Lower *L, IrOp op, int dim, SrcLoc loc) {
  return lower_cast(L, special_reg(L, op, dim, loc), TY_I64_T, loc);
}

/* grid(n): tid + ctaid * ntid per dimension; gridsize(n): ntid * nctaid.
 * Computed in int64 (Numba's types); n > 1 gives a tuple.  Under the launch
 * fact grid32 codegen emits x's sum in 32 bits (ir_narrow_insts matches
 * this shape). */
static int cuda_grid(Lower *L, const Node *call, bool size) {
  const char *name = written(L, call->lhs);
  IrGlobal g;
  if (!check_args(L, call, name, 1, 1))
    return -1;
  if (!ir_fold(L->lp, L->f, call->args.data[0], &g, NULL) || !g.type || !ty_is_int(g.type) ||
      g.ival < 1 || g.ival > 3) {
    diag_error(L->d, E_BADARG, call->args.data[0]->loc, NULL,
               "%s() takes the constant 1, 2 or 3 (the number of dimensions)", name);
    return -1;
  }
  int dims[3];
  SrcLoc loc = call->loc;
  for (int d = 0; d < g.ival; d++) {
    if (size) {
      int ntid = reg64(L, OP_BLOCK_DIM, d, loc);
      dims[d] = lower_emit2(L, OP_MUL, loc, ntid, reg64(L, OP_GRID_DIM, d, loc));
    } else {
      int tid = reg64(L, OP_THREAD_IDX, d, loc);
      int ctaid = reg64(L, OP_BLOCK_IDX, d, loc);
      int prod = lower_emit2(L, OP_MUL, loc, ctaid, reg64(L, OP_BLOCK_DIM, d, loc));
      dims[d] = lower_emit2(L, OP_ADD, loc, tid, prod);
    }
  }
  return g.ival == 1 ? dims[0] : lower_emit(L, OP_TUPLE, loc, dims, (int)g.ival);
}

static int cuda_syncwarp(Lower *L, const Node *call) {
  const Node *mask = call->args.len ? call->args.data[0] : NULL;
  bool bad = call->args.len > 1 || call->args2.len > 1;
  if (call->args2.len == 1) {
    const Node *kw = call->args2.data[0];
    bad |= mask != NULL || !kw->name || strcmp(kw->name, "mask") != 0;
    mask = kw->lhs;
  }
  if (bad) {
    diag_error(L->d, E_ARITY, call->loc, NULL, "%s() takes one optional argument: mask",
               written(L, call->lhs));
    return -1;
  }
  int m = mask ? lower_expr(L, mask) : lower_const_int(L, 0xffffffffLL, call->loc);
  return lower_emit1(L, OP_SYNCWARP, call->loc, m);
}

/* cuda.atomic.compare_and_swap(ary, old, val): Numba's older spelling of
 * cas on ary[0] (the first element of a 1-d array). */
static int atomic_compare_and_swap(Lower *L, const Node *call) {
  if (!check_args(L, call, written(L, call->lhs), 3, 3))
    return -1;
  int in[3], args[4];
  lower_args(L, call, in);
  args[0] = in[0];
  args[1] = lower_const_int(L, 0, call->loc);
  args[2] = in[1];
  args[3] = in[2];
  return emit_ival(L, OP_ATOMIC, call->loc, args, 4, AK_CAS);
}

static int cuda_atomic(Lower *L, const Node *call, const char *m) {
  if (strcmp(m, "compare_and_swap") == 0)
    return atomic_compare_and_swap(L, call);
  int k = list_index(ir_atomic_names, m);
  if (k < 0) {
    no_attribute(L, call->lhs, m, ir_atomic_names, false, NULL);
    return -1;
  }
  int n = k == AK_CAS ? 4 : 3;
  if (!check_args(L, call, written(L, call->lhs), n, n))
    return -1;
  int args[4];
  lower_args(L, call, args);
  return emit_ival(L, OP_ATOMIC, call->loc, args, n, k);
}

static const Node *array_arg(const Node *call, int pos, const char *kw, bool *dup) {
  const Node *r = call->args.len > pos ? call->args.data[pos] : NULL;
  for (int i = 0; i < call->args2.len; i++) {
    const Node *k = call->args2.data[i];
    if (k->name && strcmp(k->name, kw) == 0) {
      *dup |= r != NULL;
      r = k->lhs;
    }
  }
  return r;
}

/* Shape of a shared/local array: an int or a tuple of ints, all constant. */
static int array_shape(Lower *L, const Node *n, bool shared, int64_t *dims) {
  IrGlobal g;
  const char *why = NULL, *kind = shared ? "shared" : "local";
  if (!ir_fold(L->lp, L->f, n, &g, &why)) {
    diag_error(L->d, E_NOTCONST, n->loc, "use a module-level constant such as TPB = 16",
               "%s array shape must be a compile-time constant (%s)", kind, why);
    return -1;
  }
  int nd = g.type && g.type->kind == TY_TUPLE ? g.nelems : 1;
  const IrGlobal *e = nd == 1 && !(g.type && g.type->kind == TY_TUPLE) ? &g : g.elems;
  if (nd < 1 || nd > 4) {
    diag_error(L->d, E_BADARG, n->loc, NULL, "%s arrays have 1 to 4 dimensions, not %d", kind, nd);
    return -1;
  }
  for (int i = 0; i < nd; i++) {
    char b[64];
    bool dyn = shared && nd == 1 && e[i].type && ty_is_int(e[i].type) && e[i].ival == 0;
    if (!e[i].type || !ty_is_int(e[i].type)) {
      diag_error(L->d, E_BADARG, n->loc, NULL, "%s array extents must be integers, not %s", kind,
                 e[i].type ? ty_name(e[i].type, b, sizeof b) : "?");
      return -1;
    }
    if (e[i].ival <= 0 && !dyn) {
      diag_error(L->d, E_BADARG, n->loc,
                 shared ? "shape=0 (1-D only) requests dynamic shared memory" : NULL,
                 "%s array extents must be positive, got %lld", kind, (long long)e[i].ival);
      return -1;
    }
    dims[i] = e[i].ival;
  }
  return nd;
}

#define STATIC_SHARED_LIMIT 49152 /* bytes per block without the opt-in, on every GPU */


static int64_t shared_bytes(const Inst *in) { return ir_alloc_bytes(in); }

/* A thread's local arrays must fit in the 512 KiB of local memory a GPU
 * gives it (a larger one is refused by ptxas, or overruns the CPU target's
 * thread stack); said at the array that crosses the limit. */
static void check_local_total(Lower *L, int v, SrcLoc loc) {
  int64_t total = 0, mine = ir_alloc_bytes(lower_inst(L, v));
  for (int i = 0; i < v; i++)
    if (lower_inst(L, i)->op == OP_LOCAL_ARRAY)
      total += ir_alloc_bytes(lower_inst(L, i));
  if (total <= IR_MAX_LOCAL_BYTES && mine > IR_MAX_LOCAL_BYTES - total)
    diag_error(L->d, E_BADARG, loc,
               "use shared or global memory (an array argument) for large per-thread data",
               "local arrays of %lld bytes exceed the %d bytes of local memory a thread has",
               (long long)(mine > INT64_MAX - total ? INT64_MAX : total + mine), IR_MAX_LOCAL_BYTES);
}

/* The function's static shared arrays must fit in one block's 48 KiB; said
 * once, at the array that crosses the limit, rather than at launch. */
static void check_shared_total(Lower *L, int v, SrcLoc loc) {
  int64_t total = 0, mine = shared_bytes(lower_inst(L, v));
  for (int i = 0; i < v; i++)
    if (lower_inst(L, i)->op == OP_SHARED_ARRAY)
      total += shared_bytes(lower_inst(L, i));
  if (total <= STATIC_SHARED_LIMIT && mine > STATIC_SHARED_LIMIT - total)
    diag_error(L->d, E_BADARG, loc,
               "use smaller tiles, or dynamic shared memory (shape 0, sized at launch)",
               "shared memory of %lld bytes exceeds the %d-byte static limit",
               (long long)(mine > INT64_MAX - total ? INT64_MAX : total + mine), STATIC_SHARED_LIMIT);
}

/* A compile-time value (a function or a dtype) named by a path. */
static int ctvalue(Lower *L, const Type *t, SrcLoc loc) {
  int v = lower_emit0(L, OP_VALUE, loc);
  lower_inst(L, v)->tyimm = t;
  return v;
}

/* Does n read a variable of the function (a parameter or local)? */
static bool reads_local(Lower *L, const Node *n) {
  if (!n)
    return false;
  if (n->kind == ND_NAME)
    return n->name && ir_local_find(L->f, n->name) >= 0;
  if (n->kind == ND_ATTR)
    return reads_local(L, n->lhs);
  if (n->kind == ND_BINOP || n->kind == ND_UNARY)
    return reads_local(L, n->lhs) || reads_local(L, n->rhs);
  if (n->kind == ND_TUPLE)
    for (int i = 0; i < n->args.len; i++)
      if (reads_local(L, n->args.data[i]))
        return true;
  return false;
}

/* Shape or dtype given by a value only typing knows (a device function's
 * parameter, a local, arr.dtype): Numba freezes such values per call. */
static bool deferred_array(Lower *L, const Node *shape, const Node *dt, const Type *elem) {
  IrGlobal g;
  bool shape_known = ir_fold(L->lp, L->f, shape, &g, NULL);
  return (!shape_known && reads_local(L, shape)) || (!elem && reads_local(L, dt));
}

static int lower_deferred_array(Lower *L, const Node *call, const Node *shape, const Node *dt,
                                const Type *elem, bool shared) {
  int args[2];
  args[0] = lower_expr(L, shape);
  args[1] = elem ? ctvalue(L, ty_dtype(L->p->types, elem), dt->loc) : lower_expr(L, dt);
  if (args[0] < 0 || args[1] < 0)
    return -1;
  return emit_ival(L, shared ? OP_SHARED_ARRAY : OP_LOCAL_ARRAY, call->loc, args, 2,
                   L->lp->next_array_id++);
}

static int cuda_array(Lower *L, const Node *call, bool shared) {
  const char *name = written(L, call->lhs);
  bool bad = call->args.len > 2;
  const Node *shape = array_arg(call, 0, "shape", &bad), *dt = array_arg(call, 1, "dtype", &bad);
  for (int i = 0; i < call->args2.len; i++) {
    const char *k = call->args2.data[i]->name;
    bad |= !k || (strcmp(k, "shape") != 0 && strcmp(k, "dtype") != 0);
  }
  if (bad || !shape || !dt) {
    diag_error(L->d, E_ARITY, call->loc, NULL, "%s() takes two arguments: shape and dtype", name);
    return -1;
  }
  int64_t dims[4];
  const Type *elem = ir_dtype_of(L->lp, L->f, dt);
  const char *dpath = elem ? NULL : ir_resolve_path(L->lp, L->f, dt);
  if (dpath && lower_bf16_is_type(dpath)) { /* Numba 0.68: "unsupported type: __nv_bfloat16" */
    diag_error(L->d, E_NOTYET, dt->loc, "keep the values in a float32 array and convert with bfloat16(x)",
               "%s() of bfloat16 is not supported (numba-cuda has no bfloat16 arrays)", name);
    return -1;
  }
  if (dpath && lower_fp8_is_type(dpath)) { /* the global is a constructor, no dtype, in Numba */
    diag_error(L->d, E_NOTYET, dt->loc,
               "keep the raw fp8 bits in a uint8 array (cvt_float_to_fp8) and convert when reading",
               "%s() of %s is not supported (numba-cuda has no fp8 arrays)", name, strrchr(dpath, '.') + 1);
    return -1;
  }
  if (deferred_array(L, shape, dt, elem))
    return lower_deferred_array(L, call, shape, dt, elem, shared);
  int nd = array_shape(L, shape, shared, dims);
  if (!elem)
    diag_error(L->d, E_BADARG, dt->loc, "use a type such as float32, np.float32 or \"float32\"",
               "unknown dtype '%s' for %s()", dt->kind == ND_STR && dt->str ? dt->str : written(L, dt), name);
  if (nd < 0 || !elem)
    return -1;
  int64_t *sh = arena_alloc(L->a, sizeof(int64_t) * (size_t)nd);
  memcpy(sh, dims, sizeof(int64_t) * (size_t)nd);
  int v = emit_ival(L, shared ? OP_SHARED_ARRAY : OP_LOCAL_ARRAY, call->loc, NULL, 0,
                    L->lp->next_array_id++);
  lower_inst(L, v)->tyimm = ty_array(L->p->types, elem, nd, LAYOUT_C);
  lower_inst(L, v)->shape = sh;
  if (shared)
    check_shared_total(L, v, call->loc);
  else
    check_local_total(L, v, call->loc);
  return v;
}

/* cuda.const.array_like(G): G must name a module-level np.array literal,
 * which is already a read-only constant array (OP_CONST_ARRAY). */
/* cuda.const.array_like(G): a module-level NumPy constant (or a global the
 * host binds) is already a constant array; anything else is returned as it
 * is, as Numba lowers it (a no-op on an array argument: the kernel reads the
 * argument itself).  Typing rejects what is not an array where it is used. */
static int cuda_const_array(Lower *L, const Node *call) {
  if (!check_args(L, call, written(L, call->lhs), 1, 1))
    return -1;
  return lower_expr(L, call->args.data[0]);
}

static int cuda_simple(Lower *L, const Node *call, IrOp op, int nargs, int64_t ival) {
  int args[3];
  if (!check_args(L, call, written(L, call->lhs), nargs, nargs))
    return -1;
  lower_args(L, call, args);
  return emit_ival(L, op, call->loc, args, nargs, ival);
}

/* cuda.ldca(array, i) ... cuda.stwt(array, i, value): an element access with
 * a PTX cache operator (ld.global.ca, st.global.cg, ...).  The operator
 * rides on the access (Inst.str); typing requires one index per dimension. */
static int cuda_cache_hint(Lower *L, const Node *call, const char *m) {
  static const char *const loads[] = {"ldca", "ldcg", "ldcs", "ldlu", "ldcv", NULL};
  static const char *const stores[] = {"stcg", "stcs", "stwb", "stwt", NULL};
  bool load = list_index(loads, m) >= 0;
  if (!load && list_index(stores, m) < 0)
    return -2;
  int n = load ? 2 : 3;
  if (!check_args(L, call, written(L, call->lhs), n, n))
    return -1;
  int in[3];
  lower_args(L, call, in);
  int ops[3] = {in[0], load ? in[1] : in[2], in[1]}; /* store: array, value, index */
  int id = lower_emit(L, load ? OP_ARRAY_LOAD : OP_ARRAY_STORE, call->loc, ops, n);
  if (id >= 0)
    lower_inst(L, id)->str = m + 2; /* "ca", "cg", ... */
  return id;
}

/* ----------------------------------------------------- numba.cuda.* -- */

/* Handlers of the members that are not one op or one intrinsic; m is the
 * path below numba.cuda ("grid", "atomic.add", "shared.array", ...). */
static int h_grid(Lower *L, const Node *call, const char *m) {
  return strcmp(m, "grid") == 0 || strcmp(m, "gridsize") == 0 ? cuda_grid(L, call, m[4] == 's') : -2;
}
static int h_syncwarp(Lower *L, const Node *call, const char *m) {
  return strcmp(m, "syncwarp") == 0 ? cuda_syncwarp(L, call) : -2;
}
static int h_atomic(Lower *L, const Node *call, const char *m) {
  return ir_starts_with(m, "atomic.") && !strchr(m + 7, '.') ? cuda_atomic(L, call, m + 7) : -2;
}
static int h_array(Lower *L, const Node *call, const char *m) {
  return strcmp(m, "shared.array") == 0 || strcmp(m, "local.array") == 0 ? cuda_array(L, call, m[0] == 's')
                                                                          : -2;
}
static int h_random(Lower *L, const Node *call, const char *m) {
  return ir_starts_with(m, "random.") && random_index(m + 7) >= 0
             ? cuda_simple(L, call, OP_RANDOM, 2, random_index(m + 7))
             : -2;
}
static int h_const(Lower *L, const Node *call, const char *m) {
  return strcmp(m, "const.array_like") == 0 ? cuda_const_array(L, call) : -2;
}
static int h_cg(Lower *L, const Node *call, const char *m) {
  return strcmp(m, "cg.this_grid") == 0 ? cuda_simple(L, call, OP_GRID_GROUP, 0, 0) : -2;
}
static int h_cache_hint(Lower *L, const Node *call, const char *m) {
  return cuda_cache_hint(L, call, m);
}

typedef enum CudaMemberKind {
  CM_OP,        /* a call that is one IR op: op, nargs, ival */
  CM_INTRINSIC, /* a call of intrinsic ival (ir/ops.h) */
  CM_HANDLER,   /* a call lowered by fn (for a namespace: its dotted members) */
  CM_VALUE,     /* not called: threadIdx.x, laneid (cuda_value), jit */
  CM_MODULE,    /* a module of its own (numba.cuda.libdevice, .fp16) */
} CudaMemberKind;

/* numba.cuda's members in kernels: the one list that both lowers them and
 * names them in "module 'cuda' has no attribute" hints. */
static const struct CudaMember {
  const char *name;
  CudaMemberKind kind;
  IrOp op;
  int nargs;
  int ival;
  int (*fn)(Lower *L, const Node *call, const char *m);
} cuda_api[] = {
    {"threadIdx", CM_VALUE, 0, 0, 0, NULL}, {"blockIdx", CM_VALUE, 0, 0, 0, NULL},
    {"blockDim", CM_VALUE, 0, 0, 0, NULL}, {"gridDim", CM_VALUE, 0, 0, 0, NULL},
    {"laneid", CM_VALUE, 0, 0, 0, NULL}, {"warpsize", CM_VALUE, 0, 0, 0, NULL},
    {"grid", CM_HANDLER, 0, 0, 0, h_grid}, {"gridsize", CM_HANDLER, 0, 0, 0, h_grid},
    {"syncthreads", CM_OP, OP_SYNCTHREADS, 0, 0, NULL},
    {"syncthreads_count", CM_OP, OP_SYNCTHREADS_COUNT, 1, 0, NULL},
    {"syncthreads_and", CM_OP, OP_SYNCTHREADS_AND, 1, 0, NULL},
    {"syncthreads_or", CM_OP, OP_SYNCTHREADS_OR, 1, 0, NULL},
    {"syncwarp", CM_HANDLER, 0, 0, 0, h_syncwarp},
    {"threadfence", CM_OP, OP_FENCE, 0, 1, NULL},
    {"threadfence_block", CM_OP, OP_FENCE, 0, 0, NULL},
    {"threadfence_system", CM_OP, OP_FENCE, 0, 2, NULL},
    {"atomic", CM_HANDLER, 0, 0, 0, h_atomic}, {"shared", CM_HANDLER, 0, 0, 0, h_array},
    {"local", CM_HANDLER, 0, 0, 0, h_array},
    {"fma", CM_INTRINSIC, 0, 0, IN_FMA, NULL}, {"cbrt", CM_INTRINSIC, 0, 0, IN_CBRT, NULL},
    {"popc", CM_INTRINSIC, 0, 0, IN_POPC, NULL}, {"clz", CM_INTRINSIC, 0, 0, IN_CLZ, NULL},
    {"ffs", CM_INTRINSIC, 0, 0, IN_FFS, NULL}, {"brev", CM_INTRINSIC, 0, 0, IN_BREV, NULL},
    {"selp", CM_INTRINSIC, 0, 0, IN_SELP, NULL},
    {"jit", CM_VALUE, 0, 0, 0, NULL},
    {"shfl_sync", CM_OP, OP_SHFL, 3, SHFL_IDX, NULL},
    {"shfl_up_sync", CM_OP, OP_SHFL, 3, SHFL_UP, NULL},
    {"shfl_down_sync", CM_OP, OP_SHFL, 3, SHFL_DOWN, NULL},
    {"shfl_xor_sync", CM_OP, OP_SHFL, 3, SHFL_BFLY, NULL},
    {"all_sync", CM_OP, OP_VOTE, 2, VOTE_ALL, NULL}, {"any_sync", CM_OP, OP_VOTE, 2, VOTE_ANY, NULL},
    {"eq_sync", CM_OP, OP_VOTE, 2, VOTE_EQ, NULL},
    {"ballot_sync", CM_OP, OP_VOTE, 2, VOTE_BALLOT, NULL},
    {"activemask", CM_OP, OP_ACTIVEMASK, 0, 0, NULL},
    {"lanemask_lt", CM_OP, OP_LANEMASK_LT, 0, 0, NULL},
    {"match_any_sync", CM_OP, OP_MATCH, 2, 0, NULL},
    {"match_all_sync", CM_OP, OP_MATCH, 2, 1, NULL},
    {"random", CM_HANDLER, 0, 0, 0, h_random}, {"fp16", CM_MODULE, 0, 0, 0, NULL},
    {"const", CM_HANDLER, 0, 0, 0, h_const}, {"cg", CM_HANDLER, 0, 0, 0, h_cg},
    {"libdevice", CM_MODULE, 0, 0, 0, NULL},
    {"ldca", CM_HANDLER, 0, 0, 0, h_cache_hint}, {"ldcg", CM_HANDLER, 0, 0, 0, h_cache_hint},
    {"ldcs", CM_HANDLER, 0, 0, 0, h_cache_hint}, {"ldlu", CM_HANDLER, 0, 0, 0, h_cache_hint},
    {"ldcv", CM_HANDLER, 0, 0, 0, h_cache_hint}, {"stcg", CM_HANDLER, 0, 0, 0, h_cache_hint},
    {"stcs", CM_HANDLER, 0, 0, 0, h_cache_hint}, {"stwb", CM_HANDLER, 0, 0, 0, h_cache_hint},
    {"stwt", CM_HANDLER, 0, 0, 0, h_cache_hint},
};
#define NCUDA_API ((int)(sizeof cuda_api / sizeof cuda_api[0]))

/* The member named by the first component of m ("atomic" of "atomic.add"). */
static const struct CudaMember *cuda_member(const char *m) {
  size_t n = strcspn(m, ".");
  for (int i = 0; i < NCUDA_API; i++)
    if (strlen(cuda_api[i].name) == n && strncmp(cuda_api[i].name, m, n) == 0)
      return &cuda_api[i];
  return NULL;
}

/* The members' names, for did-you-mean (error paths only). */
static const char *const *cuda_member_names(Lower *L) {
  const char **names = arena_alloc(L->a, sizeof *names * (NCUDA_API + 1));
  for (int i = 0; i < NCUDA_API; i++)
    names[i] = cuda_api[i].name;
  names[NCUDA_API] = NULL;
  return names;
}

/* A call of numba.cuda.<m>; -2 when m is no callable member. */
static int cuda_call(Lower *L, const char *m, const Node *call) {
  const struct CudaMember *e = cuda_member(m);
  bool dotted = strchr(m, '.') != NULL;
  if (!e || (dotted && e->kind != CM_HANDLER))
    return -2;
  switch (e->kind) {
  case CM_OP:
    return cuda_simple(L, call, e->op, e->nargs, e->ival);
  case CM_INTRINSIC:
    return emit_intrinsic(L, e->ival, call, written(L, call->lhs));
  case CM_HANDLER: /* each handler checks the rest of m */
    return e->fn(L, call, m);
  default:
    return -2;
  }
}

/* --------------------------------------------------------------- paths -- */

/* "carray" or "farray" when path names numba's (numba.carray,
 * numba.np.numpy_support.carray, numba.cuda.np.numpy_support.carray). */
static const char *carray_name(const char *path) {
  static const char *const homes[] = {"numba", "numba.np.numpy_support", "numba.cuda.np.numpy_support"};
  for (size_t i = 0; i < sizeof homes / sizeof *homes; i++) {
    const char *m = member_of(path, homes[i]);
    if (m && (strcmp(m, "carray") == 0 || strcmp(m, "farray") == 0))
      return m;
  }
  return NULL;
}

int lower_path_call(Lower *L, const char *path, const Node *call) {
  const Type *t = ir_path_dtype(path);
  if (t)
    return builtin_convert(L, call, written(L, call->lhs), t);
  const char *m;
  if ((m = member_of(path, "math")) && math_intrinsic(m) >= 0)
    return emit_intrinsic(L, math_intrinsic(m), call, written(L, call->lhs));
  if ((m = member_of(path, "numpy")) && ir_npufunc_find(m) >= 0)
    return lower_np_ufunc(L, ir_npufunc_find(m), call);
  int r = lower_num_path_call(L, path, call);
  if (r != -2 || (r = lower_bf16_path_call(L, path, call)) != -2 ||
      (r = lower_fp8_path_call(L, path, call)) != -2)
    return r;
  if (strcmp(path, "numpy.reshape") == 0)
    return lower_np_reshape(L, call);
  if ((m = carray_name(path)))
    return lower_carray(L, call, m[0] == 'f');
  if ((m = member_of(path, "operator")) && (r = lower_operator_call(L, m, call)) != -2)
    return r;
  if ((r = lower_np_reduce(L, path, call)) != -2)
    return r;
  if ((r = lower_libdevice_call(L, path, call)) != -2)
    return r;
  if ((r = lower_vector_call(L, path, call)) != -2)
    return r;
  if (ir_starts_with(path, "numba.cuda.")) {
    r = cuda_call(L, path + 11, call);
    if (r != -2)
      return r;
  }
  return bad_path(L, path, call->lhs, true);
}

static int cuda_value(Lower *L, const char *m, const Node *n) {
  static const struct { const char *name; IrOp op; } regs[] = {
      {"threadIdx", OP_THREAD_IDX}, {"blockIdx", OP_BLOCK_IDX},
      {"blockDim", OP_BLOCK_DIM}, {"gridDim", OP_GRID_DIM}};
  if (strcmp(m, "laneid") == 0)
    return special_reg(L, OP_LANEID, 0, n->loc);
  if (strcmp(m, "warpsize") == 0)
    return special_reg(L, OP_WARPSIZE, 0, n->loc);
  for (size_t i = 0; i < sizeof regs / sizeof *regs; i++) {
    size_t len = strlen(regs[i].name);
    if (strcmp(m, regs[i].name) == 0) { /* the Dim3 itself: (x, y, z), int32 */
      int xyz3[3];
      for (int d = 0; d < 3; d++)
        xyz3[d] = special_reg(L, regs[i].op, d, n->loc);
      int t = lower_emit(L, OP_TUPLE, n->loc, xyz3, 3);
      lower_inst(L, t)->str = "dim3"; /* print shows it as Numba's Dim3 */
      return t;
    }
    if (strncmp(m, regs[i].name, len) != 0 || m[len] != '.')
      continue;
    int d = list_index(xyz, m + len + 1);
    if (d >= 0)
      return special_reg(L, regs[i].op, d, n->loc);
  }
  return -2;
}


int lower_path_value(Lower *L, const char *path, const Node *n) {
  IrGlobal g;
  if (ir_path_const(path, &g) || lower_num_path_const(path, &g) || lower_fp8_path_const(path, &g))
    return lower_global(L, &g, n->loc);
  const Type *dt = ir_path_dtype(path);
  if (dt) /* np.float32 as a value: passed on, used as a dtype or called */
    return ctvalue(L, ty_dtype(L->p->types, dt), n->loc);
  if (ir_starts_with(path, "numba.cuda.atomic.") && list_index(ir_atomic_names, path + 18) >= 0)
    return ctvalue(L, ty_func(L->p->types, NULL, arena_strdup(L->a, path)), n->loc);
  if (ir_starts_with(path, "numba.cuda.")) {
    int r = cuda_value(L, path + 11, n);
    if (r != -2)
      return r;
  }
  return bad_path(L, path, n, false);
}

/* ----------------------------------------------------- cooperative groups --
 *
 * Numba's cooperative groups: `g = cuda.cg.this_grid()` and
 * `g.sync()` (also chained, `cuda.cg.this_grid().sync()`).
 *
 * numba-cuda (numba/cuda/cg.py) offers one group, the grid, with one method,
 * sync(), returning an int32; calling this_grid() marks the kernel
 * cooperative.  GRID_GROUP makes the group value (type GridGroup), GRID_SYNC
 * the grid-wide barrier; codegen lowers both per target (CgTargetHooks
 * grid_group / grid_sync) and the launchers run a kernel that uses them
 * cooperatively (docs/language.md, "Cooperative groups"). */

/* X.sync(): a GRID_SYNC of X; typing rejects an X that is not a group. */
int lower_grid_sync(Lower *L, const Node *call) {
  int base = lower_expr(L, call->lhs->lhs);
  if (base < 0)
    return -1;
  if (call->args.len || call->args2.len) {
    diag_error(L->d, E_ARITY, call->loc, "call it as g.sync()", "GridGroup.sync() takes no arguments");
    return -1;
  }
  return lower_emit1(L, OP_GRID_SYNC, call->loc, base);
}
