/* dlopen_main.c - a kjit aot library built as a shared library and loaded
 * with dlopen, as a plug-in would be: examples/vector_add.py's library
 * (cc -fPIC -shared vector_add.c) opened after threads exist, its calls
 * found with dlsym, the vector add run on TARGET and checked, and the
 * per-thread message checked from several threads: a thread's failure is
 * its own (another thread's last_error stays ""), and a success clears it.
 *
 *   dlopen_main LIB.so [cpu|cuda]
 *
 * Prints "ok ..." / "FAIL ..." lines and "N failures"; exit 0 when none. */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The generated header's types, restated: a plug-in host has only the
 * library's file name and the documented ABI. */
typedef struct Dim3 { uint32_t x, y, z; } Dim3;
typedef struct Config { Dim3 grid, block; size_t shared_bytes; void *stream; } Config;
typedef struct F32 { float *data; int64_t shape[1], strides[1]; } F32;

static int (*select_target)(int);
static int (*add_kernel)(const Config *, F32, F32, F32);
static const char *(*last_error)(void);
static int (*dmalloc)(void **, size_t), (*dfree)(void *), (*synchronize)(void *);
static int (*to_device)(void *, const void *, size_t), (*to_host)(void *, const void *, size_t);
static int failures;

#define EXPECT(cond, ...)                                                                  \
  do {                                                                                     \
    if (cond)                                                                              \
      printf("ok "), printf(__VA_ARGS__), printf("\n");                                    \
    else                                                                                   \
      printf("FAIL "), printf(__VA_ARGS__), printf(" (%s)\n", last_error ? last_error() : "?"), failures++; \
  } while (0)

static F32 vec(void *p, int64_t n) {
  F32 a = {(float *)p, {n}, {4}};
  return a;
}

/* The vector add of n elements on the target; 0 when every element is right. */
static int vector_add(int64_t n) {
  size_t bytes = (size_t)n * sizeof(float);
  float *x = malloc(bytes), *out = malloc(bytes);
  void *dx = NULL, *dout = NULL;
  int bad = -1;
  if (!x || !out)
    goto done;
  for (int64_t i = 0; i < n; i++)
    x[i] = (float)i;
  Config cfg = {{(uint32_t)((n + 127) / 128), 1, 1}, {128, 1, 1}, 0, NULL};
  if (dmalloc(&dx, bytes) || dmalloc(&dout, bytes) || to_device(dx, x, bytes) ||
      add_kernel(&cfg, vec(dx, n), vec(dx, n), vec(dout, n)) || synchronize(NULL) || to_host(out, dout, bytes))
    goto done;
  bad = 0;
  for (int64_t i = 0; i < n; i++)
    bad += out[i] != 2.0f * (float)i;
done:
  if (dx)
    dfree(dx);
  if (dout)
    dfree(dout);
  free(x), free(out);
  return bad;
}

typedef struct Job {
  int fail;           /* this thread makes a launch fail first */
  pthread_barrier_t *barrier;
  char msg[160];      /* its last_error after the others' failures */
  int result;
} Job;

static void *thread_main(void *arg) {
  Job *j = (Job *)arg;
  pthread_barrier_wait(j->barrier);  /* the library is open */
  if (j->fail) {
    Config zero = {{0, 1, 1}, {32, 1, 1}, 0, NULL};
    float dummy[1];
    add_kernel(&zero, vec(dummy, 1), vec(dummy, 1), vec(dummy, 1));
  }
  pthread_barrier_wait(j->barrier);  /* every failure made */
  snprintf(j->msg, sizeof j->msg, "%s", last_error());
  j->result = vector_add(4096);
  if (j->result == 0 && last_error()[0] != '\0')
    j->result = -2;
  return NULL;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: dlopen_main LIB.so [cpu|cuda]\n");
    return 2;
  }
  int cuda = argc > 2 && strcmp(argv[2], "cuda") == 0;
  enum { NT = 4 };
  pthread_t th[NT];
  pthread_barrier_t barrier;
  Job jobs[NT];
  pthread_barrier_init(&barrier, NULL, NT + 1);
  memset(jobs, 0, sizeof jobs);
  for (int i = 0; i < NT; i++) {  /* threads first: their TLS exists before the library */
    jobs[i].fail = i % 2, jobs[i].barrier = &barrier;
    pthread_create(&th[i], NULL, thread_main, &jobs[i]);
  }
  void *lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  EXPECT(lib != NULL, "dlopen of the library: %s", lib ? argv[1] : dlerror());
  if (!lib)
    return 1;
  *(void **)&select_target = dlsym(lib, "vector_add_select_target");
  *(void **)&add_kernel = dlsym(lib, "vector_add_add_kernel");
  *(void **)&last_error = dlsym(lib, "vector_add_last_error");
  *(void **)&dmalloc = dlsym(lib, "vector_add_malloc");
  *(void **)&dfree = dlsym(lib, "vector_add_free");
  *(void **)&synchronize = dlsym(lib, "vector_add_synchronize");
  *(void **)&to_device = dlsym(lib, "vector_add_copy_to_device");
  *(void **)&to_host = dlsym(lib, "vector_add_copy_to_host");
  EXPECT(select_target && add_kernel && last_error && dmalloc && dfree && synchronize && to_device && to_host,
         "dlsym finds the library's calls");
  EXPECT(select_target(cuda ? 1 : 2) == 0, "target %s", cuda ? "cuda" : "cpu");
  EXPECT(vector_add(1000) == 0, "the vector add from the main thread");
  pthread_barrier_wait(&barrier);
  pthread_barrier_wait(&barrier);
  for (int i = 0; i < NT; i++) {
    pthread_join(th[i], NULL);
    if (jobs[i].fail)
      EXPECT(strstr(jobs[i].msg, "at least 1") != NULL, "thread %d: its own failure: %s", i, jobs[i].msg);
    else
      EXPECT(jobs[i].msg[0] == '\0', "thread %d: no message from the others' failures", i);
    EXPECT(jobs[i].result == 0, "thread %d: the vector add, and a success clears its message", i);
  }
  EXPECT(dlclose(lib) == 0, "dlclose");
  printf("%d failures\n", failures);
  return failures != 0;
}
