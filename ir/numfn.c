/* numfn.c - the table generated from numfn.h, and name lookups. */
#include "ir/numfn.h"

#include <string.h>

const NumFnInfo ir_numfn_info[NF__COUNT] = {
#define N(name, text, arity, kind) {text, arity, kind},
    NUM_FNS(N)
#undef N
};

static int find(const char *name, int lo, int hi) {
  for (int i = lo; i <= hi; i++)
    if (strcmp(ir_numfn_info[i].name, name) == 0)
      return i;
  return -1;
}

int ir_numfn_cmath(const char *name) { return find(name, NF_CSQRT, NF_CRECT); }
int ir_numfn_fp16(const char *name) {
  int fn = find(name, NF_HADD, NF_USHORT_AS_HALF);
  if (fn >= 0 || strncmp(name, "__h", 3) != 0)
    return fn;
  fn = find(name + 2, NF_HADD, NF_HLE); /* __hadd is hadd; not __hsqrt */
  return fn <= NF_HABS || fn >= NF_HEQ ? fn : -1;
}
