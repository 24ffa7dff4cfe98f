/* embed_gpu.c - kjit inside a CUDA driver-API program (GPU suite; built
 * and run by scripts/gpu_embed.sh on a machine with a GPU):
 *   embed_gpu KERNELS.py all            wrapped memory (cuMemAlloc, a pool,
 *       managed, F order, a column view), ordering with the host's own
 *       kernel on one stream, a launch on one stream not waiting for a long
 *       kernel on another (timed), capture + 1000 replays, unprepared and
 *       host-array launches under capture refused, a cuCtxCreate context
 *       given and current, bad pointers and a destroyed stream refused;
 *   embed_gpu KERNELS.py fault-own      a fault in kjit's own context: the
 *       host's allocation in the primary context is checked afterwards;
 *   embed_gpu KERNELS.py fault-primary  a fault in the shared primary
 *       context with the default policy: kjit resets nothing, and says so.
 * Prints one line per check and "embed_gpu: N checks, M failed". */
#include <cuda.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kjit.h"

static int checks, failed;
#define CHECK(c, ...)                                                          \
  do {                                                                         \
    checks++;                                                                  \
    if (!(c)) {                                                                \
      failed++;                                                                \
      printf("FAIL %s:%d: ", __FILE__, __LINE__);                              \
      printf(__VA_ARGS__);                                                     \
      printf("\n");                                                            \
    }                                                                          \
  } while (0)
#define CU(x) CHECK((x) == CUDA_SUCCESS, "%s", #x)

static const char *kernels_path;

/* The host's own kernels: `spin_then_set` spins for about `ns` nanoseconds
 * then stores v to p[0..n); `add_one` adds 1 to p[0..n). */
static const char host_ptx[] =
    ".version 7.0\n.target sm_70\n.address_size 64\n"
    ".visible .entry spin_then_set(.param .u64 p, .param .u32 n, .param .f32 v, .param .u64 ns) {\n"
    "  .reg .b64 %a, %t0, %t1, %d, %lim; .reg .b32 %i, %n, %nt; .reg .f32 %v; .reg .pred %q;\n"
    "  ld.param.u64 %a, [p]; ld.param.u32 %n, [n]; ld.param.f32 %v, [v]; ld.param.u64 %lim, [ns];\n"
    "  cvta.to.global.u64 %a, %a; mov.u64 %t0, %globaltimer;\n"
    "SPIN: mov.u64 %t1, %globaltimer; sub.u64 %d, %t1, %t0; setp.lt.u64 %q, %d, %lim; @%q bra SPIN;\n"
    "  mov.u32 %i, %tid.x; mov.u32 %nt, %ntid.x;\n"
    "LOOP: setp.ge.u32 %q, %i, %n; @%q bra DONE;\n"
    "  mul.wide.u32 %d, %i, 4; add.u64 %t1, %a, %d; st.global.f32 [%t1], %v;\n"
    "  add.u32 %i, %i, %nt; bra LOOP;\n"
    "DONE: ret; }\n"
    ".visible .entry add_one(.param .u64 p, .param .u32 n) {\n"
    "  .reg .b64 %a, %d; .reg .b32 %i, %n, %nt; .reg .f32 %v; .reg .pred %q;\n"
    "  ld.param.u64 %a, [p]; ld.param.u32 %n, [n]; cvta.to.global.u64 %a, %a; mov.u32 %i, %tid.x;\n"
    "  mov.u32 %nt, %ntid.x;\n"
    "LOOP: setp.ge.u32 %q, %i, %n; @%q bra DONE;\n"
    "  mul.wide.u32 %d, %i, 4; add.u64 %d, %a, %d; ld.global.f32 %v, [%d]; add.f32 %v, %v, 0f3F800000;\n"
    "  st.global.f32 [%d], %v; add.u32 %i, %i, %nt; bra LOOP;\n"
    "DONE: ret; }\n";

static CUfunction spin_fn, add_fn;

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void host_spin(CUstream s, CUdeviceptr p, unsigned n, float v, unsigned long long ns) {
  void *args[] = {&p, &n, &v, &ns};
  CU(cuLaunchKernel(spin_fn, 1, 1, 1, 256, 1, 1, 0, s, args, NULL));
}

