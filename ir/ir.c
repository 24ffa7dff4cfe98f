/* ir.c - construction helpers for kjit IR (used by lowering and typing).
 *
 * Functions, blocks, locals and instructions live in the arena given; values
 * are instruction indices, so cloning a function is a shallow copy of its
 * vectors (instruction operand arrays are copied too so a clone can be
 * rewritten without touching the original). */
#include "ir/ir.h"

IrFunc *ir_func_new(Arena *a, const char *name) {
  IrFunc *f = arena_alloc(a, sizeof *f);
  f->name = name;
  f->opts.opt = 3;
  return f;
}

int ir_block_new(Arena *a, IrFunc *f) {
  IrBlock b = {0};
  vec_push(a, &f->blocks, b);
  return f->blocks.len - 1;
}

int ir_emit(Arena *a, IrFunc *f, int block, IrOp op, SrcLoc loc, const int *args, int nargs) {
  Inst in = {0};
  in.op = op;
  in.loc = loc;
  in.nargs = nargs;
  in.local = -1;
  in.target = in.target2 = -1;
  if (nargs > 0) {
    in.args = arena_alloc(a, sizeof(int) * (size_t)nargs);
    memcpy(in.args, args, sizeof(int) * (size_t)nargs);
  }
  vec_push(a, &f->insts, in);
  int id = f->insts.len - 1;
  if (block >= 0)
    vec_push(a, &f->blocks.data[block].insts, id);
  return id;
}

int ir_local_new(Arena *a, IrFunc *f, const char *name, SrcLoc loc) {
  IrLocal l = {0};
  l.name = name;
  l.loc = loc;
  vec_push(a, &f->locals, l);
  return f->locals.len - 1;
}

int ir_local_find(const IrFunc *f, const char *name) {
  for (int i = 0; i < f->locals.len; i++)
    if (strcmp(f->locals.data[i].name, name) == 0)
      return i;
  return -1;
}

/* Copy a vector's storage into arena a (so the clone owns its own array). */
#define CLONE_VEC(a, dst, src)                                                 \
  do {                                                                         \
    (dst)->len = (dst)->cap = (src)->len;                                      \
    (dst)->data = NULL;                                                        \
    if ((src)->len) {                                                          \
      size_t sz_ = sizeof(*(src)->data) * (size_t)(src)->len;                  \
      (dst)->data = arena_alloc((a), sz_);                                     \
      memcpy((dst)->data, (src)->data, sz_);                                   \
    }                                                                          \
  } while (0)

IrFunc *ir_func_clone(Arena *a, const IrFunc *f) {
  IrFunc *g = arena_alloc(a, sizeof *g);
  *g = *f;
  CLONE_VEC(a, &g->locals, &f->locals);
  CLONE_VEC(a, &g->insts, &f->insts);
  CLONE_VEC(a, &g->blocks, &f->blocks);
  for (int i = 0; i < g->blocks.len; i++)
    CLONE_VEC(a, &g->blocks.data[i].insts, &f->blocks.data[i].insts);
  for (int i = 0; i < g->insts.len; i++) {
    Inst *in = &g->insts.data[i];
    if (in->nargs) {
      int *args = arena_alloc(a, sizeof(int) * (size_t)in->nargs);
      memcpy(args, in->args, sizeof(int) * (size_t)in->nargs);
      in->args = args;
    }
  }
  g->generic = f->generic ? f->generic : (IrFunc *)f;
  return g;
}

bool ir_block_terminated(const IrFunc *f, int block) {
  const IrBlock *b = &f->blocks.data[block];
  if (b->insts.len == 0)
    return false;
  return (ir_op_info[f->insts.data[b->insts.data[b->insts.len - 1]].op].flags & OPF_TERM) != 0;
}

/* Lookups in a program, shared by lowering, typing and the runtime. */
IrFunc *ir_find_func(IrProgram *p, const char *name) {
  for (int i = 0; i < p->funcs.len; i++)
    if (strcmp(p->funcs.data[i]->name, name) == 0)
      return p->funcs.data[i];
  return NULL;
}

IrHostGlobal *ir_host_global_find(const IrProgram *p, const char *name) {
  for (int i = 0; i < p->host_globals.len; i++)
    if (strcmp(p->host_globals.data[i].name, name) == 0)
      return &p->host_globals.data[i];
  return NULL;
}

bool ir_report_body_errors(const IrFunc *f, Diags *d) {
  if (!f || f->nbody_errors == 0)
    return false;
  for (int i = 0; i < d->list.len; i++)
    if (d->list.data[i].msg == f->body_errors[0].msg)
      return true; /* already reported in this list */
  for (int i = 0; i < f->nbody_errors; i++) {
    vec_push(d->arena, &d->list, f->body_errors[i]);
    d->nerrors += f->body_errors[i].level == DL_ERROR;
  }
  return true;
}

int64_t ir_alloc_bytes(const Inst *in) {
  if (!in->tyimm || in->tyimm->kind != TY_ARRAY || !in->shape)
    return 0;
  int64_t bytes = ty_size(in->tyimm->elem);
  for (int i = 0; i < in->tyimm->ndim; i++)
    bytes = in->shape[i] > INT64_MAX / (bytes ? bytes : 1) ? INT64_MAX : bytes * in->shape[i];
  return bytes;
}
