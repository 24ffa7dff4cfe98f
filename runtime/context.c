/* context.c - the core of kjit_context: the last error, shared codegen
 * state, the lock (its creation and destruction: api/context.c).
 *
 * Every failing call leaves its diagnostics rendered to text on the context
 * (SQLite's errmsg model), in the calling thread's slot: rt_begin takes the
 * context's lock and clears them, rt_finish renders the call's Diags,
 * derives the status from the first error's code and releases the lock.
 * The context is the only long-lived state; there are no globals. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/settings.h"
#include "runtime/runtime.h"

static char empty_text[] = "";

void rt_init_error_slots(kjit_context *ctx) {
  ctx->spare.last_error = ctx->spare.last_diags = empty_text;
}

void rt_lock(const kjit_context *ctx) {
  pthread_mutex_lock(&((kjit_context *)ctx)->lock);
}

void rt_unlock(const kjit_context *ctx) {
  pthread_mutex_unlock(&((kjit_context *)ctx)->lock);
}

CgSession *rt_cg_session(kjit_context *ctx) {
  if (!ctx->cg && (ctx->cg = cg_session_new()))
    cg_session_set_libdevice(ctx->cg, rt_setting(RT_SET_LIBDEVICE));
  return ctx->cg;
}

void rt_unlink_program(kjit_context *ctx, kjit_program *p) {
  for (kjit_program **pp = &ctx->programs; *pp; pp = &(*pp)->next)
    if (*pp == p) {
      *pp = p->next;
      return;
    }
}

void rt_quarantine_program(kjit_context *ctx, kjit_program *p, bool all) {
  if (p) {
    p->magic = RT_PROGRAM_DEAD;
    p->next = ctx->dead_programs;
    ctx->dead_programs = p;
  }
  int n = 0;
  for (kjit_program **pp = &ctx->dead_programs; *pp;) {
    kjit_program *q = *pp;
    if (all || ++n > RT_PROGRAM_QUARANTINE) {
      *pp = q->next;
      arena_destroy(&q->arena);
      free(q);
    } else {
      pp = &q->next;
    }
  }
}

/* --------------------------------------------------------- last error --- */

static void free_text(char *s) {
  if (s != empty_text)
    free(s);
}

static void clear_slot(RtErrorSlot *e) {
  if (e->last_diags != e->last_error)
    free_text(e->last_diags);
  free_text(e->last_error);
  free(e->err_file);
  e->last_error = e->last_diags = empty_text;
  e->err_file = NULL;
  e->err_line = e->err_col = 0;
}

void rt_free_error_slots(kjit_context *ctx) {
  for (RtErrorSlot *e = ctx->errors, *next; e; e = next) {
    next = e->next;
    clear_slot(e);
    free(e);
  }
  ctx->errors = NULL;
  clear_slot(&ctx->spare);
}

/* The calling thread's slot, or NULL if it has made no call (lock held). */
static RtErrorSlot *find_slot(const kjit_context *ctx) {
  pthread_t self = pthread_self();
  for (RtErrorSlot *e = ctx->errors; e; e = e->next)
    if (pthread_equal(e->thread, self))
      return e;
  return NULL;
}

/* The calling thread's slot, made on its first call (lock held).  Out of
 * memory, the thread's calls write to the shared spare slot and its
 * accessors answer "": the message is lost, nothing fails. */
static RtErrorSlot *own_slot(kjit_context *ctx) {
  RtErrorSlot *e = find_slot(ctx);
  if (e)
    return e;
  if (!(e = calloc(1, sizeof *e)))
    return &ctx->spare;
  e->thread = pthread_self();
  e->last_error = e->last_diags = empty_text;
  e->next = ctx->errors;
  ctx->errors = e;
  return e;
}

void rt_clear_error(kjit_context *ctx) { clear_slot(own_slot(ctx)); }

/* The accessors read the caller's own slot: only that thread changes it,
 * so the text stays valid after the lock is released. */
static const RtErrorSlot *reader_slot(const kjit_context *ctx) {
  rt_lock(ctx);
  const RtErrorSlot *e = find_slot(ctx);
  rt_unlock(ctx);
  return e;
}

const char *kjit_last_error(const kjit_context *ctx) {
  const RtErrorSlot *e = ctx ? reader_slot(ctx) : NULL;
  return e ? e->last_error : "";
}

const char *kjit_last_diagnostics(const kjit_context *ctx) {
  const RtErrorSlot *e = ctx ? reader_slot(ctx) : NULL;
  return e ? e->last_diags : "";
}

