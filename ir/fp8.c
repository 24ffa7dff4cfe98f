/* fp8.c - the table generated from fp8.h, name lookups, and the values of
 * the enums numba-cuda's cuda_fp8 bindings take (cuda_fp8.h's
 * __nv_saturation_t and __nv_fp8_interpretation_t, CUDA's cudaRoundMode). */
#include "ir/fp8.h"

#include <string.h>

const Fp8Info ir_fp8_info[FP8__COUNT] = {
#define F(id, name, arg, res, modes) {name, arg, res, modes},
    FP8_FNS(F)
#undef F
};

int ir_fp8_find(const char *name) {
  for (int i = 0; i < FP8__COUNT; i++)
    if (strcmp(ir_fp8_info[i].name, name) == 0)
      return i;
  return -1;
}

const char *const ir_fp8_enum_classes[] = {"saturation_t", "fp8_interpretation_t", "cudaRoundMode",
                                           NULL};

int ir_fp8_enum_value(const char *cls, const char *member) {
  static const struct { const char *cls, *member; int value; } tab[] = {
      {"saturation_t", "NOSAT", 0},
      {"saturation_t", "SATFINITE", 1},
      {"fp8_interpretation_t", "E4M3", 0},
      {"fp8_interpretation_t", "E5M2", 1},
      {"cudaRoundMode", "cudaRoundNearest", 0},
      {"cudaRoundMode", "cudaRoundZero", 1},
      {"cudaRoundMode", "cudaRoundPosInf", 2},
      {"cudaRoundMode", "cudaRoundMinInf", 3},
  };
  for (size_t i = 0; i < sizeof tab / sizeof *tab; i++)
    if (strcmp(tab[i].cls, cls) == 0 && strcmp(tab[i].member, member) == 0)
      return tab[i].value;
  return -1;
}
