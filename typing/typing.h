/* typing.h - type inference: a generic function (lower/lower.h) cloned
 * and typed for one list of argument types (Numba's typing rules and
 * specialization).  typing/infer.c drives it; the typing rule of every op
 * lives in typing/infer_ops.c and the files it dispatches to.  The typed
 * functions live in the IrCompile's arena. */
#ifndef KJIT_TYPING_TYPING_H
#define KJIT_TYPING_TYPING_H

#include "ir/ir.h"

/* typing/infer.c: type a clone of `generic` for the argument types; callees are
 * specialized into c->funcs as they are met.  Returns NULL after reporting
 * errors.  Memoized per (generic, argtypes) within the compile. */
/* The typing passes ir_specialize runs on each function it specializes, in
 * order (typing/infer.c): their count and names, for the docs and tests. */
int ir_typing_pass_count(void);
const char *ir_typing_pass_name(int i);

IrFunc *ir_specialize(IrCompile *c, IrFunc *generic, const Type *const *argtypes, int nargs, SrcLoc callsite);
/* The same with some arguments frozen to constants (consts[i].known; NULL:
 * none); the memo and the symbol tell them apart. */
IrFunc *ir_specialize_consts(IrCompile *c, IrFunc *generic, const Type *const *argtypes,
                             int nargs, SrcLoc callsite, const IrConstArg *consts);

#endif
