/* lower_bf16.c - lowering of numba.cuda.bf16 and its bindings module
 * numba.cuda._internal.cuda_bf16: the bfloat16 constructor becomes a CAST
 * to bfloat16, every function one OP_BF16 (ir/bf16.h); typing
 * (ir/infer_bf16.c) checks and converts the operands; the type names a
 * local or shared array's dtype (lower_builtins.c).  What the two modules
 * hold beyond that (the two-element __nv_bfloat162 and its h2* functions,
 * atomics, the warp shuffles) is rejected by name. */
#include <stdio.h>

#include "ir/bf16.h"
#include "lower/lower_internal.h"

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

bool lower_bf16_is_type(const char *path) {
  if (ir_starts_with(path, BF16_CUDA_MOD))
    return is_ctor(path + strlen(BF16_CUDA_MOD), true);
  return ir_starts_with(path, BF16_MOD) && is_ctor(path + strlen(BF16_MOD), false);
}

/* A call of numba.cuda.bf16.<m> or numba.cuda._internal.cuda_bf16.<m>;
 * -2 for other paths. */
int lower_bf16_path_call(Lower *L, const char *path, const Node *call) {
  bool cuda = ir_starts_with(path, BF16_CUDA_MOD);
  if (!cuda && !ir_starts_with(path, BF16_MOD))
    return -2;
  const char *m = path + (cuda ? strlen(BF16_CUDA_MOD) : strlen(BF16_MOD));
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
