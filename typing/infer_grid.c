/* infer_grid.c - typing of GRID_GROUP and GRID_SYNC (Numba's cooperative
 * groups, lowered by grid_group.c): the group is a GridGroup value, sync()
 * returns an int32 and is a method of nothing else. */
#include "typing/typing_internal.h"

const Type *ir_infer_grid(Infer *inf, int idx) {
  const Inst *in = &inf->f->insts.data[idx];
  if (in->op == OP_GRID_GROUP)
    return TY_GRID_GROUP_T;
  const Type *g = inf->f->insts.data[in->args[0]].type;
  if (!g || g->kind == TY_UNKNOWN)
    return NULL;
  if (g->kind != TY_GRID_GROUP)
    return ir_infer_fail(inf, idx, E_TY_ATTR, "sync() is a method of cuda.cg.this_grid()'s group",
                         "unknown attribute 'sync' of type %s", ir_infer_tname(inf, g));
  return TY_I32_T;
}
