/* kjit_resources.c - how the CLI prints a kernel's resource usage
 * (kjit_program_resources): one line per kernel, so scripts can read a
 * field with grep or awk and tests can compare it with `ptxas -v`. */
#include <inttypes.h>
#include <stdio.h>

#include "cli_run.h"

void kjit_cli_print_resources(FILE *f, const kjit_resources *r) {
  fprintf(f, "%s %s: registers %d, stack %" PRId64 " B, spill stores %" PRId64
             " B, spill loads %" PRId64 " B, static shared %" PRId64 " B, const %" PRId64
             " B, barriers %d, max threads/block %d, PTX %" PRId64 " B, SASS %" PRId64
             " B, cubin %" PRId64 " B\n",
          r->name, r->arch, r->registers, r->stack_bytes, r->spill_store_bytes,
          r->spill_load_bytes, r->static_shared_bytes, r->const_bytes, r->barriers,
          r->max_threads_per_block, r->ptx_bytes, r->sass_bytes, r->cubin_bytes);
}
