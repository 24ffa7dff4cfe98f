/* test_cuda_c.c - CUDA C programs through the public API: loading a .cu
 * file and a string with NVRTC options, the kernel list, kernels by name
 * expression (extern "C", a template instantiation, one overload), their
 * parameters, PTX and cubin without a GPU, kjit_program_check, the disk
 * cache, the declaration parser, and kjit_launch's argument checks (made
 * before any driver is touched, so they run here on the cpu target).
 * With --gpu (the GPU suite) it also launches the kernels on the cuda
 * target and compares the results.  The NVRTC parts are skipped (exit 77
 * when nothing else ran) where NVRTC cannot be loaded.  Run from tests/. */
#define _XOPEN_SOURCE 700
#include <dlfcn.h>
#include <ftw.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "kjit.h"
#include "cuda/cuc.h"

static const char *const source =
    "#ifndef FACTOR\n"
    "#error FACTOR is given with -D\n"
    "#endif\n"
    "extern \"C\" __global__ void vector_add(const float *a, const float *b, float *out, int n) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n) out[i] = (a[i] + b[i]) * FACTOR;\n"
    "}\n"
    "template <typename T, int K>\n"
    "__global__ void __launch_bounds__(256) scale(T *__restrict__ x, T f, size_t n) {\n"
    "  size_t i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n) x[i] = x[i] * f + K;\n"
    "}\n"
    "__global__ void fill(float *x, float v) { x[threadIdx.x] = v; }\n"
    "__global__ void fill(int *x, int v) { x[threadIdx.x] = v; }\n";

static bool have_nvrtc(void) {
  const char *names[] = {"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so",
                         "/usr/local/cuda/lib64/libnvrtc.so.13", "/usr/local/cuda/lib64/libnvrtc.so.12"};
  for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
    void *h = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    if (h) {
      dlclose(h);
      return true;
    }
  }
  return false;
}

static kjit_program *load(kjit_context *ctx, const char *opt) {
  kjit_cuda_options o;
  kjit_cuda_options_init(&o);
  const char *opts[] = {opt};
  o.nvrtc_options = opts;
  o.count = 1;
  kjit_program *p = NULL;
  kjit_status st = kjit_program_load_cuda_source(ctx, "kernels.cu", source, &o, &p);
  if (st != KJIT_OK)
    fprintf(stderr, "load: %s\n", kjit_last_error(ctx));
  CHECK(st == KJIT_OK);
  return p;
}

/* ------------------------------------------------- no compiler needed --- */

static void test_kernels(kjit_context *ctx) {
  kjit_program *p = load(ctx, "-DFACTOR=2");
  if (!p)
    return;
  int n = 0;
  const char *name = NULL;
  CHECK(kjit_program_kernel_count(p, &n) == KJIT_OK && n == 2); /* vector_add, fill */
  CHECK(kjit_program_kernel_name(p, 0, &name) == KJIT_OK && !strcmp(name, "vector_add"));
  CHECK(kjit_program_kernel_name(p, 1, &name) == KJIT_OK && !strcmp(name, "fill"));
  kjit_kernel *k = NULL, *k2 = NULL;
  CHECK(kjit_program_kernel(p, "vector_add", &k) == KJIT_OK);
  CHECK(kjit_program_kernel(p, "vector_add", &k2) == KJIT_OK && k == k2);
  CHECK(kjit_kernel_param_count(k, &n) == KJIT_OK && n == 4);
  CHECK(kjit_kernel_param_name(k, 3, &name) == KJIT_OK && !strcmp(name, "n"));
  CHECK(kjit_program_kernel(p, "scale<float, 3>", &k) == KJIT_OK);
  CHECK(kjit_kernel_param_count(k, &n) == KJIT_OK && n == 3);
  CHECK(kjit_kernel_name(k, &name) == KJIT_OK && !strcmp(name, "scale<float, 3>"));
  CHECK(kjit_program_kernel(p, "static_cast<void(*)(int*, int)>(fill)", &k) == KJIT_OK);
  CHECK(kjit_program_kernel(p, "scale", &k) == KJIT_ERROR_NOT_FOUND);
  CHECK(strstr(kjit_last_error(ctx), "kernel 'scale' is a template"));
  CHECK(kjit_program_kernel(p, "fill", &k) == KJIT_ERROR_NOT_FOUND);
  CHECK(strstr(kjit_last_error(ctx), "static_cast<void(*)(float *, float)>(fill)"));
  CHECK(kjit_program_kernel(p, "nope", &k) == KJIT_ERROR_NOT_FOUND);
  CHECK(kjit_program_kernel(p, "static_cast<void(*)(double*, int)>(fill)", &k) ==
        KJIT_ERROR_NOT_FOUND);
  kjit_program_destroy(p);
}

