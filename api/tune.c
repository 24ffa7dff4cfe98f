/* tune.c - tuned launch configurations: the key of a record, the record in
 * the disk cache, and the launch option that applies it
 * (kjit_tuning_info_get, kjit_tuning_store, kjit_tuning_load,
 * kjit_launch_config_tuned; `kjit tune` measures, tools/kjit_tune.c).
 *
 * A record is keyed by (the specialization's typed IR, the device, the
 * argument shapes' class): a change of the kernel's source, of the device or
 * of the shapes' powers of two finds no record.  It is stored as one
 * section of an ordinary cache entry, so it gets the cache's file rules
 * (0600, owner checks, no link followed, an HMAC); its text is still read
 * as hostile input: every line and every range is checked, and a record
 * that fails is removed with one warning (RT_W_TUNE). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache/cache.h"
#include "common/sha256.h"
#include "cuda/cuc.h"
#include "cuda/cuda.h"
#include "api/api_internal.h"
#include "host/host_exec.h"
#include "runtime/compile.h"
#include "runtime/runtime.h"

#define RECORD_MAGIC "kjit-tune 1"
#define MAX_SHARED ((size_t)1 << 30) /* no device has a GiB of shared memory */

/* -------------------------------------------------------------- facts --- */

/* What the typed IR says (the emit step of a launch compile that stops
 * after typing). */
typedef struct Facts {
  kjit_tuning_info *info;
} Facts;

static void scan_ops(const IrCompile *c, kjit_tuning_info *out) {
  out->dims = 1;
  for (int f = 0; f < c->funcs.len; f++) {
    const IrFunc *g = c->funcs.data[f];
    for (int i = 0; i < g->insts.len; i++) {
      const Inst *in = &g->insts.data[i];
      switch (in->op) {
      case OP_THREAD_IDX: case OP_BLOCK_IDX: case OP_BLOCK_DIM:
        if (in->ival >= 0 && in->ival < 3 && in->ival + 1 > out->dims)
          out->dims = (int)in->ival + 1;
        break;
      case OP_GRID_DIM: out->grid_stride = 1; break;
      case OP_GRID_SYNC: out->grid_sync = 1; break;
      case OP_SHARED_ARRAY:
        out->dynamic_shared |= ir_alloc_bytes(in) == 0;
        break;
      default: break;
      }
    }
  }
}

static bool emit_facts(RtJob *j, void *data) {
  Facts *f = data;
  IrCompile *c = j->units.data[0].compile;
  scan_ops(c, f->info);
  StrBuf sb;
  sb_init(&sb);
  ir_print_compile(c, &sb);
  uint8_t d[SHA256_SIZE];
  char hex[2 * SHA256_SIZE + 1];
  sha256(sb.data ? sb.data : "", sb.len, d);
  sb_free(&sb);
  sha256_hex(d, hex);
  snprintf(f->info->kernel, sizeof f->info->kernel, "%.16s", hex);
  return true;
}

/* "(1048576) (1024,1024) - ": each array's extents rounded up to a power of
 * two; "-" a scalar, "t" a tuple. */
static void shape_class(const kjit_arg *args, int nargs, char *out, size_t len) {
  size_t at = 0;
  out[0] = '\0';
  for (int i = 0; i < nargs && at + 1 < len; i++) {
    const kjit_arg *a = &args[i];
    const char *sep = i ? " " : "";
    if (a->kind != KJIT_ARG_ARRAY) {
      at += (size_t)snprintf(out + at, len - at, "%s%s", sep, a->kind == KJIT_ARG_TUPLE ? "t" : "-");
      continue;
    }
    const RtArray *r = &a->value.array->a;
    at += (size_t)snprintf(out + at, len - at, "%s(", sep);
    for (int d = 0; d < r->ndim && at + 1 < len; d++) {
      uint64_t p = 1;
      while (p < (uint64_t)r->shape[d] && p < ((uint64_t)1 << 62))
        p <<= 1;
      at += (size_t)snprintf(out + at, len - at, "%s%llu", d ? "," : "",
                             (unsigned long long)(r->shape[d] ? p : 0));
    }
    at += at + 1 < len ? (size_t)snprintf(out + at, len - at, ")") : 0;
  }
}

static void describe_device(kjit_context *ctx, kjit_tuning_info *out) {
  if (ctx->api.target == KJIT_TARGET_CUDA && ctx->cuda) {
    const RtCudaDeviceInfo *d = &ctx->cuda->info;
    snprintf(out->device, sizeof out->device, "cuda %s sm_%d%d %d SMs", d->name, d->cc_major,
             d->cc_minor, d->sm_count);
    out->multiprocessors = d->sm_count;
    out->max_threads_per_block = d->max_threads_per_block;
    return;
  }
  out->multiprocessors = rt_host_default_threads();
  out->max_threads_per_block = 1024;
  snprintf(out->device, sizeof out->device, "cpu %d threads", out->multiprocessors);
}

