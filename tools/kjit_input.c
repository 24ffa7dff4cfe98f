/* kjit_input.c - where `kjit run|ptx|check` read a kernel source from: a
 * file (Python, or CUDA C for .cu/.cuh, with the NVRTC options of
 * tools/kjit_cuda.c), or standard input for the name "-", which is read
 * as a Python kernel file named "<stdin>" in diagnostics
 * (kjit_program_load_fd: the library reads it, with its size cap). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_run.h"

/* The name diagnostics give standard input, as Python and GCC call it. */
#define STDIN_NAME "<stdin>"

int kjit_cli_is_stdin(const char *file) {
  return strcmp(file, "-") == 0;
}

/* "-": standard input, read once per process (a second "-" would find it
 * empty, so the command lines refuse it before anything is read). */
static kjit_status load_stdin(kjit_context *ctx, const CliCuda *cu, kjit_program **out,
                              int *usage) {
  if (cu->n) {
    fprintf(stderr, "kjit: error: '%s' is an NVRTC option; standard input is read as a "
                    "Python kernel file (give CUDA C as a .cu file)\n", cu->opts[0]);
    *usage = 1;
    return KJIT_ERROR_INVALID_ARGUMENT;
  }
  return kjit_program_load_fd(ctx, STDIN_NAME, 0, out); /* the library's size cap */
}

kjit_status kjit_cli_load(kjit_context *ctx, const char *file, const CliCuda *cu,
                          kjit_program **out, int *usage) {
  *usage = 0;
  if (kjit_cli_is_stdin(file))
    return load_stdin(ctx, cu, out, usage);
  if (kjit_cli_is_cuda_file(file)) {
    kjit_cuda_options o;
    kjit_cuda_options_init(&o);
    o.nvrtc_options = (const char *const *)cu->opts;
    o.count = cu->n;
    return kjit_program_load_cuda_file(ctx, file, &o, out);
  }
  if (cu->n) {
    fprintf(stderr, "kjit: error: '%s' is an NVRTC option; it applies to CUDA C files (.cu) only\n",
            cu->opts[0]);
    *usage = 1;
    return KJIT_ERROR_INVALID_ARGUMENT;
  }
  return kjit_program_load_file(ctx, file, out);
}
