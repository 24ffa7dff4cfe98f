/* lower.h - lowering: AST -> generic IR, and the module-level evaluation
 * that goes with it (constants, constant arrays, signatures, records,
 * namedtuples, foreign declarations, @vectorize and @cuda.reduce).
 *
 * The runtime calls ir_lower_program once per loaded program; the result
 * (IrProgram's functions, generic IR) is what typing (typing/typing.h)
 * specializes.  Everything here allocates from the program's arena. */
#ifndef KJIT_LOWER_LOWER_H
#define KJIT_LOWER_LOWER_H

#include "ir/ir.h"

/* lower/lower.c: AST -> generic IR for every decorated function; module
 * constants folded.  Errors (unknown names, unsupported constructs...) go to
 * diags; returns false if any error was reported. */
bool ir_lower_program(IrProgram *p, Diags *diags);
/* lower/namedtuple.c: the namedtuple class bound to `name`, or NULL. */
const IrNamedTuple *ir_namedtuple_find(const IrProgram *p, const char *name);
/* lower/foreign.c: the cuda.declare_device binding named `name`, or NULL. */
const IrExtern *ir_find_extern(const IrProgram *p, const char *name);
/* lower/lower.c: lowers every def of m (a module kjit generated, whose imports
 * it resolves against) into generic IR marked `generated`, calling p's
 * functions by name.  out[0..*n) receive them (at most max).  Errors go to
 * diags; returns false if any was reported. */
bool ir_lower_generated(IrProgram *p, const Module *m, Diags *diags, IrFunc **out, int max, int *n);

/* lower/factory.c: the kernel or device function a factory call names
 * ("make_blur(2)": a top-level def that defines a @cuda.jit def closing over
 * its arguments and returns it), made and lowered into p on first use under
 * that text as its name, or found when made before.  False when text is not
 * such a call (nothing reported) or the instance failed to lower (errors in
 * diags); *out is then NULL. */
bool ir_lower_factory_call(IrProgram *p, const char *text, Diags *diags, IrFunc **out);

/* lower/factory.c: the names of p's factories ("make_blur, make_scale"), for
 * hints, or NULL when it has none. */
const char *ir_factory_list(IrProgram *p);

/* lower/factory.c: the kernels defined at the top level of a host function's
 * body, named as they are asked for ("run.scale, run.add"), for hints, or NULL
 * when there are none.  ir_lower_factory_call makes one asked for as
 * "run.scale" or "run(3).scale" (docs/language.md, kernels defined inside
 * host functions). */
const char *ir_nested_kernel_list(IrProgram *p);

/* lower/sig.c: parse a signature string "void(float32[::1], int64)" or the
 * equivalent decorator expression into a Signature.  Errors go to diags. */
bool ir_parse_signature(IrProgram *p, const Source *text, Signature *out, Diags *diags);
bool ir_signature_from_ast(IrProgram *p, const Node *n, Signature *out, Diags *diags);
/* lower/sig.c: a type expression ("float32[:]", "numba.int64", "types.float32")
 * as in a parameter annotation `def k(x: float32[:])`; used by lower/lower.c. */
bool ir_type_from_ast(IrProgram *p, const Node *n, const Type **out, Diags *diags);

/* lower/consts.c: the closest of cands to name by edit distance, for "did you
 * mean" hints (NULL when none is close): common/suggest.h's rule. */
const char *ir_closest(const char *name, const char *const *cands, int n);

#endif
