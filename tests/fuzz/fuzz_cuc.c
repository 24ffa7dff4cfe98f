/* fuzz_cuc.c - libFuzzer target: CUDA C text as kjit reads it without a
 * compiler (cuda/cuc_decl.c): the __global__ declarations found, each
 * one's parameters (with and without template arguments), and the same
 * bytes as a kernel name expression and as a parameter type.
 *
 * Every call must return, accepting or explaining; nothing reaches NVRTC. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cuda/cuc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = malloc(size + 1);
  if (!text)
    return 0;
  memcpy(text, data, size);
  text[size] = 0;
  Arena arena;
  arena_init(&arena);
  Source src = {"fuzz.cu", text, strlen(text)};
  CucDecl *decls = NULL;
  int n = cuc_scan(&arena, &src, &decls);
  static const char *const targs[] = {"float", "int*", "Foo"};
  for (int i = 0; i < n; i++) {
    CucParam *ps;
    int np;
    const char *why;
    cuc_params(&arena, &decls[i], NULL, 0, &ps, &np, &why);
    cuc_params(&arena, &decls[i], targs, 3, &ps, &np, &why);
  }
  CucName name;
  if (cuc_parse_name(&arena, text, &name))
    for (int i = 0; i < name.ncasts; i++) {
      CucParam p;
      cuc_parse_type(&arena, name.casts[i], &p);
    }
  CucParam p;
  cuc_parse_type(&arena, text, &p);
  arena_destroy(&arena);
  free(text);
  return 0;
}
