/* test_embed.c - the embedding API of include/kjit.h on the cpu target, so
 * CI checks it without a GPU (tests/gpu/embed/embed_gpu.c checks the GPU
 * side): context options for a caller's CUDA context and the fault policy,
 * device-memory wrapping refused without a GPU, views (a column, reversed,
 * out of bounds), streams and events as tokens, kjit_array_copy_async,
 * kjit_kernel_prepare (the launch after it compiles nothing), and a launch
 * naming a stream.  Prints each failure; exit 1 if any. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kjit.h"

#include "check.h"

static const char src[] =
    "from numba import cuda\n"
    "\n"
    "@cuda.jit\n"
    "def incr(v):\n"
    "    i = cuda.grid(1)\n"
    "    if i < v.shape[0]:\n"
    "        v[i] += 1\n"
    "\n"
    "@cuda.jit\n"
    "def iota(v):\n"
    "    i = cuda.grid(1)\n"
    "    if i < v.shape[0]:\n"
    "        v[i] = i\n"
    "\n"
    "from numba import vectorize\n"
    "\n"
    "@vectorize(['float32(float32, float32)'], target='cuda')\n"
    "def vadd(a, b):\n"
    "    return a + b\n"
    "\n"
    "@cuda.reduce\n"
    "def total(a, b):\n"
    "    return a + b\n";

static void expect(kjit_context *ctx, kjit_status st, kjit_status want, const char *text, int line) {
  checks++;
  const char *e = ctx ? kjit_last_error(ctx) : "";
  if (st != want || (text && !strstr(e, text))) {
    failures++;
    fprintf(stderr, "line %d: got %s, want %s containing \"%s\"; last error:\n%s\n", line,
            kjit_status_name(st), kjit_status_name(want), text ? text : "", e);
  }
}
#define EXPECT(ctx, call, want, text) expect(ctx, (call), want, text, __LINE__)

static kjit_context *cpu_context(void) {
  kjit_context_options o;
  kjit_context_options_init(&o);
  o.target = KJIT_TARGET_CPU;
  kjit_context *ctx = NULL;
  kjit_context_create(&o, &ctx);
  return ctx;
}

static void options(void) {
  struct { int mode; int with_ctx; int policy; kjit_target target; kjit_status want; } cases[] = {
      {KJIT_CUDA_CONTEXT_PRIMARY, 0, KJIT_FAULT_REPORT, KJIT_TARGET_AUTO, KJIT_OK},
      {KJIT_CUDA_CONTEXT_PRIMARY, 0, KJIT_FAULT_RESET, KJIT_TARGET_AUTO, KJIT_OK},
      {KJIT_CUDA_CONTEXT_OWN, 0, KJIT_FAULT_RESET, KJIT_TARGET_CUDA, KJIT_OK},
      {KJIT_CUDA_CONTEXT_CURRENT, 0, KJIT_FAULT_REPORT, KJIT_TARGET_AUTO, KJIT_OK},
      /* kjit never resets a context that is not its to reset */
      {KJIT_CUDA_CONTEXT_CURRENT, 0, KJIT_FAULT_RESET, KJIT_TARGET_AUTO, KJIT_ERROR_INVALID_ARGUMENT},
      {KJIT_CUDA_CONTEXT_PRIMARY, 1, KJIT_FAULT_RESET, KJIT_TARGET_CUDA, KJIT_ERROR_INVALID_ARGUMENT},
      /* a given context with another mode, a caller's context on the cpu */
      {KJIT_CUDA_CONTEXT_OWN, 1, KJIT_FAULT_REPORT, KJIT_TARGET_CUDA, KJIT_ERROR_INVALID_ARGUMENT},
      {KJIT_CUDA_CONTEXT_PRIMARY, 1, KJIT_FAULT_REPORT, KJIT_TARGET_CPU, KJIT_ERROR_INVALID_ARGUMENT},
      {3, 0, KJIT_FAULT_REPORT, KJIT_TARGET_AUTO, KJIT_ERROR_INVALID_ARGUMENT},
      {KJIT_CUDA_CONTEXT_PRIMARY, 0, 2, KJIT_TARGET_AUTO, KJIT_ERROR_INVALID_ARGUMENT},
  };
  int dummy;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    kjit_context_options o;
    kjit_context_options_init(&o);
    o.cuda_context_mode = cases[i].mode;
    o.cuda_context = cases[i].with_ctx ? &dummy : NULL;
    o.fault_policy = cases[i].policy;
    o.target = cases[i].target;
    kjit_context *ctx = NULL;
    kjit_status st = kjit_context_create(&o, &ctx);
    CHECK(st == cases[i].want, "options case %zu: %s", i, kjit_status_name(st));
    kjit_context_destroy(ctx);
  }
  kjit_context_options o;
  kjit_context_options_init(&o);
  CHECK(o.cuda_context == NULL && o.cuda_context_mode == KJIT_CUDA_CONTEXT_PRIMARY &&
        o.fault_policy == KJIT_FAULT_REPORT, "defaults");
  o.reserved[3] = &dummy;
  kjit_context *ctx = NULL;
  CHECK(kjit_context_create(&o, &ctx) == KJIT_ERROR_INVALID_ARGUMENT, "reserved must be zero");
  kjit_context_options_init(&o);
  o.lineinfo = 2;
  CHECK(kjit_context_create(&o, &ctx) == KJIT_ERROR_INVALID_ARGUMENT, "lineinfo is 0 or 1");
  o.lineinfo = 1;
  o.reserved32 = 1;
  CHECK(kjit_context_create(&o, &ctx) == KJIT_ERROR_INVALID_ARGUMENT, "reserved32 must be zero");
}

