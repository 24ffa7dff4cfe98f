/* resources.h - what a compiled kernel uses of the GPU (registers, local
 * and spill bytes, static shared, constant bytes, machine-code size), read
 * without a GPU from what nvJitLink says while it links (-verbose: ptxas's
 * own report, the same lines `ptxas -v -c` prints) and from the cubin's
 * ELF section table.  kjit_program_resources (api/emit.c) is the caller. */
#ifndef KJIT_CUDA_RESOURCES_H
#define KJIT_CUDA_RESOURCES_H

#include <stddef.h>
#include <stdint.h>

#include "kjit.h"

/* The entries of ptxas's report in `log` (nvJitLink's -verbose info log):
 * out[0 .. min(n, max)-1] filled (name, registers, barriers, stack, spills,
 * static shared, constant bank 0); returns n, the number of entry
 * functions the log describes (device functions are skipped). */
int rt_resources_parse(const char *log, kjit_resources *out, int max);

/* The size of ELF section `name` (".text.add_kernel__a1Cf32") of a cubin,
 * or -1 when the image is not a 64-bit ELF or has no such section. */
int64_t rt_cubin_section_size(const void *cubin, size_t len, const char *name);

/* The largest block (threads, a multiple of 32, at most 1024) whose
 * registers fit the 64 K registers a block may hold on sm_70 .. sm_90:
 * each warp takes registers * 32 rounded up to the 256-register allocation
 * unit, as the driver's CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK counts. */
int rt_max_threads_for_registers(int registers);

#endif
