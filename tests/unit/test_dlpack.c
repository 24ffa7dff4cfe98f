/* test_dlpack.c - DLPack in and out of kjit arrays, and read-only arrays,
 * through include/kjit.h alone.
 *
 * On the cpu target (CI): import of every dtype, of each device kind kjit
 * takes, with strides, byte_offset and both layouts; a kernel run on
 * imported tensors, results read in the producer's memory; export and
 * re-import (the same memory); the producer's deleter counted (exactly
 * once, whatever the order of kjit_array_destroy, the export's deleter and
 * the context's destruction; never on an import error); read-only arrays
 * (a write refused naming the parameter, never a shared specialization);
 * each bad input with its message.
 * With --gpu (the GPU suite, scripts/gpu_check.sh): a kDLCUDA tensor over
 * memory from cuMemAlloc (the driver through dlopen) imported, a kernel
 * run on it and the result read back; a device array exported and its
 * memory used after kjit_array_destroy; a read-only tensor over
 * write-protected host memory read by a kernel (never copied back); the
 * read-only bit in the fast path and the specialization key.  Exit
 * 77 (skipped) without a GPU. */
#include <dlfcn.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "kjit.h"

#include "check.h"

static kjit_context *ctx;
static kjit_program *prog;

/* The status is `want` and the last error contains `text`. */
static void expect_error(kjit_status st, kjit_status want, const char *text, int line) {
  checks++;
  const char *e = kjit_last_error(ctx);
  if (st != want || !strstr(e, text)) {
    failures++;
    fprintf(stderr, "line %d: got %s, want %s containing \"%s\"; last error:\n%s\n", line,
            kjit_status_name(st), kjit_status_name(want), text, e);
  }
}
#define EXPECT_ERROR(call, want, text) expect_error((call), want, text, __LINE__)

static const char src[] =
    "from numba import cuda\n"
    "\n"
    "@cuda.jit\n"
    "def affine(m, a, b):\n"
    "    i, j = cuda.grid(2)\n"
    "    if i < m.shape[0] and j < m.shape[1]:\n"
    "        m[i, j] = m[i, j] * a + b\n"
    "\n"
    "@cuda.jit\n"
    "def copy(x, out):\n"
    "    i = cuda.grid(1)\n"
    "    if i < out.size:\n"
    "        out[i] = x[i]\n"
    "\n"
    "@cuda.jit\n"
    "def total(x, out):\n"
    "    i = cuda.grid(1)\n"
    "    if i < x.size:\n"
    "        cuda.atomic.add(out, 0, x[i])\n"
    "\n"
    "@cuda.jit(\"void(float32[::1], float32[::1])\")\n"
    "def eager_copy(x, out):\n"
    "    i = cuda.grid(1)\n"
    "    if i < out.size:\n"
    "        out[i] = x[i]\n"
    "\n"
    "@cuda.jit(device=True)\n"
    "def put(b, v):\n"
    "    b[0] = v\n"
    "\n"
    "@cuda.jit\n"
    "def via_helper(a):\n"
    "    put(a, 1.0)\n"
    "\n"
    "from numba import vectorize\n"
    "@vectorize(['float32(float32)'], target='cuda')\n"
    "def twice(v):\n"
    "    return v * 2\n";

/* ------------------------------------------------------- producers --- */

/* A producer's tensor: its managed struct (either layout), shape and
 * strides, and a deleter that counts its calls. */
typedef struct Producer {
  kjit_dl_managed_tensor m;
  kjit_dl_managed_tensor_versioned v;
  int64_t shape[8], strides[8];
  int deleted;                     /* deleter calls */
} Producer;

static void count_delete(kjit_dl_managed_tensor *self) {
  ((Producer *)self->manager_ctx)->deleted++;
}
static void count_delete_v(kjit_dl_managed_tensor_versioned *self) {
  ((Producer *)self->manager_ctx)->deleted++;
}

/* Fills both layouts of p over data: ndim dims of shape, strides in
 * elements (NULL: C order), dtype code/bits, device type. */
static void producer(Producer *p, void *data, int ndim, const int64_t *shape,
                     const int64_t *strides, uint8_t code, uint8_t bits, int32_t device) {
  memset(p, 0, sizeof *p);
  for (int i = 0; i < ndim && i < 8; i++) {
    p->shape[i] = shape[i];
    p->strides[i] = strides ? strides[i] : 0;
  }
  kjit_dl_tensor t = {data, {device, 0}, ndim, {code, bits, 1}, p->shape,
                      strides ? p->strides : NULL, 0};
  p->m = (kjit_dl_managed_tensor){t, p, count_delete};
  p->v = (kjit_dl_managed_tensor_versioned){{1, 0}, p, count_delete_v, 0, t};
}

/* ------------------------------------------------------------ import --- */