static kjit_kernel *kernel(kjit_program *prog, const char *name) {
  kjit_kernel *k = NULL;
  CHECK(kjit_program_kernel(prog, name, &k) == KJIT_OK, "kernel %s", name);
  return k;
}

static kjit_launch_config cfg_for(int64_t n, void *stream) {
  kjit_launch_config c;
  kjit_launch_config_init(&c);
  c.block[0] = 32;
  c.grid[0] = (uint32_t)((n + 31) / 32);
  c.stream = stream;
  return c;
}

static void device_memory(kjit_context *ctx) {
  int64_t n = 8;
  kjit_array *a = NULL;
  EXPECT(ctx, kjit_array_wrap_device(ctx, KJIT_FLOAT32, 1, &n, NULL, 0x1000, &a), KJIT_ERROR_NO_DEVICE,
         "device arrays need the cuda target");
  CHECK(a == NULL);
  EXPECT(ctx, kjit_array_wrap_device(ctx, KJIT_FLOAT32, 9, &n, NULL, 0x1000, &a),
         KJIT_ERROR_INVALID_ARGUMENT, "0 to 8 dimensions");
  EXPECT(NULL, kjit_array_wrap_device(NULL, KJIT_FLOAT32, 1, &n, NULL, 0x1000, &a),
         KJIT_ERROR_INVALID_ARGUMENT, NULL);
}

static void views(kjit_context *ctx, kjit_program *prog) {
  enum { R = 4, C = 5 };
  int64_t shape[2] = {R, C};
  kjit_array *m = NULL, *col = NULL, *rev = NULL, *bad = NULL;
  CHECK(kjit_array_create(ctx, KJIT_FLOAT32, 2, shape, &m) == KJIT_OK);
  int64_t rows = R, rstride = C * 4;
  EXPECT(ctx, kjit_array_view(m, 1, &rows, &rstride, 2 * 4, &col), KJIT_OK, NULL);
  kjit_launch_config c = cfg_for(R, NULL);
  kjit_arg arg = kjit_arg_array(col);
  EXPECT(ctx, kjit_launch(kernel(prog, "incr"), &c, &arg, 1), KJIT_OK, NULL);
  const float *v = kjit_array_data(m);
  int ok = 1;
  for (int i = 0; i < R * C; i++)
    ok &= v[i] == (i % C == 2 ? 1.0f : 0.0f);
  CHECK(ok, "a column view: only column 2 incremented");
  /* the whole matrix reversed as 1-D: a negative stride from the last element */
  int64_t all = R * C, back = -4;
  EXPECT(ctx, kjit_array_view(m, 1, &all, &back, (R * C - 1) * 4, &rev), KJIT_OK, NULL);
  arg = kjit_arg_array(rev);
  c = cfg_for(R * C, NULL);
  EXPECT(ctx, kjit_launch(kernel(prog, "iota"), &c, &arg, 1), KJIT_OK, NULL);
  CHECK(v[R * C - 1] == 0.0f && v[0] == (float)(R * C - 1), "reversed view: %g %g", v[0], v[R * C - 1]);
  /* past the end, before the start */
  EXPECT(ctx, kjit_array_view(m, 1, &rows, &rstride, 5 * 4, &bad), KJIT_ERROR_INVALID_ARGUMENT,
         "the view reaches bytes");
  EXPECT(ctx, kjit_array_view(m, 1, &all, &back, 0, &bad), KJIT_ERROR_INVALID_ARGUMENT,
         "the view reaches bytes");
  kjit_array_destroy(col);
  kjit_array_destroy(rev);
  CHECK(((const float *)kjit_array_data(m))[0] == (float)(R * C - 1), "destroying views frees nothing");
  kjit_array_destroy(m);
  EXPECT(ctx, kjit_array_view(m, 1, &rows, &rstride, 0, &bad), KJIT_ERROR_INVALID_ARGUMENT,
         "destroyed");
}

