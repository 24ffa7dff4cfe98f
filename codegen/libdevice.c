/* libdevice.c - load NVIDIA's libdevice once, link only what a module uses.
 *
 * Linking all of libdevice and optimizing costs ~40 ms per kernel; instead
 * the bitcode bytes are read once per session, and the transitive closure
 * of the __nv_* functions a module declares is extracted once per session
 * and set of names (a few KB of bitcode, kept in LdClosure entries).  Each
 * compile loads that small bitcode lazily into its own context, with every
 * definition linkonce_odr, so LLVMLinkModules2 brings in only what the
 * module reaches; those are then internalized.  (Loading the whole 470 KB
 * lazily in every compile cost ~1 ms.)  The `nvvm-reflect-ftz` module flag
 * tells NVVMReflect (run by the pass pipeline) how to fold __nvvm_reflect. */
#include "codegen/cg_internal.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <llvm-c/BitReader.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/Linker.h>

#include "common/file.h"
#include "common/hash.h"
#include "common/trace.h"

#ifndef KJIT_LIBDEVICE_PATH
#define KJIT_LIBDEVICE_PATH "/usr/local/cuda/nvvm/libdevice/libdevice.10.bc"
#endif

/* Bounds the closures kept per session; past it a compile links from the
 * whole bitcode as before (entries are never replaced, so a compile may
 * read one without holding the lock). */
#define LD_CLOSURES 64

typedef struct LdClosure {
  char *key;                /* triple, data layout, sorted names; malloc'd */
  char *bytes;              /* bitcode of the closure, malloc'd */
  size_t size;
} LdClosure;

struct CgLibdevice {
  char path[1024];
  uint64_t ident;           /* path, size, mtime, inode: the cache key's part */
  bool loaded;              /* read_file has run (bytes or error) */
  char *bytes;              /* the bitcode, owned; module buffers point here */
  size_t size;
  char error[1200];         /* non-empty when unusable */
  pthread_mutex_t lock;     /* guards nclosures and appending */
  LdClosure closures[LD_CLOSURES];
  int nclosures;
};

/* Raw bitcode ("BC" C0DE) or its wrapper (0x0B17C0DE, little-endian). */
static bool is_bitcode(const char *b, size_t n) {
  static const unsigned char raw[4] = {'B', 'C', 0xC0, 0xDE}, wrap[4] = {0xDE, 0xC0, 0x17, 0x0B};
  return n >= 4 && (memcmp(b, raw, 4) == 0 || memcmp(b, wrap, 4) == 0);
}

/* Read through the one non-blocking helper: KJIT_LIBDEVICE naming a FIFO or
 * a device is refused by name instead of hanging in open(2). */
static bool read_file(CgLibdevice *ld) {
  ld->loaded = true;
  trace_event("read libdevice %s", ld->path);
  const char *why = NULL;
  size_t n = 0;
  if (!rt_read_regular(ld->path, (size_t)1 << 30, &ld->bytes, &n, &why)) {
    if (why)
      snprintf(ld->error, sizeof ld->error, "cannot read libdevice at %s: it is %s, not a regular file",
               ld->path, why);
    else
      snprintf(ld->error, sizeof ld->error, "cannot read libdevice at %s: %s", ld->path, strerror(errno));
    ld->bytes = NULL;
    return false;
  }
  if (!is_bitcode(ld->bytes, n)) {
    snprintf(ld->error, sizeof ld->error, "libdevice at %s is not LLVM bitcode (no bitcode magic)", ld->path);
    free(ld->bytes);
    ld->bytes = NULL;
    return false;
  }
  ld->size = n;
  return true;
}

/* The file's identity without reading it: a warm process that finds its
 * PTX in the cache never reads the 470 KB of bitcode (hashing them cost
 * ~1 ms a process).  A new toolkit installed over the old file changes
 * the size or the mtime; a missing file is 0. */
static uint64_t file_ident(const char *path) {
  struct stat st;
  if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
    return 0;
  uint64_t f[5] = {(uint64_t)st.st_size, (uint64_t)st.st_mtim.tv_sec, (uint64_t)st.st_mtim.tv_nsec,
                   (uint64_t)st.st_ino, (uint64_t)st.st_dev};
  return hash_bytes(hash_bytes(HASH_SEED, path, strlen(path)), f, sizeof f);
}

