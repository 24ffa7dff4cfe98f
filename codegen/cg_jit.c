/* cg_jit.c - the host JIT: typed IR lowered with the host hooks (cg_host.c),
 * optimized for this machine's CPU and handed to an ORC LLJIT.
 *
 * One CgJit per program: every module added stays until cg_jit_free, so the
 * kernels compiled for several argument types share one JIT.  kjit_host_*
 * (the executor's barrier functions) are defined as absolute symbols; libc
 * and libm come from the process (and libm.so.6 by path, in case the process
 * was linked without it).  Ownership: LLJITBuilder, JITTargetMachineBuilder,
 * ThreadSafeModule and MaterializationUnit pass to ORC when given to it;
 * every LLVM error message is copied into a diagnostic and disposed. */
#include "codegen/cg_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Error.h>
#include <llvm-c/LLJIT.h>
#include <llvm-c/Orc.h>

#include "ir/libdevice_fns.h"
#include "runtime/host_exec.h"
#include "runtime/host_libdevice.h"

struct CgJit {
  LLVMOrcLLJITRef lljit;
  CgTarget target;      /* this machine (strings from LLVM, freed at the end) */
  unsigned nmodules;    /* modules added: suffix that keeps entries unique */
};

/* Copies e's message into a diagnostic and disposes it; true when e is success. */
static bool check(LLVMErrorRef e, Diags *d, const char *what) {
  if (!e)
    return true;
  char *m = LLVMGetErrorMessage(e);
  if (d)
    diag_error(d, E_CG_LLVM, (SrcLoc){0}, NULL, "host JIT: %s: %s", what, m);
  LLVMDisposeErrorMessage(m);
  return false;
}

/* ------------------------------------------------------------ creation --- */

static LLVMTargetMachineRef create_jit_tm(const CgTarget *t, Diags *d) {
  LLVMTargetRef target;
  char *err = NULL;
  if (LLVMGetTargetFromTriple(t->triple, &target, &err)) {
    diag_error(d, E_CG_LLVM, (SrcLoc){0}, NULL, "no LLVM target for the host (%s): %s", t->triple, err);
    LLVMDisposeMessage(err);
    return NULL;
  }
  return LLVMCreateTargetMachine(target, t->triple, t->cpu, t->features, LLVMCodeGenLevelAggressive,
                                 LLVMRelocDefault, LLVMCodeModelJITDefault);
}

static bool add_process_symbols(CgJit *j, Diags *d) {
  LLVMOrcJITDylibRef jd = LLVMOrcLLJITGetMainJITDylib(j->lljit);
  char prefix = LLVMOrcLLJITGetGlobalPrefix(j->lljit);
  LLVMOrcDefinitionGeneratorRef g = NULL;
  if (!check(LLVMOrcCreateDynamicLibrarySearchGeneratorForProcess(&g, prefix, NULL, NULL), d,
             "cannot search the process for symbols"))
    return false;
  LLVMOrcJITDylibAddGenerator(jd, g); /* jd owns g */
  if (!check(LLVMOrcCreateDynamicLibrarySearchGeneratorForPath(&g, "libm.so.6", prefix, NULL, NULL),
             NULL, ""))
    return true; /* no libm.so.6 by that name: the process search may still find it */
  LLVMOrcJITDylibAddGenerator(jd, g);
  return true;
}

/* The executor's functions, by address: the process may not export them
 * (a static link without -rdynamic). */
static bool add_executor_symbols(CgJit *j, Diags *d) {
  static const struct { const char *name; void (*fn)(void); } syms[] = {
      {"kjit_host_syncthreads", (void (*)(void))kjit_host_syncthreads},
      {"kjit_host_syncthreads_count", (void (*)(void))kjit_host_syncthreads_count},
      {"kjit_host_syncthreads_and", (void (*)(void))kjit_host_syncthreads_and},
      {"kjit_host_syncthreads_or", (void (*)(void))kjit_host_syncthreads_or},
      {"kjit_host_syncwarp", (void (*)(void))kjit_host_syncwarp},
      {"kjit_host_sync_grid", (void (*)(void))kjit_host_sync_grid},
      {"kjit_host_warp_shfl", (void (*)(void))kjit_host_warp_shfl},
      {"kjit_host_warp_vote", (void (*)(void))kjit_host_warp_vote},
      {"kjit_host_warp_match", (void (*)(void))kjit_host_warp_match},
      {"kjit_host_index_error", (void (*)(void))kjit_host_index_error},
      {"kjit_host_assert_fail", (void (*)(void))kjit_host_assert_fail},
      {"kjit_host_warp_activemask", (void (*)(void))kjit_host_warp_activemask}};
  enum { N = sizeof syms / sizeof syms[0] };
  LLVMOrcCSymbolMapPair pairs[N];
  LLVMJITSymbolFlags fl = {LLVMJITSymbolGenericFlagsExported | LLVMJITSymbolGenericFlagsCallable, 0};
  for (int i = 0; i < N; i++)
    pairs[i] = (LLVMOrcCSymbolMapPair){LLVMOrcLLJITMangleAndIntern(j->lljit, syms[i].name),
                                       {(LLVMOrcExecutorAddress)(uintptr_t)syms[i].fn, fl}};
  LLVMOrcMaterializationUnitRef mu = LLVMOrcAbsoluteSymbols(pairs, N); /* owns the names */
  return check(LLVMOrcJITDylibDefine(LLVMOrcLLJITGetMainJITDylib(j->lljit), mu), d,
               "cannot define the executor's symbols");
}

