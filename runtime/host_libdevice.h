/* host_libdevice.h - the CPU target's definitions of libdevice's __nv_*
 * functions (runtime/host_libdevice.c), which the host JIT (codegen/cg_jit.c)
 * defines as absolute symbols so cuda.libdevice calls run on the CPU. */
#ifndef KJIT_RUNTIME_HOST_LIBDEVICE_H
#define KJIT_RUNTIME_HOST_LIBDEVICE_H

typedef struct RtHostSym {
  const char *name;    /* the symbol, "__nv_sinf" */
  void (*fn)(void);    /* its address (cast back to the real type by the call) */
} RtHostSym;

/* Every function of ir/libdevice_fns.h, then {NULL, NULL}. */
extern const RtHostSym rt_host_libdevice_symbols[];

#endif
