/* lower_mathfn.c - lowering of the function families that each map a call
 * to one op whose table lives in ir/: complex and float16 functions
 * (OP_NUMFN, ir/numfn.h), NumPy ufuncs on scalars (OP_NPUFUNC,
 * ir/npmath.h), cuda.libdevice (OP_LIBDEVICE, ir/libdevice_fns.h) and
 * bfloat16 (OP_BF16, ir/bf16.h).  Typing checks the operands
 * (typing/infer_num.c, infer_npmath.c, infer_libdevice.c, infer_bf16.c).
 *
 * Complex and float16: complex(), .real / .imag / .conjugate(), cmath.*,
 * cuda.fp16.*, each one OP_NUMFN.  Paths are canonical ("cmath.sqrt",
 * "numba.cuda.fp16.hadd"). */
#include <stdio.h>

#include "ir/bf16.h"
#include "ir/libdevice_fns.h"
#include "ir/npmath.h"
#include "ir/numfn.h"
#include "lower/lower_internal.h"

static int emit_numfn(Lower *L, NumFn fn, SrcLoc loc, const int *args, int nargs) {
  int v = lower_emit(L, OP_NUMFN, loc, args, nargs);
  lower_inst(L, v)->ival = fn;
  return v;
}

/* Positional arguments only, the function's own count. */
static bool num_args(Lower *L, const Node *call, const char *name, int n, int *out) {
  if (call->args2.len || call->args.len != n) {
    diag_error(L->d, E_ARITY, call->loc, NULL, "%s() takes exactly %d argument%s (%d given)",
               name, n, n == 1 ? "" : "s", call->args.len + call->args2.len);
    return false;
  }
  for (int i = 0; i < n; i++)
    out[i] = lower_expr(L, call->args.data[i]);
  return true;
}

/* complex(x) converts to complex128; complex(re, im) builds one. */
int lower_num_complex(Lower *L, const Node *call) {
  int a[2];
  if (call->args.len == 1 && !call->args2.len) {
    a[0] = lower_expr(L, call->args.data[0]);
    return lower_cast(L, a[0], TY_C128_T, call->loc);
  }
  if (!num_args(L, call, "complex", 2, a))
    return -1;
  return emit_numfn(L, NF_COMPLEX, call->loc, a, 2);
}

/* x.real, x.imag on a value (arrays and modules are handled before). */
int lower_num_attr(Lower *L, const Node *n, int base) {
  NumFn fn = strcmp(n->name, "real") == 0 ? NF_REAL : NF_IMAG;
  return emit_numfn(L, fn, n->loc, &base, 1);
}

bool lower_num_is_attr(const char *name) {
  return strcmp(name, "real") == 0 || strcmp(name, "imag") == 0;
}

/* z.conjugate(): the one method numbers have in kernels; -2 otherwise. */
int lower_num_method(Lower *L, const Node *call) {
  const Node *c = call->lhs;
  if (!c->name || strcmp(c->name, "conjugate") != 0)
    return -2;
  int base = lower_expr(L, c->lhs);
  if (base < 0)
    return -1;
  if (call->args.len || call->args2.len) {
    diag_error(L->d, E_ARITY, call->loc, NULL, "conjugate() takes no arguments");
    return -1;
  }
  return emit_numfn(L, NF_CONJ, call->loc, &base, 1);
}

static int unknown_member(Lower *L, const Node *call, const char *mod, const char *m,
                          const char *hint) {
  diag_error(L->d, E_NOATTR, call->lhs->loc, hint, "module '%s' has no attribute '%s'", mod, m);
  return -1;
}

/* cmath.<f>(...) and numba.cuda.fp16.<f>(...); -2 for other paths. */
int lower_num_path_call(Lower *L, const char *path, const Node *call) {
  int fn = -1, a[3];
  const char *m, *mod;
  if (ir_starts_with(path, "cmath.") && !strchr(path + 6, '.')) {
    m = path + 6, mod = "cmath";
    fn = ir_numfn_cmath(m);
    if (fn < 0)
      return unknown_member(L, call, mod, m,
                            "numba supports cmath's acos asin atan acosh asinh atanh cos cosh "
                            "exp isfinite isinf isnan log log10 phase polar rect sin sinh sqrt "
                            "tan tanh");
  } else if (ir_starts_with(path, "numba.cuda.fp16.") && !strchr(path + 16, '.')) {
    m = path + 16, mod = "cuda.fp16";
    fn = ir_numfn_fp16(m);
    if (fn < 0 && (strncmp(m, "__", 2) == 0 || strcmp(m, "atomicAdd") == 0)) {
      /* the rest of CUDA's half API that numba-cuda binds */
      diag_error(L->d, E_NOTYET, call->lhs->loc,
                 "convert with numba.float16(x) / float32(h), or the round-to-nearest __float2half",
                 "cuda.fp16.%s is not supported yet", m);
      return -1;
    }
    if (fn < 0)
      return unknown_member(L, call, mod, m, NULL);
  } else {
    return -2;
  }
  int n = ir_numfn_info[fn].arity;
  if (!num_args(L, call, ir_dotted(L->a, call->lhs), n, a))
    return -1;
  return emit_numfn(L, (NumFn)fn, call->loc, a, n);
}

