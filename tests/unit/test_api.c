/* test_api.c - the public C API, used exactly as a client would (kjit.h only).
 *
 * Covers: loading from a string and a file, the kernel list, emitting KIR /
 * LLVM / PTX, every error path (bad path, syntax error with its location,
 * unknown kernel, bad options, NULL arguments) and destruction orders.
 * Runs from tests/ (ctest's working directory).  Self-contained: prints
 * each failed check and exits 1 if any failed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kjit.h"
#include "check.h"

static const char vector_add[] =
    "from numba import cuda\n"
    "import math\n"
    "\n"
    "@cuda.jit(device=True)\n"
    "def twice(x):\n"
    "    return 2 * x\n"
    "\n"
    "@cuda.jit(\"void(float32[::1], float32[::1], float32[::1])\")\n"
    "def add_kernel(x, y, out):\n"
    "    i = cuda.grid(1)\n"
    "    if i < out.size:\n"
    "        out[i] = x[i] + twice(y[i])\n"
    "\n"
    "@cuda.jit\n"
    "def scale(a, f):\n"
    "    i = cuda.grid(1)\n"
    "    if i < a.size:\n"
    "        a[i] = math.sqrt(a[i]) * f\n"
    "\n"
    "if __name__ == \"__main__\":\n"
    "    print(\"host code is skipped\")\n";

static const char syntax_error[] =
    "from numba import cuda\n"
    "\n"
    "@cuda.jit\n"
    "def k(a):\n"
    "    if a[0] > 0\n"      /* line 5: missing colon */
    "        a[0] = 1\n";

static const char type_error[] =
    "from numba import cuda\n"
    "\n"
    "@cuda.jit(\"void(int32[:])\")\n"
    "def k(a):\n"
    "    x = 5\n"
    "    a[0] = x[0]\n";

static kjit_context *ctx; /* for CHECK_STATUS's message */

static void test_basics(void) {
  CHECK(strlen(kjit_version()) > 0);
  CHECK(strcmp(kjit_status_name(KJIT_OK), "KJIT_OK") == 0);
  CHECK(strcmp(kjit_status_name(KJIT_ERROR_SYNTAX), "KJIT_ERROR_SYNTAX") == 0);
  CHECK(strcmp(kjit_status_name((kjit_status)1234), "KJIT_ERROR_UNKNOWN") == 0);
  CHECK(strcmp(kjit_last_error(NULL), "") == 0);
  kjit_free(NULL);
  kjit_context_destroy(NULL);
  kjit_program_destroy(NULL);
}