static void test_options_refused(kjit_context *ctx) {
  kjit_program *p = NULL;
  kjit_cuda_options o;
  kjit_cuda_options_init(&o);
  const char *opts[] = {"-DX=1", "-arch=compute_90"};
  o.nvrtc_options = opts;
  o.count = 2;
  CHECK(kjit_program_load_cuda_source(ctx, NULL, source, &o, &p) == KJIT_ERROR_INVALID_ARGUMENT);
  CHECK(strstr(kjit_last_error(ctx), "'-arch=compute_90' is not accepted"));
  CHECK(p == NULL);
  CHECK(kjit_program_load_cuda_file(ctx, "no/such/file.cu", NULL, &p) == KJIT_ERROR_IO);
}

/* Argument checks happen before the target is used: on the cpu target a
 * mismatch is reported as such, a fit gets "cpu target cannot run". */
static void test_launch_checks(kjit_context *ctx) {
  kjit_program *p = load(ctx, "-DFACTOR=1");
  kjit_kernel *k = NULL;
  if (!p || kjit_program_kernel(p, "vector_add", &k) != KJIT_OK)
    return;
  int64_t shape = 8;
  kjit_array *f32 = NULL, *f64 = NULL;
  CHECK(kjit_array_create(ctx, KJIT_FLOAT32, 1, &shape, &f32) == KJIT_OK);
  CHECK(kjit_array_create(ctx, KJIT_FLOAT64, 1, &shape, &f64) == KJIT_OK);
  kjit_launch_config cfg;
  kjit_launch_config_init(&cfg);
  cfg.block[0] = 8;
  kjit_arg bad[] = {kjit_arg_array(f32), kjit_arg_array(f64), kjit_arg_array(f32), kjit_arg_i64(8)};
  CHECK(kjit_launch(k, &cfg, bad, 4) == KJIT_ERROR_TYPE);
  CHECK(strstr(kjit_last_error(ctx), "argument 2 ('b'): a float64 array does not fit parameter "
                                     "'const float *b' (float32 elements)"));
  CHECK(kjit_launch(k, &cfg, bad, 3) == KJIT_ERROR_INVALID_ARGUMENT);
  CHECK(strstr(kjit_last_error(ctx), "takes 4 arguments (3 given)"));
  kjit_arg swapped[] = {kjit_arg_array(f32), kjit_arg_array(f32), kjit_arg_i64(8), kjit_arg_array(f32)};
  CHECK(kjit_launch(k, &cfg, swapped, 4) == KJIT_ERROR_TYPE);
  CHECK(strstr(kjit_last_error(ctx), "argument 3 ('out')"));
  kjit_arg good[] = {kjit_arg_array(f32), kjit_arg_array(f32), kjit_arg_array(f32), kjit_arg_f64(8.7)};
  CHECK(kjit_launch(k, &cfg, good, 4) == KJIT_ERROR_INVALID_ARGUMENT);
  CHECK(strstr(kjit_last_error(ctx), "the cpu target cannot run CUDA C kernels"));
  kjit_program_destroy(p);
}