static void host_add_one(CUstream s, CUdeviceptr p, unsigned n) {
  void *args[] = {&p, &n};
  CU(cuLaunchKernel(add_fn, 1, 1, 1, 256, 1, 1, 0, s, args, NULL));
}

static kjit_kernel *kernel(kjit_program *prog, const char *name) {
  kjit_kernel *k = NULL;
  if (kjit_program_kernel(prog, name, &k) != KJIT_OK)
    printf("FAIL: no kernel %s\n", name);
  return k;
}

static kjit_launch_config cfg1d(int64_t n, void *stream) {
  kjit_launch_config c;
  kjit_launch_config_init(&c);
  c.block[0] = 128;
  c.grid[0] = (uint32_t)((n + 127) / 128);
  c.stream = stream;
  return c;
}

static kjit_program *load(kjit_context *ctx) {
  kjit_program *prog = NULL;
  if (kjit_program_load_file(ctx, kernels_path, &prog) != KJIT_OK) {
    printf("FAIL: load %s: %s\n", kernels_path, kjit_last_error(ctx));
    exit(1);
  }
  return prog;
}

static bool all_equal(const float *v, int n, float want) {
  for (int i = 0; i < n; i++)
    if (v[i] != want)
      return false;
  return true;
}

/* ------------------------------------------------------------- memory --- */

