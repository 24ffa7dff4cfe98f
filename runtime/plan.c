/* plan.c - resolving a launch into a plan (runtime/plan.h): the geometry
 * checked against kjit's limits, and an eager kernel's signature picked as
 * Numba's dispatcher picks it (runtime/dispatch.h), the scalars converted
 * to it.  Every message names the kernel (or the device function, for
 * kjit_call) and the argument. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "common/host_abi.h"
#include "runtime/dispatch.h"
#include "runtime/plan.h"
#include "runtime/value.h"

#define MAX_GRID_X 2147483647u
#define MAX_GRID_YZ 65535u
#define MAX_BLOCK_XY 1024u
#define MAX_BLOCK_Z 64u

void rt_plan_init(RtPlan *p, kjit_program *prog, IrFunc *fn, RtValue *args, int nargs,
                  const uint32_t grid[3], const uint32_t block[3], size_t shared_bytes) {
  memset(p, 0, sizeof *p);
  p->prog = prog;
  p->fn = fn;
  p->sig = -1;
  p->args = args;
  p->nargs = nargs;
  memcpy(p->grid, grid, sizeof p->grid);
  memcpy(p->block, block, sizeof p->block);
  p->shared_bytes = shared_bytes;
  p->grid32 = rt_launch_grid32(grid, block);
  p->repeat = 1;
}

const Signature *rt_plan_signature(const RtPlan *p) {
  return p->sig >= 0 && p->sig < p->fn->eager.len ? &p->fn->eager.data[p->sig] : NULL;
}

bool rt_plan_on_device(const RtPlan *p, int i) {
  return p->origin && p->origin[i] == RT_MEM_DEVICE;
}

/* "kernel", or "function" for kjit_call's device functions */
static const char *what(const RtPlan *p) { return p->fn->is_kernel ? "kernel" : "function"; }
static const char *param_name(const RtPlan *p, int i) { return p->fn->locals.data[i].name; }

