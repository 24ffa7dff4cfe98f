/* lower_fp8.c - lowering of numba.cuda._internal.cuda_fp8, the fp8 bindings
 * of numba-cuda 0.27+ (generated from CUDA's cuda_fp8.h).
 *
 * A constructor call fp8_e4m3(x) becomes a CAST to the fp8 type (no
 * argument: the zero bits); the conversions out of one are ordinary CASTs
 * (float32(v), int32(v)...), typed by typing/infer_fp8.c.  Each cvt_*
 * intrinsic becomes one OP_FP8 (ir/fp8.h) whose enum arguments
 * (saturation_t, fp8_interpretation_t and cuda.bindings' cudaRoundMode, as
 * Numba types them: IntEnumMember) must name a member and are folded into
 * Inst.ival.  The enum members used as values are int64 constants.  What
 * the module holds beyond that (the x2/x4 vector types) is refused by its
 * name. */
#include <string.h>

#include "ir/fp8.h"
#include "lower/lower_internal.h"

#define FP8_MOD "numba.cuda._internal.cuda_fp8."
#define RT_MOD "cuda.bindings.runtime."

static const char *const fp8_types[] = {"fp8_e4m3", "fp8_e5m2", "fp8_e8m0", NULL};
static const char *const not_built[] = {
    "fp8x2_e4m3", "fp8x2_e5m2", "fp8x2_e8m0", "fp8x4_e4m3", "fp8x4_e5m2", "fp8x4_e8m0", NULL};

static int index_of(const char *const *list, const char *s) {
  for (int i = 0; list[i]; i++)
    if (strcmp(list[i], s) == 0)
      return i;
  return -1;
}

static const Type *fp8_type(const char *m) {
  static const Type *const tys[] = {TY_FP8_E4M3_T, TY_FP8_E5M2_T, TY_FP8_E8M0_T};
  int i = index_of(fp8_types, m);
  return i < 0 ? NULL : tys[i];
}

bool lower_fp8_is_type(const char *path) {
  return ir_starts_with(path, FP8_MOD) && fp8_type(path + strlen(FP8_MOD));
}

/* "numba.cuda._internal.cuda_fp8.saturation_t.NOSAT" ->
 * ("saturation_t", "NOSAT"); cudaRoundMode lives in cuda.bindings.runtime. */
/* cls: a buffer of 32 bytes. */
static int enum_member(const char *path, char *cls, const char **member) {
  bool rt = ir_starts_with(path, RT_MOD);
  const char *rest = rt ? path + strlen(RT_MOD) : ir_starts_with(path, FP8_MOD) ? path + strlen(FP8_MOD) : NULL;
  const char *dot = rest ? strchr(rest, '.') : NULL;
  size_t n = dot ? (size_t)(dot - rest) : 0;
  if (!dot || strchr(dot + 1, '.') || n >= 32)
    return -1;
  memcpy(cls, rest, n);
  cls[n] = 0;
  if (rt != (strcmp(cls, "cudaRoundMode") == 0))
    return -1;
  *member = dot + 1;
  return ir_fp8_enum_value(cls, dot + 1);
}

bool lower_fp8_path_const(const char *path, IrGlobal *out) {
  char cls[32];
  const char *member;
  int v = enum_member(path, cls, &member);
  if (v < 0)
    return false;
  memset(out, 0, sizeof *out);
  out->name = path;
  out->type = TY_I64_T;
  out->ival = v;
  return true;
}

static bool positional(Lower *L, const Node *call, int lo, int hi) {
  int n = call->args.len;
  if (!call->args2.len && n >= lo && n <= hi)
    return true;
  const char *w = ir_dotted(L->a, call->lhs);
  if (lo == hi)
    diag_error(L->d, E_ARITY, call->loc, NULL, "%s() takes exactly %d positional argument%s (%d given)", w,
               lo, lo == 1 ? "" : "s", n + call->args2.len);
  else
    diag_error(L->d, E_ARITY, call->loc, NULL, "%s() takes %d to %d positional arguments (%d given)", w, lo,
               hi, n + call->args2.len);
  return false;
}