static void wrapped_memory(kjit_context *ctx, kjit_program *prog, CUstream s) {
  enum { N = 1000 };
  float h[N];
  for (int i = 0; i < N; i++)
    h[i] = (float)i;
  CUdeviceptr x = 0, y = 0, pool = 0, managed = 0;
  CU(cuMemAlloc(&x, N * 4));
  CU(cuMemAlloc(&y, N * 4));
  CU(cuMemcpyHtoD(x, h, N * 4));
  int64_t n = N;
  kjit_array *ax = NULL, *ay = NULL;
  CHECK(kjit_array_wrap_device(ctx, KJIT_FLOAT32, 1, &n, NULL, x, &ax) == KJIT_OK, "wrap: %s",
        kjit_last_error(ctx));
  CHECK(kjit_array_wrap_device(ctx, KJIT_FLOAT32, 1, &n, NULL, y, &ay) == KJIT_OK, "wrap y");
  kjit_launch_config c = cfg1d(N, s);
  kjit_arg args[3] = {kjit_arg_array(ax), kjit_arg_array(ay), kjit_arg_f64(3.0)};
  CHECK(kjit_launch(kernel(prog, "scale"), &c, args, 3) == KJIT_OK, "scale on the caller's stream: %s",
        kjit_last_error(ctx));
  float out[N];
  CU(cuStreamSynchronize(s));
  CU(cuMemcpyDtoH(out, y, N * 4));
  bool ok = true;
  for (int i = 0; i < N; i++)
    ok &= out[i] == 3.0f * i;
  CHECK(ok, "cuMemAlloc memory, wrapped: y = 3x");
  /* the fast path, then on the legacy default stream */
  CHECK(kjit_launch(kernel(prog, "scale"), &c, args, 3) == KJIT_OK, "again (fast path)");
  c.stream = KJIT_STREAM_LEGACY;
  CHECK(kjit_launch(kernel(prog, "scale"), &c, args, 3) == KJIT_OK, "legacy stream: %s",
        kjit_last_error(ctx));
  c.stream = KJIT_STREAM_PER_THREAD;
  CHECK(kjit_launch(kernel(prog, "scale"), &c, args, 3) == KJIT_OK, "per-thread stream: %s",
        kjit_last_error(ctx));
  CU(cuCtxSynchronize());

  /* a stream-ordered pool allocation */
  CU(cuMemAllocAsync(&pool, N * 4, s));
  CU(cuMemcpyHtoDAsync(pool, h, N * 4, s));
  kjit_array *ap = NULL;
  CHECK(kjit_array_wrap_device(ctx, KJIT_FLOAT32, 1, &n, NULL, pool, &ap) == KJIT_OK,
        "wrap pool memory: %s", kjit_last_error(ctx));
  kjit_arg pargs[1] = {kjit_arg_array(ap)};
  c.stream = s;
  CHECK(kjit_launch(kernel(prog, "incr"), &c, pargs, 1) == KJIT_OK, "incr on pool memory: %s",
        kjit_last_error(ctx));
  CU(cuMemcpyDtoHAsync(out, pool, N * 4, s));
  CU(cuStreamSynchronize(s));
  ok = true;
  for (int i = 0; i < N; i++)
    ok &= out[i] == i + 1.0f;
  CHECK(ok, "pool memory: incremented in stream order");
  kjit_array_destroy(ap);
  CU(cuMemFreeAsync(pool, s));

  /* managed memory, read on the host directly */
  CU(cuMemAllocManaged(&managed, N * 4, CU_MEM_ATTACH_GLOBAL));
  memcpy((void *)(uintptr_t)managed, h, N * 4);
  kjit_array *am = NULL;
  CHECK(kjit_array_wrap_device(ctx, KJIT_FLOAT32, 1, &n, NULL, managed, &am) == KJIT_OK,
        "wrap managed: %s", kjit_last_error(ctx));
  pargs[0] = kjit_arg_array(am);
  CHECK(kjit_launch(kernel(prog, "incr"), &c, pargs, 1) == KJIT_OK, "incr on managed");
  CU(cuStreamSynchronize(s));
  CHECK(((float *)(uintptr_t)managed)[999] == 1000.0f, "managed memory incremented");
  kjit_array_destroy(am);
  CU(cuMemFree(managed));

  /* F order (a strided 2-D array) and a column view of a kjit device array */
  CUdeviceptr f = 0;
  enum { R = 5, C = 7 };
  CU(cuMemAlloc(&f, R * C * 4));
  int64_t shape[2] = {R, C}, fstrides[2] = {4, R * 4};
  kjit_array *af = NULL;
  CHECK(kjit_array_wrap_device(ctx, KJIT_FLOAT32, 2, shape, fstrides, f, &af) == KJIT_OK,
        "wrap F order: %s", kjit_last_error(ctx));
  kjit_launch_config c2;
  kjit_launch_config_init(&c2);
  c2.block[0] = c2.block[1] = 8;
  c2.stream = s;
  kjit_arg fargs[1] = {kjit_arg_array(af)};
  CHECK(kjit_launch(kernel(prog, "fill2d"), &c2, fargs, 1) == KJIT_OK, "fill2d F order: %s",
        kjit_last_error(ctx));
  float fh[R * C];
  CU(cuStreamSynchronize(s));
  CU(cuMemcpyDtoH(fh, f, sizeof fh));
  ok = true;
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++)
      ok &= fh[j * R + i] == i * 100 + j;      /* column-major in memory */
  CHECK(ok, "F-order array written through its strides");
  kjit_array *dev = NULL, *col = NULL;
  CHECK(kjit_array_create_device(ctx, KJIT_FLOAT32, 2, shape, &dev) == KJIT_OK, "device array");
  int64_t rows = R, rstride = C * 4;
  CHECK(kjit_array_view(dev, 1, &rows, &rstride, 2 * 4, &col) == KJIT_OK, "column view: %s",
        kjit_last_error(ctx));
  CU(cuMemsetD32((CUdeviceptr)(uintptr_t)kjit_array_data(dev), 0, R * C));
  kjit_arg cargs[1] = {kjit_arg_array(col)};
  c = cfg1d(R, s);
  CHECK(kjit_launch(kernel(prog, "incr"), &c, cargs, 1) == KJIT_OK, "incr on a column: %s",
        kjit_last_error(ctx));
  CU(cuStreamSynchronize(s));
  CU(cuMemcpyDtoH(fh, (CUdeviceptr)(uintptr_t)kjit_array_data(dev), sizeof fh));
  ok = true;
  for (int i = 0; i < R * C; i++)
    ok &= fh[i] == (i % C == 2 ? 1.0f : 0.0f);
  CHECK(ok, "only column 2 incremented");
  kjit_array_destroy(col);
  kjit_array_destroy(dev);
  kjit_array_destroy(af);
  CU(cuMemFree(f));

  /* bad pointers: each named */
  kjit_array *bad = NULL;
  CHECK(kjit_array_wrap_device(ctx, KJIT_FLOAT32, 1, &n, NULL, (uint64_t)(uintptr_t)h, &bad) ==
                KJIT_ERROR_INVALID_ARGUMENT &&
            strstr(kjit_last_error(ctx), "device_ptr") && strstr(kjit_last_error(ctx), "host pointer"),
        "a host pointer refused: %s", kjit_last_error(ctx));
  int64_t big = N + 1;
  CHECK(kjit_array_wrap_device(ctx, KJIT_FLOAT32, 1, &big, NULL, x, &bad) ==
                KJIT_ERROR_INVALID_ARGUMENT &&
            strstr(kjit_last_error(ctx), "allocation"),
        "past the allocation refused: %s", kjit_last_error(ctx));
  CHECK(kjit_array_wrap_device(ctx, KJIT_FLOAT32, 1, &n, NULL, x + 2, &bad) ==
            KJIT_ERROR_INVALID_ARGUMENT,
        "misaligned refused: %s", kjit_last_error(ctx));
  kjit_array_destroy(ax);
  kjit_array_destroy(ay);
  /* the memory stayed the caller's: still allocated after destroy */
  CU(cuMemFree(x));
  CU(cuMemFree(y));
}

