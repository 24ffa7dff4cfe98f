/* libdevice.c - load NVIDIA's libdevice once, link only what a module uses.
 *
 * Linking all of libdevice and optimizing costs ~40 ms per kernel; instead
 * the bitcode bytes are read once per session and each compile loads them
 * lazily into its own context with every definition turned linkonce_odr,
 * so LLVMLinkModules2 brings in (and materializes) only the transitive
 * closure of the __nv_* functions the module declares; those are then
 * internalized.  The `nvvm-reflect-ftz` module flag tells NVVMReflect (run
 * by the pass pipeline given the target machine) how to fold __nvvm_reflect. */
#include "codegen/cg_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <llvm-c/BitReader.h>
#include <llvm-c/Linker.h>

#include "common/hash.h"
#include "common/trace.h"

#ifndef KJIT_LIBDEVICE_PATH
#define KJIT_LIBDEVICE_PATH "/usr/local/cuda/nvvm/libdevice/libdevice.10.bc"
#endif

struct CgLibdevice {
  char path[1024];
  uint64_t ident;           /* path, size, mtime, inode: the cache key's part */
  bool loaded;              /* read_file has run (bytes or error) */
  char *bytes;              /* the bitcode, owned; module buffers point here */
  size_t size;
  char error[1200];         /* non-empty when unusable */
};

static bool read_file(CgLibdevice *ld) {
  ld->loaded = true;
  trace_event("read libdevice %s", ld->path);
  FILE *fp = fopen(ld->path, "rb");
  if (!fp) {
    snprintf(ld->error, sizeof ld->error, "cannot open libdevice at %s", ld->path);
    return false;
  }
  fseek(fp, 0, SEEK_END);
  long n = ftell(fp);
  fseek(fp, 0, SEEK_SET);
  ld->bytes = n > 0 ? malloc((size_t)n) : NULL;
  if (!ld->bytes || fread(ld->bytes, 1, (size_t)n, fp) != (size_t)n) {
    snprintf(ld->error, sizeof ld->error, "cannot read libdevice at %s", ld->path);
    fclose(fp);
    return false;
  }
  fclose(fp);
  ld->size = (size_t)n;
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
  return ld;
}

void cg_libdevice_load(CgLibdevice *ld) {
  if (!ld->loaded)
    read_file(ld);
}

void cg_libdevice_free(CgLibdevice *ld) {
  if (!ld)
    return;
  free(ld->bytes);
  free(ld);
}

uint64_t cg_libdevice_hash(CgSession *s) {
  CgLibdevice *ld = cg_session_libdevice(s, false);
  return ld ? ld->ident : 0;
}

/* ------------------------------------------------------------- linking -- */

/* Load libdevice lazily into cg's context with every definition made
 * linkonce_odr: the linker then brings in exactly the functions the module
 * declares plus what they reach, materializing only those bodies. */
static LLVMModuleRef load_lazy(Cg *cg, const CgLibdevice *ld) {
  /* the buffer object is owned by the lazy module; the bytes stay ours */
  LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRange(ld->bytes, ld->size, "libdevice", 0);
  LLVMModuleRef lib;
  if (LLVMGetBitcodeModuleInContext2(cg->ctx, buf, &lib)) {
    diag_error(cg->diags, E_CG_LIBDEVICE, (SrcLoc){0}, NULL, "cannot load libdevice from %s", ld->path);
    return NULL;
  }
  for (LLVMValueRef f = LLVMGetFirstFunction(lib); f; f = LLVMGetNextFunction(f))
    if (!LLVMIsDeclaration(f) && LLVMGetLinkage(f) == LLVMExternalLinkage)
      LLVMSetLinkage(f, LLVMLinkOnceODRLinkage);
  LLVMSetTarget(lib, LLVMGetTarget(cg->mod));
  LLVMSetDataLayout(lib, LLVMGetDataLayoutStr(cg->mod));
  return lib;
}

/* Every __nv_* the module declares must exist in libdevice. */
static bool check_names(Cg *cg, LLVMModuleRef lib) {
  for (LLVMValueRef f = LLVMGetFirstFunction(cg->mod); f; f = LLVMGetNextFunction(f)) {
    size_t n;
    const char *name = LLVMGetValueName2(f, &n);
    if (n <= 5 || strncmp(name, "__nv_", 5) != 0 || !LLVMIsDeclaration(f))
      continue;
    LLVMValueRef g = LLVMGetNamedFunction(lib, name);
    if (!g || LLVMIsDeclaration(g)) {
      diag_error(cg->diags, E_CG_LIBDEVICE, (SrcLoc){0}, NULL, "libdevice has no function %s", name);
      return false;
    }
  }
  return true;
}

bool cg_libdevice_link(CgSession *s, Cg *cg) {
  CgLibdevice *ld = cg_session_libdevice(s, true);
  if (!ld || ld->error[0]) {
    diag_error(cg->diags, E_CG_LIBDEVICE, (SrcLoc){0},
               "set KJIT_LIBDEVICE to the path of libdevice.10.bc (CUDA toolkit, nvvm/libdevice)",
               "%s", ld ? ld->error : "out of memory reading libdevice");
    return false;
  }
  LLVMModuleRef lib = load_lazy(cg, ld);
  if (!lib)
    return false;
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
    if (!LLVMIsDeclaration(f))
      cg_set_fastmath_attrs(cg, f);
  LLVMAddModuleFlag(cg->mod, LLVMModuleFlagBehaviorOverride, "nvvm-reflect-ftz", 16,
                    LLVMValueAsMetadata(cg_const_i32(cg, cg->opts->fastmath ? 1 : 0)));
  return true;
}
