/* stub_main.c - the GPU path of kjit aot's launchers without a GPU: the
 * library of bench/gpu/kernels/launch_overhead.py (--target cuda) run
 * against tests/aot/stub_cuda.c, a stand-in libcuda.so.1 that records
 * launches.  Checks what reaches the driver (the function, loaded in the
 * current context; geometry; the argument structs), one module load per
 * context and variant, the context followed when the caller switches, the
 * refusals with their messages and the message cleared by a success,
 * unload and reload, large dynamic shared memory, and launches from
 * several threads in two contexts.  Prints "ok ..." / "FAIL ..." lines and
 * "N failures"; exit status 0 when none failed. */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "launch_overhead.h"

/* stub_cuda.c's record of a launch (the same layout). */
typedef struct StubLaunch {
  char name[256];
  int ctx, fn_ctx;
  unsigned grid[3], block[3], shared;
  void *stream;
  unsigned char arg0[24], arg_last[24];
} StubLaunch;

static void *(*stub_context)(int);
static void (*stub_counts)(long *, long *, long *);
static void (*stub_record)(int);
static const StubLaunch *(*stub_last_launch)(void);
static int (*set_current)(void *);
static int failures;

#define EXPECT(cond, ...)                                                                         \
  do {                                                                                            \
    if (cond)                                                                                     \
      printf("ok "), printf(__VA_ARGS__), printf("\n");                                           \
    else                                                                                          \
      printf("FAIL "), printf(__VA_ARGS__), printf(" (%s)\n", launch_overhead_last_error()), failures++; \
  } while (0)

static long loads(void) {
  long l, m, q;
  stub_counts(&l, &m, &q);
  return m;
}

static launch_overhead_f32_1d arr[4];
static const launch_overhead_config cfg = {{3, 1, 1}, {32, 2, 1}, 0, NULL};

static void *worker(void *arg) {
  int ctx = (int)(size_t)arg;
  set_current(stub_context(ctx));
  for (int i = 0; i < 2000; i++)
    if (launch_overhead_tiny4(&cfg, arr[0], arr[1], arr[2], arr[3]) != launch_overhead_OK)
      return (void *)1;
  return NULL;
}

