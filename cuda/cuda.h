/* cuda.h - the CUDA target behind the launch API: the driver loaded with
 * dlopen (cuda_driver.c), PTX -> cubin -> loaded function (cuda_module.c),
 * device memory, argument packing, launch checks and timed launches
 * (cuda_launch.c), and the compile + launch entry the API and `kjit run`
 * call (cuda_run.c).
 *
 * Everything hangs off an RtCuda object (one per context and device):
 * the driver's function table, the device's limits, the primary context,
 * one stream and the specialization table.  Nothing is global.
 * Only cuda_run.c reaches the compiler (LLVM); the other three files need
 * nothing but libc and libdl, so the GPU unit test links them alone. */
#ifndef KJIT_RUNTIME_CUDA_H
#define KJIT_RUNTIME_CUDA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/diag.h"
#include "kjit.h"
#include "common/strbuf.h"
#include "data/array.h"
#include "cuda/cuda_api.h"
#include "runtime/plan.h"
#include "runtime/spec_table.h"

/* Diagnostic codes: common/diag_codes.h (E06x: the CUDA target). */

#define RT_CUDA_MAX_ARGS 512       /* kernel parameters per launch (4 KiB / 8) */
#define RT_CUDA_STATIC_SHARED_LIMIT (48u * 1024) /* above: opt-in attribute */

/* ---- driver (cuda_driver.c) -------------------------------------------- */

/* Opens `libname` (NULL: "libcuda.so.1") and looks up the table.  Returns
 * false with a message in err ("libcuda.so.1: cannot open shared object
 * file") when the library or a required entry point is missing. */
bool rt_cu_api_load(RtCuApi *api, const char *libname, char *err, size_t errlen);
void rt_cu_api_unload(RtCuApi *api);
/* "CUDA_ERROR_INVALID_VALUE" (or "CUresult 123" when the driver has no
 * name for it).  buf receives the text; returns buf. */
const char *rt_cu_error_name(const RtCuApi *api, RtCuResult r, char *buf, size_t len);
/* PTX ISA (x10) the driver of version `driver_version` (cuDriverGetVersion,
 * e.g. 12040) accepts at most; 0 when older than CUDA 11.0. */
int rt_cuda_ptx_isa_for_driver(int driver_version);
/* The newest sm_XY kjit's code generator knows that runs on compute
 * capability (major, minor) (PTX is forward-compatible); writes "sm_90". */
void rt_cuda_codegen_arch(int major, int minor, char *buf, size_t len);
/* Device `ordinal`'s architecture for a compile given no --arch (see
 * compile.c); false without a driver or that device. */
bool rt_cuda_default_arch(int ordinal, char *buf, size_t len);

typedef struct RtCudaDeviceInfo {
  int ordinal;
  char name[256];
  int cc_major, cc_minor;
  size_t total_mem;
  int max_threads_per_block;
  int max_block[3], max_grid[3];
  int max_shared_per_block;        /* without opt-in (48 KiB) */
  int max_shared_optin;            /* with cuFuncSetAttribute */
  int sm_count, warp_size;
  int mem_clock_khz, bus_width;    /* the driver's attributes; 0 when missing */
} RtCudaDeviceInfo;

/* The device's peak memory bandwidth in MB/s: 2 (double data rate) x the
 * memory clock x the bus width when the driver gives both, else kjit's
 * table of NVIDIA's published figures by device name; 0 when neither
 * knows.  *source: 1 the attributes, 2 the table, 0 none. */
int64_t rt_cuda_peak_bandwidth(const RtCudaDeviceInfo *d, int *source);

/* Specialization table: see cuda_launch.c. */
typedef struct RtCudaSpec RtCudaSpec;

/* The thread rt_cuda_open starts to retain the primary context (cuda_driver.c). */
typedef struct RtCudaStarter RtCudaStarter;

