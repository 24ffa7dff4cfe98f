/* test_namedtuple.c - namedtuple arguments through the public API on the
 * CPU target: kjit_arg_named_tuple with positional fields and with keys,
 * a namedtuple nested in a tuple, kjitaux_arg_parse's "Point(x=..)" form and
 * kjitaux_arg_free on it, and the launch errors (unknown class, missing,
 * unknown and repeated fields, too many values). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "kjit.h"
#include "kjitaux.h"

#include "check.h"

static const char src[] =
    "from collections import namedtuple\n"
    "from numba import cuda\n"
    "\n"
    "Point = namedtuple('Point', ['x', 'y'])\n"
    "\n"
    "@cuda.jit\n"
    "def k(p, out):\n"
    "    out[0] = p.x - p.y\n"
    "    out[1] = p[1]\n"
    "\n"
    "@cuda.jit\n"
    "def nested(t, out):\n"
    "    out[0] = t[0] + t[1].x * t[1].y\n";

static kjit_context *ctx;
static kjit_program *prog;

static kjit_status launch(const char *name, kjit_arg a, kjit_array *out) {
  kjit_kernel *k = NULL;
  kjit_launch_config c;
  kjit_launch_config_init(&c);
  kjit_arg args[2] = {a, kjit_arg_array(out)};
  kjit_status st = kjit_program_kernel(prog, name, &k);
  return st == KJIT_OK ? kjit_launch(k, &c, args, 2) : st;
}

static void expect(kjit_status st, const char *text, int line) {
  checks++;
  if (st != KJIT_ERROR_INVALID_ARGUMENT || !strstr(kjit_last_error(ctx), text)) {
    failures++;
    fprintf(stderr, "line %d: got %s, want INVALID_ARGUMENT with \"%s\":\n%s\n", line,
            kjit_status_name(st), text, kjit_last_error(ctx));
  }
}

int main(void) {
  kjit_context_options o;
  kjit_context_options_init(&o);
  o.target = KJIT_TARGET_CPU;
  int64_t n = 2;
  kjit_array *out = NULL;
  if (kjit_context_create(&o, &ctx) != KJIT_OK ||
      kjit_program_load_source(ctx, "nt_test.py", src, &prog) != KJIT_OK ||
      kjit_array_create(ctx, KJIT_FLOAT64, 1, &n, &out) != KJIT_OK) {
    fprintf(stderr, "setup failed: %s\n", ctx ? kjit_last_error(ctx) : "no context");
    return 1;
  }
  const double *o2 = kjit_array_data(out);
  kjit_arg f[2] = {kjit_arg_f64(5.0), kjit_arg_f64(1.5)};
  CHECK(launch("k", kjit_arg_named_tuple("Point", f, 2), out) == KJIT_OK, "%s", kjit_last_error(ctx));
  CHECK(o2[0] == 3.5 && o2[1] == 1.5, "positional: %g %g", o2[0], o2[1]);
  const char *keys[2] = {"y", "x"};
  kjit_arg kw = kjit_arg_named_tuple("Point", f, 2);
  kw.value.tuple.keys = keys; /* y=5.0, x=1.5 */
  CHECK(launch("k", kw, out) == KJIT_OK, "%s", kjit_last_error(ctx));
  CHECK(o2[0] == -3.5 && o2[1] == 5.0, "keys: %g %g", o2[0], o2[1]);
  kjit_arg inner[2] = {kjit_arg_i64(2), kjit_arg_named_tuple("Point", f, 2)};
  CHECK(launch("nested", kjit_arg_tuple(inner, 2), out) == KJIT_OK, "%s", kjit_last_error(ctx));
  CHECK(o2[0] == 9.5, "nested: %g", o2[0]);
  kjit_arg parsed;
  CHECK(kjitaux_arg_parse(ctx, "Point(y=0.5, x=int32:4)", "p", &parsed) == KJIT_OK &&
            parsed.value.tuple.name && strcmp(parsed.value.tuple.name, "Point") == 0,
        "parse: %s", kjit_last_error(ctx));
  CHECK(launch("k", parsed, out) == KJIT_OK && o2[0] == 3.5, "parsed: %g (%s)", o2[0],
        kjit_last_error(ctx));
  kjitaux_arg_free(&parsed);
  CHECK(!parsed.value.tuple.name && !parsed.value.tuple.keys, "freed");
  expect(launch("k", kjit_arg_named_tuple("Pnt", f, 2), out), "no namedtuple class 'Pnt'", __LINE__);
  expect(launch("k", kjit_arg_named_tuple("Point", f, 1), out), "field 'y' of Point is missing",
         __LINE__);
  const char *bad[2] = {"x", "z"}, *twice[2] = {"x", "x"};
  kw.value.tuple.keys = bad;
  expect(launch("k", kw, out), "Point has no field 'z'", __LINE__);
  kw.value.tuple.keys = twice;
  expect(launch("k", kw, out), "field 'x' of Point is given twice", __LINE__);
  kjit_arg three[3] = {f[0], f[1], f[1]};
  expect(launch("k", kjit_arg_named_tuple("Point", three, 3), out), "Point has 2 fields, 3 values",
         __LINE__);
  kjit_context_destroy(ctx);
  printf("test_namedtuple: %d checks, %d failures\n", checks, failures);
  return failures ? 1 : 0;
}
