/* libdevice_fns.c - the table generated from libdevice_fns.h, and lookups. */
#include "ir/libdevice_fns.h"

#include <string.h>

#include "ir/type.h"

const LibdeviceInfo ir_libdevice_info[LD__COUNT] = {
#define L(name, ret, args) {#name, ret, args},
    LIBDEVICE_FNS(L)
#undef L
};

int ir_libdevice_find(const char *name) {
  for (int i = 0; i < LD__COUNT; i++)
    if (strcmp(ir_libdevice_info[i].name, name) == 0)
      return i;
  return -1;
}

int ir_libdevice_nparams(int fn) {
  int n = 0;
  for (const char *c = ir_libdevice_info[fn].args; *c; c++)
    if (*c != '*' && (c == ir_libdevice_info[fn].args || c[-1] != '*'))
      n++;
  return n;
}

const Type *ir_libdevice_type(char c) {
  switch (c) {
  case 'f': return TY_F32_T;
  case 'd': return TY_F64_T;
  case 'h': return TY_I16_T;
  case 'i': return TY_I32_T;
  case 'l': return TY_I64_T;
  default: return NULL;
  }
}