static void test_dtypes(void) {
  static const struct {
    uint8_t code, bits;
    kjit_dtype want;
  } cases[] = {
      {KJIT_DL_BOOL, 8, KJIT_BOOL},      {KJIT_DL_INT, 8, KJIT_INT8},
      {KJIT_DL_INT, 16, KJIT_INT16},     {KJIT_DL_INT, 32, KJIT_INT32},
      {KJIT_DL_INT, 64, KJIT_INT64},     {KJIT_DL_UINT, 8, KJIT_UINT8},
      {KJIT_DL_UINT, 16, KJIT_UINT16},   {KJIT_DL_UINT, 32, KJIT_UINT32},
      {KJIT_DL_UINT, 64, KJIT_UINT64},   {KJIT_DL_FLOAT, 16, KJIT_FLOAT16},
      {KJIT_DL_FLOAT, 32, KJIT_FLOAT32}, {KJIT_DL_FLOAT, 64, KJIT_FLOAT64},
      {KJIT_DL_COMPLEX, 64, KJIT_COMPLEX64}, {KJIT_DL_COMPLEX, 128, KJIT_COMPLEX128},
  };
  static double buf[64];
  int64_t shape[2] = {3, 4};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    Producer p;
    producer(&p, buf, 2, shape, NULL, cases[i].code, cases[i].bits, KJIT_DL_CPU);
    kjit_array *a = NULL;
    int versioned = i % 2;
    CHECK_STATUS(versioned ? kjit_array_from_dlpack_versioned(ctx, &p.v, &a)
                           : kjit_array_from_dlpack(ctx, &p.m, &a), KJIT_OK);
    if (!a)
      continue;
    int64_t item = (int64_t)kjit_dtype_size(cases[i].want);
    CHECK(kjit_array_dtype(a) == cases[i].want, "case %zu: dtype %s", i,
          kjit_dtype_name(kjit_array_dtype(a)));
    CHECK(kjit_array_ndim(a) == 2 && kjit_array_shape(a)[0] == 3 && kjit_array_shape(a)[1] == 4);
    CHECK(kjit_array_strides(a)[0] == 4 * item && kjit_array_strides(a)[1] == item,
          "case %zu: C-order byte strides", i);
    CHECK(kjit_array_data(a) == (void *)buf && kjit_array_is_device(a) == 0);
    CHECK(kjit_array_is_readonly(a) == 0);
    CHECK(p.deleted == 0);
    kjit_array_destroy(a);
    CHECK(p.deleted == 1, "case %zu: deleter called %d times", i, p.deleted);
  }
}

/* Strides in elements, byte_offset, 0-d tensors, the host device kinds. */
static void test_layouts(void) {
  static float buf[32];
  int64_t shape[2] = {3, 2}, fstrides[2] = {1, 3};
  Producer p;
  producer(&p, buf, 2, shape, fstrides, KJIT_DL_FLOAT, 32, KJIT_DL_CUDA_HOST);
  p.v.dl_tensor.byte_offset = 8;
  kjit_array *a = NULL;
  CHECK_STATUS(kjit_array_from_dlpack_versioned(ctx, &p.v, &a), KJIT_OK);
  if (a) {
    CHECK(kjit_array_strides(a)[0] == 4 && kjit_array_strides(a)[1] == 12, "F-order byte strides");
    CHECK(kjit_array_data(a) == (void *)(buf + 2), "byte_offset added to data");
    CHECK(kjit_array_is_device(a) == 0, "kDLCUDAHost memory is a host array");
    kjit_array_destroy(a);
  }
  int64_t neg[1] = {-1}, n3[1] = {3};
  producer(&p, buf + 2, 1, n3, neg, KJIT_DL_FLOAT, 32, KJIT_DL_CPU);
  CHECK_STATUS(kjit_array_from_dlpack(ctx, &p.m, &a), KJIT_OK);
  if (a) {
    CHECK(kjit_array_strides(a)[0] == -4, "negative strides kept");
    kjit_array_destroy(a);
  }
  producer(&p, buf, 0, NULL, NULL, KJIT_DL_FLOAT, 64, KJIT_DL_CPU);
  CHECK_STATUS(kjit_array_from_dlpack(ctx, &p.m, &a), KJIT_OK);
  if (a) {
    CHECK(kjit_array_ndim(a) == 0 && kjit_array_size(a) == 1, "0-d tensor");
    kjit_array_destroy(a);
  }
  /* managed memory is host-accessible: a host array on the cpu target */
  producer(&p, buf, 2, shape, NULL, KJIT_DL_FLOAT, 32, KJIT_DL_CUDA_MANAGED);
  CHECK_STATUS(kjit_array_from_dlpack(ctx, &p.m, &a), KJIT_OK);
  if (a) {
    CHECK(kjit_array_is_device(a) == 0);
    kjit_array_destroy(a);
  }
  CHECK(p.deleted == 1);
}

/* A kernel on an F-order imported tensor: the results are in the
 * producer's memory, at the producer's layout. */
static void test_kernel_on_import(void) {
  float m[12];
  for (int i = 0; i < 12; i++)
    m[i] = (float)i;
  int64_t shape[2] = {3, 4}, strides[2] = {1, 3}; /* column-major 3x4 */
  Producer p;
  producer(&p, m, 2, shape, strides, KJIT_DL_FLOAT, 32, KJIT_DL_CPU);
  kjit_array *a = NULL;
  kjit_kernel *k = NULL;
  CHECK_STATUS(kjit_array_from_dlpack_versioned(ctx, &p.v, &a), KJIT_OK);
  CHECK_STATUS(kjit_program_kernel(prog, "affine", &k), KJIT_OK);
  if (!a || !k)
    return;
  kjit_launch_config cfg;
  kjit_launch_config_init(&cfg);
  cfg.grid[0] = 1;
  cfg.block[0] = 4;
  cfg.block[1] = 4;
  kjit_arg args[] = {kjit_arg_array(a), kjit_arg_f64(2.0), kjit_arg_f64(1.0)};
  CHECK_STATUS(kjit_launch(k, &cfg, args, 3), KJIT_OK);
  for (int i = 0; i < 12; i++)
    CHECK(m[i] == 2.0f * (float)i + 1.0f, "m[%d] = %g", i, m[i]);
  kjit_array_destroy(a);
  CHECK(p.deleted == 1);
}

