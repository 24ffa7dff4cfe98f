/* cuda_module.c - PTX -> loaded CUfunction, with its parameter layout.
 *
 * The cubin is made in process by nvJitLink (dlopen'd like the driver: ~6 ms
 * against 11-18 ms for a ptxas subprocess); where libnvJitLink is missing
 * the driver's own JIT (cuModuleLoadDataEx on the PTX) builds it.  Before
 * either sees it, the PTX's `.version` is clamped to what the driver
 * accepts, or old drivers fail with CUDA_ERROR_UNSUPPORTED_PTX_VERSION.
 * The parameter layout is read from the PTX `.entry` itself, so the
 * launcher packs exactly what the compiled kernel declares. */
#include <ctype.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/file.h"
#include "common/trace.h"
#include "cuda/cuda.h"
#include "runtime/compile.h"
#include "common/settings.h"

/* ------------------------------------------------------- PTX reading --- */

bool rt_ptx_clamp_version(char *ptx, int isa_max) {
  char *v = strstr(ptx, ".version ");
  if (!v)
    return false;
  int major = 0, minor = 0;
  if (sscanf(v + 9, "%d.%d", &major, &minor) != 2)
    return false;
  if (isa_max <= 0 || major * 10 + minor <= isa_max)
    return true;
  /* same width ("8.5" -> "8.4"), so the text stays in place */
  char *num = v + 9;
  char *end = num;
  while (*end && (isdigit((unsigned char)*end) || *end == '.'))
    end++;
  char repl[16];
  int n = snprintf(repl, sizeof repl, "%d.%d", isa_max / 10, isa_max % 10);
  if (n != (int)(end - num)) {                  /* e.g. 10.0 -> 9.0: pad */
    if (n > (int)(end - num))
      return false;
    memset(num, ' ', (size_t)(end - num));
  }
  memcpy(num, repl, (size_t)n);
  return true;
}

static const char *skip_space(const char *p) {
  while (*p && isspace((unsigned char)*p))
    p++;
  return p;
}

/* Copies the next word (up to a space, ',', ')', '[') into buf. */
static const char *read_word(const char *p, char *buf, size_t len) {
  size_t n = 0;
  p = skip_space(p);
  while (*p && !isspace((unsigned char)*p) && *p != ',' && *p != ')' && *p != '[' &&
         *p != '(') {
    if (n + 1 < len)
      buf[n++] = *p;
    p++;
  }
  buf[n] = '\0';
  return p;
}

/* Size of a PTX scalar type (".u64" -> 8); 0 when unknown. */
static unsigned ptx_type_size(const char *t) {
  if (t[0] != '.' || !strchr("usbf", t[1]))
    return 0;
  int bits = atoi(t + 2);
  return bits == 8 || bits == 16 || bits == 32 || bits == 64 ? (unsigned)bits / 8 : 0;
}

/* One `.param [.align A] .type [.ptr .space .align N] name[[N]]`. */
static const char *read_param(const char *p, RtCudaParam *out) {
  char w[160];
  unsigned align = 0, size = 0;
  p = read_word(p, w, sizeof w);                /* ".param" */
  if (strcmp(w, ".param") != 0)
    return NULL;
  p = read_word(p, w, sizeof w);
  if (strcmp(w, ".align") == 0) {
    align = (unsigned)strtoul(skip_space(p), (char **)&p, 10);
    p = read_word(p, w, sizeof w);
  }
  if (!(size = ptx_type_size(w)))
    return NULL;
  for (;;) {                                    /* qualifiers, then the name */
    p = read_word(p, w, sizeof w);
    if (strcmp(w, ".align") == 0)
      strtoul(skip_space(p), (char **)&p, 10);
    else if (w[0] != '.')
      break;
  }
  if (!w[0])
    return NULL;
  p = skip_space(p);
  out->kind = RT_PARAM_SCALAR;
  if (*p == '[') {                              /* an aggregate: .b8 x[N] */
    size *= (unsigned)strtoul(p + 1, (char **)&p, 10);
    if (*p++ != ']')
      return NULL;
    out->kind = RT_PARAM_ARRAY;
  }
  out->size = size;
  out->align = align ? align : size;
  return p;
}

