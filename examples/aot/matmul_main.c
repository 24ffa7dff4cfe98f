/* matmul_main.c - examples/matmul_shared.py's tiled matrix multiply (shared
 * memory, syncthreads) called through the library `kjit aot` generated from
 * it, on the GPU or, without one, on the CPU.
 *
 *   kjit aot examples/matmul_shared.py:matmul_shared --sig "void(float32[:, ::1], float32[:, ::1], float32[:, ::1])" --arch sm_80,sm_90 -o build/aot && cc -std=c11 -O2 -Ibuild/aot examples/aot/matmul_main.c build/aot/matmul_shared.c -ldl -lpthread -lm -o build/aot/matmul && build/aot/matmul
 *
 * Arguments: [cpu|cuda|auto [M K N]].  C = A @ B with A[i][k] = i*K + k and
 * B[k][j] = k*N + j, checked against a plain C loop in double precision
 * (exact for the default sizes, within 1e-5 for larger ones).  Exit status 0 when every element is right. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "matmul_shared.h"

#define CHECK(call)                                                                  \
  do {                                                                               \
    if ((call) != matmul_shared_OK) {                                                \
      fprintf(stderr, "matmul: %s\n", matmul_shared_last_error());                   \
      return 1;                                                                      \
    }                                                                                \
  } while (0)

enum { TPB = 16 }; /* the kernel's tile */

int main(int argc, char **argv) {
  int64_t m = argc > 4 ? atoll(argv[2]) : 20, k = argc > 4 ? atoll(argv[3]) : 30, n = argc > 4 ? atoll(argv[4]) : 25;
  if (argc > 1)
    CHECK(matmul_shared_select_target(strcmp(argv[1], "cpu") == 0    ? matmul_shared_TARGET_CPU
                                      : strcmp(argv[1], "cuda") == 0 ? matmul_shared_TARGET_CUDA
                                                                     : matmul_shared_TARGET_AUTO));
  size_t ba = (size_t)(m * k) * sizeof(float), bb = (size_t)(k * n) * sizeof(float), bc = (size_t)(m * n) * sizeof(float);
  float *a = malloc(ba), *b = malloc(bb), *c = malloc(bc);
  void *da, *db, *dc;
  if (!a || !b || !c)
    return 1;
  for (int64_t i = 0; i < m * k; i++)
    a[i] = (float)i;
  for (int64_t i = 0; i < k * n; i++)
    b[i] = (float)i;
  CHECK(matmul_shared_malloc(&da, ba));
  CHECK(matmul_shared_malloc(&db, bb));
  CHECK(matmul_shared_malloc(&dc, bc));
  CHECK(matmul_shared_copy_to_device(da, a, ba));
  CHECK(matmul_shared_copy_to_device(db, b, bb));
  matmul_shared_config cfg = {{(uint32_t)((n + TPB - 1) / TPB), (uint32_t)((m + TPB - 1) / TPB), 1}, {TPB, TPB, 1}, 0, NULL};
  CHECK(matmul_shared_matmul_shared(&cfg, matmul_shared_f32_2d_c((float *)da, m, k),
                                    matmul_shared_f32_2d_c((float *)db, k, n), matmul_shared_f32_2d_c((float *)dc, m, n)));
  CHECK(matmul_shared_synchronize(NULL));
  CHECK(matmul_shared_copy_to_host(c, dc, bc));
  int64_t bad = 0;
  for (int64_t i = 0; i < m; i++)
    for (int64_t j = 0; j < n; j++) {
      double s = 0;
      for (int64_t q = 0; q < k; q++)
        s += (double)a[i * k + q] * (double)b[q * n + j];
      double d = c[i * n + j] - s;     /* float32 sums in another order: within 1e-5 */
      bad += (d < 0 ? -d : d) > 1e-5 * (s < 0 ? -s : s);
    }
  printf("matmul on %s: %lldx%lld @ %lldx%lld, %lld wrong\n",
         matmul_shared_target_in_use() == matmul_shared_TARGET_CUDA ? "cuda" : "cpu", (long long)m, (long long)k,
         (long long)k, (long long)n, (long long)bad);
  CHECK(matmul_shared_free(da));
  CHECK(matmul_shared_free(db));
  CHECK(matmul_shared_free(dc));
  free(a), free(b), free(c);
  return bad != 0;
}
