/* infer_host_global.c - typing of HOST_GLOBAL: module globals whose value
 * the host computes, bound by the host program before a kernel that uses
 * them is compiled.
 *
 * Numba reads a global when it compiles the kernel: a NumPy array is
 * frozen into the kernel as a read-only constant, a device array is
 * captured by reference (its device pointer embedded, so kernels may
 * write it).  kjit cannot run the host code that makes the array, so the
 * host binds it (kjit_program_set_global) and typing reads the binding
 * here: a NumPy global becomes an ordinary CONST_ARRAY (its bytes, copied
 * at bind time, are in the disk cache key through the IR text), a device
 * array global stays HOST_GLOBAL carrying its address, extents and
 * strides (the address is in the key too). */
#include <string.h>

#include "typing/typing_internal.h"


static const Type *unbound(Infer *inf, int idx, const IrHostGlobal *h) {
  const char *hint = arena_printf(
      inf->c->arena,
      "bind an array to it before the launch: kjit_program_set_global(prog, \"%s\", array) "
      "from C, or `kjit run ... --global %s=VALUE`",
      h->name, h->name);
  return ir_infer_fail(inf, idx, E_TY_UNBOUND, hint,
                       "global '%s' is not a compile-time constant: the host computes it "
                       "(%s, line %d) and no array is bound to it",
                       h->name, h->what, h->loc.line);
}

static bool is_c_order(const IrHostGlobal *h) {
  int64_t st = ty_size(h->elem);
  for (int k = h->ndim - 1; k >= 0; k--) {
    if (h->shape[k] != 1 && h->strides[k] != st)
      return false;
    st *= h->shape[k];
  }
  return true;
}

const Type *ir_infer_host_global(Infer *inf, int idx) {
  Inst *in = &inf->f->insts.data[idx];
  const IrHostGlobal *h = ir_host_global_find(inf->c->prog, in->str);
  if (h && !h->bound && h->frozen) { /* cuda.to_device(<constants>), unbound */
    in->op = OP_CONST_ARRAY;
    in->tyimm = h->frozen->type;
    in->shape = h->frozen->shape;
    in->data = h->frozen->data;
    return in->tyimm;
  }
  if (!h || !h->bound)
    return h ? unbound(inf, idx, h)
             : ir_infer_fail(inf, idx, E_INTERNAL, NULL, "internal error: no global '%s'",
                             in->str);
  int64_t *dims = arena_alloc(inf->c->arena, sizeof(int64_t) * 8);
  memcpy(dims, h->shape, sizeof(int64_t) * 4);
  memcpy(dims + h->ndim, h->strides, sizeof(int64_t) * (size_t)h->ndim);
  in->shape = dims;
  if (!h->byref) { /* frozen: from here on an ordinary constant array */
    in->op = OP_CONST_ARRAY;
    in->tyimm = ty_array_readonly(inf->tt, h->elem, h->ndim, LAYOUT_C);
    in->data = h->data;
    return in->tyimm;
  }
  in->ival = (int64_t)h->addr;
  in->tyimm = ty_array(inf->tt, h->elem, h->ndim, is_c_order(h) ? LAYOUT_C : LAYOUT_A);
  return in->tyimm;
}
