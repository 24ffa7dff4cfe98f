/* kjit_ptr.c - raw pointer arguments of `kjit run`: NAME=ptr:VALUE.
 *
 * A kernel parameter typed types.CPointer(T) takes an address, as Numba's
 * launch takes a pointer-sized integer.  The CLI makes the array VALUE as
 * for any array argument, passes the address of its elements
 * (kjit_arg_pointer) and prints and writes the array afterwards as it does
 * arrays; on the cuda target the address is that of a device copy, copied
 * back after the launch.  Written on kjit.h alone. */
#include <stdio.h>
#include <string.h>

#include "cli_run.h"

const char *kjit_cli_ptr_value(const char *spec) {
  return spec && strncmp(spec, "ptr:", 4) == 0 ? spec + 4 : NULL;
}

/* Elements in C order with no gaps: what a pointer walks. */
static int c_contiguous(const kjit_array *a) {
  int64_t want = kjit_array_itemsize(a);
  const int64_t *shape = kjit_array_shape(a), *strides = kjit_array_strides(a);
  for (int d = kjit_array_ndim(a) - 1; d >= 0; d--) {
    if (shape[d] != 1 && strides[d] != want)
      return 0;
    want *= shape[d];
  }
  return 1;
}

/* A ptr: argument the command line got wrong: 2, a usage error. */
static int fail(const char *name, const char *hint, const char *what) {
  fprintf(stderr, "kjit: error: argument '%s': %s\n", name, what);
  if (hint)
    fprintf(stderr, "  hint: %s\n", hint);
  fputs("Try 'kjit run --help'.\n", stderr);
  return 2;
}

/* One pointer argument from array a (host memory). */
static int one_pointer(kjit_context *ctx, kjit_array *a, const char *name, kjit_target tg,
                       kjit_arg *out, kjit_array **dev) {
  kjit_dtype dt = kjit_array_dtype(a);
  if (dt == KJIT_RECORD)
    return fail(name, "point to numbers: ptr:zeros:f32:N", "ptr: takes an array of numbers, not of records");
  if (!c_contiguous(a))
    return fail(name, NULL, "ptr: needs a C-contiguous array");
  if (tg == KJIT_TARGET_CUDA && kjit_array_to_device(ctx, a, dev) != KJIT_OK) {
    fputs(kjit_last_error(ctx), stderr);
    return 1;
  }
  *out = kjit_arg_pointer(dt, kjit_array_data(*dev ? *dev : a));
  return 0;
}

int kjit_cli_ptr_args(kjit_context *ctx, const kjit_arg *vals, const unsigned char *is_ptr, int n,
                      const char *const *names, kjit_arg *out, kjit_array **dev) {
  kjit_target tg = KJIT_TARGET_CPU;
  int any = 0;
  for (int i = 0; i < n; i++)
    any |= is_ptr[i];
  if (any && kjit_context_target(ctx, &tg) != KJIT_OK) {
    fputs(kjit_last_error(ctx), stderr);
    return 1;
  }
  for (int i = 0; i < n; i++) {
    out[i] = vals[i];
    dev[i] = NULL;
    if (!is_ptr[i])
      continue;
    const char *name = names && names[i] ? names[i] : "?";
    if (vals[i].kind != KJIT_ARG_ARRAY)
      return fail(name, "write NAME=ptr:VALUE with an array VALUE (ptr:x.npy, ptr:zeros:f32:N)",
                  "ptr: takes an array, whose address is passed");
    int rc = one_pointer(ctx, vals[i].value.array, name, tg, &out[i], &dev[i]);
    if (rc)
      return rc;
  }
  return 0;
}

int kjit_cli_ptr_back(kjit_context *ctx, const kjit_arg *vals, kjit_array **dev, int n) {
  int rc = 0;
  for (int i = 0; i < n; i++) {
    if (!dev[i])
      continue;
    if (!rc && kjit_array_copy(vals[i].value.array, dev[i]) != KJIT_OK) {
      fputs(kjit_last_error(ctx), stderr);
      rc = 1;
    }
    kjit_array_destroy(dev[i]);
    dev[i] = NULL;
  }
  return rc;
}