/* Whose CUDA context kjit runs in (kjit_context_options.cuda_context_mode). */
typedef enum RtCtxKind {
  RT_CTX_PRIMARY,                  /* the device's primary context, retained:
                                      shared with the CUDA runtime */
  RT_CTX_FOREIGN,                  /* the caller's (given, or current on the
                                      thread that opened the device): never
                                      reset or destroyed by kjit */
  RT_CTX_OWN,                      /* made by kjit with cuCtxCreate, destroyed
                                      with the kjit context */
} RtCtxKind;

/* How rt_cuda_open finds its device and context. */
typedef struct RtCudaOpen {
  int ordinal;                     /* the device (the context's option / KJIT_DEVICE / 0) */
  bool ordinal_explicit;           /* set by the caller: must match a foreign context's */
  RtCuContext foreign;             /* the caller's context, or NULL */
  bool use_current;                /* take the context current on this thread */
  bool own;                        /* make a context of kjit's own */
  bool reset_on_fault;             /* KJIT_FAULT_RESET: reset and reload after a fault */
} RtCudaOpen;

typedef struct RtCuda {
  RtCuApi api;
  RtJlApi jl;                      /* nvJitLink: jl.lib NULL until loaded */
  int jl_state;                    /* 0 untried, 1 loaded, -1 unavailable */
  char **link_info;                /* non-NULL: links pass -verbose and leave
                                      nvJitLink's info log here (malloc'd) */
  int driver_version;              /* 12040 for 12.4 */
  int ptx_isa_max;                 /* rt_cuda_ptx_isa_for_driver */
  RtCuDevice dev;
  RtCudaDeviceInfo info;
  RtCuContext ctx;                 /* the context kjit runs in (see kind) */
  RtCtxKind kind;
  bool reset_on_fault;             /* a fault resets (primary) or recreates (own)
                                      the context; else it is marked dead */
  bool dead;                       /* a fault left the context unusable and kjit
                                      did not reset it: every later use fails */
  char dead_why[320];              /* "kernel 'k' faulted (CUDA_ERROR_...)" */
  RtCuStream stream;               /* launches and copies */
  RtCudaStarter *starter;          /* retains ctx beside the caller; NULL once joined */
  RtSpecTable specs;           /* loaded specializations */
  unsigned resets;                 /* primary-context resets after faults: the
                                      epoch of device arrays and specializations */
  bool pending;                    /* launches queued and not yet synchronized */
  char last_kernel[256];           /* the last one queued, for fault messages */
  const RtCudaSpec *last_spec;     /* the fast path's, to skip the copy above */
} RtCuda;

/* kjit_device_count / kjit_device_get_info: the devices, without a
 * context.  rt_cuda_device_count gives 0 without a driver; rt_cuda_query
 * is false without a driver or that device. */
int rt_cuda_device_count(void);
bool rt_cuda_query(int ordinal, RtCudaDeviceInfo *out);

/* Loads the driver, initialises it and reads device `ordinal`'s limits
 * (what a compile needs: the architecture), then starts a thread that
 * retains the device's primary context and creates a stream - the driver's
 * slowest step (~0.1 s on an H200), which so runs beside whatever the caller
 * does next: parsing, compiling, linking with nvJitLink.  NULL with an
 * RT_E_CUDA_NO_DEVICE diagnostic when there is no driver or no such device.
 * Close with rt_cuda_close. */
RtCuda *rt_cuda_open(const RtCudaOpen *how, Diags *diags);
void rt_cuda_close(RtCuda *cu);
/* Makes cu's context current on the calling thread, first waiting for the
 * thread rt_cuda_open started (an RT_E_CUDA_DRIVER diagnostic, every time,
 * when it could not retain the context).  Every use of cu->ctx, cu->stream
 * or a driver call that needs a context comes after it. */
bool rt_cuda_make_current(RtCuda *cu, Diags *diags);
/* Reports a failed driver call: "<op> failed for kernel 'k': NAME (text)"
 * (or without the kernel part when kernel is NULL).  Returns r == success. */
bool rt_cuda_check(RtCuda *cu, RtCuResult r, const char *op, const char *kernel, Diags *diags);
/* `kjit info`: driver version, devices (name, compute capability, memory,
 * SMs), nvJitLink availability; without a driver it says why.  Never
 * fails. */