/* ------------------------------------------------- ownership, export --- */

static void test_round_trip(void) {
  int64_t n = 5;
  kjit_array *a = NULL, *b = NULL;
  CHECK_STATUS(kjit_array_create(ctx, KJIT_INT32, 1, &n, &a), KJIT_OK);
  if (!a)
    return;
  int32_t *d = kjit_array_data(a);
  for (int i = 0; i < 5; i++)
    d[i] = 10 * i;
  kjit_dl_managed_tensor *t = NULL;
  CHECK_STATUS(kjit_array_to_dlpack(a, &t), KJIT_OK);
  if (!t)
    return;
  CHECK(t->dl_tensor.data == (void *)d && t->dl_tensor.ndim == 1 && t->dl_tensor.shape[0] == 5);
  CHECK(t->dl_tensor.strides[0] == 1, "strides in elements");
  CHECK(t->dl_tensor.device.device_type == KJIT_DL_CPU && t->dl_tensor.device.device_id == 0);
  CHECK(t->dl_tensor.dtype.code == KJIT_DL_INT && t->dl_tensor.dtype.bits == 32 &&
        t->dl_tensor.dtype.lanes == 1);
  CHECK(t->deleter != NULL && t->dl_tensor.byte_offset == 0);
  /* kjit consumes its own export: the same memory, and b's destruction
   * calls the export's deleter */
  CHECK_STATUS(kjit_array_from_dlpack(ctx, t, &b), KJIT_OK);
  CHECK(b && kjit_array_data(b) == (void *)d, "re-import views the same memory");
  kjit_array_destroy(a); /* the memory stays for b */
  if (b) {
    CHECK(((int32_t *)kjit_array_data(b))[4] == 40, "memory valid after the first owner went");
    kjit_array_destroy(b);
  }
}

/* The producer's deleter runs once, after the last of the array and its
 * exports, in either order, and at the context's destruction. */
