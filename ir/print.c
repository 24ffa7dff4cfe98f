/* print.c - the stable text form of kjit IR (`kjit ptx --emit kir`, golden
 * tests in tests/kir/).
 *
 *   kernel name(x: array(float32, 1d, C), n: int64) -> void   # symbol name__...
 *     options: fastmath opt=2
 *     signature: (array(float32, 1d, C), int64) -> void
 *     locals: i: int64, $t0: ?
 *   bb0:
 *     %0 = tid.x : int32
 *     store i, %0
 *     cbr %3, bb1, bb2
 *
 * Values are renumbered densely in print order, so clones and inserted casts
 * print the same as freshly lowered code; untyped values print ": ?". */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/sha256.h"
#include "ir/ir.h"
#include "ir/numfn.h"
#include "ir/bf16.h"
#include "ir/fp8.h"
#include "ir/npmath.h"
#include "ir/libdevice_fns.h"

static const char *type_str(const Type *t, char *buf, int size) {
  return t ? ty_name(t, buf, size) : "?";
}

static void put_type(StrBuf *sb, const Type *t) {
  char buf[1024]; /* record types spell every field; the cache key reads the */
  const char *s = type_str(t, buf, sizeof buf); /* whole name: never cut */
  if (strlen(s) < sizeof buf - 1) {
    sb_puts(sb, s);
    return;
  }
  char *big = malloc(1 << 20);
  if (big)
    sb_puts(sb, type_str(t, big, 1 << 20));
  free(big);
}

/* Shortest decimal that reads back as the same double (or float for f32). */
static void put_float(StrBuf *sb, double v, bool f32) {
  char buf[64];
  if (isnan(v)) {
    sb_puts(sb, "nan");
    return;
  }
  if (isinf(v)) {
    sb_puts(sb, v < 0 ? "-inf" : "inf");
    return;
  }
  for (int prec = 1; prec <= 17; prec++) {
    snprintf(buf, sizeof buf, "%.*g", prec, v);
    double back = strtod(buf, NULL);
    if (f32 ? (float)back == (float)v : back == v)
      break;
  }
  sb_puts(sb, buf);
  if (!strpbrk(buf, ".eEn"))
    sb_puts(sb, ".0");
}

/* s as a quoted literal: len bytes (a bytes constant may hold NULs), or up
 * to its NUL when len < 0. */
static void put_string_n(StrBuf *sb, const char *s, int64_t len) {
  sb_putc(sb, '"');
  for (const char *e = s && len >= 0 ? s + len : NULL; s && (e ? s < e : *s != 0); s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\')
      sb_printf(sb, "\\%c", c);
    else if (c == '\n')
      sb_puts(sb, "\\n");
    else if (c == '\t')
      sb_puts(sb, "\\t");
    else if (c < 0x20 || c == 0x7f)
      sb_printf(sb, "\\x%02x", c);
    else
      sb_putc(sb, (char)c);
  }
  sb_putc(sb, '"');
}

static void put_string(StrBuf *sb, const char *s) { put_string_n(sb, s, -1); }

static bool is_void_op(IrOp op) {
  switch (op) {
  case OP_STORE: case OP_ARRAY_STORE: case OP_SYNCTHREADS: case OP_SYNCWARP:
  case OP_FENCE: case OP_PRINT: case OP_BR: case OP_CBR: case OP_RET:
  case OP_UNREACHABLE: case OP_ASSERT_FAIL: case OP_RAISE: case OP_ARRAY_FILL:
  case OP_ARRAY_UFUNC:
    return true;
  default:
    return false;
  }
}

static bool has_value(const Inst *in) {
  return !is_void_op(in->op) && in->type != TY_VOID_T;
}

/* Dense numbering of value instructions in print order (-1: no value). */
static int *number_values(const IrFunc *f) {
  int *num = malloc(sizeof(int) * (size_t)(f->insts.len + 1));
  for (int i = 0; i < f->insts.len; i++)
    num[i] = -1;
  int next = 0;
  for (int b = 0; b < f->blocks.len; b++)
    for (int k = 0; k < f->blocks.data[b].insts.len; k++) {
      int i = f->blocks.data[b].insts.data[k];
      if (i >= 0 && i < f->insts.len && has_value(&f->insts.data[i]) && num[i] < 0)
        num[i] = next++;
    }
  return num;
}

