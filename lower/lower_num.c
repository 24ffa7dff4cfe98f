/* lower_num.c - lowering of the complex and float16 functions: complex(),
 * .real / .imag / .conjugate(), cmath.*, cuda.fp16.*.  Each becomes one
 * OP_NUMFN (ir/numfn.h); typing (ir/infer_num.c) checks the operands.
 * Paths are canonical ("cmath.sqrt", "numba.cuda.fp16.hadd"). */
#include <stdio.h>

#include "lower/lower_internal.h"
#include "ir/numfn.h"

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
