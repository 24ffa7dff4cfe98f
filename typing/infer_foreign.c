/* infer_foreign.c - typing of OP_CALL_FOREIGN, a call of a foreign device
 * function bound by cuda.declare_device (foreign.c): each argument converts
 * to its declared scalar type, the result has the declared return type. */
#include "typing/typing_internal.h"

/* Arguments convert to the declared types (as Numba's declared signature
 * does); an array argument has no conversion. */
const Type *ir_type_foreign(Infer *inf, int idx, const Type **need) {
  const Inst *in = &inf->f->insts.data[idx];
  const IrExtern *e = in->ext;
  if (!e || in->nargs != e->sig.nparams)
    return ir_infer_fail(inf, idx, E_INTERNAL, NULL, "internal error: bad foreign call");
  for (int k = 0; k < in->nargs; k++) {
    const Type *t = inf->f->insts.data[in->args[k]].type;
    if (!t || t == TY_UNKNOWN_T)
      return NULL;
    if (e->sig.params[k]->kind == TY_PTR) { /* a pointer: exactly the declared one */
      if (t != e->sig.params[k])
        return ir_infer_fail(inf, idx, E_TY_CALL,
                             t->kind == TY_ARRAY ? "pass a raw pointer parameter (types.CPointer)"
                                                 : NULL,
                             "argument %d of %s() is %s; it is declared %s", k + 1, e->name,
                             ir_infer_tname(inf, t), ir_infer_tname(inf, e->sig.params[k]));
      continue;
    }
    if (!ty_is_number(t) || ty_is_complex(t))
      return ir_infer_fail(inf, idx, E_TY_CALL, NULL,
                           "argument %d of %s() is %s; it is declared %s", k + 1, e->name,
                           ir_infer_tname(inf, t), ir_infer_tname(inf, e->sig.params[k]));
    if (need)
      need[k] = e->sig.params[k];
  }
  return e->sig.ret;
}