/* cmath.pi, cmath.e, cmath.tau, cmath.inf, cmath.nan: math's constants. */
bool lower_num_path_const(const char *path, IrGlobal *out) {
  if (!ir_starts_with(path, "cmath."))
    return false;
  char buf[64];
  snprintf(buf, sizeof buf, "math.%s", path + 6);
  return ir_path_const(buf, out);
}

/* Lowering of NumPy ufuncs on scalars (np.sin(x),
 * np.maximum(a, b)...): each becomes one OP_NPUFUNC (ir/npmath.h); typing
 * (typing/infer_npmath.c) picks the loop.  Paths are canonical ("numpy.sin"). */

/* The out array of a ufunc call: the argument after the operands, or
 * out=; NULL when there is none.  Reports other keywords (where=, dtype=,
 * casting=: Numba's CUDA ufuncs take none of them) and extra arguments;
 * *bad is then set. */
static const Node *ufunc_out(Lower *L, const Node *call, const char *name, int n, bool *bad) {
  const Node *out = call->args.len == n + 1 ? call->args.data[n] : NULL;
  for (int i = 0; i < call->args2.len; i++) {
    const Node *kw = call->args2.data[i];
    if (kw->name && strcmp(kw->name, "out") == 0 && !out && kw->lhs && kw->lhs->kind != ND_TUPLE) {
      out = kw->lhs;
      continue;
    }
    diag_error(L->d, E_ARITY, kw->loc, "pass the operands, and an output array as the last "
               "argument or out=", "%s() takes no keyword argument '%s' in kernels", name,
               kw->name ? kw->name : "**");
    *bad = true;
    return NULL;
  }
  if (call->args.len > n + 1 || call->args.len < n) {
    diag_error(L->d, E_ARITY, call->loc, NULL, "%s() takes %d argument%s and an optional output "
               "array (%d given)", name, n, n == 1 ? "" : "s", call->args.len);
    *bad = true;
  }
  return out;
}

/* np.sin(x) on numbers is OP_NPUFUNC; with an output array, np.sin(x, out)
 * or np.sin(x, out=out), OP_ARRAY_UFUNC, whose value is out (NumPy returns
 * it). */
int lower_np_ufunc(Lower *L, int u, const Node *call) {
  const char *name = ir_dotted(L->a, call->lhs);
  int n = ir_npufunc_info[u].nin;
  bool bad = false;
  const Node *out = ufunc_out(L, call, name, n, &bad);
  if (bad)
    return -1;
  int args[3], base = out ? 1 : 0;
  for (int i = 0; i < n; i++)
    if ((args[base + i] = lower_expr(L, call->args.data[i])) < 0)
      return -1;
  if (out && (args[0] = lower_expr(L, out)) < 0)
    return -1;
  int v = lower_emit(L, out ? OP_ARRAY_UFUNC : OP_NPUFUNC, call->loc, args, n + base);
  lower_inst(L, v)->ival = u;
  return out ? args[0] : v;
}

/* int.bit_count(): numba-cuda defines it as cuda.popc(i) (the operand's
 * type; typing rejects non-integers).  -2: not a method handled here. */
int lower_int_method(Lower *L, const Node *call) {
  const Node *c = call->lhs;
  if (!c->name || strcmp(c->name, "bit_count") != 0)
    return -2;
  if (call->args.len || call->args2.len) {
    diag_error(L->d, E_ARITY, call->loc, NULL, "bit_count() takes no arguments");
    return -1;
  }
  int base = lower_expr(L, c->lhs);
  if (base < 0)
    return -1;
  int v = lower_emit(L, OP_INTRINSIC, call->loc, &base, 1);
  lower_inst(L, v)->ival = IN_POPC;
  return v;
}

/* Lowering of cuda.libdevice.<f>(...) (`from numba.cuda
 * import libdevice`): one OP_LIBDEVICE per call, ival the function of
 * ir/libdevice_fns.h; typing (typing/infer_libdevice.c) converts the operands
 * to the declared types.  Paths are canonical ("numba.cuda.libdevice.sin"). */

static const char *ld_name(int i) { return ir_libdevice_info[i].name; }

/* The nearest libdevice name, for the hint of a misspelt one. */
static const char *closest(Lower *L, const char *m) {
  const char **names = arena_alloc(L->a, sizeof(char *) * LD__COUNT);
  for (int i = 0; i < LD__COUNT; i++)
    names[i] = ld_name(i);
  return ir_closest(m, names, LD__COUNT);
}