static void streams(kjit_context *ctx, kjit_program *prog) {
  void *s1 = NULL, *s2 = NULL, *e0 = NULL, *e1 = NULL, *leak = NULL;
  EXPECT(ctx, kjit_stream_create(ctx, &s1), KJIT_OK, NULL);
  EXPECT(ctx, kjit_stream_create(ctx, &s2), KJIT_OK, NULL);
  CHECK(s1 && s2 && s1 != s2, "two distinct streams");
  EXPECT(ctx, kjit_event_create(ctx, &e0), KJIT_OK, NULL);
  EXPECT(ctx, kjit_event_create(ctx, &e1), KJIT_OK, NULL);
  double ms = -1;
  EXPECT(ctx, kjit_event_elapsed_ms(ctx, e0, e1, &ms), KJIT_ERROR_INVALID_ARGUMENT, "never recorded");
  int64_t n = 100;
  kjit_array *a = NULL, *b = NULL;
  kjit_array_create(ctx, KJIT_FLOAT32, 1, &n, &a);
  kjit_array_create(ctx, KJIT_FLOAT32, 1, &n, &b);
  EXPECT(ctx, kjit_event_record(ctx, e0, s1), KJIT_OK, NULL);
  kjit_launch_config c = cfg_for(n, s1);
  kjit_arg arg = kjit_arg_array(a);
  EXPECT(ctx, kjit_launch(kernel(prog, "incr"), &c, &arg, 1), KJIT_OK, NULL);
  c.stream = KJIT_STREAM_PER_THREAD;             /* ignored on the cpu target */
  EXPECT(ctx, kjit_launch(kernel(prog, "incr"), &c, &arg, 1), KJIT_OK, NULL);
  EXPECT(ctx, kjit_event_record(ctx, e1, s1), KJIT_OK, NULL);
  EXPECT(ctx, kjit_event_elapsed_ms(ctx, e0, e1, &ms), KJIT_OK, NULL);
  CHECK(ms >= 0, "elapsed %g ms", ms);
  EXPECT(ctx, kjit_stream_synchronize(ctx, s1), KJIT_OK, NULL);
  CHECK(((float *)kjit_array_data(a))[99] == 2.0f, "launches on a stream ran (synchronously)");
  EXPECT(ctx, kjit_array_copy_async(b, a, s2), KJIT_OK, NULL);
  EXPECT(ctx, kjit_stream_synchronize(ctx, s2), KJIT_OK, NULL);
  CHECK(((float *)kjit_array_data(b))[50] == 2.0f, "copy_async on the cpu target");
  /* only kjit's own handles are destroyed; an event is no stream */
  int not_a_stream;
  EXPECT(ctx, kjit_stream_destroy(ctx, &not_a_stream), KJIT_ERROR_INVALID_ARGUMENT,
         "not made by kjit_stream_create");
  EXPECT(ctx, kjit_stream_destroy(ctx, e0), KJIT_ERROR_INVALID_ARGUMENT, "kjit_stream_create");
  EXPECT(ctx, kjit_event_record(ctx, s1, s1), KJIT_ERROR_INVALID_ARGUMENT, "kjit_event_create");
  EXPECT(ctx, kjit_stream_destroy(ctx, s1), KJIT_OK, NULL);
  EXPECT(ctx, kjit_stream_destroy(ctx, s1), KJIT_ERROR_INVALID_ARGUMENT, "destroyed");
  EXPECT(ctx, kjit_event_destroy(ctx, e0), KJIT_OK, NULL);
  EXPECT(NULL, kjit_stream_create(NULL, &leak), KJIT_ERROR_INVALID_ARGUMENT, NULL);
  EXPECT(NULL, kjit_stream_create(ctx, NULL), KJIT_ERROR_INVALID_ARGUMENT, NULL);
  /* @vectorize and @cuda.reduce calls naming a stream */
  kjit_ufunc *vadd = NULL;
  kjit_reduction *total = NULL;
  EXPECT(ctx, kjit_program_ufunc(prog, "vadd", &vadd), KJIT_OK, NULL);
  EXPECT(ctx, kjit_program_reduction(prog, "total", &total), KJIT_OK, NULL);
  kjit_arg uargs[2] = {kjit_arg_array(a), kjit_arg_array(a)};
  kjit_array *sum = NULL;
  EXPECT(ctx, kjit_ufunc_call_on_stream(vadd, uargs, 2, b, s2, &sum), KJIT_OK, NULL);
  CHECK(sum == b && ((float *)kjit_array_data(b))[7] == 4.0f, "ufunc on a stream");
  kjit_value v;
  EXPECT(ctx, kjit_reduce_on_stream(total, b, NULL, s2, &v), KJIT_OK, NULL);
  CHECK(v.dtype == KJIT_FLOAT32 && v.value.f32 == 400.0f, "reduce on a stream: %g", v.value.f32);
  EXPECT(ctx, kjit_stream_create(ctx, &leak), KJIT_OK, NULL); /* left for the context */
  kjit_array_destroy(a);
  kjit_array_destroy(b);
  (void)s2, (void)e1;                            /* freed with the context */
}

