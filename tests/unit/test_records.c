/* test_records.c - record arrays (NumPy structured dtypes) through
 * include/kjit.h on the CPU target: kjit_array_create_record (list form
 * with padding, dict form with 'aligned', nested records and array fields),
 * kjit_array_descr / itemsize / dtype, field reads and writes by a lazy and
 * an eager kernel, one record passed by reference (a 0-d record array),
 * the .npy round trip, the per-field summary, a second record type
 * compiling a new specialization, and the misuse caught: malformed descrs,
 * a record that does not fit the eager signature, device copies refused by
 * name.  Uses only the public header; exit 1 on any failure. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "kjit.h"
#include "kjitaux.h"

#include "check.h"

static const char src[] =
    "import numpy as np\n"
    "import numba\n"
    "from numba import cuda\n"
    "\n"
    "pt = numba.from_dtype(np.dtype([('x', np.float32), ('y', np.float64)], align=True))\n"
    "\n"
    "@cuda.jit\n"
    "def scale(a, s):\n"
    "    i = cuda.grid(1)\n"
    "    if i < a.size:\n"
    "        r = a[i]\n"
    "        r.y = r.x * s\n"
    "        r['x'] = i\n"
    "\n"
    "@cuda.jit(\"void(pt, float64[::1])\")\n"
    "def one(r, out):\n"
    "    out[0] = r.x + r.y\n"
    "    r.x = 7\n";

/* x f4 at 0, 4 bytes of padding, y f8 at 8: NumPy's align=True layout. */
#define PT "[('x', '<f4'), ('', '|V4'), ('y', '<f8')]"

typedef struct Pt { float x; double y; } Pt;

static kjit_context *ctx;
static kjit_program *prog;

static kjit_launch_config block(uint32_t n) {
  kjit_launch_config c;
  kjit_launch_config_init(&c);
  c.block[0] = n;
  return c;
}

static kjit_kernel *kernel(const char *name) {
  kjit_kernel *k = NULL;
  CHECK(kjit_program_kernel(prog, name, &k) == KJIT_OK, "%s", kjit_last_error(ctx));
  return k;
}

static void test_create(void) {
  int64_t n = 4;
  kjit_array *a = NULL;
  CHECK(kjit_array_create_record(ctx, PT, 1, &n, &a) == KJIT_OK, "%s", kjit_last_error(ctx));
  CHECK(kjit_array_dtype(a) == KJIT_RECORD, "dtype %d", (int)kjit_array_dtype(a));
  CHECK(kjit_array_itemsize(a) == 16, "itemsize %lld", (long long)kjit_array_itemsize(a));
  CHECK(kjit_array_strides(a)[0] == 16, "stride");
  CHECK(kjit_array_descr(a) && strcmp(kjit_array_descr(a), PT) == 0, "%s", kjit_array_descr(a));
  CHECK(strcmp(kjit_dtype_name(KJIT_RECORD), "record") == 0 && kjit_dtype_size(KJIT_RECORD) == 0, "name");
  Pt *p = kjit_array_data(a);
  for (int i = 0; i < 4; i++)
    p[i].x = (float)(i + 1);
  kjit_arg args[2] = {kjit_arg_array(a), kjit_arg_f64(0.5)};
  kjit_launch_config c = block(4);
  CHECK(kjit_launch(kernel("scale"), &c, args, 2) == KJIT_OK, "%s", kjit_last_error(ctx));
  for (int i = 0; i < 4; i++)
    CHECK(p[i].x == (float)i && p[i].y == (i + 1) * 0.5, "element %d: %g %g", i, p[i].x, p[i].y);
  char *s = NULL;
  CHECK(kjitaux_array_summary(a, &s) == KJIT_OK && s && strstr(s, "\n.y: float64[4] [0.5, 1, 1.5, 2] sum=5 "),
        "%s", s ? s : "(null)");
  kjit_free(s);
  const char *path = "test_records_out.npy";
  kjit_array *b = NULL;
  CHECK(kjit_array_save_npy(a, path) == KJIT_OK, "%s", kjit_last_error(ctx));
  CHECK(kjit_array_load_npy(ctx, path, &b) == KJIT_OK, "%s", kjit_last_error(ctx));
  CHECK(b && kjit_array_itemsize(b) == 16 && memcmp(kjit_array_data(a), kjit_array_data(b), 64) == 0,
        "round trip");
  remove(path);
  kjit_array_destroy(b);
  kjit_array *d = NULL;
  CHECK(kjit_array_to_device(ctx, a, &d) == KJIT_ERROR_INVALID_ARGUMENT ||
            kjit_array_to_device(ctx, a, &d) == KJIT_ERROR_NO_DEVICE,
        "device copy of records");
  kjit_array_destroy(a);
}