/* The info of k's launch with args, the call's diagnostics saying why not. */
static kjit_status info_of(kjit_kernel *k, const kjit_arg *args, int nargs, RtCall *call,
                           kjit_tuning_info *out) {
  memset(out, 0, sizeof *out);
  if (rt_cuc_kernel_of(k->prog, k->fn)) {
    diag_error(&call->diags, RT_E_ARGUMENT, (SrcLoc){0}, "tune the kernel written in Python",
               "kernel '%s': CUDA C kernels have no tuning records", k->fn->name);
    return KJIT_ERROR_INVALID_ARGUMENT;
  }
  const Type **params = nargs > 0 ? arena_alloc(&call->arena, sizeof *params * (size_t)nargs) : NULL;
  kjit_status st = rt_api_launch_types(k, args, nargs, call, params);
  if (st != KJIT_OK)
    return st;
  Signature sig = {.nparams = nargs, .params = params, .loc = k->fn->ast ? k->fn->ast->loc : (SrcLoc){0}};
  Facts f = {out};
  bool gpu = call->ctx->api.target == KJIT_TARGET_CUDA && call->ctx->cuda;
  char arch[16] = "";
  if (gpu)                              /* the target's checks (CUDA's 4 KiB of parameters) */
    rt_cuda_codegen_arch(call->ctx->cuda->info.cc_major, call->ctx->cuda->info.cc_minor, arch, sizeof arch);
  RtLaunchCompile how = {gpu ? RT_JOB_CUDA : RT_JOB_CPU, gpu ? arch : NULL,
                         gpu ? call->ctx->cuda->ptx_isa_max : 0, emit_facts, &f};
  if (!rt_compile_launch(k->prog, k->fn, &sig, &how, &call->diags))
    return call->diags.nerrors ? rt_status_of(&call->diags) : KJIT_ERROR_INTERNAL;
  describe_device(call->ctx, out);
  shape_class(args, nargs, out->shapes, sizeof out->shapes);
  char text[1024];
  snprintf(text, sizeof text, "kjit-tune-key-1\nkernel %s\ndevice %s\nshapes %s\n", out->kernel,
           out->device, out->shapes);
  uint8_t d[SHA256_SIZE];
  sha256(text, strlen(text), d);
  sha256_hex(d, out->key);
  return KJIT_OK;
}

static bool is_live_kernel(const kjit_kernel *k) {
  return k && k->magic == RT_KERNEL_MAGIC && rt_program_live(k->prog);
}

kjit_status kjit_tuning_info_get(kjit_kernel *k, const kjit_arg *args, int nargs,
                                 kjit_tuning_info *out) {
  if (!is_live_kernel(k) || !out || nargs < 0)
    return KJIT_ERROR_INVALID_ARGUMENT;
  RtCall call;
  rt_begin(&call, k->prog->ctx);
  return rt_finish(&call, info_of(k, args, nargs, &call, out));
}

/* ------------------------------------------------------------- record --- */

/* Why t cannot be a record (NULL: it can). */
static const char *check_record(const kjit_tuning *t) {
  uint64_t threads = 1, ref = 1;
  for (int d = 0; d < 3; d++) {
    if (t->block[d] < 1 || t->block[d] > 1024 || t->ref_block[d] < 1 || t->ref_block[d] > 1024)
      return "a block dimension outside 1..1024";
    threads *= t->block[d];
    ref *= t->ref_block[d];
  }
  if (threads > 1024 || ref > 1024)
    return "a block of more than 1024 threads";
  if (t->grid_policy != KJIT_TUNE_GRID_COVER && t->grid_policy != KJIT_TUNE_GRID_SMS)
    return "an unknown grid policy";
  if (t->grid_policy == KJIT_TUNE_GRID_SMS && (t->sm_multiple < 1 || t->sm_multiple > 1024))
    return "blocks per SM outside 1..1024";
  if (t->shared_policy != KJIT_TUNE_SHARED_FIXED && t->shared_policy != KJIT_TUNE_SHARED_PER_THREAD)
    return "an unknown shared-memory policy";
  if (t->shared_bytes > MAX_SHARED)
    return "dynamic shared memory over 1 GiB";
  if (!isfinite(t->median_ms) || t->median_ms < 0 || !isfinite(t->spread_ms) || t->spread_ms < 0)
    return "a time that is negative or not a number";
  return NULL;
}