kjit_status kjit_last_error_location(const kjit_context *ctx, const char **file,
                                     int *line, int *col) {
  if (!ctx)
    return KJIT_ERROR_INVALID_ARGUMENT;
  const RtErrorSlot *e = reader_slot(ctx);
  bool have = e && e->err_file != NULL;
  if (file)
    *file = have ? e->err_file : NULL;
  if (line)
    *line = have ? e->err_line : 0;
  if (col)
    *col = have ? e->err_col : 0;
  return have ? KJIT_OK : KJIT_ERROR_NOT_FOUND;
}

/* A client's own error (include/kjitaux.h reports through it): the
 * message, formatted here, becomes one diagnostic of an empty call. */
kjit_status kjit_set_error(kjit_context *ctx, kjit_status status, const char *fmt, ...) {
  if (!ctx || !fmt)
    return KJIT_ERROR_INVALID_ARGUMENT;
  RtCall call;
  rt_begin(&call, ctx);
  if (status == KJIT_OK)
    return rt_finish(&call, KJIT_OK);
  va_list ap;
  va_start(ap, fmt);
  char *msg = NULL;
  int n = vasprintf(&msg, fmt, ap);
  va_end(ap);
  diag_error(&call.diags, status == KJIT_ERROR_IO ? RT_E_IO : RT_E_ARGUMENT, (SrcLoc){0}, NULL,
             "%s", n >= 0 && msg ? msg : fmt);
  free(msg);
  return rt_finish(&call, status);
}

/* ------------------------------------------------- one call's diagnostics */

void rt_begin(RtCall *call, kjit_context *ctx) {
  rt_lock(ctx);
  call->ctx = ctx;
  call->slot = own_slot(ctx);
  arena_init(&call->arena);
  diags_init(&call->diags, &call->arena);
  call->diags.max_errors = ctx->opts.max_errors;
  clear_slot(call->slot);
}

/* Each DiagStatus is the kjit_status of the same name: a name kjit.h lacks
 * does not compile, each one's value is its DiagStatus + 1 (so no two share
 * one), and the counts agree, so the map is one-to-one and leaves none of
 * kjit.h's errors out (KJIT_ERROR_KERNEL_FAULT is its last). */
static const kjit_status status_of_diag[] = {
#define S(name) [DS_##name] = KJIT_ERROR_##name,
    DIAG_STATUSES(S)
#undef S
};
#define S(name) _Static_assert((int)KJIT_ERROR_##name == (int)DS_##name + 1, "DiagStatus order is kjit.h's");
DIAG_STATUSES(S)
#undef S
_Static_assert(sizeof status_of_diag / sizeof status_of_diag[0] == DS_COUNT,
               "every DiagStatus maps to a kjit_status");
_Static_assert((int)DS_COUNT == (int)KJIT_ERROR_KERNEL_FAULT,
               "every kjit_status error has a DiagStatus (common/diag_codes.h)");

kjit_status rt_status_of_code(int code) {
  DiagStatus ds;
  return diag_code_status(code, &ds) ? status_of_diag[ds] : KJIT_ERROR_INTERNAL;
}

/* The first error's code decides the status (common/diag_codes.h). */
kjit_status rt_status_of(const Diags *d) {
  for (int i = 0; i < d->list.len; i++)
    if (d->list.data[i].level == DL_ERROR)
      return rt_status_of_code(d->list.data[i].code);
  return d->nerrors ? KJIT_ERROR_TYPE : KJIT_OK;
}

static const Diag *find_first_error(const Diags *d) {
  for (int i = 0; i < d->list.len; i++)
    if (d->list.data[i].level == DL_ERROR)
      return &d->list.data[i];
  return NULL;
}

static void store_location(RtErrorSlot *e, const Diag *g) {
  if (!g || !g->loc.src || !g->loc.src->path)
    return;
  e->err_file = strdup(g->loc.src->path);
  e->err_line = g->loc.line;
  e->err_col = g->loc.col;
}

kjit_status rt_finish(RtCall *call, kjit_status st) {
  RtErrorSlot *e = call->slot;
  const Diags *d = &call->diags;
  if (st == KJIT_OK && d->nerrors)
    st = rt_status_of(d);
  if (st != KJIT_OK && !d->nerrors) /* every failure gets a message */
    diag_error(&call->diags, E_INTERNAL, (SrcLoc){0}, NULL, "%s",
               st == KJIT_ERROR_OUT_OF_MEMORY ? "out of memory"
               : "the call failed without a diagnostic (a bug in kjit)");
  if (d->list.len || d->ndropped) {
    StrBuf sb;
    sb_init(&sb);
    diags_render(d, &sb);
    if (d->ndropped)
      sb_printf(&sb, "kjit: note: %d more diagnostics not shown\n", d->ndropped);
    e->last_diags = sb_take(&sb);
  }
  if (st != KJIT_OK) {
    e->last_error = e->last_diags;
    store_location(e, find_first_error(d));
  }
  arena_destroy(&call->arena);
  rt_unlock(call->ctx);
  return st;
}
