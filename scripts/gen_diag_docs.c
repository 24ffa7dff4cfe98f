/* gen_diag_docs.c - prints docs/diagnostics.md from common/diag_codes.h.
 *
 * Built and run by scripts/gen_diag_docs.sh (which also checks, as the ctest
 * docs/diagnostics, that the committed page is current).  Uses the table
 * only, so it needs no library: one row per code, in the table's order. */
#include <stdio.h>

#include "common/diag_codes.h"

static const char *const status_names[] = {
#define S(name) "KJIT_ERROR_" #name,
    DIAG_STATUSES(S)
#undef S
};

static void put_header(void) {
  puts("# Diagnostic codes\n");
  puts("<!-- Generated from common/diag_codes.h by scripts/gen_diag_docs.sh; do not edit. -->\n");
  puts("Every error and warning kjit reports carries a stable code, shown in its header:");
  puts("`file:line:col: error[E303]: message` (`kjit: error[E490]: message` without a");
  puts("location; notes carry none).  A call that fails returns the status of its first");
  puts("error's code.  The family is the first digit: E0xx files, API arguments, the CUDA");
  puts("target and CUDA C; E1xx lexer and parser; E2xx names and unsupported Python; E3xx");
  puts("typing; E4xx signatures, options and launches; E5xx code generation.\n");
  puts("| code | name | status | summary |");
  puts("| --- | --- | --- | --- |");
}

int main(void) {
  put_header();
#define X(name, num, status, summary) \
  printf("| E%03d | `%s` | `%s` | %s |\n", num, #name, status_names[DS_##status], summary);
  DIAG_CODES(X)
#undef X
  return 0;
}
