/* compile.h - the compile driver (runtime/compile.c): a job of (function,
 * signature) units, compiled pass by pass and emitted as KIR, LLVM IR or
 * PTX.  api/emit.c fills a job for kjit_program_emit / kjit_program_check;
 * the CUDA target compiles through rt_compile_ptx. */
#ifndef KJIT_RUNTIME_COMPILE_H
#define KJIT_RUNTIME_COMPILE_H

#include <stdbool.h>
#include <stddef.h>

#include "runtime/runtime.h"

#define RT_DEFAULT_ARCH "sm_80"   /* a compile's architecture when no GPU says */
#define RT_CUDA_PARAM_LIMIT 4096   /* bytes of kernel parameters (CUDA < 12.1) */

/* One (function, signature) pair to specialize. */
typedef struct RtUnit {
  IrFunc *generic;
  Signature sig;
  IrCompile *compile;   /* after specialization */
} RtUnit;

/* The state of one compile (kjit_program_emit, kjit_program_check, a
 * launch's specialization). */
/* The target a job compiles for (the checks differ: CUDA's 4 KiB of
 * parameters, the architecture). */
typedef enum RtJobTarget { RT_JOB_CUDA = 0, RT_JOB_CPU = 1 } RtJobTarget;

typedef struct RtJob {
  kjit_program *prog;
  RtJobTarget target;
  RtCall call;          /* diagnostics; its arena is the compile arena */
  kjit_compile_options opts;
  Vec(RtUnit) units;
  FuncOptions *merged;  /* per unit: decorator options with overrides applied */
  int ptx_isa_max;      /* CgTarget.ptx_version_max (the CUDA target's driver) */
} RtJob;

static inline Arena *rt_job_arena(RtJob *j) { return &j->call.arena; }
static inline Diags *rt_job_diags(RtJob *j) { return &j->call.diags; }

/* The call's options checked (ranges, reserved fields, the architecture:
 * default_arch when it names none, else sm_80) into j->opts. */
bool rt_job_check_options(RtJob *j, const kjit_compile_options *o, const char *default_arch);
void rt_job_add_unit(RtJob *j, IrFunc *f, Signature sig);
/* One unit per eager signature of f; false when f has none. */
bool rt_job_add_eager_units(RtJob *j, IrFunc *f);
/* Every pass over every unit (all units run even after one fails, so one
 * call reports every error); false when any reported an error. */
bool rt_job_compile_units(RtJob *j);
/* The units as KIR, LLVM IR or PTX (what: KJIT_EMIT_KIR/LLVM/PTX); *out
 * malloc'd. */
bool rt_job_emit(RtJob *j, kjit_emit what, char **out, size_t *len);
/* The module-wide codegen options of the compiled units (decorators and the
 * call's overrides), as rt_job_emit uses them. */
CgOptions rt_job_cg_options(const RtJob *j);

/* A launch's compile: one kernel (or kjit_call's device function) for one
 * signature, the same passes as kjit_program_emit, then the target's own
 * step (`emit`: the CUDA target's PTX, the CPU target's object loaded into
 * its JIT) while the typed IR lives.  The compile has its own arena, freed
 * on return; diagnostics are copied into `diags`. */
typedef struct RtLaunchCompile {
  RtJobTarget target;
  const char *arch;          /* CUDA: the device's architecture */
  int ptx_isa_max;           /* CUDA: the driver's newest PTX ISA (x10) */
  bool (*emit)(RtJob *j, void *data);
  void *data;
} RtLaunchCompile;
bool rt_compile_launch(kjit_program *prog, IrFunc *f, const Signature *sig, const RtLaunchCompile *how,
                       Diags *diags);

#endif