static void test_null_arguments(void) {
  kjit_program *prog = NULL;
  char *out = NULL;
  size_t len = 0;
  int n;
  const char *name;
  CHECK_STATUS(kjit_context_create(NULL, NULL), KJIT_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(kjit_program_load_file(NULL, "x.py", &prog), KJIT_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(kjit_program_load_file(ctx, NULL, &prog), KJIT_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(kjit_program_load_file(ctx, "x.py", NULL), KJIT_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(kjit_program_load_source(ctx, "x.py", NULL, &prog), KJIT_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(kjit_program_kernel_count(NULL, &n), KJIT_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(kjit_program_kernel_name(NULL, 0, &name), KJIT_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(kjit_program_check(NULL), KJIT_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(kjit_program_emit(NULL, NULL, NULL, NULL, KJIT_EMIT_PTX, &out, &len),
               KJIT_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(kjit_last_error_location(NULL, NULL, NULL, NULL), KJIT_ERROR_INVALID_ARGUMENT);
  CHECK(prog == NULL && out == NULL);

  kjit_context_options o;
  kjit_context_options_init(&o);
  o.reserved[0] = &o;
  kjit_context *c2 = NULL;
  CHECK_STATUS(kjit_context_create(&o, &c2), KJIT_ERROR_INVALID_ARGUMENT);
  CHECK(c2 == NULL);
}

static void test_load_and_list(void) {
  kjit_program *prog = NULL;
  CHECK_STATUS(kjit_program_load_source(ctx, "vec.py", vector_add, &prog), KJIT_OK);
  if (!prog)
    return;
  CHECK(strcmp(kjit_last_error(ctx), "") == 0);
  int n = -1;
  const char *name = NULL;
  CHECK_STATUS(kjit_program_kernel_count(prog, &n), KJIT_OK);
  CHECK(n == 2); /* twice is a device function, not a kernel */
  CHECK_STATUS(kjit_program_kernel_name(prog, 0, &name), KJIT_OK);
  CHECK(name && strcmp(name, "add_kernel") == 0);
  CHECK_STATUS(kjit_program_kernel_name(prog, 1, &name), KJIT_OK);
  CHECK(name && strcmp(name, "scale") == 0);
  CHECK_STATUS(kjit_program_kernel_name(prog, 2, &name), KJIT_ERROR_NOT_FOUND);
  CHECK_STATUS(kjit_program_kernel_name(prog, -1, &name), KJIT_ERROR_NOT_FOUND);
  CHECK_STATUS(kjit_program_check(prog), KJIT_OK);
  kjit_program_destroy(prog);
}

static void test_emit(void) {
  kjit_program *prog = NULL;
  CHECK_STATUS(kjit_program_load_source(ctx, "vec.py", vector_add, &prog), KJIT_OK);
  if (!prog)
    return;
  char *out = NULL;
  size_t len = 0;
  CHECK_STATUS(kjit_program_emit(prog, "add_kernel", NULL, NULL, KJIT_EMIT_PTX, &out, &len), KJIT_OK);
  CHECK(out && len == strlen(out));
  CHECK(out && strstr(out, ".entry") && strstr(out, "add_kernel"));
  CHECK(out && strstr(out, ".target sm_80"));
  kjit_free(out);

  kjit_compile_options o;
  kjit_compile_options_init(&o);
  CHECK(o.arch == NULL && o.opt_level == -1 && o.fastmath == -1);
  o.arch = "sm_90";
  out = NULL;
  CHECK_STATUS(kjit_program_emit(prog, "scale", "void(float64[:], float64)", &o,
                                 KJIT_EMIT_PTX, &out, &len), KJIT_OK);
  CHECK(out && strstr(out, ".target sm_90") && strstr(out, "scale"));
  kjit_free(out);

  out = NULL;
  CHECK_STATUS(kjit_program_emit(prog, "add_kernel", NULL, NULL, KJIT_EMIT_KIR, &out, &len), KJIT_OK);
  CHECK(out && strstr(out, "add_kernel") && strstr(out, "twice"));
  kjit_free(out);

  out = NULL;
  CHECK_STATUS(kjit_program_emit(prog, "add_kernel", NULL, NULL, KJIT_EMIT_LLVM, &out, &len), KJIT_OK);
  CHECK(out && strstr(out, "define"));
  kjit_free(out);

  out = NULL; /* every kernel with an eager signature: add_kernel only */
  CHECK_STATUS(kjit_program_emit(prog, NULL, NULL, NULL, KJIT_EMIT_PTX, &out, &len), KJIT_OK);
  CHECK(out && strstr(out, "add_kernel") && !strstr(out, "scale"));
  kjit_free(out);

  /* Many compiles of one program: nothing accumulates but interned types. */
  for (int i = 0; i < 20; i++) {
    out = NULL;
    CHECK_STATUS(kjit_program_emit(prog, "scale", i % 2 ? "void(float32[:], float32)"
                                                       : "void(float64[:, :], int64)",
                                   NULL, KJIT_EMIT_KIR, &out, &len),
                 i % 2 ? KJIT_OK : KJIT_ERROR_TYPE);
    kjit_free(out);
  }
  kjit_program_destroy(prog);
}

static void test_compile_errors(void) {
  kjit_program *prog = NULL;
  CHECK_STATUS(kjit_program_load_source(ctx, "vec.py", vector_add, &prog), KJIT_OK);
  if (!prog)
    return;
  char *out = NULL;
  size_t len = 0;
  const char *file = "x";
  int line = -1, col = -1;

  CHECK_STATUS(kjit_program_emit(prog, "add_kernal", NULL, NULL, KJIT_EMIT_PTX, &out, &len),
               KJIT_ERROR_NOT_FOUND);
  CHECK(out == NULL);
  CHECK(strstr(kjit_last_error(ctx), "no kernel named 'add_kernal' in vec.py"));
  CHECK(strstr(kjit_last_error(ctx), "did you mean 'add_kernel'"));
  CHECK_STATUS(kjit_last_error_location(ctx, &file, &line, &col), KJIT_ERROR_NOT_FOUND);
  CHECK(file == NULL && line == 0 && col == 0);

  /* a device function compiles alone for a signature (its C-ABI entry) */
  CHECK_STATUS(kjit_program_emit(prog, "twice", NULL, NULL, KJIT_EMIT_PTX, &out, &len),
               KJIT_ERROR_TYPE);
  CHECK(strstr(kjit_last_error(ctx), "device function 'twice' has no signature"));

  CHECK_STATUS(kjit_program_emit(prog, "scale", NULL, NULL, KJIT_EMIT_PTX, &out, &len),
               KJIT_ERROR_TYPE);
  CHECK(strstr(kjit_last_error(ctx), "no eager signature"));

  CHECK_STATUS(kjit_program_emit(prog, "scale", "void(float32[:])", NULL, KJIT_EMIT_PTX, &out, &len),
               KJIT_ERROR_TYPE);
  CHECK_STATUS(kjit_program_emit(prog, "scale", "float32(float32[:], float32)", NULL,
                                 KJIT_EMIT_PTX, &out, &len), KJIT_ERROR_TYPE);
  CHECK(strstr(kjit_last_error(ctx), "void"));
  CHECK(kjit_program_emit(prog, "scale", "void(float32[:]", NULL, KJIT_EMIT_PTX, &out, &len) != KJIT_OK);
  CHECK(strlen(kjit_last_error(ctx)) > 0);

  kjit_compile_options o;
  kjit_compile_options_init(&o);
  o.arch = "sm_91";
  CHECK_STATUS(kjit_program_emit(prog, "add_kernel", NULL, &o, KJIT_EMIT_PTX, &out, &len),
               KJIT_ERROR_INVALID_ARGUMENT);
  CHECK(strstr(kjit_last_error(ctx), "sm_91"));
  kjit_compile_options_init(&o);
  o.opt_level = 7;
  CHECK_STATUS(kjit_program_emit(prog, "add_kernel", NULL, &o, KJIT_EMIT_PTX, &out, &len),
               KJIT_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(kjit_program_emit(prog, "add_kernel", NULL, NULL, (kjit_emit)42, &out, &len),
               KJIT_ERROR_INVALID_ARGUMENT);
  CHECK(out == NULL);

  /* A failing call leaves the program usable; a success clears the error. */
  CHECK_STATUS(kjit_program_emit(prog, "add_kernel", NULL, NULL, KJIT_EMIT_KIR, &out, &len), KJIT_OK);
  CHECK(strcmp(kjit_last_error(ctx), "") == 0);
  kjit_free(out);
  kjit_program_destroy(prog);
}

static void test_load_errors(void) {
  kjit_program *prog = NULL;
  const char *file = NULL;
  int line = 0, col = 0;

  CHECK_STATUS(kjit_program_load_file(ctx, "no/such/file.py", &prog), KJIT_ERROR_IO);
  CHECK(prog == NULL);
  CHECK(strstr(kjit_last_error(ctx), "cannot open 'no/such/file.py': No such file or directory"));
  CHECK_STATUS(kjit_last_error_location(ctx, &file, &line, &col), KJIT_ERROR_NOT_FOUND);

  CHECK_STATUS(kjit_program_load_source(ctx, "bad.py", syntax_error, &prog), KJIT_ERROR_SYNTAX);
  CHECK(prog == NULL);
  CHECK(strstr(kjit_last_error(ctx), "bad.py:5:"));
  CHECK(strstr(kjit_last_error(ctx), "^"));
  CHECK_STATUS(kjit_last_error_location(ctx, &file, &line, &col), KJIT_OK);
  CHECK(file && strcmp(file, "bad.py") == 0);
  CHECK(line == 5 && col >= 5);

  CHECK_STATUS(kjit_program_load_source(ctx, NULL, syntax_error, &prog), KJIT_ERROR_SYNTAX);
  CHECK(strstr(kjit_last_error(ctx), "<string>:5:"));

  /* Typing errors surface at check/emit, not at load. */
  CHECK_STATUS(kjit_program_load_source(ctx, "types.py", type_error, &prog), KJIT_OK);
  if (prog) {
    CHECK_STATUS(kjit_program_check(prog), KJIT_ERROR_TYPE);
    CHECK_STATUS(kjit_last_error_location(ctx, &file, &line, &col), KJIT_OK);
    CHECK(file && strcmp(file, "types.py") == 0 && line == 6);
    kjit_program_destroy(prog);
  }
}

static const char uses_modules[] =
    "from numba import cuda\n"
    "from mypkg.rng import uniform\n"
    "@cuda.jit\n"
    "def k(out):\n"
    "    out[0] = uniform(1)\n";

static const char uses_bad_module[] =
    "from numba import cuda\n"
    "from errmods.uses_main import leak\n"
    "ONLY_IN_MAIN = 3\n"
    "@cuda.jit\n"
    "def k(out):\n"
    "    out[0] = leak(1)\n";

/* Imported modules: the search path set on the context, cleared again;
 * an error inside an imported file is located in that file. */
static void test_search_path(void) {
  kjit_program *p = NULL;
  const char *file = NULL;
  int line = 0, col = 0, n = 0;
  CHECK_STATUS(kjit_context_set_search_path(NULL, "x"), KJIT_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(kjit_program_load_source(ctx, "m.py", uses_modules, &p), KJIT_ERROR_TYPE);
  CHECK(strstr(kjit_last_error(ctx), "module 'mypkg.rng' was not found") != NULL);
  CHECK_STATUS(kjit_context_set_search_path(ctx, "no/such/dir::exec/mods"), KJIT_OK);
  CHECK_STATUS(kjit_program_load_source(ctx, "m.py", uses_modules, &p), KJIT_OK);
  CHECK(p && kjit_program_kernel_count(p, &n) == KJIT_OK && n == 1);
  kjit_program_destroy(p);
  p = NULL;
  CHECK_STATUS(kjit_context_set_search_path(ctx, "errors"), KJIT_OK);
  CHECK_STATUS(kjit_program_load_source(ctx, "m.py", uses_bad_module, &p), KJIT_ERROR_TYPE);
  CHECK_STATUS(kjit_last_error_location(ctx, &file, &line, &col), KJIT_OK);
  CHECK(file && strcmp(file, "errors/errmods/uses_main.py") == 0 && line == 6 && col == 16);
  CHECK_STATUS(kjit_context_set_search_path(ctx, NULL), KJIT_OK);
  CHECK_STATUS(kjit_program_load_source(ctx, "m.py", uses_modules, &p), KJIT_ERROR_TYPE);
}

static void test_file_and_destroy_order(void) {
  kjit_context *c = NULL;
  kjit_context_options o;
  kjit_context_options_init(&o);
  o.max_errors = 5;
  CHECK(kjit_context_create(&o, &c) == KJIT_OK);
  if (!c)
    return;
  kjit_program *a = NULL, *b = NULL, *d = NULL;
  CHECK(kjit_program_load_file(c, "kernels/vector_add.py", &a) == KJIT_OK);
  CHECK(kjit_program_load_source(c, "b.py", vector_add, &b) == KJIT_OK);
  CHECK(kjit_program_load_source(c, "d.py", vector_add, &d) == KJIT_OK);
  char *out = NULL;
  size_t len;
  if (a) {
    CHECK(kjit_program_emit(a, "add_kernel", NULL, NULL, KJIT_EMIT_PTX, &out, &len) == KJIT_OK);
    kjit_free(out);
  }
  kjit_program_destroy(b);      /* middle of the context's list */
  kjit_context_destroy(c);      /* frees a and d */

  /* Two contexts are independent: an error in one leaves the other clean. */
  kjit_context *c1 = NULL, *c2 = NULL;
  CHECK(kjit_context_create(NULL, &c1) == KJIT_OK);
  CHECK(kjit_context_create(NULL, &c2) == KJIT_OK);
  kjit_program *p = NULL;
  CHECK(kjit_program_load_file(c1, "missing.py", &p) == KJIT_ERROR_IO);
  CHECK(strlen(kjit_last_error(c1)) > 0 && strcmp(kjit_last_error(c2), "") == 0);
  kjit_context_destroy(c2);
  kjit_context_destroy(c1);
}

static const char factory_src[] =
    "from numba import cuda\n"
    "\n"
    "def make_scale(f, off=0.0):\n"
    "    @cuda.jit\n"
    "    def scale(a):\n"
    "        i = cuda.grid(1)\n"
    "        if i < a.size:\n"
    "            a[i] = a[i] * f + off\n"
    "    return scale\n"
    "\n"
    "scale2 = make_scale(2.0)\n";

/* Kernels made by a factory: named by their module variable, or by the call
 * itself ("make_scale(3.0, off=1.0)"), made once and then found again. */
static void test_factory_kernels(void) {
  kjit_program *prog = NULL;
  CHECK_STATUS(kjit_program_load_source(ctx, "fac.py", factory_src, &prog), KJIT_OK);
  if (!prog)
    return;
  kjit_kernel *k = NULL, *k2 = NULL;
  int count = 0;
  const char *name = NULL;
  CHECK_STATUS(kjit_program_kernel(prog, "scale2", &k), KJIT_OK);
  CHECK_STATUS(kjit_program_kernel(prog, "make_scale(3.0, off=1.0)", &k), KJIT_OK);
  CHECK_STATUS(kjit_program_kernel(prog, "make_scale(3.0, off=1.0)", &k2), KJIT_OK);
  CHECK(k && k == k2);
  CHECK_STATUS(kjit_kernel_name(k, &name), KJIT_OK);
  CHECK(name && strcmp(name, "make_scale(3.0, off=1.0)") == 0);
  CHECK_STATUS(kjit_program_kernel_count(prog, &count), KJIT_OK);
  CHECK(count == 2);
  char *out = NULL;
  size_t len = 0;
  CHECK_STATUS(kjit_program_emit(prog, "make_scale(4.0)", "void(float32[:])", NULL,
                                 KJIT_EMIT_KIR, &out, &len), KJIT_OK);
  CHECK(out && strstr(out, "4"));
  kjit_free(out);
  CHECK_STATUS(kjit_program_kernel(prog, "make_scale()", &k), KJIT_ERROR_NOT_FOUND);
  CHECK_STATUS(kjit_program_kernel(prog, "make_nothing(1)", &k), KJIT_ERROR_NOT_FOUND);
  kjit_program_destroy(prog);
}

int main(void) {
  test_basics();
  if (kjit_context_create(NULL, &ctx) != KJIT_OK) {
    fprintf(stderr, "cannot create a context\n");
    return 1;
  }
  test_null_arguments();
  test_load_and_list();
  test_emit();
  test_compile_errors();
  test_load_errors();
  test_search_path();
  test_factory_kernels();
  kjit_context_destroy(ctx);
  ctx = NULL;
  test_file_and_destroy_order();
  printf("test_api: %d checks, %d failed\n", checks, failures);
  return failures ? 1 : 0;
}