/* ------------------------------------------------------------ streams --- */

static void streams(kjit_context *ctx, kjit_program *prog, CUstream s) {
  enum { N = 256 };
  CUdeviceptr buf = 0, out = 0;
  CU(cuMemAlloc(&buf, N * 4));
  CU(cuMemAlloc(&out, N * 4));
  CU(cuMemsetD32(buf, 0, N));
  int64_t n = N;
  kjit_array *ab = NULL, *ao = NULL;
  kjit_array_wrap_device(ctx, KJIT_FLOAT32, 1, &n, NULL, buf, &ab);
  kjit_array_wrap_device(ctx, KJIT_FLOAT32, 1, &n, NULL, out, &ao);
  /* ordering: the host's kernel spins 50 ms then writes 7; kjit's reads it */
  host_spin(s, buf, N, 7.0f, 50ull * 1000 * 1000);
  kjit_launch_config c = cfg1d(N, s);
  kjit_arg args[3] = {kjit_arg_array(ab), kjit_arg_array(ao), kjit_arg_f64(2.0)};
  CHECK(kjit_launch(kernel(prog, "scale"), &c, args, 3) == KJIT_OK, "scale after the host's kernel");
  host_add_one(s, out, N);
  float h[N];
  CU(cuMemcpyDtoHAsync(h, out, N * 4, s));
  CU(cuStreamSynchronize(s));
  CHECK(all_equal(h, N, 15.0f), "stream order: host 7, kjit *2, host +1 = 15 (got %g)", h[0]);

  /* no waiting for another stream: a 300 ms kernel on `other` */
  CUstream other;
  CU(cuStreamCreate(&other, CU_STREAM_NON_BLOCKING));
  host_spin(other, buf, N, 1.0f, 300ull * 1000 * 1000);
  double t0 = now_ms();
  CHECK(kjit_launch(kernel(prog, "scale"), &c, args, 3) == KJIT_OK, "scale beside a long kernel");
  CHECK(kjit_stream_synchronize(ctx, s) == KJIT_OK, "kjit_stream_synchronize: %s", kjit_last_error(ctx));
  double ms = now_ms() - t0;
  CHECK(ms < 150, "a launch on one stream waited %.1f ms for a kernel on another", ms);
  printf("  launch + synchronize beside a 300 ms kernel on another stream: %.2f ms\n", ms);
  CU(cuStreamSynchronize(other));
  CU(cuStreamDestroy(other));

  /* kjit's own streams and events */
  void *ks = NULL, *e0 = NULL, *e1 = NULL;
  CHECK(kjit_stream_create(ctx, &ks) == KJIT_OK && ks, "kjit_stream_create");
  CHECK(kjit_event_create(ctx, &e0) == KJIT_OK && kjit_event_create(ctx, &e1) == KJIT_OK, "events");
  c.stream = ks;
  kjit_event_record(ctx, e0, ks);
  for (int i = 0; i < 10; i++)
    kjit_launch(kernel(prog, "scale"), &c, args, 3);
  kjit_event_record(ctx, e1, ks);
  double ems = -1;
  CHECK(kjit_event_elapsed_ms(ctx, e0, e1, &ems) == KJIT_OK && ems >= 0, "elapsed: %s",
        kjit_last_error(ctx));
  printf("  10 launches on a kjit stream: %.3f ms by events\n", ems);
  kjit_array *host = NULL, *dev = NULL;
  kjit_array_create(ctx, KJIT_FLOAT32, 1, &n, &host);
  kjit_array_create_device(ctx, KJIT_FLOAT32, 1, &n, &dev);
  CHECK(kjit_array_copy_async(dev, ao, ks) == KJIT_OK, "copy_async d2d: %s", kjit_last_error(ctx));
  CHECK(kjit_array_copy_async(host, dev, ks) == KJIT_OK, "copy_async d2h");
  CHECK(kjit_stream_synchronize(ctx, ks) == KJIT_OK, "sync kjit stream");
  /* out = 2 * buf, and buf = 1 since the kernel on `other` */
  CHECK(((float *)kjit_array_data(host))[5] == 2.0f, "copied on the stream: %g",
        ((float *)kjit_array_data(host))[5]);
  /* a host array passed to a stream launch: copied on that stream */
  kjit_arg hargs[1] = {kjit_arg_array(host)};
  CHECK(kjit_launch(kernel(prog, "incr"), &c, hargs, 1) == KJIT_OK, "host array on a stream");
  CHECK(((float *)kjit_array_data(host))[5] == 3.0f, "host array back after the stream launch");
  /* @vectorize and @cuda.reduce on the program's stream, after its kernel */
  kjit_ufunc *vadd = NULL;
  kjit_reduction *total = NULL;
  CHECK(kjit_program_ufunc(prog, "vadd", &vadd) == KJIT_OK && kjit_program_reduction(prog, "total", &total) == KJIT_OK,
        "ufunc and reduction handles");
  host_spin(s, buf, N, 5.0f, 20ull * 1000 * 1000);  /* 20 ms, then buf = 5 */
  kjit_arg uargs[2] = {kjit_arg_array(ab), kjit_arg_array(ab)};
  kjit_array *sum = NULL;
  CHECK(kjit_ufunc_call_on_stream(vadd, uargs, 2, ao, s, &sum) == KJIT_OK, "ufunc on a stream: %s",
        kjit_last_error(ctx));
  kjit_value v;
  CHECK(kjit_reduce_on_stream(total, ao, NULL, s, &v) == KJIT_OK, "reduce on a stream: %s",
        kjit_last_error(ctx));
  CHECK(v.value.f32 == 10.0f * N, "reduce after ufunc after the host's kernel: %g (want %g)",
        v.value.f32, 10.0f * N);
  kjit_event_destroy(ctx, e0);
  kjit_event_destroy(ctx, e1);
  CHECK(kjit_stream_destroy(ctx, ks) == KJIT_OK, "destroy");
  CHECK(kjit_stream_destroy(ctx, s) == KJIT_ERROR_INVALID_ARGUMENT, "the caller's stream is not kjit's to destroy");

  kjit_array_destroy(host);
  kjit_array_destroy(dev);
  kjit_array_destroy(ab);
  kjit_array_destroy(ao);
  CU(cuMemFree(buf));
  CU(cuMemFree(out));
}

