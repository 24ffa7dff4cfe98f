/* vector_add.c - a host program that runs examples/vector_add.py through
 * the C API: load the kernel file, make the arrays, launch add_kernel on
 * the CPU target, check and print the result.
 *
 *   cc vector_add.c $(pkg-config --cflags --libs kjit) -o vector_add
 *   ./vector_add [examples/vector_add.py]
 *
 * Built and run by the tests (ctest -R example/vector_add). */
#include <stdio.h>
#include <stdlib.h>

#include <kjit.h>

#define N (1 << 20)

/* Prints the context's last error and returns 1. */
static int fail(kjit_context *ctx, const char *what, kjit_status st) {
  fprintf(stderr, "vector_add: %s failed (%s)\n%s", what, kjit_status_name(st),
          kjit_last_error(ctx));
  return 1;
}

/* out = x + y, with x = 0, 1, 2, ... and y = 2x as the Numba script does.
 * x and y are the program's own memory, wrapped without a copy; out is
 * allocated by kjit. */
static int run(kjit_context *ctx, const char *path, float *x, float *y) {
  kjit_program *prog;
  kjit_kernel *add;
  kjit_array *ax, *ay, *aout;
  int64_t n = N;
  kjit_status st;
  if ((st = kjit_program_load_file(ctx, path, &prog)) != KJIT_OK)
    return fail(ctx, "loading the kernel file", st);
  if ((st = kjit_program_kernel(prog, "add_kernel", &add)) != KJIT_OK)
    return fail(ctx, "finding add_kernel", st);
  if ((st = kjit_array_wrap(ctx, KJIT_FLOAT32, 1, &n, NULL, x, &ax)) != KJIT_OK ||
      (st = kjit_array_wrap(ctx, KJIT_FLOAT32, 1, &n, NULL, y, &ay)) != KJIT_OK ||
      (st = kjit_array_create(ctx, KJIT_FLOAT32, 1, &n, &aout)) != KJIT_OK)
    return fail(ctx, "making the arrays", st);

  kjit_launch_config cfg;
  kjit_launch_config_init(&cfg);
  cfg.block[0] = 256;
  cfg.grid[0] = (N + 255) / 256;
  kjit_arg args[3] = {kjit_arg_array(ax), kjit_arg_array(ay), kjit_arg_array(aout)};
  if ((st = kjit_launch(add, &cfg, args, 3)) != KJIT_OK)
    return fail(ctx, "launching add_kernel", st);

  const float *out = kjit_array_data(aout);
  double max_err = 0;
  for (int i = 0; i < N; i++) {
    double e = out[i] - (x[i] + y[i]);
    if (e < 0) e = -e;
    if (e > max_err) max_err = e;
  }
  double compile_ms, run_ms;
  kjit_last_timing(ctx, &compile_ms, NULL, &run_ms);
  printf("[%g %g %g %g %g %g %g %g]\n", out[0], out[1], out[2], out[3], out[4], out[5],
         out[6], out[7]);
  printf("max error: %g\n", max_err);
  fprintf(stderr, "compile %.1f ms, kernel %.3f ms\n", compile_ms, run_ms);
  return max_err == 0 ? 0 : 1;  /* arrays and program go with the context */
}

int main(int argc, char **argv) {
  const char *path = argc > 1 ? argv[1] : "examples/vector_add.py";
  kjit_context_options opts;
  kjit_context_options_init(&opts);
  opts.target = KJIT_TARGET_CPU;
  kjit_context *ctx;
  if (kjit_context_create(&opts, &ctx) != KJIT_OK)
    return 1;
  float *x = malloc(N * sizeof *x), *y = malloc(N * sizeof *y);
  if (!x || !y)
    return 1;
  for (int i = 0; i < N; i++) {
    x[i] = (float)i;
    y[i] = 2.0f * (float)i;
  }
  int rc = run(ctx, path, x, y);
  kjit_context_destroy(ctx);  /* before freeing x and y: arrays view them */
  free(x);
  free(y);
  return rc;
}
