/* launch.h - the host CPU target (host/host_launch.c): a launch plan
 * (runtime/plan.h) specialized for its argument types, JIT-compiled for
 * this machine (codegen/cg_jit.c), its arguments packed as codegen.h
 * describes and run on the program's thread pool (host/host_exec.h).
 * Every check happens before anything runs; errors name the kernel and the
 * argument. */
#ifndef KJIT_RUNTIME_LAUNCH_H
#define KJIT_RUNTIME_LAUNCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "data/array.h"
#include "runtime/runtime.h"
#include "runtime/plan.h"
#include "runtime/value.h"

/* Diagnostic codes: common/diag_codes.h (E495..E498: launches). */

#define RT_HOST_MAX_ARGS 512  /* kernel parameters a host launch can pass (as
                                 many as CUDA's 4 KiB of 8-byte parameters) */

/* The CPU target (runtime/plan.h): rt_host_target.run is rt_host_run. */
extern const RtTarget rt_host_target;

/* Runs plan p on the host, p->repeat times (the median run time in
 * t->run_ms).  Array arguments are used in place (any strides); scalars
 * come converted to the plan's eager signature, else the kernel is typed
 * from the values' dtype, ndim and layout.  The specialization is memoized
 * per kernel and per-argument (dtype, ndim, layout) record, so a repeated
 * launch allocates nothing and compiles nothing.  Errors go to diags
 * (codes RT_E_LAUNCH_*, or the compile's own) BEFORE anything runs, except
 * a failure while running (a fault, a failed check, a deadlock).  stdout is
 * flushed after the launch (kernels print with printf).  Thread-safe per
 * program. */
bool rt_host_run(const RtPlan *p, Diags *diags, RtLaunchTiming *t);

/* A device function ready to be called through its C-ABI wrapper
 * (cg_jit_add_cabi): the arguments packed as for a kernel launch. */
typedef struct RtHostCall {
  void *fn;                          /* <symbol>__cabi */
  int nargs;
  uint8_t kind[RT_HOST_MAX_ARGS];    /* TypeKind of each parameter */
  size_t offset[RT_HOST_MAX_ARGS];   /* of each argument in the packed buffer */
  uint8_t ret_kind;                  /* TypeKind of the result (TY_VOID/TY_NONE: none) */
} RtHostCall;

/* Specializes and JIT-compiles the plan's device function (not a kernel)
 * for its arguments (memoized with the program's kernels; eager signatures
 * as for launches) and packs them into buf (RT_HOST_MAX_ARGS * 72 bytes,
 * 16-byte aligned).  Errors name the function and the argument.
 * Thread-safe per program. */
bool rt_host_prepare_call(const RtPlan *p, RtHostCall *out, unsigned char *buf, Diags *diags);

/* host_call.c: calls the plan's device function through libffi with its
 * native signature; *result gets the value (dtype KJIT_NONE for a function
 * that returns nothing).  Parameter or result types libffi cannot pass
 * (float16, complex, tuples, arrays returned) are refused, naming them. */
bool rt_host_call(const RtPlan *p, kjit_value *result, Diags *diags);

/* Frees prog->host (JIT, specializations, pool) and sets it to NULL; safe
 * to call twice.  kjit_program_destroy must call it. */
void rt_host_program_free(kjit_program *prog);

/* The CPU target (host/cache_host.c): the host object of `c` for jit's
 * machine, from the disk cache or compiled (cg_jit_compile) under the
 * entry's compile lock and stored, loaded into jit; *out gets its one
 * entry.  cabi: c's device function through its C-ABI wrapper (kjit_call).
 * Without a cache, compiled with a suffix of the JIT's choosing.  A cached
 * entry that cannot be loaded is dropped (one warning) and recompiled. */
bool rt_cache_host_load(kjit_context *ctx, CgJit *jit, IrCompile *c, bool cabi,
                        const CgOptions *opts, CgHostKernel *out, Diags *diags);

#endif
