/* npmath.c - the table generated from npmath.h, and the name lookup. */
#include "ir/npmath.h"

#include <string.h>

const NpUfuncInfo ir_npufunc_info[NU__COUNT] = {
#define U(name, text, nin, loops, pred) {text, nin, loops, pred},
    NP_UFUNCS(U)
#undef U
};

int ir_npufunc_find(const char *name) {
  for (int i = 0; i < NU__COUNT; i++)
    if (strcmp(ir_npufunc_info[i].name, name) == 0)
      return i;
  return -1;
}
