/* host_call.c - kjit_call's last step: a device function's C-ABI wrapper
 * (codegen.h: cg_jit_add_cabi) called through libffi with the function's
 * native signature.
 *
 * rt_host_prepare_call (host_launch.c) specializes, compiles and packs the
 * arguments as for a launch; here each packed slot becomes one libffi
 * argument (arrays by the address of their { data, shape, strides }
 * struct), the cif is built on the stack and the result is widened into a
 * kjit_value.  Types libffi cannot pass natively here are refused first. */
#include <ffi.h>
#include <stdio.h>
#include <string.h>

#include "host/launch.h"

/* libffi's type for a TypeKind; NULL when kjit_call cannot pass it. */
static ffi_type *ffi_of(TypeKind k) {
  switch (k) {
  case TY_BOOL: case TY_U8: return &ffi_type_uint8;
  case TY_I8: return &ffi_type_sint8;
  case TY_I16: return &ffi_type_sint16;
  case TY_U16: return &ffi_type_uint16;
  case TY_I32: return &ffi_type_sint32;
  case TY_U32: return &ffi_type_uint32;
  case TY_I64: return &ffi_type_sint64;
  case TY_U64: return &ffi_type_uint64;
  case TY_F32: return &ffi_type_float;
  case TY_F64: return &ffi_type_double;
  case TY_ARRAY: return &ffi_type_pointer;
  case TY_PTR: return &ffi_type_pointer; /* its packed 8-byte address */
  case TY_VOID: case TY_NONE: return &ffi_type_void;
  default: return NULL;
  }
}

static const char *kind_text(TypeKind k) {
  switch (k) {
  case TY_F16: return "float16";
  case TY_C64: return "complex64";
  case TY_C128: return "complex128";
  case TY_TUPLE: return "a tuple";
  case TY_ARRAY: return "an array";
  case TY_PTR: return "a raw pointer";
  default: return "this type";
  }
}

/* The libffi types of c's parameters and result, or false with a message. */
static bool ffi_types(const IrFunc *f, const RtHostCall *c, ffi_type **at, ffi_type **rt, Diags *d) {
  for (int i = 0; i < c->nargs; i++)
    if (!(at[i] = ffi_of((TypeKind)c->kind[i]))) {
      diag_error(d, RT_E_LAUNCH_ARGS, f->ast ? f->ast->loc : (SrcLoc){0}, NULL,
                 "argument %d ('%s') of function '%s': kjit_call cannot pass %s", i + 1,
                 f->locals.data[i].name, f->name, kind_text((TypeKind)c->kind[i]));
      return false;
    }
  if (c->ret_kind == TY_ARRAY || c->ret_kind == TY_PTR || !(*rt = ffi_of((TypeKind)c->ret_kind))) {
    diag_error(d, RT_E_LAUNCH_ARGS, f->ast ? f->ast->loc : (SrcLoc){0}, NULL,
               "function '%s' returns %s, which kjit_call cannot return", f->name,
               kind_text((TypeKind)c->ret_kind));
    return false;
  }
  return true;
}

/* The raw result (ffi_arg-widened for integers narrower than a register,
 * as libffi's ABI says) into a tagged kjit_value. */
static void take_result(TypeKind k, const void *raw, kjit_value *out) {
  ffi_arg a;
  ffi_sarg sa;
  memcpy(&a, raw, sizeof a);
  memcpy(&sa, raw, sizeof sa);
  memset(out, 0, sizeof *out);
  switch (k) {
  case TY_BOOL: out->dtype = KJIT_BOOL; out->value.b = (unsigned char)((uint8_t)a != 0); break;
  case TY_I8: out->dtype = KJIT_INT8; out->value.i64 = (int8_t)sa; break;
  case TY_I16: out->dtype = KJIT_INT16; out->value.i64 = (int16_t)sa; break;
  case TY_I32: out->dtype = KJIT_INT32; out->value.i64 = (int32_t)sa; break;
  case TY_I64: out->dtype = KJIT_INT64; memcpy(&out->value.i64, raw, 8); break;
  case TY_U8: out->dtype = KJIT_UINT8; out->value.u64 = (uint8_t)a; break;
  case TY_U16: out->dtype = KJIT_UINT16; out->value.u64 = (uint16_t)a; break;
  case TY_U32: out->dtype = KJIT_UINT32; out->value.u64 = (uint32_t)a; break;
  case TY_U64: out->dtype = KJIT_UINT64; memcpy(&out->value.u64, raw, 8); break;
  case TY_F32: out->dtype = KJIT_FLOAT32; memcpy(&out->value.f32, raw, 4); break;
  case TY_F64: out->dtype = KJIT_FLOAT64; memcpy(&out->value.f64, raw, 8); break;
  default: out->dtype = KJIT_NONE; break;
  }
}

bool rt_host_call(const RtPlan *p, kjit_value *result, Diags *d) {
  _Alignas(16) unsigned char buf[RT_HOST_MAX_ARGS * 72];
  RtHostCall c;
  ffi_type *at[RT_HOST_MAX_ARGS], *rt = NULL;
  const IrFunc *f = p->fn;
  int nargs = p->nargs;
  if (!rt_host_prepare_call(p, &c, buf, d) || !ffi_types(f, &c, at, &rt, d))
    return false;
  void *ptrs[RT_HOST_MAX_ARGS], *av[RT_HOST_MAX_ARGS];
  for (int i = 0; i < nargs; i++) {
    ptrs[i] = buf + c.offset[i];
    av[i] = c.kind[i] == TY_ARRAY ? (void *)&ptrs[i] : ptrs[i];
  }
  ffi_cif cif;
  if (ffi_prep_cif(&cif, FFI_DEFAULT_ABI, (unsigned)nargs, rt, at) != FFI_OK) {
    diag_error(d, E_INTERNAL, (SrcLoc){0}, NULL, "function '%s': libffi cannot describe its signature",
               f->name);
    return false;
  }
  _Alignas(16) unsigned char raw[16] = {0};
  ffi_call(&cif, FFI_FN(c.fn), raw, av);
  fflush(stdout);
  take_result((TypeKind)c.ret_kind, raw, result);
  return true;
}