static void test_declarations(void) {
  Arena a;
  arena_init(&a);
  const char *text = "// __global__ void commented(int *x);\n"
                     "#define K __global__ void macro_made(int *x)\n"
                     "extern \"C\" __global__ void k1(unsigned long long *a, const unsigned char *b,\n"
                     "    long n, std::size_t m, volatile int16_t *c, __half h, bool f, void *v);\n"
                     "extern \"C\" __global__ void k1(unsigned long long *a, const unsigned char *b,\n"
                     "    long n, std::size_t m, volatile int16_t *c, __half h, bool f, void *v) {}\n"
                     "__global__ void k2(float **p, int &r, float a[4]);\n";
  Source s = {"t.cu", text, strlen(text)};
  CucDecl *d = NULL;
  CHECK(cuc_scan(&a, &s, &d) == 2);          /* declaration + definition once */
  CucParam *ps = NULL;
  int n = 0;
  const char *why = NULL;
  CHECK(d && !strcmp(d[0].name, "k1") && d[0].loc.line == 3);
  CHECK(d && cuc_params(&a, &d[0], NULL, 0, &ps, &n, &why) && n == 8);
  if (n == 8) {
    CHECK(ps[0].pointer && ps[0].dtype == RT_U64 && !strcmp(ps[0].name, "a"));
    CHECK(ps[1].pointer && ps[1].dtype == RT_U8 && !strcmp(ps[1].text, "const unsigned char *b"));
    CHECK(!ps[2].pointer && ps[2].dtype == RT_I64);
    CHECK(!ps[3].pointer && ps[3].dtype == RT_U64);
    CHECK(ps[4].pointer && ps[4].dtype == RT_I16);
    CHECK(ps[5].dtype == RT_F16 && ps[6].dtype == RT_BOOL && ps[7].pointer && ps[7].any);
  }
  CHECK(d && !cuc_params(&a, &d[1], NULL, 0, &ps, &n, &why) && strstr(why, "pointers to pointers"));
  CucName nm;
  CHECK(cuc_parse_name(&a, "ns::scale<float, 4>", &nm) && !strcmp(nm.name, "scale") && nm.ntargs == 2);
  CHECK(cuc_parse_name(&a, "(void(*)(float*, int))&f", &nm) && nm.ncasts == 2);
  CHECK(!cuc_parse_name(&a, "f(", &nm));
  arena_destroy(&a);
}

/* ------------------------------------------------------------- NVRTC --- */

static void test_emit(kjit_context *ctx) {
  kjit_program *p = load(ctx, "-DFACTOR=3");
  if (!p)
    return;
  kjit_compile_options o;
  kjit_compile_options_init(&o);
  o.arch = "sm_80";
  char *ptx = NULL;
  size_t n = 0;
  CHECK(kjit_program_emit(p, "scale<double, 1>", NULL, &o, KJIT_EMIT_PTX, &ptx, &n) == KJIT_OK);
  CHECK(ptx && strstr(ptx, ".entry _Z5scaleIdLi1EEvPT_S0_m") && strstr(ptx, ".entry vector_add"));
  kjit_free(ptx);
  ptx = NULL;
  CHECK(kjit_program_emit(p, NULL, NULL, &o, KJIT_EMIT_CUBIN, &ptx, &n) == KJIT_OK);
  CHECK(ptx && n > 64 && memcmp(ptx, "\177ELF", 4) == 0);
  kjit_free(ptx);
  CHECK(kjit_program_check(p) == KJIT_OK);
  kjit_cache_info before, after;
  CHECK(kjit_cache_stats(ctx, &before) == KJIT_OK);
  CHECK(kjit_program_check(p) == KJIT_OK);      /* the same compile: a cache hit */
  CHECK(kjit_cache_stats(ctx, &after) == KJIT_OK && after.hits == before.hits + 1);
  kjit_program_destroy(p);
  p = load(ctx, "-DFACTOR=4");                  /* another option: a miss */
  CHECK(kjit_cache_stats(ctx, &before) == KJIT_OK);
  CHECK(p && kjit_program_check(p) == KJIT_OK);
  CHECK(kjit_cache_stats(ctx, &after) == KJIT_OK && after.hits == before.hits);
  kjit_program_destroy(p);
  p = load(ctx, "-UFACTOR");                    /* #error: NVRTC's error at its line */
  CHECK(p && kjit_program_check(p) == KJIT_ERROR_CODEGEN);
  const char *file = NULL;
  int line = 0, col = 0;
  CHECK(kjit_last_error_location(ctx, &file, &line, &col) == KJIT_OK && line == 2 &&
        !strcmp(file, "kernels.cu"));
  kjit_program_destroy(p);
}