static void put_operand(StrBuf *sb, const IrFunc *f, const int *num, int v) {
  bool known = v >= 0 && v < f->insts.len && num[v] >= 0;
  sb_puts(sb, known ? "%" : "%?");
  sb_putint(sb, known ? num[v] : v);
}

static void put_operands(StrBuf *sb, const IrFunc *f, const int *num, const Inst *in, int from) {
  for (int i = from; i < in->nargs; i++) {
    sb_puts(sb, i > from ? ", " : " ");
    put_operand(sb, f, num, in->args[i]);
  }
}

static const char *local_name(const IrFunc *f, int l) {
  return l >= 0 && l < f->locals.len ? f->locals.data[l].name : "?local";
}

static const char *atomic_name(int64_t k) {
  static const char *const names[] = {"add", "sub", "and", "or", "xor", "max", "min",
                                      "exch", "inc", "dec", "cas", "nanmax", "nanmin"};
  return k >= 0 && k < (int64_t)(sizeof names / sizeof *names) ? names[k] : "?";
}

/* array.view %a[%i, %start:%stop:%step]: the index positions as written. */
static void put_view(StrBuf *sb, const IrFunc *f, const int *num, const Inst *in) {
  if (in->nargs < 1)
    return;
  sb_putc(sb, ' ');
  put_operand(sb, f, num, in->args[0]);
  sb_putc(sb, '[');
  for (int k = 1, p = 0; k < in->nargs; p++) {
    if (p)
      sb_puts(sb, ", ");
    bool slice = p < 63 && (in->ival >> p & 1);
    for (int j = 0; j < (slice ? 3 : 1) && k < in->nargs; j++, k++) {
      if (j)
        sb_putc(sb, ':');
      put_operand(sb, f, num, in->args[k]);
    }
  }
  sb_putc(sb, ']');
}

static void put_array_alloc(StrBuf *sb, const Inst *in) {
  sb_printf(sb, " #%lld (", (long long)in->ival);
  int nd = in->tyimm && in->tyimm->kind == TY_ARRAY ? in->tyimm->ndim : 0;
  for (int i = 0; i < nd && in->shape; i++)
    sb_printf(sb, "%s%lld", i ? ", " : "", (long long)in->shape[i]);
  sb_puts(sb, nd == 1 ? ",) " : ") ");
  put_type(sb, in->tyimm);
}

/* A constant array prints its name, shape and a digest of its bytes: the
 * text is the disk cache's key, so different data must print differently. */
static void put_const_array(StrBuf *sb, const Inst *in) {
  sb_printf(sb, " %s (", in->str ? in->str : "?");
  int nd = in->tyimm && in->tyimm->kind == TY_ARRAY ? in->tyimm->ndim : 0;
  int64_t bytes = nd ? ty_size(in->tyimm->elem) : 0;
  for (int i = 0; i < nd && in->shape; i++) {
    sb_printf(sb, "%s%lld", i ? ", " : "", (long long)in->shape[i]);
    bytes *= in->shape[i];
  }
  sb_puts(sb, nd == 1 ? ",)" : ")");
  uint8_t d[SHA256_SIZE];
  char hex[2 * SHA256_SIZE + 1];
  sha256(in->data, in->data ? (size_t)bytes : 0, d);
  sha256_hex(d, hex);
  sb_printf(sb, " sha256:%s", hex);
}

/* A device array global the host bound: its name, then (once typed) its
 * extents, strides and address, all of which the code embeds. */
static void put_host_global(StrBuf *sb, const Inst *in) {
  sb_printf(sb, " %s", in->str ? in->str : "?");
  int nd = in->tyimm && in->tyimm->kind == TY_ARRAY ? in->tyimm->ndim : 0;
  if (!nd || !in->shape)
    return;
  for (int i = 0; i < 2 * nd; i++)
    sb_printf(sb, "%s%lld", i == 0 ? " (" : i == nd ? ") strides (" : ", ",
              (long long)in->shape[i]);
  sb_printf(sb, ") at 0x%llx", (unsigned long long)in->ival);
}

