/* test_stale_handles.c - programs, kernels and device functions used after
 * kjit_program_destroy get INVALID_ARGUMENT (the program is kept poisoned
 * in its context's quarantine), as arrays already do; destroying a program
 * twice is harmless.  Runs on the cpu target; ASan would report a use
 * after free if any of these touched freed memory. */
#include <stdio.h>
#include <string.h>

#include "kjit.h"
#include "check.h"

static const char src[] =
    "from numba import cuda\n"
    "@cuda.jit(device=True)\n"
    "def twice(x):\n"
    "    return x * 2\n"
    "@cuda.jit\n"
    "def k(x):\n"
    "    x[0] = twice(3.0)\n";

int main(void) {
  kjit_context_options o;
  kjit_context_options_init(&o);
  o.target = KJIT_TARGET_CPU;
  kjit_context *ctx = NULL;
  CHECK(kjit_context_create(&o, &ctx) == KJIT_OK);
  kjit_program *p = NULL;
  kjit_kernel *k = NULL;
  CHECK(kjit_program_load_source(ctx, "k.py", src, &p) == KJIT_OK);
  CHECK(kjit_program_kernel(p, "k", &k) == KJIT_OK);
  kjit_array *a = NULL;
  int64_t shape[1] = {4};
  CHECK(kjit_array_create(ctx, KJIT_FLOAT32, 1, shape, &a) == KJIT_OK);
  kjit_launch_config cfg;
  kjit_launch_config_init(&cfg);
  kjit_arg arg = kjit_arg_array(a);
  CHECK(kjit_launch(k, &cfg, &arg, 1) == KJIT_OK);
  CHECK(((float *)kjit_array_data(a))[0] == 6.0f);
  kjit_program_destroy(p);
  CHECK(kjit_launch(k, &cfg, &arg, 1) == KJIT_ERROR_INVALID_ARGUMENT);
  kjit_kernel *k2 = NULL;
  CHECK(kjit_program_kernel(p, "k", &k2) == KJIT_ERROR_INVALID_ARGUMENT && !k2);
  int n = -1;
  CHECK(kjit_program_kernel_count(p, &n) == KJIT_ERROR_INVALID_ARGUMENT);
  kjit_program_destroy(p); /* twice: nothing happens */
  /* many programs destroyed: the quarantine stays bounded, the newest stale */
  for (int i = 0; i < 40; i++) {
    kjit_program *q = NULL;
    CHECK(kjit_program_load_source(ctx, "k.py", src, &q) == KJIT_OK);
    kjit_program_destroy(q);
    if (i == 39)
      CHECK(kjit_program_kernel(q, "k", &k2) == KJIT_ERROR_INVALID_ARGUMENT);
  }
  kjit_array_destroy(a);
  kjit_context_destroy(ctx);
  printf("test_stale_handles: %d checks, %d failures\n", checks, failures);
  return failures ? 1 : 0;
}