CgLibdevice *cg_libdevice_new(const char *path) {
  CgLibdevice *ld = calloc(1, sizeof *ld);
  if (!ld)
    return NULL;
  snprintf(ld->path, sizeof ld->path, "%s", path && *path ? path : KJIT_LIBDEVICE_PATH);
  ld->ident = file_ident(ld->path);
  pthread_mutex_init(&ld->lock, NULL);
  return ld;
}

void cg_libdevice_load(CgLibdevice *ld) {
  if (!ld->loaded)
    read_file(ld);
}

void cg_libdevice_free(CgLibdevice *ld) {
  if (!ld)
    return;
  for (int i = 0; i < ld->nclosures; i++) {
    free(ld->closures[i].key);
    free(ld->closures[i].bytes);
  }
  pthread_mutex_destroy(&ld->lock);
  free(ld->bytes);
  free(ld);
}

uint64_t cg_libdevice_hash(CgSession *s) {
  CgLibdevice *ld = cg_session_libdevice(s, false);
  return ld ? ld->ident : 0;
}

/* ------------------------------------------------------------- linking -- */

/* Load bitcode (libdevice or a closure of it) lazily into ctx with every
 * definition made linkonce_odr: the linker then brings in exactly the
 * functions the module declares plus what they reach, materializing only
 * those bodies.  NULL if the bitcode cannot be read. */
static LLVMModuleRef load_lazy(LLVMContextRef ctx, const char *bytes, size_t size) {
  /* the buffer object is owned by the lazy module; the bytes stay ours */
  LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRange(bytes, size, "libdevice", 0);
  LLVMModuleRef lib;
  if (LLVMGetBitcodeModuleInContext2(ctx, buf, &lib))
    return NULL;
  for (LLVMValueRef f = LLVMGetFirstFunction(lib); f; f = LLVMGetNextFunction(f))
    if (!LLVMIsDeclaration(f) && LLVMGetLinkage(f) == LLVMExternalLinkage)
      LLVMSetLinkage(f, LLVMLinkOnceODRLinkage);
  return lib;
}

static bool is_nv_name(LLVMValueRef f) {
  size_t n;
  const char *name = LLVMGetValueName2(f, &n);
  return n > 5 && strncmp(name, "__nv_", 5) == 0;
}

