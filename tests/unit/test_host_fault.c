/* test_host_fault.c - a guest fault on the CPU target fails the launch, not
 * the host: an index far out of bounds (no debug=True) and a dynamic shared
 * array larger than the launch gave are reported as illegal addresses with
 * KJIT_ERROR_KERNEL_FAULT, as a fault on the GPU does, and so is a failing assert
 * with debug=True; the same context, program and arrays keep working
 * afterwards (host/host_fault.c). */
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "kjit.h"

static const char *src =
    "from numba import cuda, float32\n"
    "@cuda.jit\n"
    "def poke(x, off):\n"
    "    x[off] = 1.0\n"
    "@cuda.jit\n"
    "def dyn(x):\n"
    "    buf = cuda.shared.array(0, float32)\n"
    "    i = cuda.threadIdx.x\n"
    "    buf[i] = i\n"
    "    cuda.syncthreads()\n"
    "    x[i] = buf[i]\n"
    "@cuda.jit(debug=True)\n"
    "def check(x, i):\n"
    "    assert i < 4\n"
    "    x[i] = 2.0\n";

static kjit_status launch(kjit_kernel *k, kjit_arg *args, int n, uint32_t threads, size_t shared) {
  kjit_launch_config cfg;
  kjit_launch_config_init(&cfg);
  cfg.grid[0] = 1;
  cfg.block[0] = threads;
  cfg.shared_bytes = shared;
  return kjit_launch(k, &cfg, args, n);
}

int main(void) {
  kjit_context_options o;
  kjit_context_options_init(&o);
  o.target = KJIT_TARGET_CPU;
  kjit_context *ctx = NULL;
  kjit_program *prog = NULL;
  kjit_kernel *poke = NULL, *dyn = NULL, *check = NULL;
  kjit_array *x = NULL;
  int64_t n = 64;
  CHECK(kjit_context_create(&o, &ctx) == KJIT_OK);
  CHECK(kjit_program_load_source(ctx, "fault.py", src, &prog) == KJIT_OK);
  CHECK(kjit_program_kernel(prog, "poke", &poke) == KJIT_OK);
  CHECK(kjit_program_kernel(prog, "dyn", &dyn) == KJIT_OK);
  CHECK(kjit_program_kernel(prog, "check", &check) == KJIT_OK);
  CHECK(kjit_array_create(ctx, KJIT_FLOAT32, 1, &n, &x) == KJIT_OK);
  if (failures)
    return 1;
  float *data = kjit_array_data(x);
  for (int round = 0; round < 3; round++) {   /* fault, recover, fault again */
    kjit_arg bad[2] = {kjit_arg_array(x), kjit_arg_i64((int64_t)1 << 40)};
    CHECK(launch(poke, bad, 2, 1, 0) == KJIT_ERROR_KERNEL_FAULT);
    CHECK(strstr(kjit_last_error(ctx), "illegal address") != NULL);
    CHECK(strstr(kjit_last_error(ctx), "kernel 'poke'") != NULL);
    kjit_arg good[2] = {kjit_arg_array(x), kjit_arg_i64(5)};
    data[5] = 0;
    CHECK(launch(poke, good, 2, 1, 0) == KJIT_OK);
    CHECK(data[5] == 1.0f);
    kjit_arg one[1] = {kjit_arg_array(x)};
    CHECK(launch(dyn, one, 1, 64, 8) == KJIT_ERROR_KERNEL_FAULT);  /* 64 floats into 8 bytes */
    CHECK(strstr(kjit_last_error(ctx), "illegal address") != NULL);
    CHECK(launch(dyn, one, 1, 64, 256) == KJIT_OK);
    CHECK(data[63] == 63.0f);
    kjit_arg over[2] = {kjit_arg_array(x), kjit_arg_i64(9)};
    CHECK(launch(check, over, 2, 1, 0) == KJIT_ERROR_KERNEL_FAULT);
    CHECK(strstr(kjit_last_error(ctx), "AssertionError") != NULL);
  }
  kjit_context_destroy(ctx);
  printf("test_host_fault: %d checks, %d failed\n", checks, failures);
  return failures != 0;
}
