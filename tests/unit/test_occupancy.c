/* test_occupancy.c CASES... - the CPU-side occupancy calculator
 * (kjit_occupancy_compute) against the values of each CASES file
 * (tests/data/occupancy_hand.txt: derived by hand from the tables;
 * tests/data/occupancy_<arch>.txt: the driver's calculator, recorded on a
 * GPU by scripts/gpu_occupancy_record.sh, in the same form; the rows'
 * registers and static shared bytes are the recorded ones, so nothing is
 * recompiled), and
 * kjit_occupancy_best_block on kernels whose best block is known.
 * KJIT_NOT_A_TEST: registered by hand with its files. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kjit.h"

#include "check.h"

static const kjit_context *const ctx = NULL; /* CHECK_STATUS: no last error here */

static int run_cases(const char *path) {
  FILE *f = fopen(path, "r");
  CHECK(f != NULL, "cannot open %s", path);
  if (!f)
    return 0;
  char line[256];
  int n = 0;
  while (fgets(line, sizeof line, f)) {
    char kernel[128], arch[16];
    int regs, barriers, maxt, block, want;
    long long stat, dyn;
    if (line[0] == '#' || line[strspn(line, " \t\n")] == '\0')
      continue;
    int got = sscanf(line, "%127s %15s %d %lld %d %d %d %lld %d", kernel, arch, &regs, &stat,
                     &barriers, &maxt, &block, &dyn, &want);
    CHECK(got == 9, "%s: not a row (kernel arch regs static barriers max_threads block dyn "
          "blocks): %s", path, line);
    if (got != 9)
      continue;
    kjit_resources r = {.registers = regs, .static_shared_bytes = stat, .barriers = barriers,
                        .max_threads_per_block = maxt};
    kjit_occupancy o;
    CHECK_STATUS(kjit_occupancy_compute(&r, arch, block, (size_t)dyn, &o), KJIT_OK);
    CHECK(o.active_blocks_per_sm == want, "%s: %s %s regs %d shared %lld+%lld block %d: %d blocks/SM, "
          "expected %d (limited by %s)", path, kernel, arch, regs, stat, dyn, block,
          o.active_blocks_per_sm, want, o.limited_by);
    n++;
  }
  fclose(f);
  return n;
}

static void check_best(const char *arch, int regs, int maxt, long long dyn, int want_block,
                       int want_warps) {
  kjit_resources r = {.registers = regs, .max_threads_per_block = maxt};
  kjit_occupancy o;
  int b = -1;
  CHECK_STATUS(kjit_occupancy_best_block(&r, arch, (size_t)dyn, &b, &o), KJIT_OK);
  CHECK(b == want_block && o.active_warps_per_sm == want_warps,
        "%s regs %d: best block %d with %d warps, expected %d with %d", arch, regs, b,
        o.active_warps_per_sm, want_block, want_warps);
}

static void check_api(void) {
  kjit_resources r = {.registers = 32};
  kjit_occupancy o;
  int b;
  CHECK_STATUS(kjit_occupancy_compute(&r, "sm_61", 256, 0, &o), KJIT_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(kjit_occupancy_compute(&r, NULL, 256, 0, &o), KJIT_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(kjit_occupancy_compute(NULL, "sm_90", 256, 0, &o), KJIT_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(kjit_occupancy_best_block(&r, "sm_90", 0, NULL, &o), KJIT_ERROR_INVALID_ARGUMENT);
  strcpy(r.arch, "sm_90a");                  /* NULL arch: the resources' own */
  CHECK_STATUS(kjit_occupancy_compute(&r, NULL, 256, 0, &o), KJIT_OK);
  CHECK(o.max_warps_per_sm == 64 && o.occupancy == 1.0);
  r.registers = 300;                         /* no block runs: 0, and why */
  CHECK_STATUS(kjit_occupancy_best_block(&r, NULL, 0, &b, &o), KJIT_OK);
  CHECK(b == 0 && o.active_blocks_per_sm == 0 && strcmp(o.limited_by, "registers") == 0);
}

int main(int argc, char **argv) {
  int n = 0;
  for (int i = 1; i < argc; i++)
    n += run_cases(argv[i]);
  CHECK(argc < 2 || n >= 20, "only %d cases", n);
  check_best("sm_90", 32, 1024, 0, 1024, 64);   /* any 64-warp block: the largest */
  check_best("sm_86", 26, 1024, 0, 768, 48);    /* 1024 would leave 16 of 48 warps idle */
  check_best("sm_90", 128, 512, 0, 512, 16);    /* registers: 16 warps */
  check_best("sm_90", 32, 1024, 100000, 1024, 64); /* 2 blocks of 1024 fit 2 x 101120 B */
  check_best("sm_90", 32, 1024, 150000, 1024, 32); /* one block per SM: the largest */
  check_api();
  printf("test_occupancy: %d cases, %d checks, %d failed\n", n, checks, failures);
  return failures != 0;
}
