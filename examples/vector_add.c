/* vector_add.c - a host program that runs examples/vector_add.py through
 * the C API: load the kernel file, make the arrays, launch add_kernel on
 * the CPU target (or the GPU: --target cuda|auto), check and print the
 * result; exit 0 only when every element is exact.
 *
 *   cc vector_add.c $(pkg-config --cflags --libs kjit) -o vector_add
 *   ./vector_add [--target cpu|cuda|auto] [examples/vector_add.py]
 *
 * Built and run by the tests (ctest -R example/vector_add). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
  if ((st = kjit_synchronize(ctx)) != KJIT_OK)   /* on a GPU: out is copied back */
    return fail(ctx, "running add_kernel", st);

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

/* "--target NAME": *target, 0; anything else 1. */
static int parse_target(const char *name, kjit_target *target) {
  if (strcmp(name, "cpu") == 0) *target = KJIT_TARGET_CPU;
  else if (strcmp(name, "cuda") == 0) *target = KJIT_TARGET_CUDA;
  else if (strcmp(name, "auto") == 0) *target = KJIT_TARGET_AUTO;
  else return 1;
  return 0;
}

int main(int argc, char **argv) {
  const char *path = "examples/vector_add.py";
  kjit_context_options opts;
  kjit_context_options_init(&opts);
  opts.target = KJIT_TARGET_CPU;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--target") == 0 && i + 1 < argc && !parse_target(argv[i + 1], &opts.target))
      i++;
    else if (argv[i][0] != '-')
      path = argv[i];
    else {
      fprintf(stderr, "usage: vector_add [--target cpu|cuda|auto] [FILE.py]\n");
      return 2;
    }
  }
  kjit_context *ctx = NULL;
  kjit_status st = kjit_context_create(&opts, &ctx);
  kjit_target target = KJIT_TARGET_CPU;
  if (st == KJIT_OK)
    st = kjit_context_target(ctx, &target);   /* cuda without a GPU fails here */
  if (st != KJIT_OK) {
    fprintf(stderr, "vector_add: no context (%s)\n%s", kjit_status_name(st),
            ctx ? kjit_last_error(ctx) : "");
    kjit_context_destroy(ctx);
    return 1;
  }
  fprintf(stderr, "target: %s\n", target == KJIT_TARGET_CUDA ? "cuda" : "cpu");
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