int main(void) {
  void *cu = dlopen("libcuda.so.1", RTLD_NOW);
  if (!cu || !(*(void **)&stub_context = dlsym(cu, "stub_context"))) {
    printf("FAIL the stand-in driver is not the libcuda.so.1 found (%s)\n", cu ? "no stub_context" : dlerror());
    return 1;
  }
  *(void **)&stub_counts = dlsym(cu, "stub_counts");
  *(void **)&stub_record = dlsym(cu, "stub_record");
  *(void **)&stub_last_launch = dlsym(cu, "stub_last_launch");
  *(void **)&set_current = dlsym(cu, "cuCtxSetCurrent");
  const StubLaunch *L = stub_last_launch();
  launch_overhead_status st = launch_overhead_select_target(launch_overhead_TARGET_CUDA);
  EXPECT(st == launch_overhead_OK && launch_overhead_target_in_use() == launch_overhead_TARGET_CUDA,
         "the CUDA target through the stand-in driver");
  for (int i = 0; i < 4; i++) {
    void *p = NULL;
    st = launch_overhead_malloc(&p, 32 * sizeof(float));
    arr[i] = launch_overhead_f32_1d_c((float *)p, 32);
  }
  EXPECT(st == launch_overhead_OK, "device memory");

  /* the first launch: the primary context made current, the module loaded */
  stub_record(1);
  st = launch_overhead_tiny1(&cfg, arr[0]);
  EXPECT(st == launch_overhead_OK && strncmp(L->name, "tiny1", 5) == 0 && L->ctx == 1 && L->fn_ctx == 1 &&
         L->grid[0] == 3 && L->block[0] == 32 && L->block[1] == 2 && L->grid[2] == 1 &&
         memcmp(L->arg0, &arr[0], 24) == 0 && loads() == 1,
         "tiny1: %s in context %d (loaded in %d), grid %u block %ux%u, %ld module loads", L->name, L->ctx, L->fn_ctx,
         L->grid[0], L->block[0], L->block[1], loads());
  stub_record(4);
  st = launch_overhead_tiny4(&cfg, arr[0], arr[1], arr[2], arr[3]);
  EXPECT(st == launch_overhead_OK && strncmp(L->name, "tiny4", 5) == 0 && memcmp(L->arg0, &arr[0], 24) == 0 &&
         memcmp(L->arg_last, &arr[3], 24) == 0 && loads() == 1,
         "tiny4: its four argument structs as passed, the same module");

  /* the caller's context is followed */
  set_current(stub_context(2));
  st = launch_overhead_tiny4(&cfg, arr[0], arr[1], arr[2], arr[3]);
  EXPECT(st == launch_overhead_OK && L->ctx == 2 && L->fn_ctx == 2 && loads() == 2,
         "a second context gets its own module (%ld loads)", loads());
  set_current(stub_context(1));
  st = launch_overhead_tiny4(&cfg, arr[0], arr[1], arr[2], arr[3]);
  EXPECT(st == launch_overhead_OK && L->ctx == 1 && L->fn_ctx == 1 && loads() == 2,
         "back in the first context: its function, no load");

  /* variants: an array past 2^31 elements is not fits32, a grid past 2^31 threads not grid32 */
  launch_overhead_f32_1d big = launch_overhead_f32_1d_c(arr[0].data, 3000000000LL);
  st = launch_overhead_tiny4(&cfg, big, arr[1], arr[2], arr[3]);
  EXPECT(st == launch_overhead_OK && loads() == 3, "a 3e9-element array takes the 64-bit-offset variant's module");
  launch_overhead_config wide = {{4194304, 1, 1}, {1024, 1, 1}, 0, NULL};
  st = launch_overhead_tiny4(&wide, arr[0], arr[1], arr[2], arr[3]);
  EXPECT(st == launch_overhead_OK && loads() == 4 && L->grid[0] == 4194304, "2^32 threads take the 64-bit-grid variant");

  /* refusals, and a success clears the message */
  stub_record(1);
  launch_overhead_f32_1d strided = arr[1];
  strided.strides[0] = 8;
  st = launch_overhead_tiny4(&cfg, arr[0], strided, arr[2], arr[3]);
  EXPECT(st == launch_overhead_ERROR_ARGUMENT && strstr(launch_overhead_last_error(), "argument 'b' must be C-contiguous"),
         "a strided array for [::1]: %s", launch_overhead_last_error());
  st = launch_overhead_tiny1(&cfg, arr[0]);
  EXPECT(st == launch_overhead_OK && launch_overhead_last_error()[0] == '\0', "a success clears the message");
  launch_overhead_f32_1d neg = arr[0], nodata = launch_overhead_f32_1d_c(NULL, 5), empty = launch_overhead_f32_1d_c(NULL, 0);
  neg.shape[0] = -1;
  EXPECT(launch_overhead_tiny1(&cfg, neg) == launch_overhead_ERROR_ARGUMENT &&
         strstr(launch_overhead_last_error(), "negative extent"), "a negative extent: %s", launch_overhead_last_error());
  EXPECT(launch_overhead_tiny1(&cfg, nodata) == launch_overhead_ERROR_ARGUMENT &&
         strstr(launch_overhead_last_error(), "5 elements and no data"), "no data: %s", launch_overhead_last_error());
  EXPECT(launch_overhead_tiny1(&cfg, empty) == launch_overhead_OK, "an empty array without data launches");
  static const launch_overhead_config bad[] = {
      {{1, 1, 1}, {2048, 1, 1}, 0, NULL}, {{0, 1, 1}, {32, 1, 1}, 0, NULL}, {{1, 1, 1}, {32, 32, 2}, 0, NULL},
      {{1, 65536, 1}, {32, 1, 1}, 0, NULL}, {{1, 1, 1}, {1, 1, 65}, 0, NULL}, {{2147483648u, 1, 1}, {1, 1, 1}, 0, NULL}};
  static const char *const why[] = {"block.x 2048", "at least 1", "2048 threads", "grid.y 65536", "block.z 65",
                                    "grid.x 2147483648"};
  for (int i = 0; i < 6; i++) {
    st = launch_overhead_tiny1(&bad[i], arr[0]);
    EXPECT(st == launch_overhead_ERROR_ARGUMENT && strstr(launch_overhead_last_error(), why[i]),
           "geometry refused: %s", launch_overhead_last_error());
  }
  EXPECT(launch_overhead_tiny1(NULL, arr[0]) == launch_overhead_ERROR_ARGUMENT, "no configuration");
  launch_overhead_config edge = {{2147483647u, 65535, 65535}, {1, 1, 64}, 0, NULL};
  EXPECT(launch_overhead_tiny1(&edge, arr[0]) == launch_overhead_OK, "the largest grid launches");

  /* more than 48 KiB of dynamic shared memory: the attribute path */
  launch_overhead_config sh = {{1, 1, 1}, {32, 1, 1}, 64 * 1024, NULL};
  st = launch_overhead_tiny1(&sh, arr[0]);
  EXPECT(st == launch_overhead_OK && L->shared == 64 * 1024, "64 KiB of dynamic shared memory");

  /* unload, then the next launch loads again */
  long before = loads();
  EXPECT(launch_overhead_unload() == launch_overhead_OK && launch_overhead_tiny1(&cfg, arr[0]) == launch_overhead_OK &&
         loads() == before + 1 && L->fn_ctx == 1, "unload, then a launch loads the module again");

  /* threads in two contexts */
  stub_record(0);
  pthread_t th[4];
  int bad_threads = 0;
  for (int i = 0; i < 4; i++)
    pthread_create(&th[i], NULL, worker, (void *)(size_t)(i % 2 + 1));
  for (int i = 0; i < 4; i++) {
    void *r;
    pthread_join(th[i], &r);
    bad_threads += r != NULL;
  }
  EXPECT(bad_threads == 0, "4 threads x 2000 launches in two contexts");
  printf("%d failures\n", failures);
  return failures != 0;
}
