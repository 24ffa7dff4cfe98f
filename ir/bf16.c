/* bf16.c - the table generated from bf16.h, and name lookups. */
#include "ir/bf16.h"

#include <string.h>

#include "ir/type.h"

const Bf16Info ir_bf16_info[BF__COUNT] = {
#define B(name, np, c, kind, ty, mode) {np, c, kind, ty, mode},
    BF16_FNS(B)
#undef B
};

int ir_bf16_find(const char *name, bool cuda) {
  for (int i = 0; i < BF__COUNT; i++)
    if (strcmp(cuda ? ir_bf16_info[i].cname : ir_bf16_info[i].name, name) == 0)
      return i;
  return -1;
}

/* numba.cuda.bf16 overloads these math functions for a bfloat16 operand. */
int ir_bf16_math(const char *name) {
  static const struct { const char *math; Bf16Fn fn; } tab[] = {
      {"trunc", BF_HTRUNC}, {"ceil", BF_HCEIL}, {"floor", BF_HFLOOR}, {"sqrt", BF_HSQRT},
      {"log", BF_HLOG},     {"log10", BF_HLOG10}, {"cos", BF_HCOS},   {"sin", BF_HSIN},
      {"tanh", BF_HTANH},   {"exp", BF_HEXP},   {"exp2", BF_HEXP2},
  };
  for (size_t i = 0; i < sizeof tab / sizeof *tab; i++)
    if (strcmp(tab[i].math, name) == 0)
      return tab[i].fn;
  return -1;
}

int ir_bf16_arity(int fn) {
  switch (ir_bf16_info[fn].kind) {
  case BK_B: case BK_CMP: return 2;
  case BK_T: return 3;
  default: return 1;
  }
}