static void prepare(kjit_context *ctx, kjit_program *prog) {
  int64_t n = 64;
  kjit_array *a = NULL;
  kjit_array_create(ctx, KJIT_INT32, 1, &n, &a);
  kjit_launch_config c = cfg_for(n, NULL);
  kjit_arg arg = kjit_arg_array(a);
  EXPECT(ctx, kjit_kernel_prepare(kernel(prog, "iota"), &c, &arg, 1), KJIT_OK, NULL);
  CHECK(((int32_t *)kjit_array_data(a))[5] == 0, "prepare runs nothing");
  EXPECT(ctx, kjit_launch(kernel(prog, "iota"), &c, &arg, 1), KJIT_OK, NULL);
  double compile_ms = -1;
  kjit_last_timing(ctx, &compile_ms, NULL, NULL);
  CHECK(compile_ms == 0, "the launch after prepare compiled nothing (%g ms)", compile_ms);
  CHECK(((int32_t *)kjit_array_data(a))[5] == 5, "then it ran");
  EXPECT(ctx, kjit_kernel_prepare(kernel(prog, "iota"), &c, &arg, 2), KJIT_ERROR_INVALID_ARGUMENT,
         "takes 1 argument");
  EXPECT(NULL, kjit_kernel_prepare(NULL, &c, &arg, 1), KJIT_ERROR_INVALID_ARGUMENT, NULL);
  kjit_array_destroy(a);
}

int main(void) {
  options();
  kjit_context *ctx = cpu_context();
  kjit_program *prog = NULL;
  if (kjit_program_load_source(ctx, "embed.py", src, &prog) != KJIT_OK) {
    fprintf(stderr, "test_embed: %s\n", kjit_last_error(ctx));
    return 1;
  }
  device_memory(ctx);
  views(ctx, prog);
  streams(ctx, prog);
  prepare(ctx, prog);
  kjit_context_destroy(ctx);
  printf("test_embed: %d checks, %d failed\n", checks, failures);
  return failures ? 1 : 0;
}
