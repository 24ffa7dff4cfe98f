/* dlpack_roundtrip.c - a DLPack tensor in, a kjit kernel on it, the same
 * memory out as a DLPack tensor again.
 *
 * The "framework" here is a few lines that make a DLPack 1.x tensor over
 * its own buffer (a Fortran-ordered 2-D float32 matrix, so strides matter)
 * and count its deleter's calls; kjit imports it without a copy, runs a
 * Numba kernel on it, exports the array, and the framework reads the result
 * through the exported tensor: the same memory.  kjit calls the
 * framework's deleter once, after both the kjit array and the exported
 * tensor are gone.
 *
 *   ./build/tests/examples/dlpack_roundtrip [--target cpu|cuda]
 *
 * On the cuda target the host tensor is copied to the GPU for the launch
 * and back.  Exit 0 when every check holds, 77 when the target is not
 * there (no GPU). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kjit.h"

static const char kernel_src[] =
    "from numba import cuda\n"
    "\n"
    "@cuda.jit\n"
    "def scale_add(m, a, b):\n"
    "    i, j = cuda.grid(2)\n"
    "    if i < m.shape[0] and j < m.shape[1]:\n"
    "        m[i, j] = a * m[i, j] + b\n";

enum { ROWS = 20, COLS = 30 };

/* The framework's side: a buffer, its tensor, a deleter that counts. */
typedef struct Framework {
  float data[ROWS * COLS];            /* column-major: element (i, j) at i + j*ROWS */
  int64_t shape[2], strides[2];
  kjit_dl_managed_tensor_versioned tensor;
  int deleted;
} Framework;

static void framework_delete(kjit_dl_managed_tensor_versioned *self) {
  ((Framework *)self->manager_ctx)->deleted++;
}

static void framework_init(Framework *fw) {
  memset(fw, 0, sizeof *fw);
  for (int k = 0; k < ROWS * COLS; k++)
    fw->data[k] = (float)k;
  fw->shape[0] = ROWS;
  fw->shape[1] = COLS;
  fw->strides[0] = 1;                 /* DLPack strides count elements */
  fw->strides[1] = ROWS;
  fw->tensor.version = (kjit_dl_version){1, 0};
  fw->tensor.manager_ctx = fw;
  fw->tensor.deleter = framework_delete;
  fw->tensor.dl_tensor = (kjit_dl_tensor){fw->data, {KJIT_DL_CPU, 0}, 2,
                                          {KJIT_DL_FLOAT, 32, 1}, fw->shape, fw->strides, 0};
}

static int fail(kjit_context *ctx, const char *what) {
  fprintf(stderr, "dlpack_roundtrip: %s: %s\n", what, ctx ? kjit_last_error(ctx) : "");
  return 1;
}

int main(int argc, char **argv) {
  kjit_context_options opts;
  kjit_context_options_init(&opts);
  opts.target = KJIT_TARGET_CPU;
  if (argc == 3 && strcmp(argv[1], "--target") == 0 && strcmp(argv[2], "cuda") == 0)
    opts.target = KJIT_TARGET_CUDA;
  kjit_context *ctx = NULL;
  kjit_program *prog = NULL;
  kjit_kernel *k = NULL;
  kjit_target target;
  if (kjit_context_create(&opts, &ctx) != KJIT_OK)
    return fail(NULL, "no context");
  if (kjit_context_target(ctx, &target) != KJIT_OK) { /* no GPU: skipped, not passed */
    printf("dlpack_roundtrip: SKIP: %s\n", kjit_last_error(ctx));
    kjit_context_destroy(ctx);
    return 77;
  }
  if (kjit_program_load_source(ctx, "scale_add.py", kernel_src, &prog) != KJIT_OK ||
      kjit_program_kernel(prog, "scale_add", &k) != KJIT_OK)
    return fail(ctx, "set-up");

  static Framework fw;
  framework_init(&fw);
  kjit_array *m = NULL;                 /* a tensor in: no copy */
  if (kjit_array_from_dlpack_versioned(ctx, &fw.tensor, &m) != KJIT_OK)
    return fail(ctx, "import");

  kjit_launch_config cfg;
  kjit_launch_config_init(&cfg);
  cfg.grid[0] = (ROWS + 15) / 16;
  cfg.grid[1] = (COLS + 15) / 16;
  cfg.block[0] = cfg.block[1] = 16;
  kjit_arg args[] = {kjit_arg_array(m), kjit_arg_f64(2.0), kjit_arg_f64(0.5)};
  if (kjit_launch(k, &cfg, args, 3) != KJIT_OK)
    return fail(ctx, "launch");

  kjit_dl_managed_tensor_versioned *out = NULL; /* the same memory out */
  if (kjit_array_to_dlpack_versioned(m, &out) != KJIT_OK)
    return fail(ctx, "export");
  kjit_array_destroy(m);                /* the export keeps the framework's tensor */

  int bad = out->dl_tensor.data != (void *)fw.data || fw.deleted != 0;
  const float *r = out->dl_tensor.data;
  for (int i = 0; i < ROWS; i++)
    for (int j = 0; j < COLS; j++) {
      float want = 2.0f * (float)(i + j * ROWS) + 0.5f;
      bad += r[i * out->dl_tensor.strides[0] + j * out->dl_tensor.strides[1]] != want;
    }
  out->deleter(out);                    /* the last user: kjit calls fw's deleter */
  bad += fw.deleted != 1;
  kjit_context_destroy(ctx);
  printf("dlpack_roundtrip (%s): %s: a %dx%d Fortran-ordered tensor in, scale_add, the same "
         "memory out; the producer's deleter ran %d time(s)\n",
         opts.target == KJIT_TARGET_CUDA ? "cuda" : "cpu", bad ? "FAILED" : "ok", ROWS, COLS,
         fw.deleted);
  return bad ? 1 : 0;
}