static void format_record(const kjit_tuning *t, const char *key, StrBuf *sb) {
  sb_printf(sb, RECORD_MAGIC "\nkey %s\nblock %u %u %u\nref-block %u %u %u\n", key, t->block[0],
            t->block[1], t->block[2], t->ref_block[0], t->ref_block[1], t->ref_block[2]);
  sb_printf(sb, "grid %s %d\nshared %s %zu\ntime %.9g %.9g\n",
            t->grid_policy == KJIT_TUNE_GRID_SMS ? "sms" : "cover",
            t->grid_policy == KJIT_TUNE_GRID_SMS ? t->sm_multiple : 0,
            t->shared_policy == KJIT_TUNE_SHARED_PER_THREAD ? "per-thread" : "fixed", t->shared_bytes,
            t->median_ms, t->spread_ms);
}

/* The record's text (exactly format_record's lines) into *t; NULL, or why
 * not.  Nothing in it is trusted: lengths, words and numbers are checked. */
static const char *parse_record(const char *text, size_t len, const char *key, kjit_tuning *t) {
  char buf[512], gp[16], sp[16], k[80];
  if (len >= sizeof buf || memchr(text, '\0', len))
    return "not a record (its size or its bytes)";
  memcpy(buf, text, len);
  buf[len] = '\0';
  unsigned b[3], r[3];
  unsigned long long shared;
  int mult, used = 0;
  memset(t, 0, sizeof *t);
  int n = sscanf(buf, RECORD_MAGIC "\nkey %79s\nblock %u %u %u\nref-block %u %u %u\ngrid %15s %d\n"
                      "shared %15s %llu\ntime %lf %lf\n%n", k, &b[0], &b[1], &b[2], &r[0], &r[1],
                 &r[2], gp, &mult, sp, &shared, &t->median_ms, &t->spread_ms, &used);
  if (n != 13 || (size_t)used != len || strncmp(buf, RECORD_MAGIC "\n", strlen(RECORD_MAGIC) + 1))
    return "its text is not a record's";
  if (strcmp(k, key) != 0)
    return "it names another key";
  for (int d = 0; d < 3; d++)
    t->block[d] = b[d], t->ref_block[d] = r[d];
  t->grid_policy = strcmp(gp, "sms") == 0 ? KJIT_TUNE_GRID_SMS : strcmp(gp, "cover") == 0 ? KJIT_TUNE_GRID_COVER : -1;
  t->sm_multiple = t->grid_policy == KJIT_TUNE_GRID_SMS ? mult : 0;
  if (t->grid_policy == KJIT_TUNE_GRID_COVER && mult != 0)
    return "a cover grid with blocks per SM";
  t->shared_policy = strcmp(sp, "per-thread") == 0 ? KJIT_TUNE_SHARED_PER_THREAD
                     : strcmp(sp, "fixed") == 0    ? KJIT_TUNE_SHARED_FIXED : -1;
  t->shared_bytes = shared > MAX_SHARED ? MAX_SHARED + 1 : (size_t)shared;
  return check_record(t);
}

static void key_bytes(const char *hex, uint8_t key[RT_CACHE_KEY_SIZE]) {
  for (int i = 0; i < RT_CACHE_KEY_SIZE; i++) {
    unsigned v = 0;
    sscanf(hex + 2 * i, "%2x", &v);
    key[i] = (uint8_t)v;
  }
}

/* "corrupt" (the cache's checks failed) or "invalid" (its text), and why. */
static void warn_record(RtCall *call, const char *path, const char *what, const char *why) {
  diag_add(&call->diags, DL_WARNING, RT_W_TUNE, (SrcLoc){0},
           "run kjit tune again to measure a new one",
           "tuning record '%s' is %s (%s); it was ignored and removed", path, what, why);
}

static kjit_status not_found(kjit_kernel *k, RtCall *call) {
  diag_error(&call->diags, RT_E_NO_TUNING, (SrcLoc){0}, "run kjit tune to measure one",
             "kernel '%s': no tuning record for this specialization, device and shape class",
             k->fn->name);
  return KJIT_ERROR_NOT_FOUND;
}

static kjit_status load(kjit_kernel *k, const kjit_arg *args, int nargs, RtCall *call,
                        kjit_tuning *t, kjit_tuning_info *infop) {
  kjit_tuning_info local, *ip = infop ? infop : &local;
  kjit_status st = info_of(k, args, nargs, call, ip);
  if (st != KJIT_OK)
    return st;
  RtCache *c = rt_context_cache(call->ctx, &call->diags);
  uint8_t key[RT_CACHE_KEY_SIZE];
  key_bytes(ip->key, key);
  RtCacheEntry e;
  bool invalid = false;
  if (!rt_cache_get_checked(c, key, &e, &invalid)) {
    if (invalid)
      warn_record(call, rt_cache_entry_path(c, key), "corrupt", "it failed the cache's checks");
    rt_cache_flush_warnings(c, &call->diags);
    return not_found(k, call);
  }
  size_t n = 0;
  const char *text = rt_cache_entry_find(&e, RT_SEC_TUNE, &n);
  const char *why = text ? parse_record(text, n, ip->key, t) : "not a tuning record";
  rt_cache_entry_release(&e);
  if (why) {
    char path[1024];
    snprintf(path, sizeof path, "%s", rt_cache_entry_path(c, key));
    rt_cache_drop(c, key, why);
    rt_cache_flush_warnings(c, NULL);     /* the drop's compile-cache wording: ours instead */
    warn_record(call, path, "invalid", why);
    return not_found(k, call);
  }
  return KJIT_OK;
}