static void test_deleter_order(void) {
  static double buf[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  int64_t n = 8;
  Producer p;
  kjit_array *a = NULL;
  /* array destroyed first, then the export */
  producer(&p, buf, 1, &n, NULL, KJIT_DL_FLOAT, 64, KJIT_DL_CPU);
  CHECK_STATUS(kjit_array_from_dlpack(ctx, &p.m, &a), KJIT_OK);
  kjit_dl_managed_tensor_versioned *v = NULL;
  CHECK_STATUS(kjit_array_to_dlpack_versioned(a, &v), KJIT_OK);
  kjit_array_destroy(a);
  CHECK(p.deleted == 0, "an export keeps the producer's tensor");
  if (v) {
    CHECK(v->version.major == 1 && v->flags == 0 && v->dl_tensor.data == (void *)buf);
    v->deleter(v);
  }
  CHECK(p.deleted == 1, "deleted once after both: %d", p.deleted);
  /* the export first, then the array; two exports */
  producer(&p, buf, 1, &n, NULL, KJIT_DL_FLOAT, 64, KJIT_DL_CPU);
  CHECK_STATUS(kjit_array_from_dlpack_versioned(ctx, &p.v, &a), KJIT_OK);
  kjit_dl_managed_tensor *t1 = NULL, *t2 = NULL;
  CHECK_STATUS(kjit_array_to_dlpack(a, &t1), KJIT_OK);
  CHECK_STATUS(kjit_array_to_dlpack(a, &t2), KJIT_OK);
  if (t1 && t2) {
    t1->deleter(t1);
    t2->deleter(t2);
  }
  CHECK(p.deleted == 0);
  kjit_array_destroy(a);
  kjit_array_destroy(a); /* a destroyed handle: ignored, no second delete */
  CHECK(p.deleted == 1, "deleted once: %d", p.deleted);
  /* the context's destruction deletes what its arrays hold, but leaves an
   * export alive, with its memory */
  kjit_context *c2 = NULL;
  kjit_context_options o;
  kjit_context_options_init(&o);
  o.target = KJIT_TARGET_CPU;
  CHECK_STATUS(kjit_context_create(&o, &c2), KJIT_OK);
  Producer q;
  producer(&p, buf, 1, &n, NULL, KJIT_DL_FLOAT, 64, KJIT_DL_CPU);
  producer(&q, buf, 1, &n, NULL, KJIT_DL_FLOAT, 64, KJIT_DL_CPU);
  kjit_array *own = NULL, *qa = NULL;
  CHECK_STATUS(kjit_array_from_dlpack(c2, &p.m, &a), KJIT_OK);
  CHECK_STATUS(kjit_array_from_dlpack(c2, &q.m, &qa), KJIT_OK);
  CHECK_STATUS(kjit_array_create(c2, KJIT_FLOAT64, 1, &n, &own), KJIT_OK);
  t1 = NULL;
  CHECK_STATUS(kjit_array_to_dlpack(own, &t1), KJIT_OK);
  if (own)
    ((double *)kjit_array_data(own))[7] = 42.0;
  kjit_context_destroy(c2);
  CHECK(p.deleted == 1 && q.deleted == 1, "the context's arrays deleted theirs: %d %d", p.deleted,
        q.deleted);
  if (t1) {
    CHECK(((double *)t1->dl_tensor.data)[7] == 42.0, "an export outlives the context");
    t1->deleter(t1);
  }
}

/* ------------------------------------------------------------ read-only --- */

/* A read-only tensor over memory the process cannot write (mprotect): a
 * kernel may read it, and nothing kjit does may write it back (the cuda
 * target copies host arrays back after a launch, but never read-only
 * ones). */
static void check_protected_input(void) {
  size_t page = 4096;
  float *mem = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  CHECK(mem != MAP_FAILED);
  if (mem == MAP_FAILED)
    return;
  for (int i = 0; i < 64; i++)
    mem[i] = (float)(i * 3);
  CHECK(mprotect(mem, page, PROT_READ) == 0);
  int64_t n = 64;
  Producer p;
  producer(&p, mem, 1, &n, NULL, KJIT_DL_FLOAT, 32, KJIT_DL_CPU);
  p.v.flags = KJIT_DL_FLAG_READ_ONLY;
  kjit_array *x = NULL, *w = NULL;
  CHECK_STATUS(kjit_array_from_dlpack_versioned(ctx, &p.v, &x), KJIT_OK);
  CHECK_STATUS(kjit_array_create(ctx, KJIT_FLOAT32, 1, &n, &w), KJIT_OK);
  kjit_kernel *k = NULL;
  CHECK_STATUS(kjit_program_kernel(prog, "copy", &k), KJIT_OK);
  if (x && w && k) {
    kjit_launch_config cfg;
    kjit_launch_config_init(&cfg);
    cfg.grid[0] = 2;
    cfg.block[0] = 32;
    kjit_arg args[] = {kjit_arg_array(x), kjit_arg_array(w)};
    CHECK_STATUS(kjit_launch(k, &cfg, args, 2), KJIT_OK);
    CHECK_STATUS(kjit_synchronize(ctx), KJIT_OK);
    CHECK(((float *)kjit_array_data(w))[63] == 189.0f, "read through a read-only import");
  }
  kjit_array_destroy(x);
  kjit_array_destroy(w);
  CHECK(p.deleted == 1);
  munmap(mem, page);
}

static kjit_status launch_copy(kjit_array *x, kjit_array *out) {
  kjit_kernel *k = NULL;
  if (kjit_program_kernel(prog, "copy", &k) != KJIT_OK)
    return KJIT_ERROR_NOT_FOUND;
  kjit_launch_config cfg;
  kjit_launch_config_init(&cfg);
  cfg.grid[0] = 1;
  cfg.block[0] = 32;
  kjit_arg args[] = {kjit_arg_array(x), kjit_arg_array(out)};
  return kjit_launch(k, &cfg, args, 2);
}

static void test_readonly(void) {
  float src_[4] = {1, 2, 3, 4}, dst[4] = {0};
  int64_t n = 4;
  Producer ps, pd;
  producer(&ps, src_, 1, &n, NULL, KJIT_DL_FLOAT, 32, KJIT_DL_CPU);
  producer(&pd, dst, 1, &n, NULL, KJIT_DL_FLOAT, 32, KJIT_DL_CPU);
  ps.v.flags = KJIT_DL_FLAG_READ_ONLY | KJIT_DL_FLAG_IS_COPIED;
  pd.v.flags = KJIT_DL_FLAG_READ_ONLY;
  kjit_array *x = NULL, *ro = NULL, *w = NULL;
  CHECK_STATUS(kjit_array_from_dlpack_versioned(ctx, &ps.v, &x), KJIT_OK);
  CHECK_STATUS(kjit_array_from_dlpack_versioned(ctx, &pd.v, &ro), KJIT_OK);
  CHECK_STATUS(kjit_array_create(ctx, KJIT_FLOAT32, 1, &n, &w), KJIT_OK);
  if (!x || !ro || !w)
    return;
  CHECK(kjit_array_is_readonly(x) == 1 && kjit_array_is_readonly(w) == 0);
  /* reading a read-only array is fine; writing one is refused by name */
  CHECK_STATUS(launch_copy(x, w), KJIT_OK);
  CHECK(((float *)kjit_array_data(w))[3] == 4.0f);
  EXPECT_ERROR(launch_copy(w, ro), KJIT_ERROR_TYPE,
               "argument 2 ('out') is a read-only array and kernel 'copy' writes to it");
  CHECK(dst[0] == 0.0f, "nothing written");
  /* the same kernel with a writable out of the same type compiled before:
   * the read-only launch must not reuse that specialization */
  kjit_array *w2 = NULL;
  CHECK_STATUS(kjit_array_wrap(ctx, KJIT_FLOAT32, 1, &n, NULL, dst, &w2), KJIT_OK);
  CHECK_STATUS(launch_copy(w, w2), KJIT_OK);
  CHECK(dst[2] == 3.0f);
  dst[2] = 0.0f;
  CHECK_STATUS(kjit_array_set_readonly(w2, 1), KJIT_OK);
  EXPECT_ERROR(launch_copy(w, w2), KJIT_ERROR_TYPE, "argument 2 ('out') is a read-only array");
  CHECK(dst[2] == 0.0f, "a read-only launch shared no writable specialization");
  /* atomics write too */
  kjit_kernel *k = NULL;
  CHECK_STATUS(kjit_program_kernel(prog, "total", &k), KJIT_OK);
  kjit_launch_config cfg;
  kjit_launch_config_init(&cfg);
  cfg.grid[0] = 1;
  cfg.block[0] = 4;
  kjit_arg args[] = {kjit_arg_array(x), kjit_arg_array(ro)};
  EXPECT_ERROR(kjit_launch(k, &cfg, args, 2), KJIT_ERROR_TYPE,
               "argument 2 ('out') is a read-only array and kernel 'total' writes to it");
  /* an eager signature's float32[::1] is mutable: Numba matches no
   * readonly array to it, and neither does kjit */
  CHECK_STATUS(kjit_program_kernel(prog, "eager_copy", &k), KJIT_OK);
  kjit_arg eargs[] = {kjit_arg_array(x), kjit_arg_array(w)};
  EXPECT_ERROR(kjit_launch(k, &cfg, eargs, 2), KJIT_ERROR_TYPE,
               "argument 1 ('x'): readonly float32[::1] does not match the signature's float32[::1]");
  /* a device function writing it names its own parameter, and the call */
  CHECK_STATUS(kjit_program_kernel(prog, "via_helper", &k), KJIT_OK);
  kjit_arg hargs[] = {kjit_arg_array(x)};
  EXPECT_ERROR(kjit_launch(k, &cfg, hargs, 1), KJIT_ERROR_TYPE,
               "argument 1 ('b') is a read-only array and function 'put' writes to it");
  EXPECT_ERROR(kjit_launch(k, &cfg, hargs, 1), KJIT_ERROR_TYPE, "in the call to 'put'");
  CHECK(src_[0] == 1.0f);
  /* clearing the flag: allowed on kjit's own arrays, refused on an import
   * its producer marked read-only */
  CHECK_STATUS(kjit_array_set_readonly(w2, 0), KJIT_OK);
  CHECK_STATUS(launch_copy(w, w2), KJIT_OK);
  CHECK(dst[2] == 3.0f);
  EXPECT_ERROR(kjit_array_set_readonly(ro, 0), KJIT_ERROR_INVALID_ARGUMENT,
               "imported from a read-only DLPack tensor");
  EXPECT_ERROR(kjit_array_copy(ro, w), KJIT_ERROR_INVALID_ARGUMENT, "destination: the array is read-only");
  /* a read-only array exports with the flag */
  kjit_dl_managed_tensor_versioned *v = NULL;
  CHECK_STATUS(kjit_array_to_dlpack_versioned(x, &v), KJIT_OK);
  if (v) {
    CHECK(v->flags == KJIT_DL_FLAG_READ_ONLY, "flags %llu", (unsigned long long)v->flags);
    v->deleter(v);
  }
  /* @vectorize reads read-only inputs, and refuses a read-only out */
  kjit_ufunc *u = NULL;
  kjit_array *res = NULL;
  CHECK_STATUS(kjit_program_ufunc(prog, "twice", &u), KJIT_OK);
  kjit_arg uargs[] = {kjit_arg_array(x)};
  CHECK_STATUS(kjit_ufunc_call(u, uargs, 1, NULL, &res), KJIT_OK);
  CHECK(res && ((float *)kjit_array_data(res))[3] == 8.0f);
  kjit_array_destroy(res);
  EXPECT_ERROR(kjit_ufunc_call(u, uargs, 1, ro, &res), KJIT_ERROR_INVALID_ARGUMENT,
               "out is a read-only array");
  /* a field view of a read-only record array is read-only too */
  kjit_array *rec = NULL, *field = NULL;
  CHECK_STATUS(kjit_array_create_record(ctx, "[('x', '<f4'), ('y', '<i4')]", 1, &n, &rec), KJIT_OK);
  CHECK_STATUS(kjit_array_set_readonly(rec, 1), KJIT_OK);
  CHECK_STATUS(kjit_array_field(rec, 0, &field), KJIT_OK);
  CHECK(kjit_array_is_readonly(field) == 1, "a field view keeps the flag");
  kjit_array_destroy(field);
  kjit_array_destroy(rec);
  check_protected_input();
  CHECK(kjit_array_is_readonly(NULL) == -1);
  CHECK_STATUS(kjit_array_set_readonly(NULL, 1), KJIT_ERROR_INVALID_ARGUMENT);
  kjit_array_destroy(x);
  kjit_array_destroy(ro);
  kjit_array_destroy(w);
  kjit_array_destroy(w2);
  CHECK(ps.deleted == 1 && pd.deleted == 1);
}

/* ------------------------------------------------------------ bad input --- */

/* Each import error names the field, leaves *out alone and the deleter
 * uncalled. */
static void test_bad_imports(void) {
  static float buf[16];
  int64_t shape[5] = {2, 2, 2, 1, 1}, negshape[1] = {-3};
  Producer p;
  kjit_array *a = (kjit_array *)&p; /* must stay untouched */
#define BAD(mutate, want, text)                                                         \
  do {                                                                                  \
    producer(&p, buf, 2, shape, NULL, KJIT_DL_FLOAT, 32, KJIT_DL_CPU);                  \
    mutate;                                                                             \
    EXPECT_ERROR(kjit_array_from_dlpack(ctx, &p.m, &a), want, text);                    \
    EXPECT_ERROR(kjit_array_from_dlpack_versioned(ctx, &p.v, &a), want, text);          \
    CHECK(p.deleted == 0 && a == (kjit_array *)&p, "an error keeps nothing");           \
  } while (0)
  BAD((p.m.dl_tensor.dtype.code = p.v.dl_tensor.dtype.code = KJIT_DL_BFLOAT,
       p.m.dl_tensor.dtype.bits = p.v.dl_tensor.dtype.bits = 16),
      KJIT_ERROR_INVALID_ARGUMENT, "argument 'tensor': dl_tensor.dtype is bfloat16");
  BAD((p.m.dl_tensor.dtype.code = p.v.dl_tensor.dtype.code = KJIT_DL_OPAQUE_HANDLE),
      KJIT_ERROR_INVALID_ARGUMENT, "dl_tensor.dtype (kDLOpaqueHandle, code 3, 32 bits) is not a kjit dtype");
  BAD((p.m.dl_tensor.dtype.bits = p.v.dl_tensor.dtype.bits = 24), KJIT_ERROR_INVALID_ARGUMENT,
      "dl_tensor.dtype (kDLFloat, code 2, 24 bits) is not a kjit dtype");
  BAD((p.m.dl_tensor.dtype.code = p.v.dl_tensor.dtype.code = KJIT_DL_BOOL,
       p.m.dl_tensor.dtype.bits = p.v.dl_tensor.dtype.bits = 1),
      KJIT_ERROR_INVALID_ARGUMENT, "(kDLBool, code 6, 1 bits) is not a kjit dtype");
  BAD((p.m.dl_tensor.dtype.lanes = p.v.dl_tensor.dtype.lanes = 4), KJIT_ERROR_INVALID_ARGUMENT,
      "dl_tensor.dtype has 4 lanes");
  BAD((p.m.dl_tensor.ndim = p.v.dl_tensor.ndim = 9), KJIT_ERROR_INVALID_ARGUMENT,
      "dl_tensor.ndim is 9; kjit arrays have 0 to 8 dimensions");
  BAD((p.m.dl_tensor.ndim = p.v.dl_tensor.ndim = -1), KJIT_ERROR_INVALID_ARGUMENT,
      "dl_tensor.ndim is -1");
  BAD((p.m.dl_tensor.shape = p.v.dl_tensor.shape = NULL), KJIT_ERROR_INVALID_ARGUMENT,
      "dl_tensor.shape is NULL");
  BAD((p.m.dl_tensor.shape = p.v.dl_tensor.shape = negshape, p.m.dl_tensor.ndim = p.v.dl_tensor.ndim = 1),
      KJIT_ERROR_INVALID_ARGUMENT, "dl_tensor.shape[0] is negative (-3)");
  BAD((p.m.dl_tensor.device.device_type = p.v.dl_tensor.device.device_type = 99),
      KJIT_ERROR_INVALID_ARGUMENT, "dl_tensor.device.device_type is an unknown device type (99)");
  BAD((p.m.dl_tensor.device.device_type = p.v.dl_tensor.device.device_type = 4),
      KJIT_ERROR_INVALID_ARGUMENT, "device_type is kDLOpenCL (4)");
  BAD((p.m.dl_tensor.device.device_type = p.v.dl_tensor.device.device_type = KJIT_DL_CUDA),
      KJIT_ERROR_NO_DEVICE, "dl_tensor.device is kDLCUDA (device 0): device memory needs the cuda target");
  /* versioned only: a major version kjit does not know */
  producer(&p, buf, 2, shape, NULL, KJIT_DL_FLOAT, 32, KJIT_DL_CPU);
  p.v.version.major = 2;
  EXPECT_ERROR(kjit_array_from_dlpack_versioned(ctx, &p.v, &a), KJIT_ERROR_INVALID_ARGUMENT,
               "version.major is 2; kjit knows DLPack major version 1");
  p.v.version.major = 0;
  EXPECT_ERROR(kjit_array_from_dlpack_versioned(ctx, &p.v, &a), KJIT_ERROR_INVALID_ARGUMENT,
               "version.major is 0");
  EXPECT_ERROR(kjit_array_from_dlpack(ctx, NULL, &a), KJIT_ERROR_INVALID_ARGUMENT,
               "kjit_array_from_dlpack: argument 'tensor': the tensor is NULL");
  EXPECT_ERROR(kjit_array_from_dlpack_versioned(ctx, NULL, &a), KJIT_ERROR_INVALID_ARGUMENT,
               "the tensor is NULL");
  CHECK(p.deleted == 0 && a == (kjit_array *)&p);
  CHECK_STATUS(kjit_array_from_dlpack(NULL, &p.m, &a), KJIT_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(kjit_array_from_dlpack(ctx, &p.m, NULL), KJIT_ERROR_INVALID_ARGUMENT);
  CHECK(p.deleted == 0);
  /* a uint8 tensor is uint8, never bool */
  producer(&p, buf, 2, shape, NULL, KJIT_DL_UINT, 8, KJIT_DL_CPU);
  CHECK_STATUS(kjit_array_from_dlpack(ctx, &p.m, &a), KJIT_OK);
  CHECK(kjit_array_dtype(a) == KJIT_UINT8);
  kjit_array_destroy(a);
  /* device memory on the cpu target */
  uint64_t fake = 0x1000;
  EXPECT_ERROR(kjit_array_wrap_device(ctx, KJIT_FLOAT32, 1, shape, NULL, fake, &a),
               KJIT_ERROR_NO_DEVICE, "device arrays need the cuda target");
}

static void test_bad_exports(void) {
  kjit_dl_managed_tensor *t = NULL;
  CHECK_STATUS(kjit_array_to_dlpack(NULL, &t), KJIT_ERROR_INVALID_ARGUMENT);
  static float buf[8];
  int64_t n = 2, odd = 6; /* byte strides no multiple of 4 */
  kjit_array *a = NULL, *r = NULL;
  CHECK_STATUS(kjit_array_wrap(ctx, KJIT_FLOAT32, 1, &n, &odd, buf, &a), KJIT_OK);
  EXPECT_ERROR(kjit_array_to_dlpack(a, &t), KJIT_ERROR_INVALID_ARGUMENT,
               "kjit_array_to_dlpack: argument 'a': its byte strides are not a multiple");
  CHECK(t == NULL);
  CHECK_STATUS(kjit_array_to_dlpack(a, NULL), KJIT_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(kjit_array_create_record(ctx, "[('x', '<f4'), ('y', '<i4')]", 1, &n, &r), KJIT_OK);
  EXPECT_ERROR(kjit_array_to_dlpack(r, &t), KJIT_ERROR_INVALID_ARGUMENT,
               "record arrays have no DLPack dtype");
  kjit_array_destroy(a);
  kjit_array_destroy(r);
  CHECK_STATUS(kjit_array_to_dlpack(a, &t), KJIT_ERROR_INVALID_ARGUMENT); /* destroyed */
}

/* ------------------------------------------------------------------ GPU --- */

static struct {
  int (*Init)(unsigned);
  int (*DeviceGet)(int *, int);
  int (*PrimaryCtxRetain)(void **, int);
  int (*CtxSetCurrent)(void *);
  int (*MemAlloc)(uint64_t *, size_t);
  int (*MemFree)(uint64_t);
  int (*HtoD)(uint64_t, const void *, size_t);
  int (*DtoH)(void *, uint64_t, size_t);
} cu;

static void *primary_ctx; /* the device's primary context, current for the test */

static bool open_driver(void) {
  void *lib = dlopen("libcuda.so.1", RTLD_NOW);
  if (!lib)
    return false;
  *(void **)&cu.Init = dlsym(lib, "cuInit");
  *(void **)&cu.DeviceGet = dlsym(lib, "cuDeviceGet");
  *(void **)&cu.PrimaryCtxRetain = dlsym(lib, "cuDevicePrimaryCtxRetain");
  *(void **)&cu.CtxSetCurrent = dlsym(lib, "cuCtxSetCurrent");
  *(void **)&cu.MemAlloc = dlsym(lib, "cuMemAlloc_v2");
  *(void **)&cu.MemFree = dlsym(lib, "cuMemFree_v2");
  *(void **)&cu.HtoD = dlsym(lib, "cuMemcpyHtoD_v2");
  *(void **)&cu.DtoH = dlsym(lib, "cuMemcpyDtoH_v2");
  int dev = 0;
  return cu.Init && cu.DtoH && cu.Init(0) == 0 && cu.DeviceGet(&dev, 0) == 0 &&
         cu.PrimaryCtxRetain(&primary_ctx, dev) == 0 && cu.CtxSetCurrent(primary_ctx) == 0;
}

/* A producer whose deleter frees its cuMemAlloc memory. */
static void free_device_tensor(kjit_dl_managed_tensor_versioned *self) {
  ((Producer *)self->manager_ctx)->deleted++;
  cu.MemFree((uint64_t)(uintptr_t)self->dl_tensor.data);
}

/* An export from a kjit context in its own CUDA context
 * (KJIT_CUDA_CONTEXT_OWN): that context, and the memory, go with
 * kjit_context_destroy; the export's deleter afterwards frees nothing,
 * in particular not a new allocation that got the same address in the
 * primary context (it once freed in the primary context). */
static void test_own_context_export(void) {
  kjit_context_options o;
  kjit_context_options_init(&o);
  o.target = KJIT_TARGET_CUDA;
  o.cuda_context_mode = KJIT_CUDA_CONTEXT_OWN;
  kjit_context *own = NULL;
  kjit_array *dev = NULL;
  kjit_dl_managed_tensor_versioned *v = NULL;
  int64_t n = 1024;
  CHECK_STATUS(kjit_context_create(&o, &own), KJIT_OK);
  if (!own)
    return;
  CHECK_STATUS(kjit_array_create_device(own, KJIT_FLOAT32, 1, &n, &dev), KJIT_OK);
  if (dev)
    CHECK_STATUS(kjit_array_to_dlpack_versioned(dev, &v), KJIT_OK);
  kjit_context_destroy(own);                   /* the own context and its memory go */
  uint64_t mine[8] = {0};
  static float pattern[1024], back[1024];
  for (int i = 0; i < 1024; i++)
    pattern[i] = (float)i;
  /* destroying the own context left no usable context current */
  CHECK(cu.CtxSetCurrent(primary_ctx) == 0);
  for (int i = 0; i < 8; i++)                  /* likely to reuse the freed address */
    CHECK(cu.MemAlloc(&mine[i], sizeof pattern) == 0 && cu.HtoD(mine[i], pattern, sizeof pattern) == 0);
  if (v)
    v->deleter(v);
  CHECK(cu.CtxSetCurrent(primary_ctx) == 0);   /* whatever the deleter made current */
  for (int i = 0; i < 8; i++) {
    CHECK(cu.DtoH(back, mine[i], sizeof back) == 0 && back[1023] == 1023.0f,
          "allocation %d of the primary context survives an own-context export's deleter", i);
    cu.MemFree(mine[i]);
  }
  CHECK(cu.CtxSetCurrent(primary_ctx) == 0);
}

static int run_gpu(void) {
  enum { R = 64, C = 48 };
  uint64_t d = 0;
  static float host[R * C], back[R * C];
  for (int i = 0; i < R * C; i++)
    host[i] = (float)(i % 97);
  CHECK(cu.MemAlloc(&d, sizeof host) == 0 && cu.HtoD(d, host, sizeof host) == 0);
  int64_t shape[2] = {R, C};
  Producer p;
  producer(&p, (void *)(uintptr_t)d, 2, shape, NULL, KJIT_DL_FLOAT, 32, KJIT_DL_CUDA);
  p.v.deleter = free_device_tensor;
  kjit_array *a = NULL;
  CHECK_STATUS(kjit_array_from_dlpack_versioned(ctx, &p.v, &a), KJIT_OK);
  kjit_kernel *k = NULL;
  CHECK_STATUS(kjit_program_kernel(prog, "affine", &k), KJIT_OK);
  if (a && k) {
    CHECK(kjit_array_is_device(a) == 1 && kjit_array_data(a) == (void *)(uintptr_t)d);
    kjit_launch_config cfg;
    kjit_launch_config_init(&cfg);
    cfg.grid[0] = R / 16;
    cfg.grid[1] = C / 16;
    cfg.block[0] = cfg.block[1] = 16;
    kjit_arg args[] = {kjit_arg_array(a), kjit_arg_f64(3.0), kjit_arg_f64(-1.0)};
    CHECK_STATUS(kjit_launch(k, &cfg, args, 3), KJIT_OK);
    CHECK_STATUS(kjit_synchronize(ctx), KJIT_OK);
    CHECK(cu.DtoH(back, d, sizeof back) == 0);
    int bad = 0;
    for (int i = 0; i < R * C; i++)
      bad += back[i] != host[i] * 3.0f - 1.0f;
    CHECK(bad == 0, "%d wrong elements after the kernel on a kDLCUDA tensor", bad);
    kjit_array_destroy(a);
  }
  CHECK(p.deleted == 1, "the producer freed its memory once: %d", p.deleted);
  /* the wrong device */
  uint64_t d2 = 0;
  CHECK(cu.MemAlloc(&d2, 256) == 0);
  producer(&p, (void *)(uintptr_t)d2, 1, shape, NULL, KJIT_DL_FLOAT, 32, KJIT_DL_CUDA);
  p.m.dl_tensor.device.device_id = 7;
  EXPECT_ERROR(kjit_array_from_dlpack(ctx, &p.m, &a), KJIT_ERROR_INVALID_ARGUMENT,
               "dl_tensor.device is kDLCUDA device 7, but this context's device is 0");
  /* a device array exported: valid after kjit_array_destroy until the deleter */
  kjit_array *dev = NULL;
  int64_t n = 64;
  CHECK_STATUS(kjit_array_create_device(ctx, KJIT_FLOAT32, 1, &n, &dev), KJIT_OK);
  kjit_dl_managed_tensor_versioned *v = NULL;
  if (dev)
    CHECK_STATUS(kjit_array_to_dlpack_versioned(dev, &v), KJIT_OK);
  kjit_array_destroy(dev);
  if (v) {
    CHECK(v->dl_tensor.device.device_type == KJIT_DL_CUDA && v->dl_tensor.device.device_id == 0);
    uint64_t ptr = (uint64_t)(uintptr_t)v->dl_tensor.data;
    CHECK(cu.HtoD(ptr, host, 256) == 0 && cu.DtoH(back, ptr, 256) == 0 && back[5] == host[5],
          "exported device memory usable after kjit_array_destroy");
    v->deleter(v);
  }
  cu.MemFree(d2);
  /* device arrays: a launch that took the fast path with a writable out is
   * not reused once out is read-only (the fast path's records and the
   * specialization key both carry the bit) */
  kjit_array *dx = NULL, *dout = NULL;
  CHECK_STATUS(kjit_array_create_device(ctx, KJIT_FLOAT32, 1, &n, &dx), KJIT_OK);
  CHECK_STATUS(kjit_array_create_device(ctx, KJIT_FLOAT32, 1, &n, &dout), KJIT_OK);
  if (dx && dout) {
    for (int rep = 0; rep < 3; rep++) /* the second and third take the fast path */
      CHECK_STATUS(launch_copy(dx, dout), KJIT_OK);
    CHECK_STATUS(kjit_array_set_readonly(dout, 1), KJIT_OK);
    EXPECT_ERROR(launch_copy(dx, dout), KJIT_ERROR_TYPE,
                 "argument 2 ('out') is a read-only array and kernel 'copy' writes to it");
    CHECK_STATUS(kjit_array_set_readonly(dout, 0), KJIT_OK);
    CHECK_STATUS(launch_copy(dx, dout), KJIT_OK);
    CHECK_STATUS(kjit_synchronize(ctx), KJIT_OK);
  }
  kjit_array_destroy(dx);
  kjit_array_destroy(dout);
  check_protected_input(); /* a launch never copies a read-only host array back */
  test_own_context_export();
  return 0;
}

int main(int argc, char **argv) {
  bool gpu = argc > 1 && strcmp(argv[1], "--gpu") == 0;
  kjit_context_options o;
  kjit_context_options_init(&o);
  o.target = gpu ? KJIT_TARGET_CUDA : KJIT_TARGET_CPU;
  kjit_target t;
  if (kjit_context_create(&o, &ctx) != KJIT_OK) {
    fprintf(stderr, "setup failed: no context\n");
    return 1;
  }
  if (gpu && (kjit_context_target(ctx, &t) != KJIT_OK || !open_driver())) {
    printf("test_dlpack --gpu: SKIP (no usable GPU: %s)\n", kjit_last_error(ctx));
    kjit_context_destroy(ctx);
    return 77;
  }
  if (kjit_program_load_source(ctx, "dlpack_test.py", src, &prog) != KJIT_OK) {
    fprintf(stderr, "setup failed: %s\n", kjit_last_error(ctx));
    return 1;
  }
  if (gpu) {
    run_gpu();
  } else {
    test_dtypes();
    test_layouts();
    test_kernel_on_import();
    test_round_trip();
    test_deleter_order();
    test_readonly();
    test_bad_imports();
    test_bad_exports();
  }
  kjit_context_destroy(ctx);
  printf("test_dlpack%s: %d checks, %d failures\n", gpu ? " --gpu" : "", checks, failures);
  return failures ? 1 : 0;
}
