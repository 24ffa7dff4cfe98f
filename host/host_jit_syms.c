/* host_jit_syms.c - the addresses the host JIT defines for the code it runs
 * (common/host_abi.h, "Symbols JIT code calls"): the executor's kjit_host_*
 * functions and the CPU's libdevice.  The runtime hands them to cg_jit_new,
 * so codegen/ neither includes runtime/ headers nor links against runtime/
 * functions; the list is data, and a new executor entry point is one row. */
#include "host/host_exec.h"
#include "host/host_libdevice_internal.h"

#define ROW(fn) {#fn, (void (*)(void))fn}

static const HostSym executor_symbols[] = {
    ROW(kjit_host_syncthreads),     ROW(kjit_host_syncthreads_count),
    ROW(kjit_host_syncthreads_and), ROW(kjit_host_syncthreads_or),
    ROW(kjit_host_syncwarp),        ROW(kjit_host_sync_grid),
    ROW(kjit_host_warp_shfl),       ROW(kjit_host_warp_vote),
    ROW(kjit_host_warp_match),      ROW(kjit_host_warp_activemask),
    ROW(kjit_host_index_error),     ROW(kjit_host_assert_fail),
    ROW(kjit_host_region_frame),    ROW(kjit_host_region_next),
    {NULL, NULL}};

const HostSym *const rt_host_jit_symbols[] = {executor_symbols, rt_host_libdevice_symbols, NULL};