void rt_cuda_info(StrBuf *sb);

/* ---- modules (cuda_module.c) ------------------------------------------- */

typedef enum RtCudaParamKind { RT_PARAM_SCALAR, RT_PARAM_ARRAY } RtCudaParamKind;

typedef struct RtCudaParam {       /* one kernel parameter as the PTX declares it */
  uint32_t offset, size, align;    /* in the packed argument block */
  RtCudaParamKind kind;            /* arrays are .b8 aggregates of 8+16N bytes */
} RtCudaParam;

typedef struct RtCudaModule {
  RtCuModule mod;
  RtCuFunction fn;
  char *entry;                     /* the PTX .entry name (malloc'd, any length;
                                      freed by rt_cuda_module_unload) */
  int nparams;
  RtCudaParam params[RT_CUDA_MAX_ARGS];
  uint32_t params_size;            /* the packed block, padded */
  int static_shared;               /* CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES */
  int max_threads;                 /* CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK */
  int registers;                   /* CU_FUNC_ATTRIBUTE_NUM_REGS */
  int local_bytes;                 /* CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES */
  int const_bytes;                 /* CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES */
  int dyn_shared_set;              /* MAX_DYNAMIC_SHARED_SIZE_BYTES set so far */
  bool via_nvjitlink;              /* false: the driver's JIT built it */
  bool cooperative;                /* reads the grid workspace (%envreg: a grid
                                      group, codegen/cg_grid.c): launched with
                                      cuLaunchCooperativeKernel */
} RtCudaModule;

/* Rewrites the `.version X.Y` line of ptx (NUL-terminated, modified in
 * place) down to isa_max (x10) when it is higher; 0 = no clamp.  Returns
 * false when the PTX has no .version line. */
bool rt_ptx_clamp_version(char *ptx, int isa_max);
/* Reads the first `.entry` of ptx: its name and each parameter's size and
 * alignment (.param .u64 / .f32 / .align 8 .b8 x[40] ...).  False when no
 * entry is found, a parameter cannot be read, or there are more than
 * RT_CUDA_MAX_ARGS of them.  m->entry is malloc'd (the whole name, however
 * long: a truncated one is not found by cuModuleGetFunction); release it
 * with rt_cuda_module_unload. */
bool rt_ptx_entry_layout(const char *ptx, RtCudaModule *m);
/* One more PTX module for nvJitLink (CUDA C compiled by NVRTC). */
typedef struct RtLinkInput {
  char *ptx;                       /* malloc'd, NUL-terminated */
  size_t len;
  const char *name;                /* the file, for nvJitLink's messages */
} RtLinkInput;
/* As rt_cuda_link_ptx, with more PTX modules linked in; arch "sm_90" (NULL:
 * the device's). */
bool rt_cuda_link_inputs(RtCuda *cu, const char *arch, const char *ptx, size_t len,
                         const RtLinkInput *more, int nmore, bool lineinfo, void **cubin,
                         size_t *cubin_len, bool *unavailable, Diags *diags);
/* A cubin's bytes. */
typedef struct RtCubin {
  void *data;
  size_t len;
} RtCubin;
/* rt_cuda_module_load with more PTX modules to link (nvJitLink only).  A
 * `cached` cubin (borrowed; NULL or empty for none) is loaded instead of
 * linking when the driver takes it; otherwise the cubin nvJitLink makes is
 * handed back in *linked (malloc'd, the caller frees; empty when the
 * driver's JIT built the module), for the disk cache. */
bool rt_cuda_module_load_linked(RtCuda *cu, const char *ptx, const RtLinkInput *more, int nmore,
                                const char *kernel, bool lineinfo, const RtCubin *cached,
                                RtCubin *linked, RtCudaModule *m, Diags *diags);
/* PTX -> cubin with nvJitLink (-arch=sm_XY of the device, -O3, -lineinfo
 * when asked).  *cubin is malloc'd.  False with the link log as a
 * diagnostic; *unavailable set when libnvJitLink cannot be loaded. */