kjit_status kjit_tuning_load(kjit_kernel *k, const kjit_arg *args, int nargs, kjit_tuning *t) {
  if (!is_live_kernel(k) || !t || nargs < 0)
    return KJIT_ERROR_INVALID_ARGUMENT;
  RtCall call;
  rt_begin(&call, k->prog->ctx);
  return rt_finish(&call, load(k, args, nargs, &call, t, NULL));
}

kjit_status kjit_tuning_store(kjit_kernel *k, const kjit_arg *args, int nargs, const kjit_tuning *t) {
  if (!is_live_kernel(k) || !t || nargs < 0)
    return KJIT_ERROR_INVALID_ARGUMENT;
  RtCall call;
  rt_begin(&call, k->prog->ctx);
  const char *why = check_record(t);
  if (why) {
    diag_error(&call.diags, RT_E_ARGUMENT, (SrcLoc){0}, NULL, "kjit_tuning_store: %s", why);
    return rt_finish(&call, KJIT_ERROR_INVALID_ARGUMENT);
  }
  kjit_tuning_info info;
  kjit_status st = info_of(k, args, nargs, &call, &info);
  if (st != KJIT_OK)
    return rt_finish(&call, st);
  RtCache *c = rt_context_cache(call.ctx, &call.diags);
  uint8_t key[RT_CACHE_KEY_SIZE];
  key_bytes(info.key, key);
  StrBuf sb;
  sb_init(&sb);
  format_record(t, info.key, &sb);
  RtCacheEntry e = {0};
  rt_cache_entry_add(&e, RT_SEC_TUNE, sb.data, sb.len);
  bool ok = rt_cache_put(c, key, &e);
  sb_free(&sb);
  rt_cache_flush_warnings(c, &call.diags);
  if (!ok)
    diag_error(&call.diags, RT_E_IO, (SrcLoc){0}, "the disk cache must be on and writable (docs/cache.md)",
               "kernel '%s': the tuning record could not be stored", k->fn->name);
  return rt_finish(&call, ok ? KJIT_OK : KJIT_ERROR_IO);
}

/* ------------------------------------------------------ launch option --- */

static uint32_t ceil_div(uint64_t a, uint64_t b) {
  uint64_t q = (a + b - 1) / b;
  return q > 0x7fffffffu ? 0x7fffffffu : (uint32_t)q;
}

kjit_status kjit_launch_config_tuned(kjit_kernel *k, const kjit_arg *args, int nargs,
                                     kjit_launch_config *cfg) {
  if (!is_live_kernel(k) || !cfg || nargs < 0)
    return KJIT_ERROR_INVALID_ARGUMENT;
  RtCall call;
  rt_begin(&call, k->prog->ctx);
  kjit_tuning t;
  kjit_tuning_info info;
  kjit_status st = load(k, args, nargs, &call, &t, &info);
  if (st != KJIT_OK)
    return rt_finish(&call, st);
  uint64_t old_threads = (uint64_t)cfg->block[0] * cfg->block[1] * cfg->block[2];
  uint64_t new_threads = (uint64_t)t.block[0] * t.block[1] * t.block[2];
  for (int d = 0; d < 3; d++) {
    if (t.grid_policy == KJIT_TUNE_GRID_COVER)
      cfg->grid[d] = ceil_div((uint64_t)cfg->grid[d] * (cfg->block[d] ? cfg->block[d] : 1), t.block[d]);
    else
      cfg->grid[d] = d ? 1 : (uint32_t)t.sm_multiple * (uint32_t)info.multiprocessors;
  }
  if (t.shared_policy == KJIT_TUNE_SHARED_PER_THREAD && old_threads)
    cfg->shared_bytes = (size_t)((uint64_t)cfg->shared_bytes * new_threads / old_threads);
  else if (t.shared_policy == KJIT_TUNE_SHARED_FIXED && info.dynamic_shared)
    cfg->shared_bytes = t.shared_bytes;
  memcpy(cfg->block, t.block, sizeof cfg->block);
  return rt_finish(&call, KJIT_OK);
}
