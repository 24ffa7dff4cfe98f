/* test_lower.c - AST -> generic IR lowering (ir/lower*.c, ir/consts.c),
 * the IR printer and the verifier.
 *
 * Each case parses a small kernel file, lowers it, verifies every function
 * (no E599 may appear) and checks that key lines occur, in order, in the
 * printed generic IR; error cases check the rendered diagnostic text. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"
#include "lower/lower.h"

#include "check.h"

#define HDR "from numba import cuda\nimport numba\nimport math\nimport numpy as np\n"

static char *take(StrBuf *sb) {
  if (sb->data)
    return sb_take(sb);
  return calloc(1, 1);
}

/* Lower src; *ir receives the printed IR of every function and *err the
 * rendered diagnostics (both malloc'ed).  Returns the error count. */
static int lower(const char *src, char **ir, char **err) {
  Arena a;
  arena_init(&a);
  Diags d;
  diags_init(&d, &a);
  Source s = {"k.py", src, strlen(src)};
  IrProgram p = {0};
  p.arena = &a;
  p.src = &s;
  p.types = ty_table_new(&a);
  p.ast = parse_module(&a, &s, &d);
  int parse_errors = d.nerrors;
  ir_lower_program(&p, &d);
  for (int i = 0; i < p.funcs.len; i++) /* body errors wait for a compile */
    ir_report_body_errors(p.funcs.data[i], &d);
  StrBuf sb, eb;
  sb_init(&sb);
  sb_init(&eb);
  for (int i = 0; i < p.funcs.len; i++) {
    if (!ir_verify(p.funcs.data[i], &d))
      printf("verifier failed on %s\n", p.funcs.data[i]->name);
    ir_print_func(p.funcs.data[i], &sb);
  }
  diags_render(&d, &eb);
  int n = d.nerrors;
  if (parse_errors)
    printf("parse errors in test source:\n%s\n", eb.data ? eb.data : "");
  *ir = take(&sb);
  *err = take(&eb);
  arena_destroy(&a);
  return n;
}

/* Every needle must occur, each after the previous one. */
static void expect_ir(const char *name, const char *src, const char *const *needles) {
  char *ir, *err;
  int n = lower(src, &ir, &err);
  CHECK(n == 0, "%s: unexpected errors:\n%s", name, err);
  const char *at = ir;
  for (int i = 0; needles[i]; i++) {
    const char *hit = strstr(at, needles[i]);
    CHECK(hit != NULL, "%s: '%s' not found (in order) in:\n%s", name, needles[i], ir);
    if (hit)
      at = hit + strlen(needles[i]);
  }
  free(ir);
  free(err);
}

static void expect_error(const char *src, const char *msg) {
  char *ir, *err;
  int n = lower(src, &ir, &err);
  CHECK(n > 0 && strstr(err, msg) != NULL, "expected error '%s', got:\n%s", msg, err);
  CHECK(strstr(err, "internal compiler error") == NULL, "ICE for '%s':\n%s", msg, err);
  free(ir);
  free(err);
}

static void expect_clean(const char *name, const char *src) {
  char *ir, *err;
  int n = lower(src, &ir, &err);
  CHECK(n == 0, "%s: unexpected errors:\n%s", name, err);
  free(ir);
  free(err);
}

#define IR(name, src, ...)                                                     \
  do {                                                                         \
    static const char *const needles_[] = {__VA_ARGS__, NULL};                 \
    expect_ir(name, src, needles_);                                            \
  } while (0)

/* ------------------------------------------------------------- core -- */

static void test_vector_add(void) {
  IR("vector_add",
     HDR "@cuda.jit\ndef add(x, y, out):\n    i = cuda.grid(1)\n"
         "    if i < x.size:\n        out[i] = x[i] + y[i]\n",
     "kernel add(x: ?, y: ?, out: ?) -> void", "locals: i: ?", "bb0:", "= tid.x : ?",
     "= cast %0 : int64", "= ctaid.x", "= ntid.x", "= mul %3, %5", "= add %1, %6",
     "store i, %7", "array.size", "cbr %11, bb1, bb2", "bb1:", "array.load %12, %13",
     "array.store %19, %18, %20", "br bb2", "bb2:", "  ret\n");
}

static void test_grid2_unpack(void) {
  IR("grid2",
     HDR "@cuda.jit\ndef k(a):\n    x, y = cuda.grid(2)\n    a[x, y] = 1\n",
     "tid.y", "= tuple %", "tuple.get %", ", 0 :", "store x,", "tuple.get", ", 1 :", "store y,",
     "array.store");
}