/* ------------------------------------------------------------- graphs --- */

static void graphs(kjit_context *ctx, kjit_program *prog, CUstream s) {
  enum { N = 512 };
  CUdeviceptr a = 0;
  CU(cuMemAlloc(&a, N * 4));
  CU(cuMemsetD32(a, 0, N));
  int64_t n = N;
  kjit_array *aa = NULL;
  kjit_array_wrap_device(ctx, KJIT_FLOAT32, 1, &n, NULL, a, &aa);
  kjit_launch_config c = cfg1d(N, s);
  kjit_arg args[1] = {kjit_arg_array(aa)};
  kjit_kernel *incr = kernel(prog, "incr");
  /* unprepared (fill2d never ran on a C-order 2-D array): refused, and the
   * capture is still usable */
  int64_t sq[2] = {16, 32};
  kjit_array *a2 = NULL;
  kjit_array_wrap_device(ctx, KJIT_FLOAT32, 2, sq, NULL, a, &a2);
  kjit_arg args2[1] = {kjit_arg_array(a2)};
  CU(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
  kjit_status st = kjit_launch(kernel(prog, "fill2d"), &c, args2, 1);
  CHECK(st == KJIT_ERROR_INVALID_ARGUMENT && strstr(kjit_last_error(ctx), "kjit_kernel_prepare"),
        "unprepared launch under capture refused: %s", kjit_last_error(ctx));
  kjit_array_destroy(a2);
  kjit_array *host = NULL;
  kjit_array_create(ctx, KJIT_FLOAT32, 1, &n, &host);
  kjit_arg hargs[1] = {kjit_arg_array(host)};
  CUgraph g = NULL;
  CU(cuStreamEndCapture(s, &g));
  if (g)
    cuGraphDestroy(g);
  /* prepared: captured with one of the host's kernels, replayed 1000x */
  CHECK(kjit_kernel_prepare(incr, &c, args, 1) == KJIT_OK, "prepare: %s", kjit_last_error(ctx));
  CU(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
  CHECK(kjit_launch(incr, &c, args, 1) == KJIT_OK, "captured kjit launch: %s", kjit_last_error(ctx));
  st = kjit_launch(kernel(prog, "incr"), &c, hargs, 1);
  CHECK(st == KJIT_ERROR_INVALID_ARGUMENT && strstr(kjit_last_error(ctx), "host array"),
        "host array under capture refused: %s", kjit_last_error(ctx));
  host_add_one(s, a, N);
  CHECK(kjit_launch(incr, &c, args, 1) == KJIT_OK, "second captured launch");
  CU(cuStreamEndCapture(s, &g));
  CUgraphExec ge = NULL;
  CU(cuGraphInstantiate(&ge, g, 0));
  for (int r = 0; r < 1000; r++)
    CU(cuGraphLaunch(ge, s));
  float h[N];
  CU(cuMemcpyDtoHAsync(h, a, N * 4, s));
  CU(cuStreamSynchronize(s));
  CHECK(all_equal(h, N, 3000.0f), "1000 replays of kjit+host+kjit: 3000 (got %g)", h[0]);
  /* the same as direct launches */
  CU(cuMemsetD32(a, 0, N));
  for (int r = 0; r < 1000; r++) {
    kjit_launch(incr, &c, args, 1);
    host_add_one(s, a, N);
    kjit_launch(incr, &c, args, 1);
  }
  CU(cuMemcpyDtoHAsync(h, a, N * 4, s));
  CU(cuStreamSynchronize(s));
  CHECK(all_equal(h, N, 3000.0f), "direct launches: 3000 (got %g)", h[0]);
  cuGraphExecDestroy(ge);
  cuGraphDestroy(g);
  kjit_array_destroy(host);
  kjit_array_destroy(aa);
  CU(cuMemFree(a));
}

/* ----------------------------------------------------------- contexts --- */

static void contexts(void) {
  CUdevice dev;
  CU(cuDeviceGet(&dev, 0));
  CUcontext mine = NULL, popped;
  CU(cuCtxCreate(&mine, NULL, 0, dev));         /* current on this thread now */
  CUdeviceptr p = 0;
  CU(cuMemAlloc(&p, 64 * 4));
  CU(cuMemsetD32(p, 0, 64));
  for (int mode = 0; mode < 2; mode++) {
    kjit_context_options o;
    kjit_context_options_init(&o);
    o.target = KJIT_TARGET_CUDA;
    if (mode == 0)
      o.cuda_context = mine;
    else
      o.cuda_context_mode = KJIT_CUDA_CONTEXT_CURRENT;
    kjit_context *ctx = NULL;
    CHECK(kjit_context_create(&o, &ctx) == KJIT_OK, "context create");
    kjit_program *prog = load(ctx);
    int64_t n = 64;
    kjit_array *a = NULL;
    CHECK(kjit_array_wrap_device(ctx, KJIT_FLOAT32, 1, &n, NULL, p, &a) == KJIT_OK,
          "wrap in a cuCtxCreate context (mode %d): %s", mode, kjit_last_error(ctx));
    kjit_launch_config c = cfg1d(64, NULL);
    kjit_arg args[1] = {kjit_arg_array(a)};
    CHECK(kjit_launch(kernel(prog, "incr"), &c, args, 1) == KJIT_OK, "launch there: %s",
          kjit_last_error(ctx));
    CHECK(kjit_synchronize(ctx) == KJIT_OK, "sync");
    kjit_array_destroy(a);
    kjit_context_destroy(ctx);
  }
  float h[64];
  CU(cuCtxSetCurrent(mine));
  CU(cuMemcpyDtoH(h, p, sizeof h));
  CHECK(all_equal(h, 64, 2.0f), "two kjit contexts ran in the caller's context: 2 (got %g)", h[0]);
  CU(cuMemFree(p));                              /* still the caller's, still alive */
  CU(cuCtxPopCurrent(&popped));
  CU(cuCtxDestroy(mine));
}

/* ------------------------------------------------------------- faults --- */

/* kjit faults in its own context (or the primary one); the host's
 * allocation in the primary context is read afterwards. */
static int fault(bool own) {
  CUdevice dev;
  CUcontext primary;
  CU(cuDeviceGet(&dev, 0));
  CU(cuDevicePrimaryCtxRetain(&primary, dev));
  CU(cuCtxSetCurrent(primary));
  CUdeviceptr mine = 0;
  CU(cuMemAlloc(&mine, 4096));
  CU(cuMemsetD32(mine, 42, 1024));
  kjit_context_options o;
  kjit_context_options_init(&o);
  o.target = KJIT_TARGET_CUDA;
  o.cuda_context_mode = own ? KJIT_CUDA_CONTEXT_OWN : KJIT_CUDA_CONTEXT_PRIMARY;
  kjit_context *ctx = NULL;
  kjit_context_create(&o, &ctx);
  kjit_program *prog = load(ctx);
  kjit_array *a = NULL;
  int64_t n = 4;
  kjit_array_create_device(ctx, KJIT_FLOAT32, 1, &n, &a);
  kjit_launch_config c = cfg1d(1, NULL);
  kjit_arg args[2] = {kjit_arg_array(a), kjit_arg_i64(1ll << 40)};
  kjit_status st = kjit_launch(kernel(prog, "poke"), &c, args, 2);
  if (st == KJIT_OK)
    st = kjit_synchronize(ctx);
  CHECK(st == KJIT_ERROR_KERNEL_FAULT, "the fault reported: %s", kjit_last_error(ctx));
  printf("  fault: %s\n", kjit_last_error(ctx));
  st = kjit_launch(kernel(prog, "poke"), &c, args, 2);
  printf("  next kjit launch: %s: %s\n", kjit_status_name(st), kjit_last_error(ctx));
  CHECK(st != KJIT_OK && strstr(kjit_last_error(ctx), "unusable"), "later launches refused with the reason");
  /* the host's allocation: not freed by kjit */
  CUdeviceptr base = 0;
  size_t size = 0;
  CUresult r = cuMemGetAddressRange(&base, &size, mine);
  printf("  host allocation after the fault: cuMemGetAddressRange %d (base ok %d, size %zu)\n", r,
         base == mine, size);
  unsigned v = 0;
  r = cuMemcpyDtoH(&v, mine, 4);
  printf("  host allocation read after the fault: %s (%u)\n", r == CUDA_SUCCESS ? "ok" : "error", v);
  /* kjit freed and reset nothing of the host's: the data reads back, or
   * the driver reports the fault itself (sticky for the whole process on
   * some drivers: docs/api.md "Faults"), never a freed allocation or a
   * destroyed context */
  CHECK((r == CUDA_SUCCESS && v == 42) || r == CUDA_ERROR_ILLEGAL_ADDRESS,
        "the host's allocation after a fault in %s context: %d, %u", own ? "kjit's own" : "the primary",
        r, v);
  printf("  the driver %s\n", r == CUDA_SUCCESS ? "kept the fault in kjit's context"
                                               : "made the fault sticky for the whole process");
  kjit_context_destroy(ctx);
  printf("embed_gpu: %d checks, %d failed\n", checks, failed);
  return failed ? 1 : 0;
}

/* A stream kjit_stream_destroy destroyed, then launched on (its own
 * process: were the check missing, the driver decides what a dead handle
 * does). */
static int dead_stream(void) {
  kjit_context *ctx = NULL;
  kjit_context_options o;
  kjit_context_options_init(&o);
  o.target = KJIT_TARGET_CUDA;
  kjit_context_create(&o, &ctx);
  kjit_program *prog = load(ctx);
  kjit_array *a = NULL;
  int64_t n = 4;
  kjit_array_create_device(ctx, KJIT_FLOAT32, 1, &n, &a);
  void *dead = NULL;                            /* a destroyed kjit stream */
  CHECK(kjit_stream_create(ctx, &dead) == KJIT_OK, "stream");
  CHECK(kjit_stream_destroy(ctx, dead) == KJIT_OK, "destroy");
  kjit_launch_config c = cfg1d(4, dead);
  kjit_arg args[1] = {kjit_arg_array(a)};
  kjit_status st = kjit_launch(kernel(prog, "incr"), &c, args, 1);
  printf("  launch on a destroyed stream: %s: %s\n", kjit_status_name(st), kjit_last_error(ctx));
  CHECK(st == KJIT_ERROR_INVALID_ARGUMENT && strstr(kjit_last_error(ctx), "stream"),
        "destroyed stream refused");
  kjit_context_destroy(ctx);
  printf("embed_gpu: %d checks, %d failed\n", checks, failed);
  return failed ? 1 : 0;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: embed_gpu KERNELS.py all|dead-stream|fault-own|fault-primary\n");
    return 2;
  }
  kernels_path = argv[1];
  CU(cuInit(0));
  if (strcmp(argv[2], "dead-stream") == 0)
    return dead_stream();
  if (strcmp(argv[2], "fault-own") == 0)
    return fault(true);
  if (strcmp(argv[2], "fault-primary") == 0)
    return fault(false);
  CUdevice dev;
  CUcontext primary;
  CU(cuDeviceGet(&dev, 0));
  CU(cuDevicePrimaryCtxRetain(&primary, dev));
  CU(cuCtxSetCurrent(primary));
  CUmodule mod;
  CU(cuModuleLoadData(&mod, host_ptx));
  CU(cuModuleGetFunction(&spin_fn, mod, "spin_then_set"));
  CU(cuModuleGetFunction(&add_fn, mod, "add_one"));
  kjit_context_options o;
  kjit_context_options_init(&o);
  o.target = KJIT_TARGET_CUDA;
  kjit_context *ctx = NULL;
  CHECK(kjit_context_create(&o, &ctx) == KJIT_OK, "context");
  kjit_program *prog = load(ctx);
  CUstream s;
  CU(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
  printf("-- wrapped memory\n");
  wrapped_memory(ctx, prog, s);
  printf("-- streams\n");
  streams(ctx, prog, s);
  printf("-- graphs\n");
  graphs(ctx, prog, s);
  kjit_context_destroy(ctx);
  printf("-- contexts\n");
  contexts();
  CU(cuStreamDestroy(s));
  printf("embed_gpu: %d checks, %d failed\n", checks, failed);
  return failed ? 1 : 0;
}