static uint32_t align_up(uint32_t v, uint32_t a) {
  return a > 1 ? (v + a - 1) / a * a : v;
}

/* The `.entry NAME(` of that name (any: the first), past ".entry ". */
static const char *find_entry(const char *ptx, const char *entry) {
  size_t n = entry ? strlen(entry) : 0;
  for (const char *p = strstr(ptx, ".entry "); p; p = strstr(p + 7, ".entry ")) {
    const char *q = skip_space(p + 7);
    if (!entry || (!strncmp(q, entry, n) && strchr(" \t\r\n(", q[n])))
      return q;
  }
  return NULL;
}

bool rt_ptx_entry_layout(const char *ptx, RtCudaModule *m) {
  return rt_ptx_entry_layout_of(ptx, NULL, m);
}

bool rt_ptx_entry_layout_of(const char *ptx, const char *entry, RtCudaModule *m) {
  const char *p = find_entry(ptx, entry);
  if (!p)
    return false;
  size_t n = strcspn(p, " \t\r\n,()[");
  free(m->entry);
  if (!n || !(m->entry = malloc(n + 1)))
    return false;
  memcpy(m->entry, p, n);
  m->entry[n] = '\0';
  p = skip_space(p + n);
  m->nparams = 0;
  uint32_t off = 0, maxalign = 1;
  if (*p++ != '(')
    return false;
  for (p = skip_space(p); *p && *p != ')'; p = skip_space(p)) {
    if (m->nparams == RT_CUDA_MAX_ARGS)
      return false;
    RtCudaParam *q = &m->params[m->nparams];
    if (!(p = read_param(p, q)))
      return false;
    q->offset = off = align_up(off, q->align);
    off += q->size;
    if (q->align > maxalign)
      maxalign = q->align;
    m->nparams++;
    p = skip_space(p);
    if (*p == ',')
      p++;
  }
  m->params_size = align_up(off, maxalign);
  return *p == ')';
}

/* --------------------------------------------------------- nvJitLink --- */

typedef struct JlSym {
  const char *name;      /* the plain name; the library also exports the
                            versioned __nvJitLinkX_13_0 / _12_0 aliases */
  size_t offset;
  bool optional;
} JlSym;

#define JL(field, name, opt) {name, offsetof(RtJlApi, field), opt}
static const JlSym jl_syms[] = {
    JL(Create, "nvJitLinkCreate", false), JL(Destroy, "nvJitLinkDestroy", false),
    JL(AddData, "nvJitLinkAddData", false), JL(Complete, "nvJitLinkComplete", false),
    JL(GetLinkedCubinSize, "nvJitLinkGetLinkedCubinSize", false),
    JL(GetLinkedCubin, "nvJitLinkGetLinkedCubin", false),
    JL(GetErrorLogSize, "nvJitLinkGetErrorLogSize", false),
    JL(GetErrorLog, "nvJitLinkGetErrorLog", false), JL(Version, "nvJitLinkVersion", true),
    JL(GetInfoLogSize, "nvJitLinkGetInfoLogSize", true),
    JL(GetInfoLog, "nvJitLinkGetInfoLog", true)};
#undef JL

/* The plain name, else the versioned alias of the 13.0 / 12.0 ABI. */
static void *jl_lookup(void *lib, const char *name) {
  void *p = dlsym(lib, name);
  char alt[96];
  for (int v = 0; !p && v < 2; v++) {
    snprintf(alt, sizeof alt, "__%s_%s", name, v == 0 ? "13_0" : "12_0");
    p = dlsym(lib, alt);
  }
  return p;
}