static void test_gridsize_regs(void) {
  IR("regs",
     HDR "from numba.cuda import threadIdx\n@cuda.jit\ndef k(a):\n"
         "    t = threadIdx.x + cuda.blockIdx.y + cuda.blockDim.z + cuda.gridDim.x\n"
         "    n = cuda.gridsize(1)\n    w = cuda.laneid + cuda.warpsize\n",
     "tid.x", "ctaid.y", "ntid.z", "nctaid.x", "ntid.x", "nctaid.x", "mul", "laneid", "warpsize");
}

static void test_swap(void) {
  IR("swap",
     HDR "@cuda.jit(device=True)\ndef f(a, b):\n    a, b = b, a\n    return a\n",
     "device f(a: ?, b: ?) -> ?", "%0 = load b", "%1 = load a", "store a, %0", "store b, %1",
     "ret %");
}

static void test_chained_assign(void) {
  IR("chained", HDR "@cuda.jit\ndef k(a):\n    x = y = 0\n", "%0 = const.int 0 : int64",
     "store x, %0", "store y, %0");
}

static void test_augassign_array(void) {
  IR("aug",
     HDR "@cuda.jit\ndef k(a, i, j):\n    a[i, j] *= 2\n    i += 1\n",
     "%0 = load a", "%1 = load i", "%2 = load j", "%3 = array.load %0, %1, %2",
     "%5 = mul %3, %4", "array.store %0, %5, %1, %2", "add", "store i");
}

static void test_range_loops(void) {
  IR("range1", HDR "@cuda.jit\ndef k(a):\n    for i in range(10):\n        a[i] = i\n",
     "const.int 0", "store $t0", "br bb1", "bb1:", "load $t0", "const.int 10", "lt", "cbr",
     "bb2:", "store i,", "array.store", "br bb3", "bb3:", "add", "store $t0", "br bb1",
     "bb4:", "ret");
  IR("range_neg", HDR "@cuda.jit\ndef k(a):\n    for i in range(10, 0, -2):\n        pass\n",
     "const.int 10", "const.int -2", "floordiv", "ne", "add");
  IR("range_dyn", HDR "@cuda.jit\ndef k(a, s, n):\n    for i in range(1, n, s):\n        pass\n",
     "cast", "store $t0", "cast", "store $t1", "gt", "select", "select", "floordiv", "store $t3", "ne",
     "cbr", "add", "sub", "store $t3");
}

static void test_loop_control(void) {
  IR("continue_break",
     HDR "@cuda.jit\ndef k(a):\n    for i in range(4):\n        if i == 1:\n            continue\n"
         "        if i == 2:\n            break\n        a[i] = 0\n    else:\n        a[0] = 1\n"
         "    while a[0] < 3:\n        a[0] += 1\n",
     "bb1:", "cbr %3, bb2, bb8", "bb2:", "eq", "cbr %7, bb3, bb4", "bb3:", "br bb7", "bb4:",
     "eq", "bb5:", "br bb9", "bb6:", "array.store", "br bb7", "bb7:", "load $t0", "add",
     "br bb1", "bb8:", "array.store", "br bb9", "bb9:", "br bb10", "bb10:", "array.load", "lt");
}

static void test_short_circuit(void) {
  IR("chain_cmp", HDR "@cuda.jit\ndef k(a, i, n):\n    if 0 <= i < n:\n        a[i] = 0\n",
     "%1 = load i", "le %0, %1", "store $t0", "store $t1, %1", "cbr", "load $t1", "lt",
     "store $t0", "load $t0");
  IR("and_or", HDR "@cuda.jit\ndef k(a, i):\n    x = i > 0 and i or 3\n",
     "gt", "store $t1", "cbr", "store $t1", "load $t1", "store $t0", "truth", "cbr",
     "const.int 3", "store $t0", "load $t0", "store x");
  IR("ifexp", HDR "@cuda.jit\ndef k(a, i):\n    x = a[i] if i else -1\n",
     "truth", "cbr", "array.load", "store $t0", "const.int -1", "store $t0", "load $t0");
  IR("ifexp_index", HDR "@cuda.jit\ndef k(a, i, j, c):\n    a[i if c else j] = 1\n",
     "const.int 1", "load a", "truth", "store $t1", "store $t2", "cbr", "load i", "load j",
     "load $t0", "load $t1", "load $t2", "array.store");
}

