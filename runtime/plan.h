/* plan.h - a launch resolved once, and the interface a target runs it
 * through.
 *
 * kjit_launch (api/api_launch.c) checks the kernel handle, the geometry and
 * every argument, picks the eager signature Numba's dispatcher would
 * (runtime/dispatch.h) and converts the scalars to it: the result is an
 * RtPlan.  A target (host/ for the CPU, cuda/ for the GPU) is an RtTarget:
 * it looks the plan's specialization up in its table (or compiles it
 * through the compile driver, runtime/compile.h), loads it, copies, runs
 * and times it.  Nothing is looked up by name below this point and no check
 * is made twice.  The plan carries where each array's memory lives and the
 * stream to run on, so foreign memory and the caller's streams are facts
 * of the plan, not of each target's code. */
#ifndef KJIT_RUNTIME_PLAN_H
#define KJIT_RUNTIME_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "data/array.h"
#include "runtime/runtime.h"

/* Where an argument's memory lives. */
typedef enum RtMemOrigin {
  RT_MEM_HOST = 0,   /* host memory (scalars, tuples and host arrays too) */
  RT_MEM_DEVICE = 1, /* device memory of the context's GPU: a kjit device
                        array, or the host's (kjit_array_wrap_device) */
} RtMemOrigin;

typedef struct RtPlan {
  kjit_program *prog;
  IrFunc *fn;                /* the kernel (a device function for kjit_call) */
  int sig;                   /* its eager signature Numba's dispatcher picks,
                                -1 for a lazy kernel (typed from the values) */
  RtValue *args;             /* nargs values, scalars converted to `sig` */
  int nargs;
  const uint8_t *origin;     /* RtMemOrigin per argument; NULL: all host */
  bool any_device;           /* some argument is RT_MEM_DEVICE */
  uint32_t grid[3], block[3];
  size_t shared_bytes;       /* dynamic shared memory */
  bool grid32;               /* variant fact: every thread index fits 32 bits
                                (rt_launch_grid32) */
  int repeat;                /* >= 1 runs; the timing is their median */
  bool use_graph;            /* CUDA: run the repeats as one graph */
  void *stream;              /* the caller's stream (a CUstream; the cpu
                                target ignores it); NULL: the target's own */
  /* the public launch it came from (the CUDA fast path remembers it);
   * NULL for kjit's own launches (@vectorize, @cuda.reduce) */
  kjit_kernel *kernel;
  const kjit_arg *raw_args;
} RtPlan;

typedef struct RtLaunchTiming {
  double compile_ms;         /* specializing, compiling, loading (0 on a hit) */
  double copy_ms;            /* host <-> device copies */
  double run_ms;             /* the kernel: the median of the repeats */
  bool has_resources;        /* a GPU launch: resources is the driver's view */
  kjit_resources resources;  /* of the launched function (kjit_last_resources) */
} RtLaunchTiming;

/* A plan for fn over args with grid x block (nothing checked: the caller
 * has, or the unit tests want the target's own diagnostics). */
void rt_plan_init(RtPlan *p, kjit_program *prog, IrFunc *fn, RtValue *args, int nargs,
                  const uint32_t grid[3], const uint32_t block[3], size_t shared_bytes);
/* As many arguments as the function has parameters. */
bool rt_plan_check_count(const RtPlan *p, Diags *d);
/* The grid, block and dynamic shared memory against kjit's limits (the
 * device's own are the CUDA target's to check). */
bool rt_plan_check_geometry(const RtPlan *p, Diags *d);
/* An eager kernel: the signature Numba's dispatcher picks for the values
 * (p->sig), the scalars (and tuple elements) converted to it in place; a
 * lazy one: nothing to do.  False with the reason (no signature fits, two
 * fit equally well, a float for an integer parameter of a kernel). */
bool rt_plan_pick_signature(RtPlan *p, Diags *d);
/* The eager signature the plan runs (NULL for a lazy kernel). */
const Signature *rt_plan_signature(const RtPlan *p);
bool rt_plan_on_device(const RtPlan *p, int i);

/* One target: what runs a plan.  Every entry takes the context's lock held. */
typedef struct RtTarget {
  const char *name;          /* "cpu", "cuda" */
  /* Specializes (table hit or compile), loads, copies, runs p->repeat
   * times; errors go to d before anything runs, except the kernel's own
   * failure (a fault, a failed assert, a deadlock). */
  bool (*run)(const RtPlan *p, Diags *d, RtLaunchTiming *t);
  /* The most blocks of p->block threads (and p->shared_bytes) that can be
   * resident at once: the grid limit of a grid-synchronizing launch. */
  bool (*max_cooperative)(const RtPlan *p, int64_t *blocks, Diags *d);
  /* Waits for the context's work on this target; false with the reason. */
  bool (*sync)(kjit_context *ctx, Diags *d);
  /* Compiles and loads the plan's specialization without running it
   * (kjit_kernel_prepare: a later launch under graph capture finds it). */
  bool (*prepare)(const RtPlan *p, Diags *d);
} RtTarget;

#endif