/* Argument k of a cvt_* call: a member of enum cls; its value, or -1. */
static int enum_arg(Lower *L, const Node *call, int k, const char *want, const char *fname) {
  const Node *a = call->args.data[k];
  const char *path = ir_resolve_path(L->lp, L->f, a);
  char cls[32] = "";
  const char *member = NULL;
  int v = path ? enum_member(path, cls, &member) : -1;
  bool ok = v >= 0 && strcmp(cls, want) == 0;
  if (ok && strcmp(want, "cudaRoundMode") == 0 && v != 1 && v != 2) {
    diag_error(L->d, E_BADARG, a->loc, "cuda_fp8.h converts to e8m0 rounding toward zero or up",
               "%s() takes cudaRoundMode.cudaRoundZero or cudaRoundMode.cudaRoundPosInf, not %s", fname,
               member);
    return -1;
  }
  if (!ok) {
    diag_error(L->d, E_BADARG, a->loc,
               strcmp(want, "cudaRoundMode") == 0
                   ? "import it: from cuda.bindings.runtime import cudaRoundMode"
                   : "import it from numba.cuda._internal.cuda_fp8 and name the member",
               "argument %d of %s() must be a member of %s (such as %s), named where it is called", k + 1,
               fname, want,
               strcmp(want, "saturation_t") == 0      ? "saturation_t.SATFINITE"
               : strcmp(want, "cudaRoundMode") == 0   ? "cudaRoundMode.cudaRoundPosInf"
                                                      : "fp8_interpretation_t.E4M3");
    return -1;
  }
  return v;
}

static int cvt_call(Lower *L, int fn, const Node *call) {
  const Fp8Info *fi = &ir_fp8_info[fn];
  int n = fi->modes == FM_NONE ? 1 : 3;
  if (!positional(L, call, n, n))
    return -1;
  int64_t ival = fn;
  if (fi->modes != FM_NONE) {
    int sat = enum_arg(L, call, 1, "saturation_t", fi->name);
    int mode = enum_arg(L, call, 2, fi->modes == FM_INTERP ? "fp8_interpretation_t" : "cudaRoundMode",
                        fi->name);
    if (sat < 0 || mode < 0)
      return -1;
    ival |= (sat ? FP8_SAT_BIT : 0) | (mode == (fi->modes == FM_INTERP ? 1 : 2) ? FP8_MODE_BIT : 0);
  }
  int a = lower_expr(L, call->args.data[0]);
  if (a < 0)
    return -1;
  int v = lower_emit(L, OP_FP8, call->loc, &a, 1);
  lower_inst(L, v)->ival = ival;
  return v;
}

int lower_fp8_path_call(Lower *L, const char *path, const Node *call) {
  if (!ir_starts_with(path, FP8_MOD))
    return -2;
  const char *m = path + strlen(FP8_MOD);
  const Type *t = fp8_type(m);
  if (t) {
    if (!positional(L, call, 0, 1))
      return -1;
    int a = call->args.len ? lower_expr(L, call->args.data[0]) : lower_const_int(L, 0, call->loc);
    return a < 0 ? -1 : lower_cast(L, a, t, call->loc);
  }
  int fn = ir_fp8_find(m);
  if (fn >= 0)
    return cvt_call(L, fn, call);
  if (index_of(not_built, m) >= 0) {
    diag_error(L->d, E_NOTYET, call->lhs->loc,
               "kjit has the scalar fp8 types (fp8_e4m3, fp8_e5m2, fp8_e8m0) and the cvt_* "
               "functions (cvt_float2_to_fp8x2 gives a pair's bits): convert the elements one by one",
               "%s (%s) is not supported yet", ir_dotted(L->a, call->lhs), path);
    return -1;
  }
  return -2; /* reported by the caller: not callable, or no such name */
}