/* libdevice's __nv_* functions, for cuda.libdevice calls on the CPU. */
static bool add_libdevice_symbols(CgJit *j, Diags *d) {
  enum { N = LD__COUNT };
  LLVMOrcCSymbolMapPair pairs[N];
  LLVMJITSymbolFlags fl = {LLVMJITSymbolGenericFlagsExported | LLVMJITSymbolGenericFlagsCallable, 0};
  int n = 0;
  for (const RtHostSym *s = rt_host_libdevice_symbols; s->name && n < N; s++, n++)
    pairs[n] = (LLVMOrcCSymbolMapPair){LLVMOrcLLJITMangleAndIntern(j->lljit, s->name),
                                       {(LLVMOrcExecutorAddress)(uintptr_t)s->fn, fl}};
  LLVMOrcMaterializationUnitRef mu = LLVMOrcAbsoluteSymbols(pairs, (size_t)n); /* owns the names */
  return check(LLVMOrcJITDylibDefine(LLVMOrcLLJITGetMainJITDylib(j->lljit), mu), d,
               "cannot define the libdevice symbols");
}

CgJit *cg_jit_new(Diags *d) {
  cg_init_targets();
  CgJit *j = calloc(1, sizeof *j);
  if (!j)
    return NULL;
  cg_host_target(&j->target);
  LLVMTargetMachineRef tm = create_jit_tm(&j->target, d);
  if (!tm) {
    cg_jit_free(j);
    return NULL;
  }
  LLVMOrcLLJITBuilderRef b = LLVMOrcCreateLLJITBuilder();
  /* the builder owns the JTMB, which owns tm; LLVMOrcCreateLLJIT owns b */
  LLVMOrcLLJITBuilderSetJITTargetMachineBuilder(b, LLVMOrcJITTargetMachineBuilderCreateFromTargetMachine(tm));
  if (!check(LLVMOrcCreateLLJIT(&j->lljit, b), d, "cannot create the JIT") ||
      !add_process_symbols(j, d) || !add_executor_symbols(j, d) ||
      !add_libdevice_symbols(j, d)) {
    cg_jit_free(j);
    return NULL;
  }
  return j;
}

void cg_jit_free(CgJit *j) {
  if (!j)
    return;
  if (j->lljit)
    check(LLVMOrcDisposeLLJIT(j->lljit), NULL, "");
  if (j->target.triple)
    cg_host_target_free(&j->target);
  free(j);
}

/* ------------------------------------------------------------- modules --- */

static size_t attr_number(LLVMValueRef fn, const char *key) {
  LLVMAttributeRef a = LLVMGetStringAttributeAtIndex(fn, LLVMAttributeFunctionIndex, key, (unsigned)strlen(key));
  if (!a)
    return 0;
  unsigned n;
  const char *v = LLVMGetStringAttributeValue(a, &n);
  char buf[32];
  snprintf(buf, sizeof buf, "%.*s", (int)n, v);
  return (size_t)strtoull(buf, NULL, 10);
}

/* Reads each entry's flags and static shared size and renames it
 * <symbol>.k<N> so a later module may define the same kernel again. */
static bool name_entries(CgJit *j, Cg *cg, IrCompile *const *cs, int n, CgHostKernel *out, char (*names)[256]) {
  for (int i = 0; i < n; i++) {
    const IrFunc *f = cs[i]->funcs.len ? cs[i]->funcs.data[0] : NULL;
    LLVMValueRef fn = f && f->symbol ? LLVMGetNamedFunction(cg->mod, f->symbol) : NULL;
    if (!fn || LLVMIsDeclaration(fn) || !f->is_kernel) {
      diag_error(cg->diags, E_CG_INTERNAL, (SrcLoc){0}, NULL,
                 "internal error in codegen: no host entry for %s", f ? f->name : "?");
      return false;
    }
    snprintf(names[i], 256, "%.200s.k%u", f->symbol, j->nmodules);
    LLVMSetValueName2(fn, names[i], strlen(names[i]));
    if (out)
      out[i] = (CgHostKernel){NULL, (int)attr_number(fn, "kjit-flags"), attr_number(fn, "kjit-static-shared")};
  }
  return true;
}

