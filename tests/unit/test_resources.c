/* test_resources.c - cuda/resources.c on fixed inputs: ptxas's report as
 * nvJitLink's -verbose log gives it (two entries, a device function
 * between them, a "Used" line without the zero fields, the linker's
 * summary supplying the constant bank), the largest block the registers
 * allow, and the cubin section reader on a small ELF built here and on
 * images that are not one.  The real logs are checked against ptxas by
 * tests/stats.sh. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kjit.h"

#include "check.h"
#include "cuda/resources.h"

static const char log_two[] =
    "ptxas info    : 0 bytes gmem\n"
    "ptxas info    : Compiling entry function 'k1' for 'sm_90'\n"
    "ptxas info    : Function properties for k1\n"
    "ptxas         .     16 bytes stack frame, 8 bytes spill stores, 12 bytes spill loads\n"
    "ptxas info    : Used 40 registers, used 1 barriers, 2048 bytes smem\n"
    "ptxas info    : Function properties for helper\n"
    "ptxas         .     32 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
    "ptxas info    : Compiling entry function 'k2' for 'sm_90'\n"
    "ptxas info    : Function properties for k2\n"
    "ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
    "ptxas info    : Used 255 registers, 380 bytes cmem[0]\n"
    "ptxas info    : Compile time = 1.0 ms\n"
    "info    : Function properties for 'k1':\n"
    "info    : used 40 registers, used 1 barriers, 16 stack, 3072 bytes smem, 648 bytes cmem[0], 0 bytes lmem\n"
    "info    : Function properties for 'k2':\n"
    "info    : used 255 registers, used 0 barriers, 0 stack, 1024 bytes smem, 999 bytes cmem[0], 0 bytes lmem\n";

static void check_parse(void) {
  kjit_resources r[4];
  memset(r, 0x55, sizeof r);
  CHECK(rt_resources_parse(log_two, r, 4) == 2);
  CHECK_STR(r[0].name, "k1");
  CHECK_STR(r[0].arch, "sm_90");
  CHECK(r[0].registers == 40 && r[0].barriers == 1);
  CHECK(r[0].stack_bytes == 16 && r[0].spill_store_bytes == 8 && r[0].spill_load_bytes == 12);
  CHECK(r[0].static_shared_bytes == 2048, "the kernel's own, not the linker's 3072");
  CHECK(r[0].const_bytes == 648, "from the linker's line: ptxas gave none");
  CHECK_STR(r[1].name, "k2");
  CHECK(r[1].registers == 255 && r[1].barriers == 0 && r[1].static_shared_bytes == 0);
  CHECK(r[1].stack_bytes == 0, "the device function's 32 bytes are not k2's");
  CHECK(r[1].const_bytes == 380, "ptxas's own value is kept");
  /* fewer slots than entries: the count is still the number of entries */
  kjit_resources one;
  CHECK(rt_resources_parse(log_two, &one, 1) == 2);
  CHECK_STR(one.name, "k1");
  CHECK(rt_resources_parse("", r, 4) == 0);
  CHECK(rt_resources_parse("ptxas info    : Compiling entry function 'x' for 'sm_80'\n", r, 4) == 0,
        "an entry without its Used line is not reported");
}

static void check_max_threads(void) {
  CHECK(rt_max_threads_for_registers(0) == 1024);
  CHECK(rt_max_threads_for_registers(32) == 1024);
  CHECK(rt_max_threads_for_registers(64) == 1024);
  CHECK(rt_max_threads_for_registers(65) == 896, "72 regs/thread after the 256-per-warp unit");
  CHECK(rt_max_threads_for_registers(128) == 512);
  CHECK(rt_max_threads_for_registers(255) == 256);
}

static void put(unsigned char *p, uint64_t v, int n) {
  for (int i = 0; i < n; i++)
    p[i] = (unsigned char)(v >> (8 * i));
}

/* A 64-bit little-endian ELF: header, ".text.k" of 96 bytes, the section
 * name table, three section headers (null, .text.k, .shstrtab). */
static void check_elf(void) {
  static const char names[] = "\0.text.k\0.shstrtab";
  unsigned char img[512] = {0};
  memcpy(img, "\177ELF", 4);
  img[4] = 2, img[5] = 1;
  size_t str_at = 64, sh_at = 128;
  memcpy(img + str_at, names, sizeof names);
  put(img + 0x28, sh_at, 8);
  put(img + 0x3a, 64, 2);
  put(img + 0x3c, 3, 2);
  put(img + 0x3e, 2, 2);
  unsigned char *text = img + sh_at + 64, *str = img + sh_at + 128;
  put(text, 1, 4);
  put(text + 0x20, 96, 8);
  put(str, 9, 4);
  put(str + 0x18, str_at, 8);
  put(str + 0x20, sizeof names, 8);
  CHECK(rt_cubin_section_size(img, sizeof img, ".text.k") == 96);
  CHECK(rt_cubin_section_size(img, sizeof img, ".text") == -1, "names match whole");
  CHECK(rt_cubin_section_size(img, sizeof img, ".text.kk") == -1);
  CHECK(rt_cubin_section_size(img, 100, ".text.k") == -1, "truncated image");
  CHECK(rt_cubin_section_size("not an elf", 10, ".text.k") == -1);
  CHECK(rt_cubin_section_size(NULL, 0, ".text.k") == -1);
  img[4] = 1;
  CHECK(rt_cubin_section_size(img, sizeof img, ".text.k") == -1, "ELF32 is not a cubin");
}

