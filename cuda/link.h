/* link.h - `link=[...]` CUDA C files: found next to the kernel file,
 * compiled by NVRTC (cuda/nvrtc.c, results kept in the disk cache) and
 * linked with the kernel's PTX by nvJitLink into one cubin. */
#ifndef KJIT_RUNTIME_LINK_H
#define KJIT_RUNTIME_LINK_H

#include "cuda/cuda.h"
#include "runtime/runtime.h"

/* At load: every link= file (kernels, device functions, declare_device)
 * exists and is readable; else an error at its string literal. */
bool rt_link_check_files(kjit_program *prog, Diags *diags);

/* The kernels' files to link: each kernel's own link=, every device
 * function's, every declare_device's (deduplicated). */
int rt_link_count(kjit_program *prog, IrFunc *const *kernels, int nkernels);

/* Compiles those files to PTX for sm (80 for sm_80, suffix 'a' ignored by
 * NVRTC's virtual arch); *inputs (malloc'd, free with rt_link_inputs_free)
 * gets one entry per file. */
bool rt_link_compile(kjit_program *prog, IrFunc *const *kernels, int nkernels, int sm,
                     RtLinkInput **inputs, int *n, Diags *diags);
void rt_link_inputs_free(RtLinkInput *inputs, int n);

/* kjit_program_emit(KJIT_EMIT_CUBIN): the kernels' PTX linked with their
 * files for `arch` ("sm_90") by nvJitLink, no GPU needed; *cubin malloc'd.
 * `info` non-NULL: linked with -verbose, *info gets nvJitLink's info log
 * (malloc'd, NULL when it gives none; cuda/resources.h reads it). */
bool rt_link_cubin(kjit_program *prog, IrFunc *const *kernels, int nkernels, const char *arch,
                   const char *ptx, size_t len, char **cubin, size_t *cubin_len, char **info,
                   Diags *diags);

#endif
