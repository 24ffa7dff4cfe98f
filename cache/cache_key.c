/* cache_key.c - the disk cache's key: a SHA-256 over a canonical text.
 *
 * The text lists, as length-prefixed fields, everything that decides the
 * output of a compile: kjit's build id, the LLVM version, the libdevice
 * hash, every codegen-affecting setting (common/settings.c), the target
 * (kind, triple, arch, features, PTX clamp), the codegen options, the
 * output kind, and per unit the typed IR of the entry and every callee
 * (ir_print_compile: folded module constants appear as IR constants).
 * Source positions reach the output only through line info / debug info,
 * so they join the key exactly when lineinfo or debug is on.  Invariant:
 * anything new that changes codegen must be printed by ir/print.c or
 * appended here, or stale entries would be served (docs/cache.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/sha256.h"
#include "cache/cache.h"
#include "common/settings.h"

#ifndef KJIT_BUILD_ID
#define KJIT_BUILD_ID "unknown"
#endif

#define KEY_FORMAT "kjit-cache-key-1"

/* "name <len>\n<bytes>\n": no value can be mistaken for another field. */
static void put_field(StrBuf *sb, const char *name, const char *value, size_t len) {
  sb_printf(sb, "%s %zu\n", name, len);
  sb_putn(sb, value, len);
  sb_putc(sb, '\n');
}

static void put_text(StrBuf *sb, const char *name, const char *value) {
  value = value ? value : "";
  put_field(sb, name, value, strlen(value));
}

static void put_buf(StrBuf *sb, const char *name, StrBuf *value) {
  put_field(sb, name, value->data ? value->data : "", value->len);
  sb_free(value);
}

static const char *output_name(RtCacheOutput o) {
  switch (o) {
  case RT_OUT_PTX: return "ptx";
  case RT_OUT_CUBIN: return "cubin";
  case RT_OUT_HOSTOBJ: return "hostobj";
  case RT_OUT_HOSTOBJ_CABI: return "hostobj-cabi";
  }
  return "?";
}

static void put_target(StrBuf *sb, const CgTarget *t) {
  StrBuf v;
  sb_init(&v);
  sb_printf(&v, "kind=%s triple=%s cpu=%s features=%s ptx_max=%d",
            t->kind == CG_NVPTX ? "nvptx" : "host", t->triple ? t->triple : "",
            t->cpu ? t->cpu : "", t->features ? t->features : "", t->ptx_version_max);
  put_buf(sb, "target", &v);
}

static void put_options(StrBuf *sb, const CgOptions *o) {
  StrBuf v;
  sb_init(&v);
  sb_printf(&v, "opt=%d fastmath=%d lineinfo=%d debug=%d max_registers=%d", o->opt_level,
            o->fastmath, o->lineinfo, o->debug, o->max_registers);
  if (o->prefix_map)                  /* changes .file: keyed only when given */
    sb_printf(&v, " prefix_map=%s", o->prefix_map);
  put_buf(sb, "options", &v);
}

/* Line info or debug info, module-wide or on any function. */
static bool wants_locations(const RtCacheKeyInput *in) {
  if (in->opts->lineinfo || in->opts->debug)
    return true;
  for (int u = 0; u < in->ncompiles; u++)
    for (int i = 0; i < in->compiles[u]->funcs.len; i++) {
      const FuncOptions *o = &in->compiles[u]->funcs.data[i]->opts;
      if (o->lineinfo || o->debug)
        return true;
    }
  return false;
}

/* The file path (DIFile) and every line:col codegen can put in .loc. */
static void put_locations(StrBuf *sb, const IrCompile *c) {
  StrBuf v;
  sb_init(&v);
  sb_printf(&v, "src=%s\n", c->prog && c->prog->src && c->prog->src->path ? c->prog->src->path : "");
  for (int i = 0; i < c->funcs.len; i++) {
    const IrFunc *f = c->funcs.data[i];
    const Source *fs = f->ast ? f->ast->loc.src : NULL; /* an imported module's file */
    sb_printf(&v, "func %s %d:", fs && fs->path ? fs->path : "", f->ast ? f->ast->loc.line : 0);
    for (int k = 0; k < f->insts.len; k++)
      sb_printf(&v, " %d:%d", f->insts.data[k].loc.line, f->insts.data[k].loc.col);
    sb_putc(&v, '\n');
  }
  put_buf(sb, "locations", &v);
}

static void put_units(StrBuf *sb, const RtCacheKeyInput *in) {
  bool locs = wants_locations(in);
  for (int u = 0; u < in->ncompiles; u++) {
    StrBuf ir;
    sb_init(&ir);
    ir_print_compile(in->compiles[u], &ir);
    put_buf(sb, "unit", &ir);
    if (locs)
      put_locations(sb, in->compiles[u]);
  }
}

void rt_cache_key(const RtCacheKeyInput *in, uint8_t key[RT_CACHE_KEY_SIZE], char **text) {
  StrBuf sb, v;
  sb_init(&sb);
  put_text(&sb, "format", KEY_FORMAT);
  put_text(&sb, "build", KJIT_BUILD_ID);
  put_text(&sb, "llvm", cg_llvm_version());
  sb_init(&v);
  sb_printf(&v, "%016llx", (unsigned long long)in->libdevice_hash);
  put_buf(&sb, "libdevice", &v);
  sb_init(&v);
  rt_settings_append_key(&v);
  put_buf(&sb, "settings", &v);
  put_target(&sb, in->target);
  put_options(&sb, in->opts);
  put_text(&sb, "output", output_name(in->output));
  put_units(&sb, in);
  sha256(sb.data, sb.len, key);
  if (text)
    *text = sb_take(&sb);
  else
    sb_free(&sb);
}