bool rt_cuda_link_ptx(RtCuda *cu, const char *ptx, size_t len, bool lineinfo, void **cubin,
                      size_t *cubin_len, bool *unavailable, Diags *diags);
/* PTX (NUL-terminated; .version clamped by the caller) -> loaded module:
 * nvJitLink when available, else the driver's JIT; then the function and
 * its layout (rt_ptx_entry_layout) and attributes.  `kernel` names it in
 * messages.  force_driver_jit skips nvJitLink (tests). */
bool rt_cuda_module_load(RtCuda *cu, const char *ptx, const char *kernel, bool lineinfo,
                         bool force_driver_jit, RtCudaModule *m, Diags *diags);
void rt_cuda_module_unload(RtCuda *cu, RtCudaModule *m);
/* As rt_cuda_module_load (nvJitLink, else the driver's JIT) for a module of
 * several entries: the one named `entry` (a CUDA C kernel's lowered name). */
bool rt_cuda_module_load_entry(RtCuda *cu, const char *ptx, const char *entry, const char *kernel,
                               RtCudaModule *m, Diags *diags);
/* rt_ptx_entry_layout for the entry named `entry` (NULL: the first). */
bool rt_ptx_entry_layout_of(const char *ptx, const char *entry, RtCudaModule *m);

/* ---- launches (cuda_launch.c) ------------------------------------------ */

/* The fixed-width per-argument record of the specialization key. */
typedef struct RtArgKey {
  uint8_t is_array;
  uint8_t dtype;                   /* RtDtype */
  uint8_t ndim;
  uint8_t flags;                   /* RT_ARGKEY_C | RT_ARGKEY_ALIGN16 | RT_ARGKEY_FITS32 |
                                      RT_ARGKEY_READONLY */
  uint32_t pad;                    /* zero (keys are compared as bytes) */
  const void *tuple;               /* a tuple argument: its interned type (set by
                                      the caller, which has the program's types) */
} RtArgKey;
enum { RT_ARGKEY_C = 1, RT_ARGKEY_ALIGN16 = 2,
       RT_ARGKEY_FITS32 = 4, /* rt_value_fits32: picks the 32-bit-index variant */
       RT_ARGKEY_READONLY = 8, /* RtArray.readonly: a `readonly array` parameter */
       RT_ARGKEY_PTR = 16 /* a raw pointer (RtValue.is_ptr); dtype: the pointee's */ };

typedef struct RtSpecKey {
  const void *owner;               /* the kernel (IrFunc *) */
  const void *prog;                /* its program */
  int32_t nargs;
  uint32_t grid32;                 /* rt_launch_grid32 (kjit kernels; 0 for
                                      CUDA C): picks the 32-bit-grid variant */
  RtArgKey args[RT_CUDA_MAX_ARGS];
} RtSpecKey;

/* A loaded specialization: the module, its layout, and preallocated slots
 * for packing arguments (no allocation per launch). */
struct RtCudaSpec {
  RtSpecKey key;
  RtCudaModule m;
  char kernel[256];                /* Python name, for messages */
  uint8_t arg_dtype[RT_CUDA_MAX_ARGS]; /* scalars: the parameter's RtDtype */
  const void *arg_tuple[RT_CUDA_MAX_ARGS]; /* tuples: the parameter's type (Type *),
                                          whose element dtypes a launch converts to */
  unsigned char *slots;            /* params_size bytes */
  void *argv[RT_CUDA_MAX_ARGS];    /* argv[i] = slots + params[i].offset */
  const RtCuDeviceptr *leaves;     /* during one launch: tuple arguments' array copies */
  int nleaves;
  bool raw_pointers;               /* CUDA C kernel (cuda/cuc.h): an array
                                      passes as its bare device pointer */
};

/* Key of one launch's arguments; the device pointers decide the alignment
 * bit (dptrs NULL: host arrays about to be copied into fresh, 256-byte
 * aligned buffers).  Arguments past RT_CUDA_MAX_ARGS are not keyed (the
 * caller rejects such launches first). */
void rt_spec_key(RtSpecKey *k, const void *prog, const void *owner, const RtValue *args,
                 const RtCuDeviceptr *dptrs, int nargs);