/* The op's own fields after its name. */
static void put_fields(StrBuf *sb, const IrFunc *f, const int *num, const Inst *in) {
  switch (in->op) {
  case OP_CONST_INT: sb_putc(sb, ' '), sb_putint(sb, in->ival); break;
  case OP_CONST_FLOAT:
    sb_putc(sb, ' ');
    put_float(sb, in->fval, in->type == TY_F32_T || in->type == TY_C64_T);
    if (ty_is_complex(in->type)) { /* re+imj */
      sb_puts(sb, in->fimag < 0 || (in->fimag == 0 && signbit(in->fimag)) ? " " : " +");
      put_float(sb, in->fimag, in->type == TY_C64_T);
      sb_putc(sb, 'j');
    }
    break;
  case OP_CONST_BOOL: sb_puts(sb, in->ival ? " true" : " false"); break;
  case OP_CONST_STR: /* the constant's ival bytes (lower_expr.c), NULs included */
    sb_puts(sb, in->type == TY_BYTES_T ? " b" : " ");
    put_string_n(sb, in->str, in->ival > 0 ? in->ival : -1);
    break;
  case OP_ASSERT_FAIL: case OP_RAISE: sb_putc(sb, ' '); put_string(sb, in->str); break;
  case OP_LOAD: sb_putc(sb, ' '), sb_puts(sb, local_name(f, in->local)); break;
  case OP_STORE:
    sb_printf(sb, " %s,", local_name(f, in->local));
    put_operands(sb, f, num, in, 0);
    break;
  case OP_REC_GET: case OP_REC_SET:
    put_operands(sb, f, num, in, 0);
    sb_printf(sb, " .%s", in->str ? in->str : "?");
    break;
  case OP_TUPLE_GET: case OP_ARRAY_SHAPE: case OP_ARRAY_STRIDE:
    put_operands(sb, f, num, in, 0);
    if (in->op == OP_TUPLE_GET || in->ival >= 0)
      sb_printf(sb, ", %lld", (long long)in->ival);
    else if (in->ival == -2)
      sb_puts(sb, ", len");
    break;
  case OP_SHARED_ARRAY: case OP_LOCAL_ARRAY: put_array_alloc(sb, in); break;
  case OP_ARRAY_VIEW: put_view(sb, f, num, in); break;
  case OP_CONST_ARRAY: put_const_array(sb, in); break;
  case OP_HOST_GLOBAL: put_host_global(sb, in); break;
  case OP_ARRAY_REDUCE: /* the kind is part of the cache key's text */
    sb_printf(sb, " %s", in->ival >= 0 && in->ival < AR__COUNT ? ir_array_reduce_names[in->ival] : "?");
    put_operands(sb, f, num, in, 0);
    break;
  case OP_FENCE:
    sb_puts(sb, in->ival == 0 ? " block" : in->ival == 2 ? " system" : " device");
    break;
  case OP_CALL_FOREIGN:
    sb_printf(sb, " @%s(", in->ext ? in->ext->symbol : "?");
    for (int i = 0; i < in->nargs; i++) {
      if (i)
        sb_puts(sb, ", ");
      put_operand(sb, f, num, in->args[i]);
    }
    sb_puts(sb, in->ext && in->ext->c_abi ? ") extern c " : ") extern ");
    if (in->ext) { /* the declared types and ABI: part of the cache key */
      put_type(sb, in->ext->sig.ret);
      sb_putc(sb, '(');
      for (int i = 0; i < in->ext->sig.nparams; i++) {
        if (i)
          sb_puts(sb, ", ");
        put_type(sb, in->ext->sig.params[i]);
      }
      sb_putc(sb, ')');
    }
    break;
  case OP_CALL:
    sb_printf(sb, " @%s(", in->callee ? (in->callee->symbol ? in->callee->symbol : in->callee->name) : "?");
    for (int i = 0; i < in->nargs; i++) {
      if (i)
        sb_puts(sb, ", ");
      put_operand(sb, f, num, in->args[i]);
    }
    sb_putc(sb, ')');
    break;
  case OP_ARRAY_LOAD: case OP_ARRAY_STORE:
    put_operands(sb, f, num, in, 0);
    if (in->ival > 0)                  /* generated access (ops.h) */
      sb_printf(sb, " trusted align %lld", (long long)in->ival);
    if (in->str)                       /* cuda.ldca & co.: the cache operator */
      sb_printf(sb, " cache %s", in->str);
    break;
  case OP_BR: sb_printf(sb, " bb%d", in->target); break;
  case OP_CBR:
    put_operands(sb, f, num, in, 0);
    sb_printf(sb, ", bb%d, bb%d", in->target, in->target2);
    break;
  default: put_operands(sb, f, num, in, 0); break;
  }
}

