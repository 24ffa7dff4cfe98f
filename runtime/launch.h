/* launch.h - running a kernel on the host CPU target (runtime/host_launch.c),
 * the internal interface under the public launch API and `kjit run`.
 *
 * rt_host_run specializes a kernel for the launch's argument types (memoized
 * per kernel and per-argument (dtype, ndim, layout) record, so a repeated
 * launch allocates nothing and compiles nothing), JIT-compiles it for this
 * machine (codegen/cg_jit.c), packs the arguments as codegen.h describes and
 * runs it on the program's thread pool (runtime/host_exec.h).  Every check
 * happens before anything runs; errors name the kernel and the argument. */
#ifndef KJIT_RUNTIME_LAUNCH_H
#define KJIT_RUNTIME_LAUNCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "runtime/array.h"
#include "runtime/runtime.h"

/* Diagnostic codes: common/diag_codes.h (E495..E498: launches). */

#define RT_HOST_MAX_ARGS 512  /* kernel parameters a host launch can pass (as
                                 many as CUDA's 4 KiB of 8-byte parameters) */

/* The kjit type of a launch argument (RtValue is in array.h): arrays have C
 * layout when C-contiguous, else A; scalars their dtype (a Python int is
 * int64, a float float64, as rt_value_parse gives them).  NULL for 0-d
 * arrays or more than 4 dimensions. */
/* A dtype's scalar type and back (false for a type no dtype has); shared by
 * every launch path so the mapping exists once. */
const Type *rt_dtype_type(RtDtype dt);
bool rt_type_dtype(const Type *t, RtDtype *out);
const Type *rt_value_type(TypeTable *tt, const RtValue *v);
/* The interned record type of a structured dtype (NULL if a field has no
 * kjit type); a 0-d record array is typed as its record (an argument passed
 * by reference, as Numba passes a record scalar). */
const Type *rt_record_type(TypeTable *tt, const RtRecord *r);
/* Does record r have the layout of record type t (fields, offsets, size;
 * the align flag aside)? */
bool rt_record_matches(const RtRecord *r, const Type *t);

/* Tuple arguments (arg_tuple.c).  rt_tuple_type: the interned tuple type of
 * a tuple value (elements: scalars, arrays, tuples), NULL when an element
 * has none.  rt_tuple_text: Numba's name
 * of its type, "UniTuple(int64 x 2)", "Tuple(int64, float64)", for messages.  rt_tuple_take: the tuple
 * kjit_arg `a` as a value whose elements live in arena (arrays: live host
 * arrays of ctx, used in place); NULL, or what is wrong with it.
 * rt_tuple_to_arg: a parsed tuple value as a kjit_arg whose element lists
 * are malloc'd (kjit_arg_tuple_free), its arrays handed to ctx through
 * `adopt` (they then belong to ctx, not to v); false when memory runs out. */
const Type *rt_tuple_type(TypeTable *tt, const RtValue *v);
void rt_tuple_text(const RtValue *v, char *buf, size_t n);
const char *rt_tuple_take(kjit_context *ctx, Arena *arena, const kjit_arg *a, RtValue *out,
                          int depth);
bool rt_tuple_to_arg(kjit_context *ctx, RtValue *v, kjit_array *(*adopt)(kjit_context *, RtArray *),
                     kjit_arg *out);
/* Namedtuple instances in a taken tuple value (at any depth): the class
 * looked up in p by tname, the elements placed in field order (keywords by
 * name; the new list in arena), v->cls set.  NULL, or what is wrong. */
const char *rt_tuple_resolve(const IrProgram *p, Arena *arena, RtValue *v);

/* Runs `kernel` of prog on the host over grid x block with dyn_shared bytes
 * of dynamic shared memory.  Array arguments are used in place (any
 * strides); scalars are converted to the parameter's type when the kernel
 * has an eager signature, which must otherwise match the arrays' dtype, ndim
 * and layout.  Errors go to diags (codes RT_E_LAUNCH_*, or the compile's
 * own) BEFORE anything runs, except a failure while running (a deadlock).
 * stdout is flushed after the launch (kernels print with printf).
 * compile_ms / run_ms (may be NULL) receive the time spent specializing and
 * JIT-compiling (0 on a cache hit) and running.  Thread-safe per program. */
bool rt_host_run(kjit_program *prog, const char *kernel, const RtValue *args, int nargs,
                 const uint32_t grid[3], const uint32_t block[3], size_t dyn_shared,
                 Diags *diags, double *compile_ms, double *run_ms);

/* A device function ready to be called through its C-ABI wrapper
 * (cg_jit_add_cabi): the arguments packed as for a kernel launch. */
typedef struct RtHostCall {
  void *fn;                          /* <symbol>__cabi */
  int nargs;
  uint8_t kind[RT_HOST_MAX_ARGS];    /* TypeKind of each parameter */
  size_t offset[RT_HOST_MAX_ARGS];   /* of each argument in the packed buffer */
  uint8_t ret_kind;                  /* TypeKind of the result (TY_VOID/TY_NONE: none) */
} RtHostCall;

/* Specializes and JIT-compiles device function f (not a kernel) for these
 * arguments (memoized with the program's kernels; eager signatures as for
 * launches) and packs them into buf (RT_HOST_MAX_ARGS * 72 bytes, 16-byte
 * aligned).  Errors name the function and the argument.  Thread-safe per
 * program. */
bool rt_host_prepare_call(kjit_program *prog, IrFunc *f, const RtValue *args, int nargs, RtHostCall *out,
                          unsigned char *buf, Diags *diags);

/* host_call.c: calls device function f through libffi with its native
 * signature; *result gets the value (dtype KJIT_NONE for a function that
 * returns nothing).  Parameter or result types libffi cannot pass (float16,
 * complex, tuples, arrays returned) are refused, naming them. */
bool rt_host_call(kjit_program *prog, IrFunc *f, const RtValue *args, int nargs, kjit_value *result,
                  Diags *diags);

/* Frees prog->host (JIT, specializations, pool) and sets it to NULL; safe
 * to call twice.  kjit_program_destroy must call it. */
void rt_host_program_free(kjit_program *prog);

#endif
