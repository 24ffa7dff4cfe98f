/* stub_cuda.c - a stand-in CUDA driver (libcuda.so.1) for the generated
 * launchers' GPU path on a machine without a GPU: it has the entry points
 * a `kjit aot` library looks up, keeps fake contexts (one current per
 * thread), checks that a module image is a cubin or PTX that names the
 * function asked for, and records every launch instead of running it.
 * tests/aot/stub_main.c checks the launchers through it (ctest
 * aot/stub_driver); bench/aot_launch_instructions.sh counts the
 * instructions of a launch with it.  Built as libcuda.so.1 into a folder
 * put first on LD_LIBRARY_PATH.  Nothing here computes a kernel. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define STUB_API __attribute__((visibility("default")))

typedef struct StubCtx {
  int id;
} StubCtx;

typedef struct StubModule {
  const unsigned char *image;
  size_t len;
  int ctx;                      /* the context it was loaded in */
} StubModule;

typedef struct StubFunc {
  char name[256];
  int ctx;
} StubFunc;

/* What the last launch passed, for stub_last_launch. */
typedef struct StubLaunch {
  char name[256];
  int ctx;                      /* the context current at the launch */
  int fn_ctx;                   /* the context the function was loaded in */
  unsigned grid[3], block[3], shared;
  void *stream;
  unsigned char arg0[24];       /* the first parameter's first 24 bytes */
  unsigned char arg_last[24];   /* the last one's */
} StubLaunch;

static StubCtx ctxs[8] = {{1}, {2}, {3}, {4}, {5}, {6}, {7}, {8}};
static __thread StubCtx *current;
static long launches, module_loads, ctx_queries;
static StubLaunch last;
static int nparams_hint;        /* 0: launches are counted, not recorded */

/* The bytes of an image: a cubin's ELF size from its section headers, else
 * PTX text up to its NUL. */
static size_t image_len(const unsigned char *p) {
  if (memcmp(p, "\x7f" "ELF", 4) == 0 && p[4] == 2) {
    uint64_t shoff;
    uint16_t shentsize, shnum;
    memcpy(&shoff, p + 0x28, 8);
    memcpy(&shentsize, p + 0x3a, 2);
    memcpy(&shnum, p + 0x3c, 2);
    return (size_t)(shoff + (uint64_t)shentsize * shnum);
  }
  return strlen((const char *)p);
}

STUB_API int cuInit(unsigned flags) { return flags != 0 ? 1 : 0; }
STUB_API int cuGetErrorString(int r, const char **s) {
  *s = r == 201 ? "invalid device context" : r == 500 ? "named symbol not found" : "stub error";
  return 0;
}
STUB_API int cuDeviceGet(int *d, int ordinal) { return ordinal == 0 ? (*d = 0, 0) : 101; }
STUB_API int cuDeviceGetCount(int *n) { return *n = 1, 0; }
STUB_API int cuDeviceGetAttribute(int *v, int attr, int dev) {
  (void)dev;
  *v = attr == 75 ? 9 : attr == 76 ? 0 : 0;  /* compute capability 9.0 */
  return 0;
}
STUB_API int cuDevicePrimaryCtxRetain(void **ctx, int dev) { return (void)dev, *ctx = &ctxs[0], 0; }
STUB_API int cuCtxGetCurrent(void **ctx) { return ctx_queries++, *ctx = current, 0; }
STUB_API int cuCtxSetCurrent(void *ctx) { return current = (StubCtx *)ctx, 0; }
STUB_API int cuCtxGetDevice(int *d) { return current ? (*d = 0, 0) : 201; }
STUB_API int cuModuleLoadData(void **mod, const void *image) {
  if (!current)
    return 201;
  StubModule *m = (StubModule *)calloc(1, sizeof *m);
  m->image = (const unsigned char *)image;
  m->len = image_len(m->image);
  m->ctx = current->id;
  module_loads++;
  *mod = m;
  return 0;
}
STUB_API int cuModuleUnload(void *mod) { return free(mod), 0; }
STUB_API int cuModuleGetFunction(void **fn, void *mod, const char *name) {
  StubModule *m = (StubModule *)mod;
  size_t n = strlen(name);
  int found = 0;
  for (size_t i = 0; !found && i + n <= m->len; i++)
    found = memcmp(m->image + i, name, n) == 0 && (i + n == m->len || m->image[i + n] == 0 ||
                                                   m->image[i + n] == '(' || m->image[i + n] == '\n');
  if (!found || n >= sizeof ((StubFunc *)0)->name)
    return 500;
  StubFunc *f = (StubFunc *)calloc(1, sizeof *f);
  memcpy(f->name, name, n + 1);
  f->ctx = m->ctx;
  *fn = f;
  return 0;
}
STUB_API int cuFuncSetAttribute(void *fn, int attr, int v) { return (void)fn, (void)attr, (void)v, 0; }
STUB_API int cuLaunchKernel(void *fn, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                            unsigned shared, void *stream, void **params, void **extra) {
  StubFunc *f = (StubFunc *)fn;
  (void)extra;
  if (!current)
    return 201;
  launches++;
  if (!nparams_hint)
    return 0;
  memcpy(last.name, f->name, sizeof last.name);
  last.ctx = current->id, last.fn_ctx = f->ctx;
  last.grid[0] = gx, last.grid[1] = gy, last.grid[2] = gz;
  last.block[0] = bx, last.block[1] = by, last.block[2] = bz;
  last.shared = shared, last.stream = stream;
  memcpy(last.arg0, params[0], sizeof last.arg0);
  memcpy(last.arg_last, params[nparams_hint - 1], sizeof last.arg_last);
  return 0;
}
STUB_API int cuMemAlloc_v2(unsigned long long *p, size_t bytes) {
  void *q = malloc(bytes);
  return q ? (*p = (uintptr_t)q, 0) : 2;
}
STUB_API int cuMemFree_v2(unsigned long long p) { return free((void *)(uintptr_t)p), 0; }
STUB_API int cuMemcpyHtoD_v2(unsigned long long d, const void *s, size_t n) {
  return memcpy((void *)(uintptr_t)d, s, n), 0;
}
STUB_API int cuMemcpyDtoH_v2(void *d, unsigned long long s, size_t n) {
  return memcpy(d, (const void *)(uintptr_t)s, n), 0;
}
STUB_API int cuMemcpyDtoHAsync_v2(void *d, unsigned long long s, size_t n, void *stream) {
  return (void)stream, memcpy(d, (const void *)(uintptr_t)s, n), 0;
}
STUB_API int cuStreamSynchronize(void *s) { return (void)s, 0; }
STUB_API int cuCtxSynchronize(void) { return current ? 0 : 201; }

/* The test's side: counters, a context by number (1..8), recording
 * launches of NPARAMS parameters (0: off) and the last one recorded. */
STUB_API void *stub_context(int id) { return id >= 1 && id <= 8 ? &ctxs[id - 1] : NULL; }
STUB_API void stub_counts(long *nlaunch, long *nloads, long *nqueries) {
  *nlaunch = launches, *nloads = module_loads, *nqueries = ctx_queries;
}
STUB_API void stub_record(int nparams) { nparams_hint = nparams; }
STUB_API const void *stub_last_launch(void) { return &last; }
