/* api.h - the objects of the launch API behind include/kjit.h: arrays,
 * kernel handles and the per-context state they need (api_array.c,
 * api_launch.c).
 *
 * A kjit_array wraps an RtArray and carries a magic word: destroyed arrays
 * are poisoned and parked in a bounded quarantine on their context, so a
 * launch after kjit_array_destroy reports "array was destroyed" instead of
 * reading freed memory.  Nothing here is global. */
#ifndef KJIT_RUNTIME_API_H
#define KJIT_RUNTIME_API_H

#include <stdbool.h>
#include <stdint.h>

#include "kjit.h"
#include "data/array.h"

#define RT_ARRAY_LIVE 0x6b6a4172u   /* "kjAr" */
#define RT_ARRAY_DEAD 0xdeadA77au
#define RT_KERNEL_MAGIC 0x6b6a4b6eu /* "kjKn" */
#define RT_FUNCTION_MAGIC 0x6b6a466eu /* "kjFn" */
#define RT_QUARANTINE_MAX 4096      /* destroyed handles kept poisoned */

struct kjit_array {
  uint32_t magic;          /* RT_ARRAY_LIVE, or RT_ARRAY_DEAD once destroyed */
  kjit_context *ctx;       /* owner */
  kjit_array *prev, *next; /* in the owner's live list or its quarantine */
  RtArray a;               /* a.owns: false for kjit_array_wrap and device
                              arrays */
  bool device;             /* a.data is a CUdeviceptr of ctx's device */
  bool borrowed;           /* device memory kjit must not free: the host's
                              (kjit_array_wrap_device, DLPack imports) or a
                              view's; a device array that is not borrowed
                              is kjit's allocation (an export may take over
                              freeing it) */
  unsigned epoch;          /* device: the device's reset count at allocation */
  struct RtDlShared *shared; /* api/dlpack.c: storage shared with DLPack
                              tensors (imported or exported): it frees the
                              memory, not the array; NULL otherwise */
};

typedef struct IrFunc IrFunc;

struct kjit_kernel {
  uint32_t magic;          /* RT_KERNEL_MAGIC */
  kjit_program *prog;      /* owner; the handle lives in its arena */
  IrFunc *fn;              /* the kernel's generic IR */
  struct RtCudaFast *fast; /* cuda fast path (cuda_run.c); NULL until an
                              all-device launch; in the program's arena */
};

/* A device function's handle (kjit_program_function), in its program's
 * arena and on its list; kjit_call runs it. */
struct kjit_function {
  uint32_t magic;          /* RT_FUNCTION_MAGIC */
  kjit_program *prog;      /* owner */
  IrFunc *fn;              /* the function's generic IR */
  struct kjit_function *next; /* prog->functions */
};

/* The part of kjit_context that belongs to the launch API. */
typedef struct RtApiState {
  kjit_array *live;              /* arrays not yet destroyed */
  kjit_array *dead, *dead_tail;  /* quarantine, oldest first */
  int ndead;
  kjit_target target;            /* resolved: CPU/CUDA; AUTO until then */
  double compile_ms, copy_ms, run_ms; /* the last successful launch */
  bool has_resources;            /* that launch ran on the GPU: */
  kjit_resources resources;      /* its function's (kjit_last_resources) */
  struct RtEmbedHandle *handles; /* streams and events kjit made (api/embed.c) */
  unsigned streams_destroyed;    /* kjit_stream_destroy calls: the cuda fast
                                    path's memory of a stream is void after one */
} RtApiState;

/* api_array.c */
/* The array behind a handle if it is live and of ctx (ctx NULL: any). */
bool rt_array_is_live(const kjit_array *a);
/* Frees every array (live and quarantined) of ctx; at context destroy. */
void rt_api_release(kjit_context *ctx);
RtDtype rt_dtype_of(kjit_dtype dt);      /* same numbering (asserted) */

/* api_launch.c: resolves ctx's target once (kjit_context_target). */
struct RtCall;
kjit_status rt_resolve_target(struct RtCall *call);

#endif