/* Lookup without allocation; NULL on a miss. */
RtCudaSpec *rt_spec_find(const RtSpecTable *t, const RtSpecKey *k);
/* Takes ownership of spec (malloc'd; its key set).  False on OOM. */
bool rt_spec_insert(RtSpecTable *t, RtCudaSpec *spec);
/* Frees every spec (unloading modules when cu != NULL and the context is
 * alive) and empties the table. */
void rt_spec_clear(RtSpecTable *t, RtCuda *cu);
/* Drops the specializations of one program (at kjit_program_destroy). */
void rt_spec_forget_program(RtSpecTable *t, RtCuda *cu, const void *prog);
/* Makes spec->slots / argv from spec->m's layout.  False on OOM. */
bool rt_spec_prepare_slots(RtCudaSpec *spec);

/* Packs args into spec's slots: arrays as {ptr, shape[N], strides[N]} with
 * dptrs[i], scalars as their own bytes (bool as one byte).  Checks each
 * argument's size against the PTX layout ("argument 2 of kernel 'k' is 8
 * bytes, the kernel expects 4": an internal error). */
bool rt_cuda_pack_args(RtCudaSpec *spec, const RtValue *args, const RtCuDeviceptr *dptrs,
                       int nargs, Diags *diags);
/* Tuple arguments: their arrays' device copies, in the order a depth-first
 * walk of the tuples meets them (rt_cuda_pack_args reads them from here). */
void rt_cuda_set_tuple_leaves(RtCudaSpec *spec, const RtCuDeviceptr *leaves, int n);

/* The launch checks of SPEC §4, before anything launches: grid of zero or
 * over the device's limit, block over the device's or the function's
 * limit, shared memory over the opt-in limit.  Messages name the kernel. */
bool rt_cuda_check_launch(const RtCuda *cu, const RtCudaModule *m, const char *kernel,
                          const uint32_t grid[3], const uint32_t block[3], size_t dyn_shared,
                          Diags *diags);


/* Launches spec `repeat` times (>= 1) on cu's stream, timing each with
 * events (kernel_ms = median), or captured into a CUDA graph that is
 * replayed once (kernel_ms = replay time / repeat).  async (repeat 1, no
 * graph): queued without events or synchronization (kernel_ms 0); a fault
 * surfaces at the next rt_cuda_sync.  Sets the dynamic
 * shared-memory attribute first when dyn_shared needs it.  A fault is
 * reported with the kernel's name and the context is reset (every loaded
 * specialization is dropped) so later launches work. */
/* Blocks of `threads` threads (dyn_shared bytes of dynamic shared memory
 * each) of m that can be resident at once on the device: the occupancy per
 * SM times the SMs, the most a cooperative launch may have.  False with a
 * diagnostic when the driver cannot tell. */
bool rt_cuda_max_cooperative_blocks(RtCuda *cu, const RtCudaModule *m, const char *kernel,
                                    uint64_t threads, size_t dyn_shared, int64_t *blocks,
                                    Diags *diags);
/* Opts s's function in to dyn bytes of dynamic shared memory when that
 * takes it past the 48 KiB default (cuFuncSetAttribute; once per size). */
bool rt_cuda_set_dynamic_shared(RtCuda *cu, RtCudaSpec *s, size_t dyn, Diags *diags);
/* stream: the caller's (NULL: cu->stream). */
bool rt_cuda_launch(RtCuda *cu, RtCudaSpec *spec, RtCuStream stream, const uint32_t grid[3],
                    const uint32_t block[3], size_t dyn_shared, int repeat, bool graph,
                    bool async, double *kernel_ms, Diags *diags);
/* Waits for cu's stream; a fault of a queued kernel is reported with the
 * name of the last kernel queued (cu->last_kernel), then the context is
 * reset (cu->reset_on_fault, a context kjit may reset) or marked dead. */
bool rt_cuda_sync(RtCuda *cu, Diags *diags);
/* The same for stream st (NULL: cu->stream): that stream only, never the
 * device. */
