/* cg_raise.c - `raise` in kernels and device functions, as numba-cuda
 * compiles it: the raising thread ends (the kernel returns; a device
 * function returns an error status that every caller passes on), and with
 * debug=True the exception is reported first (its class and message, the
 * source line, the block and thread), through the target's assert_fail
 * hook.  How a thread ends is the target's (CgTargetHooks.end_thread):
 * PTX's `exit` on the GPU; on the host a return, with HostCtx.raised
 * carrying the end through device functions to the kernel. */
#include "codegen/cg_internal.h"

#define MAX_WALK 256

/* Does f, or a function it calls, raise (or fill a slice from an array,
 * whose shape may not fit)?  Calls cycle under recursion: each function is
 * walked once; past MAX_WALK functions the answer is yes (always correct). */
static bool walk(const IrFunc *f, const IrFunc **seen, int *n) {
  for (int i = 0; i < *n; i++)
    if (seen[i] == f)
      return false;
  if (*n >= MAX_WALK)
    return true;
  seen[(*n)++] = f;
  for (int i = 0; i < f->insts.len; i++) {
    const Inst *in = &f->insts.data[i];
    const Type *src = in->op == OP_ARRAY_FILL && in->nargs == 2 && in->args[1] >= 0
                          ? f->insts.data[in->args[1]].type : NULL;
    if (in->op == OP_RAISE || in->op == OP_ARRAY_UFUNC || (src && src->kind == TY_ARRAY))
      return true;
    if (in->op == OP_CALL && in->callee && walk(in->callee, seen, n))
      return true;
  }
  return false;
}

static bool may_end_thread(const IrFunc *f) {
  const IrFunc *seen[MAX_WALK];
  int n = 0;
  return walk(f, seen, &n);
}

/* Reports (debug) the exception `text` ("ValueError: message") raised at
 * in->loc, then ends the thread. */
void cg_raise_text(Cg *cg, const Inst *in, const char *text, bool report) {
  if (report) {
    Inst at = *in;
    at.str = text;
    cg->hooks->assert_fail(cg, &at);
  }
  cg->hooks->end_thread(cg);
}

void cg_lower_raise(Cg *cg, const Inst *in) {
  cg_raise_text(cg, in, in->str ? in->str : "Exception", cg->f->opts.debug);
}

void cg_after_call(Cg *cg, const IrFunc *callee) {
  if (cg->hooks->after_end_call && callee && may_end_thread(callee))
    cg->hooks->after_end_call(cg);
}