/* -2: path is not in numba.cuda.libdevice. */
int lower_libdevice_call(Lower *L, const char *path, const Node *call) {
  static const char ns[] = "numba.cuda.libdevice.";
  if (strncmp(path, ns, sizeof ns - 1) != 0)
    return -2;
  const char *m = path + sizeof ns - 1, *name = ir_dotted(L->a, call->lhs);
  int fn = ir_libdevice_find(m);
  if (fn < 0) {
    const char *near = closest(L, m);
    diag_error(L->d, E_NOATTR, call->lhs->loc, near ? arena_printf(L->a, "did you mean '%s'?", near) : NULL,
               "module 'libdevice' has no attribute '%s'", m);
    return -1;
  }
  int n = ir_libdevice_nparams(fn);
  if (call->args2.len || call->args.len != n) {
    diag_error(L->d, E_ARITY, call->loc, NULL, "%s() takes exactly %d argument%s (%d given)%s", name,
               n, n == 1 ? "" : "s", call->args.len + call->args2.len,
               call->args2.len ? ", positionally" : "");
    return -1;
  }
  int args[4];
  for (int i = 0; i < n; i++)
    args[i] = lower_expr(L, call->args.data[i]);
  int v = lower_emit(L, OP_LIBDEVICE, call->loc, args, n);
  lower_inst(L, v)->ival = fn;
  return v;
}

/* Lowering of numba.cuda.bf16 and its bindings module
 * numba.cuda._internal.cuda_bf16: the bfloat16 constructor becomes a CAST
 * to bfloat16, every function one OP_BF16 (ir/bf16.h); typing
 * (ir/infer_bf16.c) checks and converts the operands; the type names a
 * local or shared array's dtype (lower_builtins.c).  What the two modules
 * hold beyond that (the two-element __nv_bfloat162 and its h2* functions,
 * atomics, the warp shuffles) is rejected by name. */

#define BF16_MOD "numba.cuda.bf16."
#define BF16_CUDA_MOD "numba.cuda._internal.cuda_bf16."

static bool is_ctor(const char *m, bool cuda) {
  return cuda ? strcmp(m, "nv_bfloat16") == 0 || strcmp(m, "__nv_bfloat16") == 0
              : strcmp(m, "bfloat16") == 0;
}

static bool positional(Lower *L, const Node *call, int n) {
  if (!call->args2.len && call->args.len == n)
    return true;
  diag_error(L->d, E_ARITY, call->loc, NULL, "%s() takes exactly %d argument%s (%d given)",
             ir_dotted(L->a, call->lhs), n, n == 1 ? "" : "s", call->args.len + call->args2.len);
  return false;
}

static int not_yet(Lower *L, const Node *call, const char *path) {
  const char *w = ir_dotted(L->a, call->lhs);
  bool bare = call->lhs->kind == ND_NAME;
  diag_error(L->d, E_NOTYET, call->lhs->loc,
             "kjit has bfloat16 scalars and local/shared arrays: the constructor, conversions, "
             "operators and the h* functions of numba.cuda.bf16",
             bare ? "%s (%s) is not supported yet" : "%s is not supported yet", w, path);
  return -1;
}

/* numba-cuda's type object, as its fp8 tests import it */
#define BF16_TYPES_NAME "numba.cuda.types.bfloat16"

bool lower_bf16_is_type(const char *path) {
  if (strcmp(path, BF16_TYPES_NAME) == 0)
    return true;
  if (ir_starts_with(path, BF16_CUDA_MOD))
    return is_ctor(path + strlen(BF16_CUDA_MOD), true);
  return ir_starts_with(path, BF16_MOD) && is_ctor(path + strlen(BF16_MOD), false);
}

/* A call of numba.cuda.bf16.<m> or numba.cuda._internal.cuda_bf16.<m>;
 * -2 for other paths. */
int lower_bf16_path_call(Lower *L, const char *path, const Node *call) {
  bool cuda = ir_starts_with(path, BF16_CUDA_MOD), types = strcmp(path, BF16_TYPES_NAME) == 0;
  if (!cuda && !types && !ir_starts_with(path, BF16_MOD))
    return -2;
  const char *m = types ? "bfloat16" : path + (cuda ? strlen(BF16_CUDA_MOD) : strlen(BF16_MOD));
  int a[3];
  if (is_ctor(m, cuda)) {
    if (!positional(L, call, 1))
      return -1;
    a[0] = lower_expr(L, call->args.data[0]);
    return a[0] < 0 ? -1 : lower_cast(L, a[0], TY_BF16_T, call->loc);
  }
  int fn = strchr(m, '.') ? -1 : ir_bf16_find(m, cuda);
  if (fn < 0)
    return not_yet(L, call, path);
  int n = ir_bf16_arity(fn);
  if (!positional(L, call, n))
    return -1;
  for (int i = 0; i < n; i++)
    if ((a[i] = lower_expr(L, call->args.data[i])) < 0)
      return -1;
  int v = lower_emit(L, OP_BF16, call->loc, a, n);
  lower_inst(L, v)->ival = fn;
  return v;
}