static void test_by_reference(void) {
  kjit_array *r = NULL, *out = NULL;
  int64_t one_elem = 1;
  CHECK(kjit_array_create_record(ctx, "{'names': ['x', 'y'], 'formats': ['<f4', '<f8'], "
                                      "'offsets': [0, 8], 'itemsize': 16, 'aligned': True}",
                                 0, NULL, &r) == KJIT_OK, "%s", kjit_last_error(ctx));
  CHECK(kjit_array_create(ctx, KJIT_FLOAT64, 1, &one_elem, &out) == KJIT_OK, "%s", kjit_last_error(ctx));
  Pt *p = kjit_array_data(r);
  p->x = 1.5f;
  p->y = 2.25;
  kjit_arg args[2] = {kjit_arg_array(r), kjit_arg_array(out)};
  kjit_launch_config c = block(1);
  CHECK(kjit_launch(kernel("one"), &c, args, 2) == KJIT_OK, "%s", kjit_last_error(ctx));
  CHECK(((double *)kjit_array_data(out))[0] == 3.75 && p->x == 7.0f, "by reference: %g",
        ((double *)kjit_array_data(out))[0]);
  kjit_array *other = NULL; /* another record: the eager signature refuses it */
  CHECK(kjit_array_create_record(ctx, "[('x', '<f4'), ('y', '<f4')]", 0, NULL, &other) == KJIT_OK,
        "%s", kjit_last_error(ctx));
  args[0] = kjit_arg_array(other);
  CHECK(kjit_launch(kernel("one"), &c, args, 2) != KJIT_OK &&
            strstr(kjit_last_error(ctx), "does not match the signature's Record("),
        "%s", kjit_last_error(ctx));
  kjit_array_destroy(other);
  kjit_array_destroy(out);
  kjit_array_destroy(r);
}

/* A second record type is a new specialization (nested array field). */
static void test_second_type(void) {
  int64_t n = 2;
  kjit_array *a = NULL;
  CHECK(kjit_array_create_record(ctx, "[('x', '<f8'), ('v', '<i4', (2,)), ('y', '<f4')]", 1, &n, &a) ==
            KJIT_OK, "%s", kjit_last_error(ctx));
  unsigned char *base = kjit_array_data(a);
  double x = 3;
  memcpy(base, &x, 8);
  kjit_arg args[2] = {kjit_arg_array(a), kjit_arg_f64(2)};
  kjit_launch_config c = block(2);
  CHECK(kjit_launch(kernel("scale"), &c, args, 2) == KJIT_OK, "%s", kjit_last_error(ctx));
  float y;
  memcpy(&y, base + 16, 4);
  CHECK(y == 6.0f, "y = %g", y);
  kjit_array_destroy(a);
}

static void test_misuse(void) {
  kjit_array *a = NULL;
  int64_t n = 2;
  CHECK(kjit_array_create_record(ctx, "[('x', '|O')]", 1, &n, &a) == KJIT_ERROR_INVALID_ARGUMENT &&
            strstr(kjit_last_error(ctx), "'|O' is not supported"), "%s", kjit_last_error(ctx));
  CHECK(kjit_array_create_record(ctx, "[('x', '<f4')", 1, &n, &a) == KJIT_ERROR_INVALID_ARGUMENT,
        "unterminated");
  CHECK(kjit_array_create_record(ctx, NULL, 1, &n, &a) == KJIT_ERROR_INVALID_ARGUMENT, "NULL descr");
  CHECK(kjit_array_create(ctx, KJIT_RECORD, 1, &n, &a) == KJIT_ERROR_INVALID_ARGUMENT,
        "kjit_array_create needs a descr for records");
  CHECK(kjit_array_descr(NULL) == NULL && kjit_array_itemsize(NULL) == -1, "accessors");
}

int main(void) {
  kjit_context_options o;
  kjit_context_options_init(&o);
  o.target = KJIT_TARGET_CPU;
  if (kjit_context_create(&o, &ctx) != KJIT_OK ||
      kjit_program_load_source(ctx, "records_test.py", src, &prog) != KJIT_OK) {
    fprintf(stderr, "setup failed: %s\n", ctx ? kjit_last_error(ctx) : "no context");
    return 1;
  }
  test_create();
  test_by_reference();
  test_second_type();
  test_misuse();
  kjit_context_destroy(ctx);
  printf("test_records: %d checks, %d failures\n", checks, failures);
  return failures ? 1 : 0;
}