static bool is_nv_decl(LLVMValueRef f) {
  return is_nv_name(f) && LLVMIsDeclaration(f);
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* "triple|layout|name,name,..." of the module's __nv_* declarations,
 * sorted (malloc'd; NULL when there are too many to key). */
static char *closure_key(LLVMModuleRef mod) {
  const char *names[256];
  int n = 0;
  size_t len = strlen(LLVMGetTarget(mod)) + strlen(LLVMGetDataLayoutStr(mod)) + 3;
  for (LLVMValueRef f = LLVMGetFirstFunction(mod); f; f = LLVMGetNextFunction(f))
    if (is_nv_decl(f)) {
      if (n == 256)
        return NULL;
      size_t k;
      names[n++] = LLVMGetValueName2(f, &k);
      len += k + 1;
    }
  qsort(names, (size_t)n, sizeof names[0], cmp_str);
  char *key = malloc(len), *p = key;
  if (!key)
    return NULL;
  p += sprintf(p, "%s|%s|", LLVMGetTarget(mod), LLVMGetDataLayoutStr(mod));
  for (int i = 0; i < n; i++)
    p += sprintf(p, "%s,", names[i]);
  return key;
}

/* The closure of mod's __nv_* declarations as bitcode, made in a private
 * context from the whole of libdevice; false (and nothing kept) if a name
 * is missing: the full path then reports it. */
static bool extract_closure(const CgLibdevice *ld, LLVMModuleRef mod, LdClosure *out) {
  LLVMContextRef ctx = LLVMContextCreate();
  LLVMModuleRef lib = load_lazy(ctx, ld->bytes, ld->size);
  LLVMModuleRef dst = LLVMModuleCreateWithNameInContext("libdevice.closure", ctx);
  bool ok = lib != NULL;
  if (ok) {
    LLVMSetTarget(dst, LLVMGetTarget(lib));
    LLVMSetDataLayout(dst, LLVMGetDataLayoutStr(lib));
  }
  for (LLVMValueRef f = LLVMGetFirstFunction(mod); f && ok; f = LLVMGetNextFunction(f)) {
    if (!is_nv_decl(f))
      continue;
    LLVMValueRef g = LLVMGetNamedFunction(lib, LLVMGetValueName2(f, &(size_t){0}));
    ok = g && !LLVMIsDeclaration(g);
    if (ok)
      LLVMAddFunction(dst, LLVMGetValueName2(f, &(size_t){0}), LLVMGlobalGetValueType(g));
  }
  if (ok) {
    ok = !LLVMLinkModules2(dst, lib); /* lib is destroyed either way */
    lib = NULL;
  }
  if (ok) {
    LLVMMemoryBufferRef buf = LLVMWriteBitcodeToMemoryBuffer(dst);
    out->size = LLVMGetBufferSize(buf);
    out->bytes = malloc(out->size);
    ok = out->bytes != NULL;
    if (ok)
      memcpy(out->bytes, LLVMGetBufferStart(buf), out->size);
    LLVMDisposeMemoryBuffer(buf);
  }
  if (lib)
    LLVMDisposeModule(lib);
  LLVMDisposeModule(dst);
  LLVMContextDispose(ctx);
  return ok;
}

/* The session's closure for mod's names (made on first use), or NULL:
 * then the compile links from the whole bitcode. */
static const LdClosure *find_closure(CgLibdevice *ld, LLVMModuleRef mod) {
  char *key = closure_key(mod);
  if (!key)
    return NULL;
  const LdClosure *found = NULL;
  pthread_mutex_lock(&ld->lock);
  for (int i = 0; i < ld->nclosures && !found; i++)
    if (strcmp(ld->closures[i].key, key) == 0)
      found = &ld->closures[i];
  pthread_mutex_unlock(&ld->lock);
  LdClosure c = {key, NULL, 0};
  if (found || !extract_closure(ld, mod, &c)) {
    free(key);
    return found;
  }
  pthread_mutex_lock(&ld->lock);
  for (int i = 0; i < ld->nclosures && !found; i++) /* made meanwhile */
    if (strcmp(ld->closures[i].key, key) == 0)
      found = &ld->closures[i];
  if (!found && ld->nclosures < LD_CLOSURES) {
    ld->closures[ld->nclosures] = c;
    found = &ld->closures[ld->nclosures++];
    c.key = c.bytes = NULL;
  }
  pthread_mutex_unlock(&ld->lock);
  free(c.key);
  free(c.bytes);
  return found;
}

/* Every __nv_* the module declares must exist in libdevice. */
static bool check_names(Cg *cg, LLVMModuleRef lib) {
  for (LLVMValueRef f = LLVMGetFirstFunction(cg->mod); f; f = LLVMGetNextFunction(f)) {
    if (!is_nv_decl(f))
      continue;
    const char *name = LLVMGetValueName2(f, &(size_t){0});
    LLVMValueRef g = LLVMGetNamedFunction(lib, name);
    if (!g || LLVMIsDeclaration(g)) {
      diag_error(cg->diags, E_CG_LIBDEVICE, (SrcLoc){0}, NULL, "libdevice has no function %s", name);
      return false;
    }
  }
  return true;
}

/* Numba's NVVM (-fma=1, its default) and nvcc contract a*b + c into one
 * fma across the inlined math function too: softmax's `s += math.exp(d)`
 * ends in expf's final multiply, fused with the sum.  libdevice's bitcode
 * carries no fast-math flags, so without `contract` on its float ops LLVM
 * keeps that multiply and the add apart (mul.rn + add.rn), a rounding more
 * than Numba's result has and an instruction more per element. */
static void allow_contract(LLVMValueRef in) {
  LLVMOpcode op = LLVMGetInstructionOpcode(in);
  if (op == LLVMFMul || op == LLVMFAdd || op == LLVMFSub)
    LLVMSetFastMathFlags(in, LLVMGetFastMathFlags(in) | LLVMFastMathAllowContract);
}

/* Whether the PTX text t[0..n) holds a word that can leave or loop:
 * bra, brx, call, ret, exit, trap (matched as substrings: a false match
 * only keeps a call unmarked). */
static bool asm_has_flow(const char *t, size_t n) {
  static const char *const words[] = {"bra", "brx", "call", "ret", "exit", "trap"};
  for (size_t w = 0; w < sizeof words / sizeof *words; w++)
    for (size_t i = 0, k = strlen(words[w]); i + k <= n; i++)
      if (memcmp(t + i, words[w], k) == 0)
        return true;
  return false;
}

/* libdevice's inline asm (the trig reduction's mad.lo.cc/madc.hi pair,
 * rcp.approx, sub.rn, ...) is straight-line PTX without side effects, but
 * its calls carry no willreturn, so LLVM must assume each may never
 * return, and LICM cannot sink a store out of a loop that holds one: the
 * xoroshiro128+ state of bench/gpu monte_carlo was written back to global
 * memory on each of its 128 paths, cosf's slow path being in the loop.
 * Straight-line PTX always returns, so such a call gets willreturn. */
static void asm_will_return(Cg *cg, LLVMValueRef in) {
  LLVMValueRef callee = LLVMIsACallInst(in) ? LLVMGetCalledValue(in) : NULL;
  if (!callee || !LLVMIsAInlineAsm(callee) || LLVMGetInlineAsmHasSideEffects(callee))
    return;
  size_t n;
  const char *text = LLVMGetInlineAsmAsmString(callee, &n);
  if (!text || asm_has_flow(text, n))
    return;
  unsigned kind = LLVMGetEnumAttributeKindForName("willreturn", 10);
  LLVMAddCallSiteAttribute(in, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(cg->ctx, kind, 0));
}

/* One walk over a linked libdevice function: contract, willreturn. */
static void fix_up_libdevice(Cg *cg, LLVMValueRef fn) {
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
      allow_contract(in);
      asm_will_return(cg, in);
    }
}

bool cg_libdevice_link(CgSession *s, Cg *cg) {
  CgLibdevice *ld = cg_session_libdevice(s, true);
  if (!ld || ld->error[0]) {
    diag_error(cg->diags, E_CG_LIBDEVICE, (SrcLoc){0},
               "set KJIT_LIBDEVICE to the path of libdevice.10.bc (CUDA toolkit, nvvm/libdevice)",
               "%s", ld ? ld->error : "out of memory reading libdevice");
    return false;
  }
  const LdClosure *c = find_closure(ld, cg->mod);
  LLVMModuleRef lib = c ? load_lazy(cg->ctx, c->bytes, c->size) : load_lazy(cg->ctx, ld->bytes, ld->size);
  if (!lib) {
    diag_error(cg->diags, E_CG_LIBDEVICE, (SrcLoc){0}, NULL, "cannot load libdevice from %s", ld->path);
    return false;
  }
  LLVMSetTarget(lib, LLVMGetTarget(cg->mod));
  LLVMSetDataLayout(lib, LLVMGetDataLayoutStr(cg->mod));
  if (!check_names(cg, lib)) {
    LLVMDisposeModule(lib);
    return false;
  }
  if (LLVMLinkModules2(cg->mod, lib)) { /* lib is destroyed either way */
    diag_error(cg->diags, E_CG_LLVM, (SrcLoc){0}, NULL, "linking libdevice failed");
    return false;
  }
  for (LLVMValueRef f = LLVMGetFirstFunction(cg->mod); f; f = LLVMGetNextFunction(f)) {
    size_t n;
    const char *name = LLVMGetValueName2(f, &n);
    if (LLVMIsDeclaration(f) || LLVMGetLinkage(f) == LLVMInternalLinkage)
      continue;
    if (n > 5 && strncmp(name, "__nv_", 5) == 0)
      LLVMSetLinkage(f, LLVMInternalLinkage);
  }
  for (LLVMValueRef f = LLVMGetFirstFunction(cg->mod); f; f = LLVMGetNextFunction(f))
    if (!LLVMIsDeclaration(f)) {
      cg_set_fastmath_attrs(cg, f);
      if (is_nv_name(f))
        fix_up_libdevice(cg, f);
    }
  LLVMAddModuleFlag(cg->mod, LLVMModuleFlagBehaviorOverride, "nvvm-reflect-ftz", 16,
                    LLVMValueAsMetadata(cg_const_i32(cg, cg->opts->fastmath ? 1 : 0)));
  return true;
}