static void test_shared_local(void) {
  IR("shared",
     HDR "TPB = 16\nSHAPE = (TPB, 2 * TPB)\n@cuda.jit\ndef k(a):\n"
         "    s = cuda.shared.array(SHAPE, dtype=numba.float32)\n"
         "    l = cuda.local.array(4, np.int32)\n    d = cuda.shared.array(0, 'float64')\n"
         "    t = cuda.shared.array(shape=(TPB,), dtype=np.float32)\n    cuda.syncthreads()\n",
     "shared.array #0 (16, 32) array(float32, 2d, C)", "local.array #1 (4,) array(int32, 1d, C)",
     "shared.array #2 (0,) array(float64, 1d, C)", "shared.array #3 (16,)", "syncthreads");
}

static void test_atomics_sync(void) {
  IR("atomics",
     HDR "@cuda.jit\ndef k(a, i):\n    cuda.atomic.add(a, i, 1)\n    cuda.atomic.and_(a, i, 1)\n"
         "    old = cuda.atomic.cas(a, (i, 0), 1, 2)\n    cuda.atomic.nanmax(a, 0, 1.0)\n"
         "    n = cuda.syncthreads_count(i > 0)\n    cuda.syncthreads_and(1)\n"
         "    cuda.syncthreads_or(1)\n    cuda.syncwarp()\n    cuda.syncwarp(mask=3)\n"
         "    cuda.threadfence()\n    cuda.threadfence_block()\n    cuda.threadfence_system()\n",
     "atomic.add", "atomic.and", "tuple", "atomic.cas", "atomic.nanmax", "syncthreads.count",
     "syncthreads.and", "syncthreads.or", "const.int 4294967295", "syncwarp %",
     "const.int 3", "syncwarp %", "fence device", "fence block", "fence system");
}

static void test_device_call(void) {
  IR("devcall",
     HDR "@cuda.jit(device=True)\ndef clamp(v, lo, hi):\n    return min(max(v, lo), hi)\n"
         "@cuda.jit\ndef k(a):\n    a[0] = clamp(a[0], hi=1.0, lo=0.0)\n",
     "device clamp", "call.intrinsic max", "call.intrinsic min", "ret %", "kernel k",
     "array.load", "const.float 1.0", "const.float 0.0", "= call @clamp(%2, %4, %3)",
     "array.store");
}

/* ------------------------------------------------------------ breadth -- */

static void test_builtins_math(void) {
  IR("builtins",
     HDR "from math import sqrt\nfrom numba import float32\n@cuda.jit\ndef k(a, i):\n"
         "    x = sqrt(2.0) + math.fabs(-1.5) + math.pow(2, 3) + math.atan2(1, 2)\n"
         "    y = cuda.fma(1.0, 2.0, 3.0) + cuda.popc(i) + cuda.selp(i > 0, 1, 2)\n"
         "    z = abs(i) + round(1.5) + round(1.5, 1) + min(1, 2, 3) + len(a)\n"
         "    w = int(x) + float(i) + bool(i) + float32(i) + np.uint8(i) + numba.int32(1)\n"
         "    print('v', x, i)\n    c = math.pi + np.inf + math.e + math.tau\n",
     "call.intrinsic sqrt", "const.float -1.5", "call.intrinsic fabs", "call.intrinsic pow",
     "call.intrinsic atan2", "call.intrinsic fma", "call.intrinsic popc", "call.intrinsic selp",
     "call.intrinsic abs", "call.intrinsic round", "call.intrinsic round %", "call.intrinsic min",
     "call.intrinsic min", "array.shape %", ", len :", "cast %", ": int64", "cast %",
     ": float64", "truth", "cast %", ": float32", ": uint8", ": int32",
     "const.str \"v\" : unicode_type", "print %", "const.float 3.14159265358979",
     "const.float inf", "const.float 2.71828", "const.float 6.28318");
}

static void test_attributes(void) {
  IR("attrs",
     HDR "@cuda.jit\ndef k(a):\n    p = a.shape\n    q = a.shape[1] + a.strides[0] + a.ndim + a.size\n"
         "    r = a.shape[-1]\n",
     "array.shape %0 :", "array.shape %", ", 1 :", "array.stride %", ", 0 :", "array.ndim",
     "array.size", "array.shape %", "tuple.get %", ", -1 :");
}