/* The C API: counts, arguments, a CUDA C program refused by name. */
static void check_api(void) {
  kjit_context *ctx = NULL;
  kjit_program *prog = NULL, *cu = NULL;
  CHECK_STATUS(kjit_context_create(NULL, &ctx), KJIT_OK);
  CHECK_STATUS(kjit_program_load_source(ctx, "k.py",
                                        "from numba import cuda, float32\n"
                                        "@cuda.jit\n"
                                        "def k(a):\n"
                                        "    s = cuda.shared.array(32, float32)\n"
                                        "    s[cuda.threadIdx.x] = 1\n"
                                        "    cuda.syncthreads()\n"
                                        "    a[cuda.grid(1)] = s[0]\n", &prog), KJIT_OK);
  kjit_compile_options o;
  kjit_compile_options_init(&o);
  o.arch = "sm_80";
  kjit_resources r[2];
  int n = -1;
  CHECK_STATUS(kjit_program_resources(prog, "k", "void(float32[::1])", &o, NULL, 0, &n), KJIT_OK);
  CHECK(n == 1, "max 0 still counts: %d", n);
  CHECK_STATUS(kjit_program_resources(prog, "k", "void(float32[::1])", &o, r, 2, &n), KJIT_OK);
  CHECK(n == 1 && r[0].static_shared_bytes == 128 && r[0].barriers == 1 && r[0].registers > 0);
  CHECK_STR(r[0].arch, "sm_80");
  CHECK(r[0].ptx_bytes > 0 && r[0].sass_bytes > 0 && r[0].cubin_bytes > r[0].sass_bytes);
  CHECK_STATUS(kjit_program_resources(prog, "k", "void(float32[::1])", &o, NULL, 1, &n),
               KJIT_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(kjit_program_resources(prog, "k", NULL, &o, r, 2, &n), KJIT_ERROR_TYPE);
  CHECK_STATUS(kjit_program_resources(prog, "nope", NULL, &o, r, 2, &n), KJIT_ERROR_NOT_FOUND);
  CHECK_STATUS(kjit_program_load_cuda_source(ctx, "k.cu", "extern \"C\" __global__ void f() {}",
                                             NULL, &cu), KJIT_OK);
  CHECK_STATUS(kjit_program_resources(cu, "f", NULL, &o, r, 2, &n), KJIT_ERROR_INVALID_ARGUMENT);
  CHECK(strstr(kjit_last_error(ctx), "Python kernels only") != NULL);
  kjit_program_destroy(cu);
  kjit_program_destroy(prog);
  kjit_context_destroy(ctx);
}

/* kjit_last_resources is the driver's view: nothing before a launch, and
 * nothing after one on the cpu target. */
static void check_last_resources_cpu(void) {
  kjit_context_options co;
  kjit_context_options_init(&co);
  co.target = KJIT_TARGET_CPU;
  kjit_context *ctx = NULL;
  kjit_program *prog = NULL;
  kjit_kernel *k = NULL;
  kjit_array *a = NULL;
  kjit_resources r;
  CHECK_STATUS(kjit_context_create(&co, &ctx), KJIT_OK);
  CHECK_STATUS(kjit_last_resources(ctx, &r), KJIT_ERROR_NOT_FOUND);
  CHECK_STATUS(kjit_last_resources(ctx, NULL), KJIT_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(kjit_last_resources(NULL, &r), KJIT_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(kjit_program_load_source(ctx, "k.py",
                                        "from numba import cuda\n"
                                        "@cuda.jit\n"
                                        "def k(a):\n"
                                        "    a[cuda.grid(1)] = 2\n", &prog), KJIT_OK);
  CHECK_STATUS(kjit_program_kernel(prog, "k", &k), KJIT_OK);
  int64_t shape[1] = {32};
  CHECK_STATUS(kjit_array_create(ctx, KJIT_FLOAT32, 1, shape, &a), KJIT_OK);
  kjit_launch_config cfg;
  kjit_launch_config_init(&cfg);
  cfg.block[0] = 32;
  kjit_arg arg = kjit_arg_array(a);
  CHECK_STATUS(kjit_launch(k, &cfg, &arg, 1), KJIT_OK);
  CHECK_STATUS(kjit_last_resources(ctx, &r), KJIT_ERROR_NOT_FOUND);
  kjit_array_destroy(a);
  kjit_program_destroy(prog);
  kjit_context_destroy(ctx);
}

int main(void) {
  check_parse();
  check_api();
  check_last_resources_cpu();
  check_max_threads();
  check_elf();
  printf("test_resources: %d checks, %d failed\n", checks, failures);
  return failures != 0;
}
