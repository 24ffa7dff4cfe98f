/* test_random.c - host-side xoroshiro128p state creation against Numba.
 *
 * tests/numba/xoroshiro_reference.txt was recorded on a GPU with Numba 0.68
 * by tests/numba/gen_xoroshiro_reference.py.  Every `state` line (seed,
 * subsequence_start, generator i, s0, s1 of create_xoroshiro128p_states) is
 * compared with rt_xoroshiro128p_init and with kjit_array_xoroshiro128p;
 * every `next` line with rt_xoroshiro128p_next stepped from that state.
 * Also: the xoroshiro:N:SEED[:SUBSEQ] VALUE form and its errors. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kjit.h"
#include "kjitaux.h"
#include "data/random.h"

#include "check.h"

enum { NGEN = 5 };

/* Generator i of (seed, sub) from the library, in both ways. */
static void states_of(kjit_context *ctx, uint64_t seed, uint64_t sub, uint64_t st[NGEN][2]) {
  rt_xoroshiro128p_init(&st[0][0], NGEN, seed, sub);
  kjit_array *a = NULL;
  CHECK(kjit_array_xoroshiro128p(ctx, NGEN, seed, sub, &a) == KJIT_OK, "create: %s", kjit_last_error(ctx));
  if (!a)
    return;
  CHECK(kjit_array_dtype(a) == KJIT_UINT64 && kjit_array_ndim(a) == 2 && kjit_array_shape(a)[0] == NGEN &&
            kjit_array_shape(a)[1] == 2,
        "array is not uint64 (%d, 2)", NGEN);
  CHECK(memcmp(kjit_array_data(a), st, sizeof(uint64_t) * 2 * NGEN) == 0,
        "kjit_array_xoroshiro128p differs from rt_xoroshiro128p_init");
  kjit_array_destroy(a);
}

/* One reference line; returns how many lines were checked (0 or 1). */
static int check_line(kjit_context *ctx, const char *line, int lineno) {
  uint64_t seed, sub, v[6];
  int i;
  uint64_t st[NGEN][2];
  if (sscanf(line, "state seed=%" SCNu64 " sub=%" SCNu64 " i=%d s0=%" SCNu64 " s1=%" SCNu64, &seed, &sub,
             &i, &v[0], &v[1]) == 5) {
    states_of(ctx, seed, sub, st);
    CHECK(i >= 0 && i < NGEN && st[i][0] == v[0] && st[i][1] == v[1],
          "line %d: state %d is (%" PRIu64 ", %" PRIu64 "), Numba has (%" PRIu64 ", %" PRIu64 ")", lineno, i,
          st[i < NGEN ? i : 0][0], st[i < NGEN ? i : 0][1], v[0], v[1]);
    return 1;
  }
  if (sscanf(line, "next seed=%" SCNu64 " sub=%" SCNu64 " i=%d %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64
                   " %" SCNu64 " %" SCNu64, &seed, &sub, &i, &v[0], &v[1], &v[2], &v[3], &v[4], &v[5]) == 9) {
    states_of(ctx, seed, sub, st);
    for (int k = 0; k < 6 && i >= 0 && i < NGEN; k++) {
      uint64_t got = rt_xoroshiro128p_next(st[i]);
      CHECK(got == v[k], "line %d: next #%d is %" PRIu64 ", Numba has %" PRIu64, lineno, k, got, v[k]);
    }
    return 1;
  }
  return 0;
}

static void check_reference(kjit_context *ctx, const char *dir) {
  char path[512], line[4096];
  snprintf(path, sizeof path, "%s/xoroshiro_reference.txt", dir);
  FILE *f = fopen(path, "r");
  CHECK(f != NULL, "cannot read %s", path);
  if (!f)
    return;
  int lineno = 0, checked = 0;
  while (fgets(line, sizeof line, f))
    checked += check_line(ctx, line, ++lineno);
  fclose(f);
  /* 5 seeds x 2 subsequences x 5 generators, state and next lines */
  CHECK(checked == 100, "%d state/next lines checked, expected 100", checked);
}

/* A jump equals 2^64 steps; checked through its algebra: jumping then
 * stepping equals stepping then jumping (both are linear maps of the
 * state, and the jump is a polynomial in the step). */
static void check_jump_commutes(void) {
  uint64_t a[2] = {0x0123456789abcdefull, 0xfedcba9876543210ull}, b[2] = {a[0], a[1]};
  rt_xoroshiro128p_jump(a);
  rt_xoroshiro128p_next(a);
  rt_xoroshiro128p_next(b);
  rt_xoroshiro128p_jump(b);
  CHECK(a[0] == b[0] && a[1] == b[1], "jump and next do not commute");
}

static void check_value_forms(kjit_context *ctx) {
  kjit_arg arg;
  CHECK(kjitaux_arg_parse(ctx, "xoroshiro:5:42:3", "s", &arg) == KJIT_OK, "%s", kjit_last_error(ctx));
  if (arg.kind == KJIT_ARG_ARRAY && arg.value.array) {
    uint64_t st[NGEN][2];
    rt_xoroshiro128p_init(&st[0][0], NGEN, 42, 3);
    CHECK(memcmp(kjit_array_data(arg.value.array), st, sizeof st) == 0, "xoroshiro:5:42:3 differs");
    kjit_array_destroy(arg.value.array);
  }
  CHECK(kjitaux_arg_parse(ctx, "xoroshiro:3:18446744073709551615", "s", &arg) == KJIT_OK, "%s",
        kjit_last_error(ctx));
  if (arg.kind == KJIT_ARG_ARRAY)
    kjit_array_destroy(arg.value.array);
  static const char *const bad[][2] = {
      {"xoroshiro:5", "expected xoroshiro:N:SEED[:SUBSEQ]"},
      {"xoroshiro:-1:0", "is negative"},
      {"xoroshiro:4:1.5", "SEED '1.5'"},
      {"xoroshiro:4:1:-2", "SUBSEQ '-2'"},
      {"xoroshiro:4:18446744073709551616", "within 64 bits"},
  };
  for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
    kjit_status st = kjitaux_arg_parse(ctx, bad[k][0], "s", &arg);
    const char *msg = kjit_last_error(ctx);
    CHECK(st == KJIT_ERROR_INVALID_ARGUMENT && msg && strstr(msg, bad[k][1]), "%s: status %d, message '%s'",
          bad[k][0], (int)st, msg ? msg : "(none)");
  }
  kjit_array *a = NULL;
  CHECK(kjit_array_xoroshiro128p(ctx, -1, 0, 0, &a) == KJIT_ERROR_INVALID_ARGUMENT && !a,
        "n = -1 accepted");
}

int main(int argc, char **argv) {
  kjit_context *ctx = NULL;
  if (kjit_context_create(NULL, &ctx) != KJIT_OK) {
    fprintf(stderr, "no context\n");
    return 1;
  }
  check_reference(ctx, argc > 1 ? argv[1] : "numba");
  check_jump_commutes();
  check_value_forms(ctx);
  kjit_context_destroy(ctx);
  if (failures)
    fprintf(stderr, "%d failure(s)\n", failures);
  return failures ? 1 : 0;
}