/* The PTX parameters NVRTC gives a kernel have the sizes kjit packs:
 * 8-byte pointers, each value its dtype's size (what a GPU launch relies on). */
static void test_param_layout(kjit_context *ctx) {
  static const char *const src =
      "#include <cuda_fp16.h>\n"
      "extern \"C\" __global__ void types(bool b, char c, unsigned char uc, short s, __half h,\n"
      "    int i, unsigned u, long long ll, size_t z, float f, double d, const double *p,\n"
      "    void *v) {}\n";
  kjit_program *p = NULL;
  kjit_kernel *k = NULL;
  CHECK(kjit_program_load_cuda_source(ctx, "types.cu", src, NULL, &p) == KJIT_OK);
  CHECK(p && kjit_program_kernel(p, "types", &k) == KJIT_OK);
  kjit_compile_options o;
  kjit_compile_options_init(&o);
  o.arch = "sm_90";
  char *ptx = NULL;
  size_t n = 0;
  kjit_status st = p ? kjit_program_emit(p, "types", NULL, &o, KJIT_EMIT_PTX, &ptx, &n) : KJIT_ERROR_INTERNAL;
  if (st != KJIT_OK)
    fprintf(stderr, "types: %s\n", kjit_last_error(ctx));
  CHECK(st == KJIT_OK);
  RtCudaModule m;
  memset(&m, 0, sizeof m);
  const CucKernel *ck = p && k ? rt_cuc_kernel(p, "types", NULL) : NULL;
  CHECK(ptx && ck && rt_ptx_entry_layout_of(ptx, "types", &m) && m.nparams == 13);
  for (int i = 0; ck && i < m.nparams && i < ck->nparams; i++) {
    size_t want = ck->params[i].pointer ? 8 : rt_dtype_size(ck->params[i].dtype);
    if (m.params[i].size != want)
      fprintf(stderr, "parameter %d ('%s'): PTX %u bytes, kjit packs %zu\n", i + 1,
              ck->params[i].text, m.params[i].size, want);
    CHECK(m.params[i].size == want);
  }
  /* packed as a launch packs them: pointers bare, scalars converted */
  RtCudaSpec *spec = calloc(1, sizeof *spec);
  if (spec && ck && m.nparams == 13) {
    spec->m = m;
    spec->raw_pointers = true;
    CHECK(rt_spec_prepare_slots(spec));
    RtValue v[13];
    RtCuDeviceptr d[13] = {0};
    memset(v, 0, sizeof v);
    for (int i = 0; i < 13; i++) {
      v[i].scalar.dtype = ck->params[i].dtype;
      v[i].scalar.v.u64 = 0;
    }
    v[5].scalar.v.i32 = -5;                            /* int i */
    v[11].is_array = v[12].is_array = true;            /* const double *p, void *v */
    d[11] = 0x7000, d[12] = 0x9000;
    CHECK(spec->slots && rt_cuda_pack_args(spec, v, d, 13, NULL));
    int32_t i32 = 0;
    uint64_t p11 = 0, p12 = 0;
    if (spec->slots) {
      memcpy(&i32, spec->argv[5], 4);
      memcpy(&p11, spec->argv[11], 8);
      memcpy(&p12, spec->argv[12], 8);
    }
    CHECK(i32 == -5 && p11 == 0x7000 && p12 == 0x9000);
    free(spec->slots);
  }
  free(spec);
  free(m.entry);
  kjit_free(ptx);
  kjit_program_destroy(p);
}

static void test_file(kjit_context *ctx) {
  kjit_program *p = NULL;
  CHECK(kjit_program_load_file(ctx, "../examples/double_matrix.cu", &p) == KJIT_OK);
  CHECK(p && kjit_program_check(p) == KJIT_OK);
  kjit_program_destroy(p);
}

/* ------------------------------------------------------------- the GPU --- */