/* The mode of a warp collective, as PTX names it (shfl.down, vote.ballot). */
static const char *warp_kind(const Inst *in) {
  static const char *const shfl[] = {"idx", "up", "down", "bfly"};
  static const char *const vote[] = {"all", "any", "eq", "ballot"};
  static const char *const match[] = {"any", "all"};
  int n = in->op == OP_MATCH ? 2 : 4;
  const char *const *names = in->op == OP_SHFL ? shfl : in->op == OP_VOTE ? vote : match;
  return in->ival >= 0 && in->ival < n ? names[in->ival] : "?";
}

static void put_opname(StrBuf *sb, const Inst *in) {
  static const char xyz[] = "xyz";
  switch (in->op) {
  case OP_THREAD_IDX: case OP_BLOCK_IDX: case OP_BLOCK_DIM: case OP_GRID_DIM:
    sb_printf(sb, "%s.%c", ir_op_info[in->op].name, in->ival >= 0 && in->ival < 3 ? xyz[in->ival] : '?');
    break;
  case OP_ATOMIC: sb_printf(sb, "atomic.%s", atomic_name(in->ival)); break;
  case OP_RANDOM:
    sb_printf(sb, "random.%s", in->ival >= 0 && in->ival < RK__COUNT ? ir_random_names[in->ival] + 14 : "?");
    break;
  case OP_SHFL: case OP_VOTE: case OP_MATCH: sb_printf(sb, "%s.%s", ir_op_info[in->op].name, warp_kind(in)); break;
  case OP_INTRINSIC:
    sb_printf(sb, "call.intrinsic %s",
              in->ival >= 0 && in->ival < IN__COUNT ? ir_intrinsic_info[in->ival].name : "?");
    break;
  case OP_NUMFN:
    sb_printf(sb, "numfn %s", in->ival >= 0 && in->ival < NF__COUNT ? ir_numfn_info[in->ival].name : "?");
    break;
  case OP_BF16:
    sb_printf(sb, "bf16 %s", in->ival >= 0 && in->ival < BF__COUNT ? ir_bf16_info[in->ival].name : "?");
    break;
  case OP_FP8: {
    int fn = FP8_FN(in->ival);
    Fp8Modes m = fn < FP8__COUNT ? ir_fp8_info[fn].modes : FM_NONE;
    bool one = in->ival & FP8_MODE_BIT;
    sb_printf(sb, "fp8 %s%s%s", fn < FP8__COUNT ? ir_fp8_info[fn].name : "?",
              m == FM_NONE ? "" : in->ival & FP8_SAT_BIT ? " satfinite" : " nosat",
              m == FM_INTERP ? (one ? " e5m2" : " e4m3") : m == FM_ROUND ? (one ? " rp" : " rz") : "");
    break;
  }
  case OP_LIBDEVICE:
    sb_printf(sb, "call.libdevice %s", in->ival >= 0 && in->ival < LD__COUNT ? ir_libdevice_info[in->ival].name : "?");
    break;
  case OP_NPUFUNC:
  case OP_ARRAY_UFUNC:
    sb_printf(sb, "%s %s", ir_op_info[in->op].name,
              in->ival >= 0 && in->ival < NU__COUNT ? ir_npufunc_info[in->ival].name : "?");
    break;
  default: sb_puts(sb, in->op < OP__COUNT ? ir_op_info[in->op].name : "?op"); break;
  }
}

