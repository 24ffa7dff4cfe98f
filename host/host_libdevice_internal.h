/* host_libdevice.h - the CPU target's definitions of libdevice's __nv_*
 * functions (host/host_libdevice.c), which the host JIT (codegen/cg_jit.c)
 * defines as absolute symbols so cuda.libdevice calls run on the CPU; the
 * runtime hands the table to cg_jit_new (rt_host_jit_symbols). */
#ifndef KJIT_RUNTIME_HOST_LIBDEVICE_H
#define KJIT_RUNTIME_HOST_LIBDEVICE_H

#include "common/host_abi.h"

typedef HostSym RtHostSym; /* {"__nv_sinf", its address} */

/* Every function of ir/libdevice_fns.h, then {NULL, NULL}. */
extern const RtHostSym rt_host_libdevice_symbols[];

/* The tables the host JIT defines for every program (cg_jit_new): the
 * executor's kjit_host_* functions, then rt_host_libdevice_symbols; NULL
 * ends the list (host/host_jit_syms.c). */
extern const HostSym *const rt_host_jit_symbols[];

#endif