bool rt_cuda_sync_stream(RtCuda *cu, RtCuStream st, Diags *diags);
/* After a sticky error (illegal address...): resets the primary context
 * and retains it again (or destroys kjit's own and makes another),
 * recreates the stream, empties the spec table. */
bool rt_cuda_recover(RtCuda *cu, Diags *diags);
bool rt_cuda_is_fault(RtCuResult r);

/* Device buffers of one launch: host arrays are copied in before the
 * launch and back out after it (as Numba does with NumPy arrays). */
bool rt_cuda_alloc(RtCuda *cu, size_t bytes, RtCuDeviceptr *p, const char *what, Diags *diags);
void rt_cuda_free(RtCuda *cu, RtCuDeviceptr p);

/* ---- the entry (cuda_run.c) -------------------------------------------- */

typedef struct kjit_program kjit_program;

/* The CUDA target (runtime/plan.h): rt_cuda_target.run is rt_cuda_run,
 * then the fast path's memory of the launch. */
extern const RtTarget rt_cuda_target;

/* Compiles (on the first launch with these argument types) and runs plan p
 * on the context's GPU: host arrays are copied to the device, the kernel
 * runs p->repeat times (p->use_graph: captured into a CUDA graph and
 * replayed), then the arrays are copied back.  Arrays whose origin is
 * RT_MEM_DEVICE (their data is the device pointer) are passed as they are;
 * when every array is one and repeat is 1 the launch is only queued
 * (asynchronous).  Opens the device on first use (KJIT_DEVICE selects the
 * ordinal, default 0).  *used (may be NULL) receives the specialization
 * launched.  Errors as diagnostics in diags: RT_E_CUDA_NO_DEVICE when no
 * GPU is usable, launch-check and compile errors naming the kernel and
 * argument. */
bool rt_cuda_run(const RtPlan *p, Diags *diags, RtLaunchTiming *t, RtCudaSpec **used);

/* The fast path of kjit_launch (LESSONS.md "Launch"): after a launch with
 * only device arrays, the kernel handle remembers its specialization and
 * one 32-bit record per argument (kind, dtype, ndim, C order, 16-byte
 * alignment).  A later launch whose records match, whose geometry fits the
 * device's limits and which needs no repeat, graph or stream packs its
 * arguments into the specialization's slots and calls cuLaunchKernel: no
 * allocation, no diagnostics, no synchronization.  Anything else (and any
 * driver error) returns false having launched nothing, and the full path
 * runs and reports. */
typedef struct RtCudaFast {
  RtCudaSpec *spec;
  unsigned epoch;                  /* cu->resets when remembered */
  void *stream;                    /* the launch config's stream it was checked for */
  unsigned streams_destroyed;      /* ctx->api.streams_destroyed then */
  int nargs;
  uint32_t rec[RT_CUDA_MAX_ARGS];
} RtCudaFast;
void rt_cuda_remember_fast(kjit_kernel *k, RtCudaSpec *spec, const kjit_arg *args, int nargs,
                           void *stream);
bool rt_cuda_fast_launch(kjit_kernel *k, const kjit_launch_config *cfg, const kjit_arg *args,
                         int nargs);

/* The stream a launch or copy names (NULL: kjit's own, *st = NULL),
 * checked: a live stream of cu's context, or the legacy / per-thread
 * default stream.  *capturing: it is under graph capture.  kernel (may be
 * NULL) names the launch in messages. */
bool rt_cuda_check_stream(RtCuda *cu, void *given, const char *kernel, RtCuStream *st,
                          bool *capturing, Diags *diags);

/* The context's device, opened on first use and made current. */
RtCuda *rt_cuda_device(kjit_context *ctx, Diags *diags);
/* bytes from src to dst, each a host pointer or (…_dev) a device pointer,
 * on stream (NULL: cu's own) after everything queued on it; returns when
 * done, or at once when async. */
bool rt_cuda_copy(RtCuda *cu, void *dst, bool dst_dev, const void *src, bool src_dev,
                  size_t bytes, RtCuStream stream, bool async, Diags *diags);

#endif