static void print_inst(const IrFunc *f, const int *num, int i, StrBuf *sb) {
  const Inst *in = &f->insts.data[i];
  sb_puts(sb, "  ");
  if (num[i] >= 0) {
    sb_putc(sb, '%');
    sb_putint(sb, num[i]);
    sb_puts(sb, " = ");
  }
  put_opname(sb, in);
  put_fields(sb, f, num, in);
  if (num[i] >= 0) {
    sb_puts(sb, " : ");
    put_type(sb, in->type);
  } else if (in->op == OP_CAST && in->tyimm) {
    sb_puts(sb, " to ");
    put_type(sb, in->tyimm);
  }
  sb_putc(sb, '\n');
}

static void print_options(const IrFunc *f, StrBuf *sb) {
  const FuncOptions *o = &f->opts;
  StrBuf t;
  sb_init(&t);
  if (o->fastmath) sb_puts(&t, " fastmath");
  if (o->debug) sb_puts(&t, " debug");
  if (o->boundscheck) sb_puts(&t, " boundscheck");
  if (o->lineinfo) sb_puts(&t, " lineinfo");
  if (o->cache) sb_puts(&t, " cache");
  if (o->narrow_typing) sb_puts(&t, " typing=narrow");
  if (o->opt != 3) sb_printf(&t, " opt=%d", o->opt);
  if (o->max_registers) sb_printf(&t, " max_registers=%d", o->max_registers);
  if (o->inline_mode) sb_puts(&t, o->inline_mode == 1 ? " inline=always" : " inline=never");
  if (t.len)
    sb_printf(sb, "  options:%s\n", t.data);
  sb_free(&t);
}

static void print_signatures(const IrFunc *f, StrBuf *sb) {
  for (int s = 0; s < f->eager.len; s++) {
    const Signature *sig = &f->eager.data[s];
    sb_puts(sb, "  signature: (");
    for (int i = 0; i < sig->nparams; i++) {
      if (i)
        sb_puts(sb, ", ");
      put_type(sb, sig->params[i]);
    }
    sb_puts(sb, ") -> ");
    put_type(sb, sig->ret);
    sb_putc(sb, '\n');
  }
}

static void print_header(const IrFunc *f, StrBuf *sb) {
  sb_printf(sb, "%s %s(", f->is_device ? "device" : "kernel", f->name);
  for (int i = 0; i < f->nparams && i < f->locals.len; i++) {
    sb_printf(sb, "%s%s: ", i ? ", " : "", f->locals.data[i].name);
    const Type *t = f->locals.data[i].type;
    if (!t && f->annotations)
      t = f->annotations[i];
    put_type(sb, t);
  }
  sb_puts(sb, ") -> ");
  put_type(sb, f->is_kernel && !f->ret_type ? TY_VOID_T : f->ret_type);
  if (f->symbol)
    sb_printf(sb, "   # symbol %s", f->symbol);
  sb_putc(sb, '\n');
  print_options(f, sb);
  print_signatures(f, sb);
  if (f->locals.len > f->nparams) {
    sb_puts(sb, "  locals:");
    for (int i = f->nparams; i < f->locals.len; i++) {
      sb_printf(sb, "%s %s: ", i > f->nparams ? "," : "", f->locals.data[i].name);
      put_type(sb, f->locals.data[i].type);
    }
    sb_putc(sb, '\n');
  }
}

void ir_print_func(const IrFunc *f, StrBuf *sb) {
  print_header(f, sb);
  int *num = number_values(f);
  for (int b = 0; b < f->blocks.len; b++) {
    sb_printf(sb, "bb%d:\n", b);
    const IrBlock *blk = &f->blocks.data[b];
    for (int k = 0; k < blk->insts.len; k++)
      if (blk->insts.data[k] >= 0 && blk->insts.data[k] < f->insts.len)
        print_inst(f, num, blk->insts.data[k], sb);
  }
  free(num);
}

/* The launch facts head the text, so the disk-cache key (the printed IR)
 * tells the 32-bit variants from the 64-bit one. */
void ir_print_compile(const IrCompile *c, StrBuf *sb) {
  if (ir_compile_fits32(c))
    sb_puts(sb, "# assumes: array extents and byte spans < 2^31\n");
  if (c->grid32)
    sb_puts(sb, "# assumes: gridDim * blockDim < 2^31 in every dimension\n");
  for (int i = 0; i < c->funcs.len; i++) {
    if (i)
      sb_putc(sb, '\n');
    ir_print_func(c->funcs.data[i], sb);
  }
}