static void test_globals(void) {
  IR("globals",
     HDR "A = 1\nA = A + 1\nB = 1 << 10\nC = -7 // 2\nD = -7 % 2\nE = 7.5 // -2\n"
         "F = np.float32(1.5)\nG = (1, 2.5, True)\nH = math.pi * 2\nI = 2 ** -1\n"
         "J = 3 > 2 and 5\nK = G[1]\nL = ~5\nM = numba.int32(7)\n"
         "@cuda.jit\ndef k(a):\n    a[0] = A + B + C + D + E + F + H + I + J + K + L + M\n"
         "    t = G\n",
     "const.int 2 : int64", "const.int 1024", "const.int -4", "const.int 1 :",
     "const.float -4.0 : float64", "const.float 1.5 : float32", "const.float 6.28318530717958",
     "const.float 0.5", "const.int 5", "const.float 2.5", "const.int -6", "const.int 7 : int32",
     "const.int 1", "const.float 2.5", "const.bool true", "tuple %");
}

static void test_imports(void) {
  IR("imports",
     "import numba.cuda as nc\nfrom numba import cuda as cu, float32 as f4\nimport numba\n"
     "from numba.cuda import grid\nfrom numba import types\n"
     "@nc.jit\ndef k1(a):\n    a[0] = nc.threadIdx.x\n"
     "@cu.jit(device=True)\ndef d(x):\n    return f4(x)\n"
     "@numba.cuda.jit\ndef k2(a):\n    a[grid(1)] = numba.cuda.blockIdx.x + d(1)\n"
     "    s = cu.local.array(2, types.float32)\n"
     "@cu.jit('void(float32[:])', opt=False, max_registers=32, inline='always', lineinfo=True,"
     " cache=True, debug=True, boundscheck=False, typing='narrow')\ndef k3(a):\n    pass\n",
     "kernel k1", "tid.x", "device d", "cast %0 : float32", "kernel k2", "ctaid.x",
     "call @d", "array(float32, 1d, C)", "kernel k3",
     "options: debug lineinfo cache typing=narrow opt=0 max_registers=32 inline=always");
}

static void test_misc_statements(void) {
  IR("misc",
     HDR "@cuda.jit\ndef k(a, i):\n    \"\"\"doc\"\"\"\n    pass\n    assert i > 0\n"
         "    if i:\n        a[0] = 1\n    elif i > 1:\n        a[0] = 2\n    else:\n        return\n"
         "    x: int = 3\n    return None\n    a[0] = 5\n",
     "truth", "cbr", "gt", "cbr", "ret", "const.int 3", "store x", "ret");
  expect_clean("host_code",
               HDR "import os\nX = os.getenv('A')\ndef host():\n    return [1, 2]\n"
                   "@numba.njit\ndef cpu(x):\n    return x\n"
                   "if __name__ == '__main__':\n    host()\n");
}

/* ------------------------------------------------------------- errors -- */

static void test_errors_names(void) {
  expect_error(HDR "@cuda.jit\ndef k(a):\n    value = 1\n    a[0] = valeu\n",
               "name 'valeu' is not defined");
  expect_error(HDR "@cuda.jit\ndef k(a):\n    value = 1\n    a[0] = valeu\n",
               "did you mean 'value'?");
  expect_error(HDR "import os\nX = os.getenv('A')\n@cuda.jit\ndef k(a):\n    a[0] = X\n",
               "global 'X' is not a compile-time constant");
  expect_error(HDR "@cuda.jit\ndef k(a):\n    a[0] = cuda.threadIdxx.x\n",
               "module 'cuda' has no attribute 'threadIdxx'");
  expect_error(HDR "@cuda.jit\ndef k(a):\n    a[0] = cuda.foo(1)\n",
               "module 'cuda' has no attribute 'foo'");
  expect_error(HDR "@cuda.jit\ndef k(a):\n    a[0] = math.bar(1)\n",
               "module 'math' has no attribute 'bar'");
  expect_error(HDR "@cuda.jit\ndef k(a):\n    a[0] = cuda.nanosleep(1)\n",
               "cuda.nanosleep is not supported yet");
}