static void test_gpu(void) {
  kjit_context_options co;
  kjit_context_options_init(&co);
  co.target = KJIT_TARGET_CUDA;
  kjit_context *ctx = NULL;
  CHECK(kjit_context_create(&co, &ctx) == KJIT_OK);
  kjit_program *p = load(ctx, "-DFACTOR=2");
  kjit_kernel *add = NULL, *scale = NULL, *fill = NULL;
  CHECK(p && kjit_program_kernel(p, "vector_add", &add) == KJIT_OK);
  CHECK(p && kjit_program_kernel(p, "scale<double, 1>", &scale) == KJIT_OK);
  CHECK(p && kjit_program_kernel(p, "static_cast<void(*)(int*, int)>(fill)", &fill) == KJIT_OK);
  enum { N = 1000 };
  static float a[N], b[N], out[N];
  static double x[N];
  static int ints[64];
  for (int i = 0; i < N; i++)
    a[i] = (float)i, b[i] = 0.5f, x[i] = i;
  int64_t n = N, n64 = 64;
  kjit_array *A, *B, *O, *X, *I;
  kjit_array_wrap(ctx, KJIT_FLOAT32, 1, &n, NULL, a, &A);
  kjit_array_wrap(ctx, KJIT_FLOAT32, 1, &n, NULL, b, &B);
  kjit_array_wrap(ctx, KJIT_FLOAT32, 1, &n, NULL, out, &O);
  kjit_array_wrap(ctx, KJIT_FLOAT64, 1, &n, NULL, x, &X);
  kjit_array_wrap(ctx, KJIT_INT32, 1, &n64, NULL, ints, &I);
  kjit_launch_config cfg;
  kjit_launch_config_init(&cfg);
  cfg.grid[0] = 4;
  cfg.block[0] = 256;
  kjit_arg args[] = {kjit_arg_array(A), kjit_arg_array(B), kjit_arg_array(O), kjit_arg_i64(N)};
  kjit_status st = kjit_launch(add, &cfg, args, 4);
  if (st != KJIT_OK)
    fprintf(stderr, "vector_add: %s\n", kjit_last_error(ctx));
  CHECK(st == KJIT_OK && out[0] == 1.0f && out[999] == 1999.0f);
  kjit_arg sargs[] = {kjit_arg_array(X), kjit_arg_f64(2.0), kjit_arg_i64(N)};
  CHECK(kjit_launch(scale, &cfg, sargs, 3) == KJIT_OK && x[10] == 21.0 && x[999] == 1999.0);
  cfg.grid[0] = 1;
  cfg.block[0] = 64;
  kjit_arg fargs[] = {kjit_arg_array(I), kjit_arg_f64(7.9)};  /* 7.9 -> int 7, as C */
  CHECK(kjit_launch(fill, &cfg, fargs, 2) == KJIT_OK && ints[0] == 7 && ints[63] == 7);
  kjit_context_destroy(ctx);
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st, (void)flag, (void)ftw;
  return remove(path);
}

int main(int argc, char **argv) {
  bool gpu = argc > 1 && !strcmp(argv[1], "--gpu");
  kjit_context_options co;
  kjit_context_options_init(&co);
  co.target = KJIT_TARGET_CPU;
  kjit_context *ctx = NULL;
  if (kjit_context_create(&co, &ctx) != KJIT_OK)
    return 1;
  char cache[] = "/tmp/kjit-test-cuda-c.XXXXXX";  /* hits and misses of this run only */
  CHECK(mkdtemp(cache) && kjit_cache_configure(ctx, 1, cache) == KJIT_OK);
  test_kernels(ctx);
  test_options_refused(ctx);
  test_launch_checks(ctx);
  test_declarations();
  bool nvrtc = have_nvrtc();
  if (nvrtc) {
    test_emit(ctx);
    test_param_layout(ctx);
    test_file(ctx);
  }
  kjit_context_destroy(ctx);
  nftw(cache, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
  if (gpu)
    test_gpu();
  printf("test_cuda_c: %d checks, %d failed%s\n", checks, failures,
         nvrtc ? "" : " (NVRTC not found: compiles skipped)");
  return failures ? 1 : 0;
}
