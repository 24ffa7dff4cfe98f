/* infer_fail.c - how a typing rule reports an error: once per instruction,
 * only in the report pass (the fixed-point passes are silent, since an
 * operand may still widen), with types spelled as Numba spells them.
 * Every rule file calls these; they call nothing of typing back, so the
 * rules do not form one cycle with the driver (infer.c). */
#include <stdarg.h>

#include "typing/typing_internal.h"

const char *ir_infer_tname(Infer *inf, const Type *t) {
  char buf[1024]; /* record types spell every field */
  return arena_strdup(inf->c->arena, ty_name(t, buf, sizeof buf));
}

const Type *ir_infer_fail(Infer *inf, int idx, int code, const char *hint,
                          const char *fmt, ...) {
  if (!inf->report || inf->reported[idx])
    return NULL;
  va_list ap;
  va_start(ap, fmt);
  char *msg = arena_vprintf(inf->c->arena, fmt, ap);
  va_end(ap);
  diag_add(inf->d, DL_ERROR, code, inf->f->insts.data[idx].loc, hint, "%s", msg);
  inf->reported[idx] = true;
  return NULL;
}