static void test_errors_calls(void) {
  expect_error(HDR "@cuda.jit\ndef k(a):\n    a[0] = math.sqrt(1, 2)\n",
               "math.sqrt() takes exactly 1 argument (2 given)");
  expect_error(HDR "@cuda.jit\ndef k(a):\n    a[0] = len(a, 1)\n",
               "len() takes exactly 1 argument (2 given)");
  expect_error(HDR "def h(x):\n    return x\n@cuda.jit\ndef k(a):\n    a[0] = h(1)\n",
               "decorate it with @cuda.jit(device=True)");
  /* a shape read from a parameter or local is typing's to check
   * (tests/errors/shared_shape_nonconst) */
  expect_error(HDR "@cuda.jit\ndef k(a, n):\n    s = cuda.shared.array(1.5, np.float32)\n",
               "shared array extents must be integers, not float64");
  expect_error(HDR "@cuda.jit\ndef k(a):\n    s = cuda.local.array(4, 'floaty')\n",
               "unknown dtype 'floaty'");
  expect_error(HDR "@cuda.jit\ndef k(a):\n    x = cuda.grid(4)\n", "takes the constant 1, 2 or 3");
  expect_error(HDR "@cuda.jit\ndef k(a):\n    x = range(3)\n", "range() is only supported");
  expect_error(HDR "@cuda.jit\ndef k(a):\n    for i in range(0, 4, 0):\n        pass\n",
               "range() arg 3 must not be zero");
  expect_error(HDR "@cuda.jit\ndef k(a):\n    print(f'x={a}')\n", "f-strings are not supported");
  expect_error(HDR "@cuda.jit\ndef k(a):\n    print(a, sep='')\n", "print(sep=...) is not supported");
}

/* A kernel called from GPU code is compiled as a device function (numba-cuda);
 * a kernel returning a value is a typing error (tests/errors/kernel_returns_value). */
static void test_errors_unsupported(void) {
  expect_error(HDR "@cuda.jit\ndef k(a):\n    x = [1, 2]\n", "use cuda.local.array(n, dtype)");
  expect_error(HDR "@cuda.jit\ndef k(a):\n    @cuda.jit\n    def f():\n        pass\n",
               "define a device function at module level with @cuda.jit(device=True)");
  expect_error(HDR "@cuda.jit\ndef k(a):\n    try:\n        pass\n    except:\n        pass\n",
               "exceptions are not supported on the GPU");
  expect_error(HDR "@cuda.jit\ndef k(a):\n    a[1:2] += 0\n", "augmented assignment to an array slice is not supported");
  expect_error(HDR "@cuda.jit\ndef k(a):\n    raise\n", "a bare 'raise'");
  expect_error(HDR "@cuda.jit\ndef k(a, n):\n    raise ValueError(n)\n", "must be constants");
  expect_error(HDR "@cuda.jit\ndef k(a):\n    b = a[::0]\n", "slice step cannot be zero");
  expect_error(HDR "@cuda.jit\ndef k(a):\n    b = a[None, 1:]\n", "indexing an array with None");
  expect_error(HDR "@cuda.jit\ndef k(a):\n    b = a[..., 0]\n", "indexing an array with '...'");
  expect_error(HDR "@cuda.jit\ndef k(a):\n    b = 99999999999999999999\n",
               "integer literal too large for uint64");
  expect_error(HDR "@cuda.jit\ndef k(a):\n    b = 'x' + 1\n",
               "string values are only supported as print arguments");
  expect_error(HDR "@cuda.jit\ndef k(a):\n    b = a @ a\n", "the operator '@' is not supported");
  expect_error(HDR "@cuda.jit\ndef k(a):\n    for x in zip(zip(zip(zip(zip(zip(a))))), a):\n        pass\n",
               "nested more than 4 deep are not supported");
  expect_error(HDR "@cuda.jit\ndef k(a):\n    for i, x in enumerate(a, start=1):\n        pass\n",
               "enumerate() takes no keyword arguments");
  expect_error(HDR "@cuda.jit\ndef k(a):\n    x, y = 1, 2, 3\n", "cannot unpack 3 values into 2 targets");
  expect_error(HDR "@cuda.jit\ndef k(a):\n    x = complex(1, 2, 3)\n", "complex() takes exactly 2 arguments");
  expect_error(HDR "@cuda.jit\ndef k(a):\n    a.shape = 1\n", "assigning to an attribute");
  expect_error(HDR "@cuda.jit\ndef k(a):\n    x = a.transpose(1, 0)\n", "transpose() with axes is not supported");
  expect_error(HDR "@cuda.jit\ndef k(a):\n    break\n", "'break' outside loop");
}

