/* cuda_driver.c - libcuda.so.1 through dlopen: the entry-point table, the
 * device's primary context and limits, error names, `kjit info`.
 *
 * Nothing is loaded until a cuda launch or `kjit info` asks, so libkjit
 * starts on machines without a GPU.  Every driver failure becomes a
 * diagnostic naming the call, the kernel it concerns and the CUresult's
 * name; no path here aborts or prints. */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/trace.h"
#include "cuda/cuda.h"

#define LIBCUDA "libcuda.so.1"

/* ------------------------------------------------------------ table --- */

typedef struct Sym {
  const char *names[2];  /* ABI names, newest first */
  size_t offset;         /* of the pointer in RtCuApi */
  bool optional;
} Sym;

#define ENTRY(field, n1, n2, opt) {{n1, n2}, offsetof(RtCuApi, field), opt}

static const Sym cu_syms[] = {
    ENTRY(Init, "cuInit", NULL, false),
    ENTRY(DriverGetVersion, "cuDriverGetVersion", NULL, false),
    ENTRY(GetErrorName, "cuGetErrorName", NULL, false),
    ENTRY(GetErrorString, "cuGetErrorString", NULL, false),
    ENTRY(DeviceGetCount, "cuDeviceGetCount", NULL, false),
    ENTRY(DeviceGet, "cuDeviceGet", NULL, false),
    ENTRY(DeviceGetName, "cuDeviceGetName", NULL, false),
    ENTRY(DeviceGetAttribute, "cuDeviceGetAttribute", NULL, false),
    ENTRY(DeviceTotalMem, "cuDeviceTotalMem_v2", NULL, false),
    ENTRY(DevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain", NULL, false),
    ENTRY(DevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2", NULL, false),
    ENTRY(DevicePrimaryCtxReset, "cuDevicePrimaryCtxReset_v2", NULL, false),
    ENTRY(CtxSetCurrent, "cuCtxSetCurrent", NULL, false),
    ENTRY(CtxSynchronize, "cuCtxSynchronize", NULL, false),
    ENTRY(CtxGetCurrent, "cuCtxGetCurrent", NULL, false),
    ENTRY(ModuleLoadData, "cuModuleLoadData", NULL, false),
    ENTRY(ModuleLoadDataEx, "cuModuleLoadDataEx", NULL, false),
    ENTRY(ModuleUnload, "cuModuleUnload", NULL, false),
    ENTRY(ModuleGetFunction, "cuModuleGetFunction", NULL, false),
    ENTRY(FuncGetAttribute, "cuFuncGetAttribute", NULL, false),
    ENTRY(FuncSetAttribute, "cuFuncSetAttribute", NULL, false),
    ENTRY(LaunchKernel, "cuLaunchKernel", NULL, false),
    ENTRY(MemAlloc, "cuMemAlloc_v2", NULL, false),
    ENTRY(MemFree, "cuMemFree_v2", NULL, false),
    ENTRY(MemcpyHtoDAsync, "cuMemcpyHtoDAsync_v2", NULL, false),
    ENTRY(MemcpyDtoHAsync, "cuMemcpyDtoHAsync_v2", NULL, false),
    ENTRY(MemcpyDtoDAsync, "cuMemcpyDtoDAsync_v2", NULL, false),
    ENTRY(StreamCreate, "cuStreamCreate", NULL, false),
    ENTRY(StreamDestroy, "cuStreamDestroy_v2", NULL, false),
    ENTRY(StreamSynchronize, "cuStreamSynchronize", NULL, false),
    ENTRY(EventCreate, "cuEventCreate", NULL, false),
    ENTRY(EventDestroy, "cuEventDestroy_v2", NULL, false),
    ENTRY(EventRecord, "cuEventRecord", NULL, false),
    ENTRY(EventSynchronize, "cuEventSynchronize", NULL, false),
    /* 12.8 added _v2 (same signature); older drivers have only the plain name */
    ENTRY(EventElapsedTime, "cuEventElapsedTime_v2", "cuEventElapsedTime", false),
    ENTRY(StreamBeginCapture, "cuStreamBeginCapture_v2", NULL, true),
    ENTRY(StreamEndCapture, "cuStreamEndCapture", NULL, true),
    ENTRY(GraphInstantiate, "cuGraphInstantiateWithFlags", NULL, true),
    ENTRY(GraphLaunch, "cuGraphLaunch", NULL, true),
    ENTRY(GraphExecDestroy, "cuGraphExecDestroy", NULL, true),
    ENTRY(GraphDestroy, "cuGraphDestroy", NULL, true),
    ENTRY(LaunchCooperativeKernel, "cuLaunchCooperativeKernel", NULL, true),
    ENTRY(OccupancyMaxActiveBlocksPerMultiprocessor, "cuOccupancyMaxActiveBlocksPerMultiprocessor", NULL, true),
    ENTRY(PointerGetAttribute, "cuPointerGetAttribute", NULL, false),
    ENTRY(StreamGetCtx, "cuStreamGetCtx", NULL, false),
    ENTRY(StreamQuery, "cuStreamQuery", NULL, false),
    ENTRY(StreamIsCapturing, "cuStreamIsCapturing", NULL, true),
    ENTRY(CtxCreate, "cuCtxCreate_v2", NULL, false),
    ENTRY(CtxDestroy, "cuCtxDestroy_v2", NULL, false),
    ENTRY(CtxGetDevice, "cuCtxGetDevice", NULL, false),
    ENTRY(CtxPushCurrent, "cuCtxPushCurrent_v2", NULL, false),
    ENTRY(CtxPopCurrent, "cuCtxPopCurrent_v2", NULL, false),
};
#undef ENTRY

static void *find_sym(void *lib, const Sym *s) {
  for (int i = 0; i < 2 && s->names[i]; i++) {
    void *p = dlsym(lib, s->names[i]);
    if (p)
      return p;
  }
  return NULL;
}

bool rt_cu_api_load(RtCuApi *api, const char *libname, char *err, size_t errlen) {
  memset(api, 0, sizeof *api);
  const char *name = libname ? libname : LIBCUDA;
  void *lib = dlopen(name, RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char *why = dlerror();
    snprintf(err, errlen, "%s", why ? why : name);
    return false;
  }
  for (size_t i = 0; i < sizeof cu_syms / sizeof cu_syms[0]; i++) {
    void *p = find_sym(lib, &cu_syms[i]);
    if (!p && !cu_syms[i].optional) {
      snprintf(err, errlen, "%s has no %s (driver too old?)", name, cu_syms[i].names[0]);
      dlclose(lib);
      memset(api, 0, sizeof *api);
      return false;
    }
    memcpy((char *)api + cu_syms[i].offset, &p, sizeof p);
  }
  api->lib = lib;
  trace_event("load %s (CUDA driver)", name);
  return true;
}

/* libcuda is never dlclose'd once loaded: after cuInit the driver keeps
 * threads and atexit handlers that would run on unmapped code.  The handle
 * is reference-counted, so reopening it is free. */
void rt_cu_api_unload(RtCuApi *api) {
  memset(api, 0, sizeof *api);
}

const char *rt_cu_error_name(const RtCuApi *api, RtCuResult r, char *buf, size_t len) {
  const char *name = NULL;
  if (api->GetErrorName && api->GetErrorName(r, &name) != RT_CU_SUCCESS)
    name = NULL;
  if (name)
    snprintf(buf, len, "%s", name);
  else
    snprintf(buf, len, "CUresult %d", (int)r);
  return buf;
}

/* --------------------------------------------------- version tables --- */

/* The newest PTX ISA each driver's JIT accepts (PTX ISA release notes):
 *   11.0 7.0  11.1 7.1  11.2 7.2  11.3 7.3  11.4 7.4  11.5 7.5  11.6 7.6
 *   11.7 7.7  11.8 7.8  12.0 8.0  12.1 8.1  12.2 8.2  12.3 8.3  12.4 8.4
 *   12.5 8.5  12.6 8.5  12.8 8.7  12.9 8.8  13.0 9.0
 * A driver newer than the table gets the table's newest entry (LLVM 19
 * emits at most 8.5 anyway). */
int rt_cuda_ptx_isa_for_driver(int driver_version) {
  static const int tab[][2] = {
      {11000, 70}, {11010, 71}, {11020, 72}, {11030, 73}, {11040, 74}, {11050, 75},
      {11060, 76}, {11070, 77}, {11080, 78}, {12000, 80}, {12010, 81}, {12020, 82},
      {12030, 83}, {12040, 84}, {12050, 85}, {12060, 85}, {12080, 87}, {12090, 88},
      {13000, 90}};
  int isa = 0;
  for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++)
    if (driver_version >= tab[i][0])
      isa = tab[i][1];
  return isa;
}

/* The architectures compile.c accepts, oldest first (no 'a' variants). */
void rt_cuda_codegen_arch(int major, int minor, char *buf, size_t len) {
  static const int known[] = {50, 52, 53, 60, 61, 62, 70, 72, 75, 80, 86, 87, 89, 90};
  int cc = major * 10 + minor, best = known[0];
  for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
    if (known[i] <= cc)
      best = known[i];
  snprintf(buf, len, "sm_%d", best);
}

/* ------------------------------------------------------- diagnostics --- */

bool rt_cuda_check(RtCuda *cu, RtCuResult r, const char *op, const char *kernel, Diags *diags) {
  if (r == RT_CU_SUCCESS)
    return true;
  char name[64];
  const char *text = NULL;
  rt_cu_error_name(&cu->api, r, name, sizeof name);
  if (cu->api.GetErrorString && cu->api.GetErrorString(r, &text) != RT_CU_SUCCESS)
    text = NULL;
  int code = r == RT_CU_ERROR_OUT_OF_MEMORY ? RT_E_CUDA_NOMEM
             : rt_cuda_is_fault(r)          ? RT_E_CUDA_FAULT
                                            : RT_E_CUDA_DRIVER;
  if (kernel)
    diag_error(diags, code, (SrcLoc){0}, text, "%s failed for kernel '%s': %s", op, kernel, name);
  else
    diag_error(diags, code, (SrcLoc){0}, text, "%s failed: %s", op, name);
  return false;
}

bool rt_cuda_is_fault(RtCuResult r) {
  switch (r) {
  case RT_CU_ERROR_ILLEGAL_ADDRESS: case RT_CU_ERROR_LAUNCH_TIMEOUT:
  case RT_CU_ERROR_ASSERT: case RT_CU_ERROR_HARDWARE_STACK_ERROR:
  case RT_CU_ERROR_ILLEGAL_INSTRUCTION: case RT_CU_ERROR_MISALIGNED_ADDRESS:
  case RT_CU_ERROR_INVALID_ADDRESS_SPACE: case RT_CU_ERROR_INVALID_PC:
  case RT_CU_ERROR_LAUNCH_FAILED:
    return true;
  default:
    return false;
  }
}

/* ----------------------------------------------------------- devices --- */

/* Loads the driver and runs cuInit; err gets the reason on failure. */
static bool start_driver(RtCuApi *api, int *version, char *err, size_t errlen) {
  if (!rt_cu_api_load(api, NULL, err, errlen))
    return false;
  RtCuResult r = api->Init(0);
  if (r == RT_CU_SUCCESS)
    r = api->DriverGetVersion(version);
  if (r != RT_CU_SUCCESS) {
    char name[64];
    snprintf(err, errlen, "cuInit failed: %s", rt_cu_error_name(api, r, name, sizeof name));
    rt_cu_api_unload(api);
    return false;
  }
  return true;
}

static int attr(const RtCuApi *api, RtCuDevice dev, int which) {
  int v = 0;
  if (api->DeviceGetAttribute(&v, which, dev) != RT_CU_SUCCESS)
    v = 0;
  return v;
}

static void read_device(const RtCuApi *api, RtCuDevice dev, int ordinal, RtCudaDeviceInfo *d) {
  memset(d, 0, sizeof *d);
  d->ordinal = ordinal;
  if (api->DeviceGetName(d->name, (int)sizeof d->name, dev) != RT_CU_SUCCESS)
    snprintf(d->name, sizeof d->name, "device %d", ordinal);
  d->cc_major = attr(api, dev, RT_CU_DEV_CC_MAJOR);
  d->cc_minor = attr(api, dev, RT_CU_DEV_CC_MINOR);
  if (api->DeviceTotalMem(&d->total_mem, dev) != RT_CU_SUCCESS)
    d->total_mem = 0;
  d->max_threads_per_block = attr(api, dev, RT_CU_DEV_MAX_THREADS_PER_BLOCK);
  for (int i = 0; i < 3; i++) {
    d->max_block[i] = attr(api, dev, RT_CU_DEV_MAX_BLOCK_DIM_X + i);
    d->max_grid[i] = attr(api, dev, RT_CU_DEV_MAX_GRID_DIM_X + i);
  }
  d->max_shared_per_block = attr(api, dev, RT_CU_DEV_MAX_SHARED_PER_BLOCK);
  d->max_shared_optin = attr(api, dev, RT_CU_DEV_MAX_SHARED_PER_BLOCK_OPTIN);
  if (d->max_shared_optin < d->max_shared_per_block)
    d->max_shared_optin = d->max_shared_per_block;
  d->sm_count = attr(api, dev, RT_CU_DEV_MULTIPROCESSOR_COUNT);
  d->warp_size = attr(api, dev, RT_CU_DEV_WARP_SIZE);
  d->mem_clock_khz = attr(api, dev, RT_CU_DEV_MEMORY_CLOCK_RATE);
  d->bus_width = attr(api, dev, RT_CU_DEV_GLOBAL_MEMORY_BUS_WIDTH);
}

/* Peak memory bandwidth (MB/s) of devices whose driver may not give the
 * memory clock (CUDA 13 deprecates the attribute): NVIDIA's data sheets.
 * The first entry whose text the device's name contains wins, so longer
 * names come first. */
static const struct { const char *name; int64_t mbs; } peak_table[] = {
    {"H200", 4800000},          {"H100 NVL", 3900000},      {"H100 PCIe", 2000000},
    {"H100", 3350000},          {"GH200", 4000000},         {"B200", 8000000},
    {"A100 80GB PCIe", 1935000}, {"A100-SXM4-80GB", 2039000}, {"A100", 1555000},
    {"L40S", 864000},           {"L40", 864000},            {"L4", 300000},
    {"A10", 600000},            {"V100", 900000},           {"T4", 320000},
};

int64_t rt_cuda_peak_bandwidth(const RtCudaDeviceInfo *d, int *source) {
  *source = 0;
  if (d->mem_clock_khz > 0 && d->bus_width > 0) {
    *source = 1;
    return 2 * (int64_t)d->mem_clock_khz * (d->bus_width / 8) / 1000;
  }
  for (size_t i = 0; i < sizeof peak_table / sizeof peak_table[0]; i++)
    if (strstr(d->name, peak_table[i].name)) {
      *source = 2;
      return peak_table[i].mbs;
    }
  return 0;
}

/* The devices without a context: each call loads the driver and runs
 * cuInit (cheap after the first), so no state is kept between calls. */
int rt_cuda_device_count(void) {
  RtCuApi api;
  char err[256];
  int version = 0, count = 0;
  if (!start_driver(&api, &version, err, sizeof err))
    return 0;
  if (api.DeviceGetCount(&count) != RT_CU_SUCCESS || count < 0)
    count = 0;
  rt_cu_api_unload(&api);
  return count;
}

bool rt_cuda_query(int ordinal, RtCudaDeviceInfo *out) {
  RtCuApi api;
  char err[256];
  int version = 0, count = 0;
  RtCuDevice dev;
  if (ordinal < 0 || !start_driver(&api, &version, err, sizeof err))
    return false;
  bool ok = api.DeviceGetCount(&count) == RT_CU_SUCCESS && ordinal < count &&
            api.DeviceGet(&dev, ordinal) == RT_CU_SUCCESS;
  if (ok)
    read_device(&api, dev, ordinal, out);
  rt_cu_api_unload(&api);
  return ok;
}

/* The default --arch: device `ordinal`'s, mapped to the newest
 * architecture the code generator knows; false (buf untouched) without a
 * driver or that device.  Creates no context. */
bool rt_cuda_default_arch(int ordinal, char *buf, size_t len) {
  RtCudaDeviceInfo d;
  if (!rt_cuda_query(ordinal, &d) || d.cc_major <= 0)
    return false;
  rt_cuda_codegen_arch(d.cc_major, d.cc_minor, buf, len);
  return true;
}

/* Picks device `ordinal`: a clear error when there is none or too few. */
static bool pick_device(RtCuda *cu, int ordinal, Diags *diags) {
  int count = 0;
  RtCuResult r = cu->api.DeviceGetCount(&count);
  if (r != RT_CU_SUCCESS || count == 0) {
    diag_error(diags, RT_E_CUDA_NO_DEVICE, (SrcLoc){0}, "use the cpu target",
               "no CUDA device is present, so CUDA device %d cannot be opened (the driver "
               "loaded, but reports %s)", ordinal,
               r == RT_CU_SUCCESS ? "0 devices" : "an error counting devices");
    return false;
  }
  if (ordinal < 0 || ordinal >= count) {
    diag_error(diags, RT_E_CUDA_BAD_DEVICE, (SrcLoc){0}, "devices are numbered from 0 (kjit info lists them)",
               "CUDA device %d does not exist: this machine has %d (0..%d)", ordinal, count,
               count - 1);
    return false;
  }
  if (!rt_cuda_check(cu, cu->api.DeviceGet(&cu->dev, ordinal), "cuDeviceGet", NULL, diags))
    return false;
  read_device(&cu->api, cu->dev, ordinal, &cu->info);
  return true;
}

/* The primary context (shared with any other library of the process, as
 * the runtime API does) and one non-blocking stream, made on a thread of
 * their own.  The thread writes only its RtCudaStarter; whoever joins it
 * (rt_cuda_make_current, under the lock) moves the results into the
 * RtCuda, so nothing reads cu->ctx while it is being made. */
struct RtCudaStarter {
  pthread_t thread;
  pthread_mutex_t lock;     /* one joiner */
  bool joined;              /* set (atomically) once the results are in cu */
  RtCuda *cu;               /* read-only for the thread: api, dev */
  int ordinal;
  RtCuResult r;             /* the first failure, and which call */
  const char *op;
  RtCuContext ctx;
  RtCuStream stream;
};

static void *start_context(void *arg) {
  RtCudaStarter *st = arg;
  const RtCuApi *api = &st->cu->api;
  st->op = "cuDevicePrimaryCtxRetain";
  st->r = api->DevicePrimaryCtxRetain(&st->ctx, st->cu->dev);
  if (st->r == RT_CU_SUCCESS && (st->r = api->CtxSetCurrent(st->ctx)) != RT_CU_SUCCESS)
    st->op = "cuCtxSetCurrent";
  if (st->r == RT_CU_SUCCESS &&
      (st->r = api->StreamCreate(&st->stream, RT_CU_STREAM_NON_BLOCKING)) != RT_CU_SUCCESS)
    st->op = "cuStreamCreate";
  if (st->r != RT_CU_SUCCESS && st->ctx) {
    api->DevicePrimaryCtxRelease(st->cu->dev);
    st->ctx = NULL;
  }
  if (st->r == RT_CU_SUCCESS)
    api->CtxSetCurrent(NULL);           /* the thread ends; the context stays retained */
  trace_event("context of device %d %s", st->ordinal, st->r == RT_CU_SUCCESS ? "ready" : "failed");
  return NULL;
}

/* Joins the starter once, moving what it made into cu. */
static void take_starter(RtCuda *cu) {
  RtCudaStarter *st = cu->starter;
  if (__atomic_load_n(&st->joined, __ATOMIC_ACQUIRE))
    return;                             /* every call after the first: no lock */
  pthread_mutex_lock(&st->lock);
  if (!st->joined) {
    pthread_join(st->thread, NULL);
    cu->ctx = st->ctx;
    cu->stream = st->stream;
    __atomic_store_n(&st->joined, true, __ATOMIC_RELEASE);
  }
  pthread_mutex_unlock(&st->lock);
}

/* True when the context is there; its failure is reported to every
 * caller (nothing can run on the device without it). */
static bool join_starter(RtCuda *cu, Diags *diags) {
  take_starter(cu);
  return cu->starter->r == RT_CU_SUCCESS ||
         rt_cuda_check(cu, cu->starter->r, cu->starter->op, NULL, diags);
}

/* The device a foreign context belongs to, as an ordinal. */
static bool foreign_device(RtCuda *cu, RtCuContext c, int *ordinal, Diags *diags) {
  RtCuDevice dev = -1;
  RtCuResult r = cu->api.CtxPushCurrent(c);
  if (r == RT_CU_SUCCESS) {
    r = cu->api.CtxGetDevice(&dev);
    RtCuContext popped = NULL;
    cu->api.CtxPopCurrent(&popped);
  }
  if (r != RT_CU_SUCCESS) {
    char name[64];
    diag_error(diags, RT_E_CUDA_DRIVER, (SrcLoc){0},
               "pass a live CUcontext (cuCtxCreate, cuDevicePrimaryCtxRetain, cudaFree(0) then "
               "cuCtxGetCurrent)",
               "the CUDA context given to kjit is not usable: %s",
               rt_cu_error_name(&cu->api, r, name, sizeof name));
    return false;
  }
  int count = 0;
  cu->api.DeviceGetCount(&count);
  for (int i = 0; i < count; i++) {
    RtCuDevice d = -1;
    if (cu->api.DeviceGet(&d, i) == RT_CU_SUCCESS && d == dev) {
      *ordinal = i;
      return true;
    }
  }
  diag_error(diags, RT_E_CUDA_DRIVER, (SrcLoc){0}, NULL,
             "the device of the CUDA context given to kjit is not among the %d devices", count);
  return false;
}

/* kjit's own stream in context c (made current for the call, then the
 * thread's context is put back). */
static bool stream_in(RtCuda *cu, RtCuContext c, Diags *diags) {
  RtCuResult r = cu->api.CtxPushCurrent(c);
  if (r == RT_CU_SUCCESS) {
    r = cu->api.StreamCreate(&cu->stream, RT_CU_STREAM_NON_BLOCKING);
    RtCuContext popped = NULL;
    cu->api.CtxPopCurrent(&popped);
  }
  return rt_cuda_check(cu, r, "cuStreamCreate", NULL, diags);
}

/* A foreign context (given, or current on this thread): its device, and a
 * stream of kjit's own in it.  Nothing is retained: the caller keeps the
 * context alive for the kjit context's life. */
static bool open_foreign(RtCuda *cu, const RtCudaOpen *how, Diags *diags) {
  RtCuContext c = how->foreign;
  if (!c && (cu->api.CtxGetCurrent(&c) != RT_CU_SUCCESS || !c)) {
    diag_error(diags, RT_E_CUDA_DRIVER, (SrcLoc){0},
               "make the context current first (cuCtxSetCurrent, or any CUDA runtime call such "
               "as cudaFree(0)), or pass it in kjit_context_options.cuda_context",
               "no CUDA context is current on the calling thread, and the kjit context was made "
               "to run in the current one (KJIT_CUDA_CONTEXT_CURRENT)");
    return false;
  }
  int ordinal = 0;
  if (!foreign_device(cu, c, &ordinal, diags))
    return false;
  if (how->ordinal_explicit && how->ordinal != ordinal) {
    diag_error(diags, RT_E_CUDA_BAD_DEVICE, (SrcLoc){0},
               "leave kjit_context_options.device at KJIT_DEVICE_DEFAULT with a CUDA context",
               "the CUDA context given to kjit belongs to device %d, but device %d was asked for",
               ordinal, how->ordinal);
    return false;
  }
  if (!pick_device(cu, ordinal, diags) || !stream_in(cu, c, diags))
    return false;
  cu->ctx = c;
  cu->kind = RT_CTX_FOREIGN;
  return true;
}

/* A context of kjit's own (cuCtxCreate pushes it on this thread: popped
 * again, so the caller's current context is left as it was). */
static bool create_own(RtCuda *cu, Diags *diags) {
  RtCuContext c = NULL, popped = NULL;
  if (!rt_cuda_check(cu, cu->api.CtxCreate(&c, 0, cu->dev), "cuCtxCreate", NULL, diags))
    return false;
  cu->api.CtxPopCurrent(&popped);
  if (!stream_in(cu, c, diags)) {
    cu->api.CtxDestroy(c);
    return false;
  }
  cu->ctx = c;
  return true;
}

RtCuda *rt_cuda_open(const RtCudaOpen *how, Diags *diags) {
  int ordinal = how->ordinal;
  RtCuda *cu = calloc(1, sizeof *cu);
  if (!cu) {
    diag_error(diags, RT_E_CUDA_NOMEM, (SrcLoc){0}, NULL, "out of memory opening the CUDA device");
    return NULL;
  }
  char err[512];
  if (!start_driver(&cu->api, &cu->driver_version, err, sizeof err)) {
    diag_error(diags, RT_E_CUDA_NO_DEVICE, (SrcLoc){0}, "use the cpu target on machines without an NVIDIA GPU",
               "the CUDA driver is not usable, so CUDA device %d cannot be opened: %s", ordinal,
               err);
    free(cu);
    return NULL;
  }
  cu->ptx_isa_max = rt_cuda_ptx_isa_for_driver(cu->driver_version);
  cu->reset_on_fault = how->reset_on_fault;
  trace_event("CUDA driver %d started", cu->driver_version);
  if (how->foreign || how->use_current) {
    if (!open_foreign(cu, how, diags)) {
      rt_cuda_close(cu);
      return NULL;
    }
    return cu;
  }
  if (!pick_device(cu, ordinal, diags)) {
    rt_cuda_close(cu);
    return NULL;
  }
  if (how->own) {
    cu->kind = RT_CTX_OWN;
    if (!create_own(cu, diags)) {
      rt_cuda_close(cu);
      return NULL;
    }
    return cu;
  }
  RtCudaStarter *st = calloc(1, sizeof *st);
  if (!st) {
    diag_error(diags, RT_E_CUDA_NOMEM, (SrcLoc){0}, NULL, "out of memory opening the CUDA device");
    rt_cuda_close(cu);
    return NULL;
  }
  *st = (RtCudaStarter){.cu = cu, .ordinal = ordinal};
  pthread_mutex_init(&st->lock, NULL);
  cu->starter = st;
  if (pthread_create(&st->thread, NULL, start_context, st) != 0) {
    start_context(st);                  /* no thread to be had: here and now */
    st->joined = true;
    cu->ctx = st->ctx;
    cu->stream = st->stream;
  }
  return cu;
}

/* Cheap when the context is already current (one cuCtxGetCurrent, no
 * lock in the driver); a thread that never touched CUDA, or one another
 * library left on its own context, gets kjit's context set (and keeps it:
 * docs/api.md "Contexts"). */
bool rt_cuda_make_current(RtCuda *cu, Diags *diags) {
  if (cu->starter && !join_starter(cu, diags))
    return false;
  if (cu->dead) {
    diag_error(diags, RT_E_CUDA_DEAD, (SrcLoc){0},
               cu->kind == RT_CTX_FOREIGN
                   ? "a fault is sticky: the CUDA context cannot be used again by anyone; make a "
                     "new context (or restart the process) and a new kjit context"
                   : "a fault is sticky: restart the process, or create kjit contexts with "
                     "fault_policy KJIT_FAULT_RESET to have kjit reset its context after a fault",
               "the CUDA context is unusable: %s earlier, and kjit left the context as it was "
               "(it is not kjit's to reset)", cu->dead_why);
    return false;
  }
  RtCuContext cur = NULL;
  if (cu->ctx && cu->api.CtxGetCurrent(&cur) == RT_CU_SUCCESS && cur == cu->ctx)
    return true;
  if (!cu->ctx) {
    diag_error(diags, RT_E_CUDA_DRIVER, (SrcLoc){0}, "CUDA keeps some faults (illegal address) sticky for the whole process: restart the process",
               "the CUDA context could not be restored after a device fault");
    return false;
  }
  return rt_cuda_check(cu, cu->api.CtxSetCurrent(cu->ctx), "cuCtxSetCurrent", NULL, diags);
}

void rt_cuda_close(RtCuda *cu) {
  if (!cu)
    return;
  trace_event("closing the CUDA context");
  if (cu->starter) {
    take_starter(cu);
    pthread_mutex_destroy(&cu->starter->lock);
    free(cu->starter);
    cu->starter = NULL;
  }
  if (cu->ctx && cu->kind == RT_CTX_OWN) {
    rt_spec_clear(&cu->specs, NULL);            /* destroying the context unloads all */
    cu->api.CtxDestroy(cu->ctx);
  } else if (cu->ctx) {
    RtCuContext popped = NULL;
    bool pushed = cu->api.CtxPushCurrent(cu->ctx) == RT_CU_SUCCESS;
    rt_spec_clear(&cu->specs, cu);
    if (cu->stream)
      cu->api.StreamDestroy(cu->stream);
    if (pushed)
      cu->api.CtxPopCurrent(&popped);
    if (cu->kind == RT_CTX_PRIMARY)
      cu->api.DevicePrimaryCtxRelease(cu->dev);
  }
  rt_spec_clear(&cu->specs, NULL);
  rt_spec_table_free(&cu->specs);
  if (cu->jl.lib)
    dlclose(cu->jl.lib);
  rt_cu_api_unload(&cu->api);
  free(cu);
  trace_event("CUDA context closed");
}

/* -------------------------------------------------------------- info --- */

static void info_device(StrBuf *sb, const RtCuApi *api, int i) {
  RtCuDevice dev;
  if (api->DeviceGet(&dev, i) != RT_CU_SUCCESS) {
    sb_printf(sb, "  device %d: cannot be opened\n", i);
    return;
  }
  RtCudaDeviceInfo d;
  read_device(api, dev, i, &d);
  sb_printf(sb, "  device %d: %s, compute capability %d.%d (sm_%d%d), %.1f GiB, %d SMs, "
            "%d KiB shared/block (%d opt-in)\n", i, d.name, d.cc_major, d.cc_minor, d.cc_major,
            d.cc_minor, (double)d.total_mem / (1024.0 * 1024 * 1024), d.sm_count,
            d.max_shared_per_block / 1024, d.max_shared_optin / 1024);
}

static void info_nvjitlink(StrBuf *sb) {
  static const char *const names[] = {"libnvJitLink.so.13", "libnvJitLink.so.12", "libnvJitLink.so"};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    void *lib = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    if (lib) {
      sb_printf(sb, "nvJitLink: %s (PTX -> cubin in process)\n", names[i]);
      dlclose(lib);
      return;
    }
  }
  sb_puts(sb, "nvJitLink: not found (the driver's JIT builds cubins)\n");
}

void rt_cuda_info(StrBuf *sb) {
  RtCuApi api;
  int version = 0, count = 0;
  char err[512];
  if (!start_driver(&api, &version, err, sizeof err)) {
    sb_printf(sb, "CUDA driver: not available (%s)\n", err);
    return;
  }
  int isa = rt_cuda_ptx_isa_for_driver(version);
  sb_printf(sb, "CUDA driver: %d.%d (accepts PTX ISA up to %d.%d)\n", version / 1000,
            version % 1000 / 10, isa / 10, isa % 10);
  if (api.DeviceGetCount(&count) != RT_CU_SUCCESS)
    count = 0;
  sb_printf(sb, "devices: %d\n", count);
  for (int i = 0; i < count; i++)
    info_device(sb, &api, i);
  info_nvjitlink(sb);
  rt_cu_api_unload(&api);
}