static bool fail(const RtPlan *p, Diags *d, const char *hint, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* "kernel 'add': <message>" (or "function 'f': ...") */
static bool fail(const RtPlan *p, Diags *d, const char *hint, const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  diag_error(d, RT_E_ARGUMENT, (SrcLoc){0}, hint, "%s '%s': %s", what(p), p->fn->name, msg);
  return false;
}

/* ---------------------------------------------------------- geometry --- */

bool rt_plan_check_count(const RtPlan *p, Diags *d) {
  int want = p->fn->nparams;
  if (p->nargs == want)
    return true;
  diag_error(d, RT_E_ARGUMENT, (SrcLoc){0}, NULL, "%s '%s' takes %d argument%s (%d given)", what(p),
             p->fn->name, want, want == 1 ? "" : "s", p->nargs);
  return false;
}

bool rt_plan_check_geometry(const RtPlan *p, Diags *d) {
  static const char xyz[] = "xyz";
  for (int k = 0; k < 3; k++) {
    if (p->grid[k] == 0 || p->block[k] == 0)
      return fail(p, d, "use 1 for unused dimensions",
                  "%s.%c is 0; every grid and block dimension must be at least 1",
                  p->grid[k] == 0 ? "grid" : "block", xyz[k]);
    if (p->grid[k] > (k ? MAX_GRID_YZ : MAX_GRID_X))
      return fail(p, d, NULL, "grid.%c is %u; the limit is %u", xyz[k], p->grid[k],
                  k ? MAX_GRID_YZ : MAX_GRID_X);
    if (p->block[k] > (k == 2 ? MAX_BLOCK_Z : MAX_BLOCK_XY))
      return fail(p, d, NULL, "block.%c is %u; the limit is %u", xyz[k], p->block[k],
                  k == 2 ? MAX_BLOCK_Z : MAX_BLOCK_XY);
  }
  uint64_t threads = (uint64_t)p->block[0] * p->block[1] * p->block[2];
  if (threads > RT_HOST_MAX_THREADS)
    return fail(p, d, NULL, "a block of %u x %u x %u = %llu threads exceeds the limit of %u",
                  p->block[0], p->block[1], p->block[2], (unsigned long long)threads,
                  RT_HOST_MAX_THREADS);
  if (p->shared_bytes > RT_HOST_MAX_SHARED)
    return fail(p, d, NULL, "%zu bytes of dynamic shared memory exceed the limit of %u",
                  p->shared_bytes, RT_HOST_MAX_SHARED);
  return true;
}


/* Numba's spelling of an array type: float32[::1], float64[:, :]. */
static void array_type_text(RtDtype dt, int ndim, bool c_order, char *buf, size_t n) {
  size_t w = (size_t)snprintf(buf, n, "%s[", rt_dtype_name(dt));
  for (int d = 0; d < ndim && w < n; d++)
    w += (size_t)snprintf(buf + w, n - w, "%s%s", d ? ", " : "",
                   d == ndim - 1 && c_order ? "::1" : ":");
  if (w < n)
    snprintf(buf + w, n - w, "]");
}

/* Does value v fit parameter type p (with any conversion Numba allows)? */
static bool value_fits(const RtValue *v, const Type *p) {
  return rt_value_conversion(v, p, true) != TYCONV_NONE;
}

static void convert_scalar(RtScalar *s, const Type *p) {
  RtDtype to;
  if (rt_type_dtype(p, &to) && to != s->dtype)
    rt_scalar_convert(s, to, s);
}

/* A tuple's elements converted to the signature's element types (the
 * elements live in the call's arena, so converting in place is safe). */
static void convert_value(RtValue *v, const Type *p) {
  if (p->kind == TY_PTR && !v->is_ptr && !v->is_array && !v->is_tuple) { /* an int as the address */
    v->is_ptr = rt_type_dtype(p->elem, &v->ptr_dtype);
    v->scalar.dtype = RT_U64;
    return;
  }
  if (!v->is_tuple) {
    if (!v->is_array)
      convert_scalar(&v->scalar, p);
    return;
  }
  for (int i = 0; i < v->nelems && i < p->nelems; i++)
    convert_value(&v->elems[i], p->elems[i]);
}

static void value_text(const RtValue *v, char *buf, size_t n) {
  if (v->is_tuple)
    rt_tuple_text(v, buf, n);
  else if (v->is_array && v->array.dtype == RT_RECORD)
    snprintf(buf, n, "%s %s", v->array.ndim ? "an array of records" : "the record",
             v->array.rec ? v->array.rec->descr : "?");
  else if (v->is_array) {
    size_t ro = (size_t)snprintf(buf, n, "%s", v->array.readonly && n > 9 ? "readonly " : "");
    array_type_text(v->array.dtype, v->array.ndim, rt_array_is_c_contiguous(&v->array), buf + ro, n - ro);
  }
  else if (v->is_ptr)
    snprintf(buf, n, "%s*", rt_dtype_name(v->ptr_dtype));
  else
    snprintf(buf, n, "%s", rt_dtype_name(v->scalar.dtype));
}

static void type_text(const Type *t, char *buf, size_t n) {
  RtDtype dt;
  if (t->kind == TY_ARRAY && rt_type_dtype(t->elem, &dt))
    array_type_text(dt, t->ndim, t->layout == LAYOUT_C, buf, n);
  else
    ty_name(t, buf, (int)n);
}

static int first_misfit(const RtPlan *p, const Signature *s) {
  for (int i = 0; i < p->nargs && i < s->nparams; i++)
    if (!value_fits(&p->args[i], s->params[i]))
      return i;
  return -1;
}

/* "(float64[::1], int64)": a signature's parameters, spelled as value_text
 * spells arguments. */
static void sig_text(const Signature *s, char *buf, size_t n) {
  snprintf(buf, n, "(");
  for (int i = 0; i < s->nparams; i++) {
    char t[256];
    type_text(s->params[i], t, sizeof t);
    snprintf(buf + strlen(buf), n - strlen(buf), "%s%s", i ? ", " : "", t);
  }
  snprintf(buf + strlen(buf), n - strlen(buf), ")");
}

/* "(float64[::1], int32)": the launch's argument types. */
static void args_text(const RtPlan *p, char *buf, size_t n) {
  snprintf(buf, n, "(");
  for (int i = 0; i < p->nargs; i++) {
    char t[256];
    value_text(&p->args[i], t, sizeof t);
    snprintf(buf + strlen(buf), n - strlen(buf), "%s%s", i ? ", " : "", t);
  }
  snprintf(buf + strlen(buf), n - strlen(buf), ")");
}

/* Two of the signatures the arguments fit equally well (Numba refuses the
 * call too: "Ambiguous overloading"). */
static bool fail_ambiguous(RtPlan *p, Diags *d, const int tied[2]) {
  const IrFunc *f = p->fn;
  char got[512], a[512], b[512];
  args_text(p, got, sizeof got);
  sig_text(&f->eager.data[tied[0]], a, sizeof a);
  sig_text(&f->eager.data[tied[1]], b, sizeof b);
  diag_error(d, RT_E_AMBIGUOUS, (SrcLoc){0},
             "Numba refuses such a call too; pass arguments of one signature's types, or add a "
             "signature for these",
             "%s '%s': the arguments %s fit signatures %d %s and %d %s equally well", what(p), f->name,
             got, tied[0] + 1, a, tied[1] + 1, b);
  return false;
}

/* No signature accepts the arguments: with one signature, the first
 * argument that does not fit; with several, all of them. */
static bool fail_no_match(RtPlan *p, Diags *d) {
  const IrFunc *f = p->fn;
  const Signature *s0 = &f->eager.data[0];
  char got[512], want[1024];
  if (f->eager.len == 1) {
    int i = first_misfit(p, s0);
    value_text(&p->args[i], got, sizeof got);
    type_text(s0->params[i], want, sizeof want);
    diag_error(d, RT_E_ARGUMENT, (SrcLoc){0},
               "pass arguments of the declared types, or declare the kernel lazily (@cuda.jit)",
               "%s '%s': argument %d ('%s'): %s does not match the signature's %s", what(p), f->name,
               i + 1, param_name(p, i), got, want);
    return false;
  }
  args_text(p, got, sizeof got);
  want[0] = 0;
  for (int s = 0; s < f->eager.len && strlen(want) + 256 < sizeof want; s++) {
    char t[512];
    sig_text(&f->eager.data[s], t, sizeof t);
    snprintf(want + strlen(want), sizeof want - strlen(want), "%s%s", s ? ", " : "", t);
  }
  diag_error(d, RT_E_ARGUMENT, (SrcLoc){0},
             "numbers convert to any number type (complex only to complex); an array needs its "
             "signature's dtype and dimensions, and C order for [::1]",
             "%s '%s': the arguments %s match none of its signatures %s", what(p), f->name, got, want);
  return false;
}

/* A signature of another arity than the def (Numba refuses it when the
 * decorator runs; kjit check reports it at the signature). */
static bool check_arities(RtPlan *p, Diags *d) {
  const IrFunc *f = p->fn;
  for (int s = 0; s < f->eager.len; s++)
    if (f->eager.data[s].nparams != p->nargs) {
      char t[512];
      sig_text(&f->eager.data[s], t, sizeof t);
      diag_error(d, RT_E_ARITY, f->eager.data[s].loc, NULL,
                 "%s '%s' takes %d arguments but its signature %d %s has %d", what(p), f->name,
                 p->nargs, s + 1, t, f->eager.data[s].nparams);
      return false;
    }
  return true;
}

/* Is a float scalar passed for an integer parameter of the chosen
 * signature?  Numba's dispatcher chooses such a signature (an unsafe
 * conversion), but its launch then marshals the value with ctypes, which
 * refuses a float ("'float' object cannot be interpreted as an integer"). */
static bool float_for_int(const RtValue *v, const Type *p) {
  if (v->is_tuple) {
    for (int i = 0; i < v->nelems && i < p->nelems; i++)
      if (float_for_int(&v->elems[i], p->elems[i]))
        return true;
    return false;
  }
  return !v->is_array && rt_dtype_is_float(v->scalar.dtype) && ty_is_int(p);
}

/* Kernel launches only: kjit_call (no Numba counterpart) converts. */
static bool check_marshal(RtPlan *p, Diags *d, const Signature *s) {
  for (int i = 0; i < p->nargs && p->fn->is_kernel; i++)
    if (float_for_int(&p->args[i], s->params[i])) {
      char got[256], want[256];
      value_text(&p->args[i], got, sizeof got);
      type_text(s->params[i], want, sizeof want);
      diag_error(d, RT_E_ARGUMENT, (SrcLoc){0},
                 "Numba's launch refuses it too (ctypes: 'float' object cannot be interpreted as "
                 "an integer); pass an integer, or add a signature with a float parameter",
                 "%s '%s': argument %d ('%s'): a %s value for the %s parameter of the chosen "
                 "signature", what(p), p->fn->name, i + 1, param_name(p, i), got, want);
      return false;
    }
  return true;
}

/* An eager kernel runs only with one of its signatures: the one Numba's
 * dispatcher picks (runtime/dispatch.h), the scalars converted to it. */
/* ------------------------------------------------- eager signatures --- */

bool rt_plan_pick_signature(RtPlan *p, Diags *d) {
  const IrFunc *f = p->fn;
  if (f->eager.len == 0)
    return true;
  if (!check_arities(p, d))
    return false;
  int tied[2];
  int s = rt_pick_eager(f, p->args, p->nargs, tied);
  if (s >= 0) {
    p->sig = s;
    if (!check_marshal(p, d, &f->eager.data[s]))
      return false;
    for (int i = 0; i < p->nargs; i++)
      convert_value(&p->args[i], f->eager.data[s].params[i]);
    return true;
  }
  return s == IR_PICK_AMBIGUOUS ? fail_ambiguous(p, d, tied) : fail_no_match(p, d);
}