static void test_errors_decorators(void) {
  expect_error(HDR "@cuda.jit(link=[1])\ndef k(a):\n    pass\n", "link= takes a list of file names");
  expect_error(HDR "f = cuda.declare_device('f', 'float32(float32)')\n@cuda.jit\ndef k(a):\n"
                   "    a[0] = f(a[0], 1)\n",
               "f() takes 1 argument (2 given)");
  expect_error(HDR "f = cuda.declare_device('f')\n", "takes the function's C name and its signature");
  expect_error(HDR "@cuda.jit(fastmth=True)\ndef k(a):\n    pass\n", "unknown option 'fastmth'");
  expect_error(HDR "@cuda.jit(fastmth=True)\ndef k(a):\n    pass\n", "did you mean 'fastmath'?");
  expect_error(HDR "@cuda.jit(opt=7)\ndef k(a):\n    pass\n", "option 'opt' must be between 0 and 3");
  expect_error(HDR "@cuda.jit\ndef k(a, n=[1]):\n    pass\n",
               "the default value of 'n' is not a compile-time constant");
  expect_error(HDR "@cuda.jit\ndef k(a, *rest):\n    pass\n", "*args and **kwargs are not supported");
  expect_error(HDR "from numba import guvectorize\n@guvectorize(['void(f4[:])'], '(n)')\n"
                   "def v(x):\n    pass\n",
               "@guvectorize is not supported yet");
  expect_clean("vectorize", HDR "from numba import vectorize\n@vectorize(['f4(f4)'], target='cuda')\n"
                            "def v(x):\n    return x\n");
  expect_error(HDR "from numba import vectorize\n@vectorize(['f4(f4)'])\ndef v(x):\n    return x[0]\n",
               "@vectorize function 'v' must work on scalars");
  expect_error(HDR "from numba import vectorize\n@vectorize(['f4(f4, f4)'])\ndef v(x):\n    return x\n",
               "signature has 2 arguments; the function takes 1");
  expect_error(HDR "from numba import vectorize\n@vectorize(['void(f4[:])'])\ndef v(x):\n    return x\n",
               "@vectorize signatures take and return scalar types");
  expect_error(HDR "from numba import vectorize\n@vectorize(target='gpu')\ndef v(x):\n    return x\n",
               "target= must be \"cuda\", \"cpu\" or \"parallel\"");
  expect_error(HDR "@cuda.vectorize(['f4(f4)'])\ndef v(x):\n    return x\n",
               "numba.cuda has no 'vectorize'");
  expect_error(HDR "@cuda.reduce\ndef r(a, b, c):\n    return a + b\n",
               "a @cuda.reduce function takes two arguments ('r' takes 3)");
  expect_error(HDR "@cuda.reduce()\ndef r(a, b):\n    return a + b\n", "@cuda.reduce takes no arguments");
  expect_error(HDR "@cuda.reduce\ndef r(a, b):\n    return a + b\n@cuda.jit\ndef k(x):\n    x[0] = r(1, 2)\n",
               "'r' is a @cuda.reduce function and cannot be called from GPU code");
}

/* Malformed or unusual trees must never crash lowering. */
static void test_robustness(void) {
  const char *srcs[] = {
      HDR "@cuda.jit\ndef k(a):\n    x = (yield)\n",
      HDR "@cuda.jit\ndef k(a):\n    x = (y := 3)\n",
      HDR "@cuda.jit\ndef k(a):\n    x = {1, 2}\n    del x\n    global Q\n    import os\n",
      HDR "@cuda.jit\ndef k(a):\n    a[...] = 1\n    *b, c = 1, 2\n",
      HDR "@cuda.jit\ndef k(a):\n    x = cuda\n    y = cuda.atomic\n    z = math\n",
      HDR "@cuda.jit\ndef k(a):\n    a.b.c = 3\n    (a)(1)\n    a()(2)\n",
      HDR "@cuda.jit\ndef k(a):\n    with a:\n        pass\n    class C:\n        pass\n",
  };
  for (size_t i = 0; i < sizeof srcs / sizeof *srcs; i++) {
    char *ir, *err;
    lower(srcs[i], &ir, &err);
    CHECK(strstr(err, "internal compiler error") == NULL, "ICE:\n%s", err);
    free(ir);
    free(err);
  }
}

int main(void) {
  test_vector_add();
  test_grid2_unpack();
  test_gridsize_regs();
  test_swap();
  test_chained_assign();
  test_augassign_array();
  test_range_loops();
  test_loop_control();
  test_short_circuit();
  test_shared_local();
  test_atomics_sync();
  test_device_call();
  test_builtins_math();
  test_attributes();
  test_globals();
  test_imports();
  test_misc_statements();
  test_errors_names();
  test_errors_calls();
  test_errors_unsupported();
  test_errors_decorators();
  test_robustness();
  printf("test_lower: %d passed, %d failed\n", checks - failures, failures);
  return failures ? 1 : 0;
}