/* kjit_call's wrapper <symbol>__cabi, renamed <symbol>__cabi.k<N>. */
static bool name_cabi(CgJit *j, Cg *cg, char *name) {
  char sym[256];
  snprintf(sym, sizeof sym, "%.200s__cabi", cg->cabi->symbol);
  LLVMValueRef fn = LLVMGetNamedFunction(cg->mod, sym);
  if (!fn || LLVMIsDeclaration(fn)) {
    diag_error(cg->diags, E_CG_INTERNAL, (SrcLoc){0}, NULL,
               "internal error in codegen: no C-ABI wrapper for %s", cg->cabi->name);
    return false;
  }
  snprintf(name, 256, "%.210s.k%u", sym, j->nmodules);
  LLVMSetValueName2(fn, name, strlen(name));
  return true;
}

/* Builds, optimizes and names the module; on success *mod is the module,
 * no longer owned by cg. */
static bool build_module(CgJit *j, Cg *cg, IrCompile *const *cs, int n, CgHostKernel *out,
                         char (*names)[256], LLVMModuleRef *mod) {
  bool ok = cg_create_target_machine(cg) && cg_lower_module(cg, cs, n) && cg_optimize(cg) &&
            (cg->cabi ? name_cabi(j, cg, names[0]) : name_entries(j, cg, cs, n, out, names));
  if (ok) {
    *mod = cg->mod;
    cg->mod = NULL;
  }
  return ok;
}

static bool lookup_entries(CgJit *j, int n, CgHostKernel *out, char (*names)[256], Diags *d) {
  for (int i = 0; i < n && out; i++) {
    LLVMOrcExecutorAddress addr = 0;
    if (!check(LLVMOrcLLJITLookup(j->lljit, &addr, names[i]), d, "cannot materialize the kernel"))
      return false;
    out[i].fn = (void *)(uintptr_t)addr;
  }
  return true;
}

/* cabi: the device function of cs[0] whose C-ABI wrapper is the entry
 * (out then gets only .fn), or NULL for kernels. */
static bool add_module(CgJit *j, IrCompile *const *cs, int n, const IrFunc *cabi, const CgOptions *opts,
                       CgHostKernel *out, Diags *d) {
  if (!j || n <= 0)
    return false;
  char (*names)[256] = calloc((size_t)n, sizeof *names);
  LLVMOrcThreadSafeContextRef tsc = LLVMOrcCreateNewThreadSafeContext();
  Cg cg = {.target = &j->target, .opts = opts, .hooks = &cg_host_hooks, .diags = d, .cabi = cabi};
  cg_init(&cg, LLVMOrcThreadSafeContextGetContext(tsc));
  LLVMModuleRef mod = NULL;
  bool ok = names && build_module(j, &cg, cs, n, out, names, &mod);
  cg_dispose(&cg); /* builder, DIBuilder, target machine; ctx stays with tsc */
  if (ok) {
    LLVMOrcThreadSafeModuleRef tsm = LLVMOrcCreateNewThreadSafeModule(mod, tsc);
    j->nmodules++;
    /* the JIT owns tsm from here, even when adding fails */
    ok = check(LLVMOrcLLJITAddLLVMIRModule(j->lljit, LLVMOrcLLJITGetMainJITDylib(j->lljit), tsm), d,
               "cannot add the module");
  }
  LLVMOrcDisposeThreadSafeContext(tsc); /* the module keeps the context alive */
  ok = ok && lookup_entries(j, n, out, names, d);
  free(names);
  return ok;
}

bool cg_jit_add(CgJit *j, IrCompile *const *cs, int n, const CgOptions *opts, CgHostKernel *out, Diags *d) {
  return add_module(j, cs, n, NULL, opts, out, d);
}

bool cg_jit_add_cabi(CgJit *j, IrCompile *c, const CgOptions *opts, void **fn, Diags *d) {
  const IrFunc *f = c && c->funcs.len ? c->funcs.data[0] : NULL;
  CgHostKernel e = {0};
  if (!f || f->is_kernel || !f->symbol || !add_module(j, &c, 1, f, opts, &e, d))
    return false;
  *fn = e.fn;
  return true;
}

void *cg_jit_lookup(CgJit *j, const char *symbol) {
  LLVMOrcExecutorAddress addr = 0;
  if (!j || !check(LLVMOrcLLJITLookup(j->lljit, &addr, symbol), NULL, ""))
    return NULL;
  return (void *)(uintptr_t)addr;
}
