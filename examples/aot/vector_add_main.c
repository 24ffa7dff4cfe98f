/* vector_add_main.c - examples/vector_add.py's kernel called through the
 * library `kjit aot` generated from it: built from vector_add.h/.c alone,
 * the CUDA driver loaded at run time, the CPU code where there is no GPU.
 *
 *   kjit aot examples/vector_add.py:add_kernel --arch sm_80,sm_90 -o build/aot && cc -std=c11 -O2 -Ibuild/aot examples/aot/vector_add_main.c build/aot/vector_add.c -ldl -lpthread -lm -o build/aot/vector_add && build/aot/vector_add
 *
 * An argument "cpu" or "cuda" chooses the target (default: the GPU if there
 * is one).  Exit status 0 when every element is right. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vector_add.h"

#define CHECK(call)                                                                  \
  do {                                                                               \
    if ((call) != vector_add_OK) {                                                   \
      fprintf(stderr, "vector_add: %s\n", vector_add_last_error());                  \
      return 1;                                                                      \
    }                                                                                \
  } while (0)

int main(int argc, char **argv) {
  const int64_t n = argc > 2 ? atoll(argv[2]) : 1000000;
  if (argc > 1)
    CHECK(vector_add_select_target(strcmp(argv[1], "cpu") == 0 ? vector_add_TARGET_CPU
                                   : strcmp(argv[1], "cuda") == 0 ? vector_add_TARGET_CUDA
                                                                  : vector_add_TARGET_AUTO));
  /* One host buffer for both inputs and the result, as a program that
   * streams its data would: a fresh process pays for every page it first
   * touches (4 MiB is about 1,000 page faults), so three buffers would
   * cost more than the launch itself. */
  size_t bytes = (size_t)n * sizeof(float);
  float *host = malloc(bytes);
  void *dx, *dy, *dout;
  if (!host)
    return 1;
  CHECK(vector_add_malloc(&dx, bytes));
  CHECK(vector_add_malloc(&dy, bytes));
  CHECK(vector_add_malloc(&dout, bytes));
  for (int64_t i = 0; i < n; i++)
    host[i] = (float)i;
  CHECK(vector_add_copy_to_device(dx, host, bytes));
  for (int64_t i = 0; i < n; i++)
    host[i] = 2.0f * (float)i;
  CHECK(vector_add_copy_to_device(dy, host, bytes));
  vector_add_config cfg = {{(uint32_t)((n + 255) / 256), 1, 1}, {256, 1, 1}, 0, NULL};
  CHECK(vector_add_add_kernel(&cfg, vector_add_f32_1d_c((float *)dx, n), vector_add_f32_1d_c((float *)dy, n),
                              vector_add_f32_1d_c((float *)dout, n)));
  /* The launch is asynchronous on the default stream; the synchronous copy
   * on that stream waits for it. */
  CHECK(vector_add_copy_to_host(host, dout, bytes));
  int64_t bad = 0;
  for (int64_t i = 0; i < n; i++)
    bad += host[i] != 3.0f * (float)i;
  printf("vector_add on %s: %lld elements, %lld wrong\n",
         vector_add_target_in_use() == vector_add_TARGET_CUDA ? "cuda" : "cpu", (long long)n, (long long)bad);
  CHECK(vector_add_free(dx));
  CHECK(vector_add_free(dy));
  CHECK(vector_add_free(dout));
  CHECK(vector_add_unload());
  free(host);
  return bad != 0;
}
