/* grid_group.c - Numba's cooperative groups: `g = cuda.cg.this_grid()` and
 * `g.sync()` (also chained, `cuda.cg.this_grid().sync()`).
 *
 * numba-cuda (numba/cuda/cg.py) offers one group, the grid, with one method,
 * sync(), returning an int32; calling this_grid() marks the kernel
 * cooperative.  GRID_GROUP makes the group value (type GridGroup), GRID_SYNC
 * the grid-wide barrier; codegen lowers both per target (CgTargetHooks
 * grid_group / grid_sync) and the launchers run a kernel that uses them
 * cooperatively (docs/language.md, "Cooperative groups"). */
#include "lower/lower_internal.h"

/* X.sync(): a GRID_SYNC of X; typing rejects an X that is not a group. */
int lower_grid_sync(Lower *L, const Node *call) {
  int base = lower_expr(L, call->lhs->lhs);
  if (base < 0)
    return -1;
  if (call->args.len || call->args2.len) {
    diag_error(L->d, E_ARITY, call->loc, "call it as g.sync()", "GridGroup.sync() takes no arguments");
    return -1;
  }
  return lower_emit1(L, OP_GRID_SYNC, call->loc, base);
}
