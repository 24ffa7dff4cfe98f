/* test_link.c - kernels calling CUDA C (cuda.declare_device + link=) taken
 * to a cubin without a GPU: NVRTC compiles the .cu, nvJitLink links it with
 * the kernel's PTX for sm_80 and sm_90 (kjit_program_emit KJIT_EMIT_CUBIN),
 * the NVRTC result is served from the disk cache the second time, and an
 * undefined foreign symbol fails the link.  Skipped (exit 77) where NVRTC or
 * nvJitLink cannot be loaded.  Run from tests/. */
#include <dlfcn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kjit.h"
#include "check.h"

static bool have(const char *const *names, int n) {
  for (int i = 0; i < n; i++) {
    void *h = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    if (h) {
      dlclose(h);
      return true;
    }
  }
  return false;
}

/* The cubin defines the foreign function (its .text section is there). */
static bool defines(const char *cubin, size_t n, const char *sym) {
  char want[128];
  snprintf(want, sizeof want, ".text.%s", sym);
  for (size_t i = 0; i + strlen(want) <= n; i++)
    if (memcmp(cubin + i, want, strlen(want)) == 0)
      return true;
  return false;
}

static void emit_cubin(kjit_context *ctx, kjit_program *prog, const char *kernel, const char *sig,
                       const char *arch, const char *sym) {
  kjit_compile_options o;
  kjit_compile_options_init(&o);
  o.arch = arch;
  char *out = NULL;
  size_t n = 0;
  kjit_status st = kjit_program_emit(prog, kernel, sig, &o, KJIT_EMIT_CUBIN, &out, &n);
  if (st != KJIT_OK)
    fprintf(stderr, "%s %s: %s\n", kernel, arch, kjit_last_error(ctx));
  CHECK(st == KJIT_OK);
  CHECK(out && n > 64 && memcmp(out, "\177ELF", 4) == 0);
  CHECK(out && defines(out, n, sym));
  kjit_free(out);
}

static void test_link_mul(kjit_context *ctx) {
  kjit_program *prog = NULL;
  CHECK(kjit_program_load_file(ctx, "gpu/link/link_mul.py", &prog) == KJIT_OK);
  if (!prog)
    return;
  const char *sig = "void(float32[::1], float32[::1], float32[::1])";
  emit_cubin(ctx, prog, "k", sig, "sm_80", "mul_f32");
  emit_cubin(ctx, prog, "k", sig, "sm_90", "mul_f32");
  emit_cubin(ctx, prog, "k2", "void(int32[::1], int32[::1])", "sm_90", "clamp_add_i32");
  kjit_cache_info before, after;
  CHECK(kjit_cache_stats(ctx, &before) == KJIT_OK);
  emit_cubin(ctx, prog, "k", sig, "sm_80", "mul_f32"); /* PTX and NVRTC output cached */
  CHECK(kjit_cache_stats(ctx, &after) == KJIT_OK);
  CHECK(after.hits >= before.hits + 2 && after.stores == before.stores);
  kjit_program_destroy(prog);
}

/* A declared function the .cu does not define: nvJitLink's undefined
 * reference is an error, not a crash or a cubin. */
static void test_undefined(kjit_context *ctx) {
  char dir[] = "/tmp/kjit-link-XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  char cu[128], py[128];
  snprintf(cu, sizeof cu, "%s/f.cu", dir);
  snprintf(py, sizeof py, "%s/k.py", dir);
  FILE *f = fopen(cu, "w");
  fputs("extern \"C\" __device__ int other(float *r, float a) { *r = a; return 0; }\n", f);
  fclose(f);
  f = fopen(py, "w");
  fputs("from numba import cuda\nmissing = cuda.declare_device('missing_fn', 'float32(float32)')\n"
        "@cuda.jit(link=['f.cu'])\ndef k(x):\n    x[0] = missing(x[0])\n", f);
  fclose(f);
  kjit_program *prog = NULL;
  CHECK(kjit_program_load_file(ctx, py, &prog) == KJIT_OK);
  kjit_compile_options o;
  kjit_compile_options_init(&o);
  o.arch = "sm_80";
  char *out = NULL;
  size_t n = 0;
  CHECK(prog && kjit_program_emit(prog, "k", "void(float32[::1])", &o, KJIT_EMIT_CUBIN, &out, &n) != KJIT_OK);
  CHECK(out == NULL && strstr(kjit_last_error(ctx), "nvJitLink") != NULL);
  kjit_program_destroy(prog);
  unlink(cu);
  unlink(py);
  rmdir(dir);
}

int main(void) {
  const char *nvrtc[] = {"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so",
                         "/usr/local/cuda/lib64/libnvrtc.so"};
  const char *jl[] = {"libnvJitLink.so.13", "libnvJitLink.so.12", "libnvJitLink.so",
                      "/usr/local/cuda/lib64/libnvJitLink.so"};
  if (!have(nvrtc, 4) || !have(jl, 4)) {
    fprintf(stderr, "test_link: NVRTC or nvJitLink not found; skipped\n");
    return 77;
  }
  char cache[] = "/tmp/kjit-link-cache-XXXXXX";
  if (!mkdtemp(cache))
    return 1;
  kjit_context *ctx = NULL;
  if (kjit_context_create(NULL, &ctx) != KJIT_OK)
    return 1;
  CHECK(kjit_cache_configure(ctx, 1, cache) == KJIT_OK);
  test_link_mul(ctx);
  test_undefined(ctx);
  kjit_cache_clear(ctx, NULL);
  kjit_context_destroy(ctx);
  rmdir(cache);
  if (failures)
    fprintf(stderr, "test_link: %d failure(s)\n", failures);
  return failures ? 1 : 0;
}