static bool jl_fill(RtJlApi *jl, void *lib) {
  for (size_t i = 0; i < sizeof jl_syms / sizeof jl_syms[0]; i++) {
    void *p = jl_lookup(lib, jl_syms[i].name);
    if (!p && !jl_syms[i].optional)
      return false;
    memcpy((char *)jl + jl_syms[i].offset, &p, sizeof p);
  }
  jl->lib = lib;
  return true;
}

/* Loads libnvJitLink once per RtCuda; KJIT_NVJITLINK names another file. */
static bool jl_load(RtCuda *cu) {
  if (cu->jl_state)
    return cu->jl_state > 0;
  const char *env = rt_setting(RT_SET_NVJITLINK);
  const char *names[] = {env, "libnvJitLink.so.13", "libnvJitLink.so.12", "libnvJitLink.so"};
  cu->jl_state = -1;
  for (size_t i = env && *env ? 0 : 1; i < sizeof names / sizeof names[0]; i++) {
    /* NODELETE: nvJitLink carries its own C++ runtime, whose one-time
     * allocations (the exception pool) must stay attributable to it after
     * dlclose, and unloading a C++ library mid-process is fragile anyway. */
    const char *why = NULL;
    int fd = i == 0 && strchr(names[i], '/') ? rt_open_regular(names[i], &why) : -1;
    if (fd >= 0)
      close(fd);
    if (why) { /* a FIFO would hang dlopen: skipped, the search goes on */
      trace_event("skip KJIT_NVJITLINK=%s: it is %s", names[i], why);
      continue;
    }
    void *lib = dlopen(names[i], RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    if (!lib)
      continue;
    if (jl_fill(&cu->jl, lib)) {
      trace_event("load %s (nvJitLink)", names[i]);
      cu->jl_state = 1;
      return true;
    }
    memset(&cu->jl, 0, sizeof cu->jl);
    dlclose(lib);
  }
  return false;
}

/* nvJitLinkResult names (nvJitLink.h, CUDA 13). */
static const char *jl_result_name(RtJlResult r) {
  static const char *const names[] = {
      "NVJITLINK_SUCCESS", "NVJITLINK_ERROR_UNRECOGNIZED_OPTION", "NVJITLINK_ERROR_MISSING_ARCH",
      "NVJITLINK_ERROR_INVALID_INPUT", "NVJITLINK_ERROR_PTX_COMPILE", "NVJITLINK_ERROR_NVVM_COMPILE",
      "NVJITLINK_ERROR_INTERNAL", "NVJITLINK_ERROR_THREADPOOL", "NVJITLINK_ERROR_UNRECOGNIZED_INPUT",
      "NVJITLINK_ERROR_FINALIZE", "NVJITLINK_ERROR_NULL_INPUT", "NVJITLINK_ERROR_INCOMPATIBLE_OPTIONS",
      "NVJITLINK_ERROR_INCORRECT_INPUT_TYPE", "NVJITLINK_ERROR_ARCH_MISMATCH",
      "NVJITLINK_ERROR_OUTDATED_LIBRARY", "NVJITLINK_ERROR_MISSING_FATBIN",
      "NVJITLINK_ERROR_UNRECOGNIZED_ARCH", "NVJITLINK_ERROR_UNSUPPORTED_ARCH",
      "NVJITLINK_ERROR_LTO_NOT_ENABLED"};
  return r >= 0 && r < (int)(sizeof names / sizeof names[0]) ? names[r] : "nvJitLinkResult ?";
}

static void jl_report(RtCuda *cu, RtJlHandle h, const char *what, RtJlResult r, Diags *diags) {
  size_t n = 0;
  char *log = NULL;
  if (h && cu->jl.GetErrorLogSize(h, &n) == 0 && n > 1 && (log = malloc(n + 1)) &&
      cu->jl.GetErrorLog(h, log) == 0)
    log[n] = '\0';
  else if (log)
    log[0] = '\0';
  diag_error(diags, RT_E_CUDA_LINK, (SrcLoc){0}, log && *log ? log : NULL,
             "nvJitLink %s failed building sm_%d%d: %s", what, cu->info.cc_major,
             cu->info.cc_minor, jl_result_name(r));
  free(log);
}

static bool jl_take_cubin(RtCuda *cu, RtJlHandle h, void **cubin, size_t *len, Diags *diags) {
  RtJlResult r = cu->jl.GetLinkedCubinSize(h, len);
  if (r == 0 && !(*cubin = malloc(*len ? *len : 1))) {
    diag_error(diags, RT_E_CUDA_NOMEM, (SrcLoc){0}, NULL, "out of memory for a cubin");
    return false;
  }
  if (r == 0 && (r = cu->jl.GetLinkedCubin(h, *cubin)) != 0) {
    free(*cubin);
    *cubin = NULL;
  }
  if (r != 0)
    jl_report(cu, h, "GetLinkedCubin", r, diags);
  return r == 0;
}

/* -verbose's info log into *cu->link_info (malloc'd; NULL when this
 * nvJitLink has no info log). */
static void jl_take_info(RtCuda *cu, RtJlHandle h) {
  size_t n = 0;
  char *log = NULL;
  if (cu->jl.GetInfoLogSize && cu->jl.GetInfoLog && cu->jl.GetInfoLogSize(h, &n) == 0 &&
      (log = malloc(n + 1)) && cu->jl.GetInfoLog(h, log) == 0) {
    log[n] = '\0';
  } else {
    free(log);
    log = NULL;
  }
  free(*cu->link_info);
  *cu->link_info = log;
}

bool rt_cuda_link_ptx(RtCuda *cu, const char *ptx, size_t len, bool lineinfo, void **cubin,
                      size_t *cubin_len, bool *unavailable, Diags *diags) {
  return rt_cuda_link_inputs(cu, NULL, ptx, len, NULL, 0, lineinfo, cubin, cubin_len,
                             unavailable, diags);
}

/* The kernel's PTX, then each CUDA C module (cuda/link.c): nvJitLink
 * compiles each PTX input separately and resolves the extern functions. */
bool rt_cuda_link_inputs(RtCuda *cu, const char *sm, const char *ptx, size_t len,
                         const RtLinkInput *more, int nmore, bool lineinfo, void **cubin,
                         size_t *cubin_len, bool *unavailable, Diags *diags) {
  *unavailable = !jl_load(cu);
  if (*unavailable)
    return false;
  char arch[32];
  if (sm)
    snprintf(arch, sizeof arch, "-arch=%s", sm);
  else
    snprintf(arch, sizeof arch, "-arch=sm_%d%d", cu->info.cc_major, cu->info.cc_minor);
  const char *opts[4] = {arch, "-O3"};
  uint32_t nopts = 2;
  if (lineinfo)
    opts[nopts++] = "-lineinfo";
  if (cu->link_info)              /* ptxas's resource lines (cuda/resources.c) */
    opts[nopts++] = "-verbose";
  trace_event("link %s with nvJitLink (%d CUDA C module%s)", arch + 6, nmore, nmore == 1 ? "" : "s");
  RtJlHandle h = NULL;
  RtJlResult r = cu->jl.Create(&h, nopts, opts);
  if (r != 0) {
    jl_report(cu, h, "Create", r, diags);
    return false;
  }
  bool ok = (r = cu->jl.AddData(h, RT_JL_INPUT_PTX, ptx, len, "kjit.ptx")) == 0;
  for (int i = 0; ok && i < nmore; i++)
    ok = (r = cu->jl.AddData(h, RT_JL_INPUT_PTX, more[i].ptx, more[i].len, more[i].name)) == 0;
  if (!ok)
    jl_report(cu, h, "AddData", r, diags);
  if (ok && !(ok = (r = cu->jl.Complete(h)) == 0))
    jl_report(cu, h, "Complete", r, diags);
  ok = ok && jl_take_cubin(cu, h, cubin, cubin_len, diags);
  if (ok && cu->link_info)
    jl_take_info(cu, h);
  cu->jl.Destroy(&h);
  trace_event("link %s %s", arch + 6, ok ? "done" : "failed");
  return ok;
}

/* ------------------------------------------------------------ loading --- */

/* The driver's JIT, with its error log attached to the diagnostic. */
static bool load_with_driver_jit(RtCuda *cu, const char *ptx, const char *kernel, bool lineinfo,
                                 RtCuModule *mod, Diags *diags) {
  char log[8192] = "";
  int opts[] = {RT_CU_JIT_ERROR_LOG_BUFFER, RT_CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                RT_CU_JIT_GENERATE_LINE_INFO};
  void *vals[] = {log, (void *)(uintptr_t)sizeof log, (void *)(uintptr_t)1};
  RtCuResult r = cu->api.ModuleLoadDataEx(mod, ptx, lineinfo ? 3 : 2, opts, vals);
  if (r == RT_CU_SUCCESS)
    return true;
  char name[64];
  diag_error(diags, RT_E_CUDA_LINK, (SrcLoc){0}, log[0] ? log : NULL,
             "the driver's PTX JIT failed for kernel '%s': %s", kernel,
             rt_cu_error_name(&cu->api, r, name, sizeof name));
  return false;
}

/* Where a module's image comes from and goes: a cubin from the disk cache
 * to try first, and the one nvJitLink links, handed back to be stored. */
typedef struct ImageIo {
  const RtCubin *cached;
  RtCubin *linked;
} ImageIo;

static bool load_image(RtCuda *cu, const char *ptx, const RtLinkInput *more, int nmore,
                       const char *kernel, bool lineinfo, bool force_driver_jit, ImageIo io,
                       RtCudaModule *m, Diags *diags) {
  void *cubin = NULL;
  size_t n = 0;
  bool unavailable = true;
  bool cached = io.cached && io.cached->len && !force_driver_jit;
  if (cached && !rt_cuda_make_current(cu, diags))
    return false;
  if (cached && cu->api.ModuleLoadData(&m->mod, io.cached->data) == RT_CU_SUCCESS) {
    m->via_nvjitlink = true;
    return true;                        /* a cubin the driver refuses is linked anew */
  }
  /* nvJitLink needs no context: it links while rt_cuda_open's thread may
   * still be making it, and only the load below waits */
  if (!force_driver_jit &&
      !rt_cuda_link_inputs(cu, NULL, ptx, strlen(ptx), more, nmore, lineinfo, &cubin, &n,
                           &unavailable, diags) &&
      !unavailable)
    return false;
  if (unavailable && nmore) {
    diag_error(diags, RT_E_CUDA_LINK, (SrcLoc){0}, "install the CUDA toolkit's nvJitLink, or name it with KJIT_NVJITLINK",
               "kernel '%s' links CUDA C (link=), which needs nvJitLink", kernel);
    return false;
  }
  if (!rt_cuda_make_current(cu, diags)) {
    free(cubin);
    return false;
  }
  if (unavailable)
    return load_with_driver_jit(cu, ptx, kernel, lineinfo, &m->mod, diags);
  m->via_nvjitlink = true;
  bool ok = rt_cuda_check(cu, cu->api.ModuleLoadData(&m->mod, cubin), "cuModuleLoadData",
                          kernel, diags);
  if (ok && io.linked) {
    io.linked->data = cubin;
    io.linked->len = n;
  } else {
    free(cubin);
  }
  return ok;
}

/* The function's attributes, once per load: the launch checks read the
 * first two, kjit_last_resources all of them. */
static bool read_attributes(RtCuda *cu, RtCudaModule *m, const char *kernel, Diags *diags) {
  const struct {
    int *v;
    int attr;
  } attrs[] = {{&m->static_shared, RT_CU_FUNC_SHARED_SIZE_BYTES},
               {&m->max_threads, RT_CU_FUNC_MAX_THREADS_PER_BLOCK},
               {&m->registers, RT_CU_FUNC_NUM_REGS},
               {&m->local_bytes, RT_CU_FUNC_LOCAL_SIZE_BYTES},
               {&m->const_bytes, RT_CU_FUNC_CONST_SIZE_BYTES}};
  bool ok = true;
  for (size_t i = 0; ok && i < sizeof attrs / sizeof attrs[0]; i++)
    ok = rt_cuda_check(cu, cu->api.FuncGetAttribute(attrs[i].v, attrs[i].attr, m->fn),
                       "cuFuncGetAttribute", kernel, diags);
  return ok;
}

static bool module_load(RtCuda *cu, const char *ptx, const char *entry, const RtLinkInput *more,
                        int nmore, const char *kernel, bool lineinfo, bool force_driver_jit,
                        ImageIo io,
                        RtCudaModule *m, Diags *diags);

bool rt_cuda_module_load(RtCuda *cu, const char *ptx, const char *kernel, bool lineinfo,
                         bool force_driver_jit, RtCudaModule *m, Diags *diags) {
  return module_load(cu, ptx, NULL, NULL, 0, kernel, lineinfo, force_driver_jit, (ImageIo){0}, m,
                     diags);
}

bool rt_cuda_module_load_entry(RtCuda *cu, const char *ptx, const char *entry, const char *kernel,
                               RtCudaModule *m, Diags *diags) {
  return module_load(cu, ptx, entry, NULL, 0, kernel, false, false, (ImageIo){0}, m, diags);
}

bool rt_cuda_module_load_linked(RtCuda *cu, const char *ptx, const RtLinkInput *more, int nmore,
                                const char *kernel, bool lineinfo, const RtCubin *cached,
                                RtCubin *linked, RtCudaModule *m, Diags *diags) {
  if (linked)
    *linked = (RtCubin){0};
  return module_load(cu, ptx, NULL, more, nmore, kernel, lineinfo, false, (ImageIo){cached, linked},
                     m, diags);
}

static bool module_load(RtCuda *cu, const char *ptx, const char *entry, const RtLinkInput *more,
                        int nmore, const char *kernel, bool lineinfo, bool force_driver_jit,
                        ImageIo io,
                        RtCudaModule *m, Diags *diags) {
  memset(m, 0, sizeof *m);
  if (!rt_ptx_entry_layout_of(ptx, entry, m)) {
    rt_cuda_module_unload(cu, m);
    diag_error(diags, RT_E_CUDA_LINK, (SrcLoc){0}, NULL,
               "cannot read the parameters of kernel '%s' from its PTX (a bug in kjit)", kernel);
    return false;
  }
  if (m->params_size > RT_CUDA_PARAM_LIMIT) {
    diag_error(diags, RT_E_CUDA_LAUNCH, (SrcLoc){0}, "pass fewer or lower-dimensional arrays",
               "kernel '%s' takes %u bytes of parameters; CUDA allows %d", kernel,
               m->params_size, RT_CUDA_PARAM_LIMIT);
    rt_cuda_module_unload(cu, m);
    return false;
  }
  if (!load_image(cu, ptx, more, nmore, kernel, lineinfo, force_driver_jit, io, m, diags)) {
    rt_cuda_module_unload(cu, m);
    return false;
  }
  /* the grid barrier's workspace address (codegen/cg_grid.c) */
  m->cooperative = strstr(ptx, "%envreg") != NULL;
  if (!rt_cuda_check(cu, cu->api.ModuleGetFunction(&m->fn, m->mod, m->entry),
                     "cuModuleGetFunction", kernel, diags) ||
      !read_attributes(cu, m, kernel, diags)) {
    rt_cuda_module_unload(cu, m);
    return false;
  }
  return true;
}

void rt_cuda_module_unload(RtCuda *cu, RtCudaModule *m) {
  if (m->mod && cu)
    cu->api.ModuleUnload(m->mod);
  m->mod = NULL;
  m->fn = NULL;
  free(m->entry);
  m->entry = NULL;
}
