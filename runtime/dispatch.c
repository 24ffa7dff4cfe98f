/* dispatch.c - argument values rated against eager signatures (rule in
 * ir/dispatch.h).  A value is rated without making a Type of it, so a
 * launch interns nothing and takes no lock. */
#include "runtime/dispatch.h"

#include <stdio.h>
#include <string.h>

#include "runtime/value.h"

static TyConv array_conversion(const RtArray *a, const Type *p, bool all) {
  if (p->kind != TY_ARRAY || p->ndim != a->ndim)
    return TYCONV_NONE;
  bool elem = a->dtype == RT_RECORD ? rt_record_matches(a->rec, p->elem)
                                    : rt_dtype_type(a->dtype) == p->elem;
  if (!elem || (a->readonly && !p->readonly)) /* Numba: readonly never converts to mutable */
    return TYCONV_NONE;
  if (rt_array_is_c_contiguous(a))
    return p->layout == LAYOUT_C ? TYCONV_EXACT : all ? TYCONV_SAFE : TYCONV_NONE;
  if (p->layout != LAYOUT_A)
    return TYCONV_NONE;
  /* kjit types an F-ordered array A; Numba types it F, which converts to A.
   * The launchers' specialization keys need not tell F from A: two choices
   * that differ convert the scalars differently (so their keys differ), or
   * differ only in array layouts, which the same arguments satisfy. */
  return !rt_array_is_f_contiguous(a) ? TYCONV_EXACT : all ? TYCONV_SAFE : TYCONV_NONE;
}

/* Anonymous tuples: the worst element conversion (exact only in the first
 * pass, as Numba registers no tuple conversion at start-up); a namedtuple
 * only to its own class with exactly its element types. */
static TyConv tuple_conversion(const RtValue *v, const Type *p, bool all) {
  if (p->kind != TY_TUPLE || p->nelems != v->nelems)
    return TYCONV_NONE;
  bool named = v->tname || p->tname;
  if (named && !(v->tname && p->tname && strcmp(v->tname, p->tname) == 0))
    return TYCONV_NONE;
  TyConv worst = TYCONV_EXACT;
  for (int i = 0; i < v->nelems && worst != TYCONV_NONE; i++) {
    TyConv c = rt_value_conversion(&v->elems[i], p->elems[i], true);
    worst = c > worst ? c : worst;
  }
  return worst == TYCONV_EXACT || (all && !named) ? worst : TYCONV_NONE;
}

TyConv rt_value_conversion(const RtValue *v, const Type *p, bool all) {
  if (v->is_tuple)
    return tuple_conversion(v, p, all);
  if (v->is_array && v->array.dtype == RT_RECORD && v->array.ndim == 0)
    return rt_record_matches(v->array.rec, p) ? TYCONV_EXACT : TYCONV_NONE;
  if (v->is_array)
    return array_conversion(&v->array, p, all);
  if (v->is_ptr)
    return p->kind == TY_PTR && p->elem == rt_dtype_type(v->ptr_dtype) ? TYCONV_EXACT : TYCONV_NONE;
  if (p->kind == TY_PTR) /* Numba passes a pointer as a pointer-sized integer */
    return rt_dtype_is_int(v->scalar.dtype) && rt_dtype_size(v->scalar.dtype) == 8 ? TYCONV_UNSAFE
                                                                               : TYCONV_NONE;
  const Type *t = rt_dtype_type(v->scalar.dtype);
  return t ? ty_conversion(t, p, all) : TYCONV_NONE;
}

TyConv rt_value_arg_conv(const void *vals, int i, const Type *param, bool all) {
  return rt_value_conversion(&((const RtValue *)vals)[i], param, all);
}

int rt_pick_eager(const IrFunc *f, const RtValue *vals, int n, int tied[2]) {
  return ir_pick_signature(f->eager.data, f->eager.len, n, rt_value_arg_conv, vals, tied);
}

void rt_sig_params_text(const Signature *s, char *buf, size_t n) {
  size_t len = (size_t)snprintf(buf, n, "(");
  for (int i = 0; i < s->nparams && len < n; i++) {
    char t[128];
    ty_name(s->params[i], t, sizeof t);
    len += (size_t)snprintf(buf + len, n - len, "%s%s", i ? ", " : "", t);
  }
  if (len < n)
    snprintf(buf + len, n - len, ")");
}
