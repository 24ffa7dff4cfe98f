/* kjit_resources.c - how the CLI prints a kernel's resource usage
 * (kjit_program_resources): one line per kernel, so scripts can read a
 * field with grep or awk and tests can compare it with `ptxas -v`. */
#include <inttypes.h>
#include <stdio.h>

#include "cli_run.h"

/* ", LABEL N B" for a known value; nothing for -1 (the driver's view of
 * a launched kernel has no spill split and no code sizes). */
static void field(FILE *f, const char *label, int64_t v, const char *unit) {
  if (v >= 0)
    fprintf(f, ", %s %" PRId64 "%s", label, v, unit);
}

void kjit_cli_print_resources(FILE *f, const kjit_resources *r) {
  fprintf(f, "%s %s: registers %d", r->name, r->arch, r->registers);
  field(f, "stack", r->stack_bytes, " B");
  field(f, "spill stores", r->spill_store_bytes, " B");
  field(f, "spill loads", r->spill_load_bytes, " B");
  field(f, "static shared", r->static_shared_bytes, " B");
  field(f, "const", r->const_bytes, " B");
  field(f, "barriers", r->barriers, "");
  field(f, "max threads/block", r->max_threads_per_block, "");
  field(f, "PTX", r->ptx_bytes, " B");
  field(f, "SASS", r->sass_bytes, " B");
  field(f, "cubin", r->cubin_bytes, " B");
  fputc('\n', f);
}
