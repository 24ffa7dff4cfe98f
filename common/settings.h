/* settings.h - the one registry of kjit's environment variables.
 *
 * Every environment variable the library reads is listed in one table
 * (common/settings.c) with its default and whether it changes generated
 * code.  The disk cache's key appends every codegen-affecting value through
 * rt_settings_append_key, so a new knob that changes codegen cannot be
 * forgotten by the key: add it to the table with affects_codegen = true and
 * read it with rt_setting(). */
#ifndef KJIT_RUNTIME_SETTINGS_H
#define KJIT_RUNTIME_SETTINGS_H

#include <stdbool.h>

#include "common/sha256.h"
#include "common/strbuf.h"

typedef enum RtSettingId {
  RT_SET_CACHE,           /* KJIT_CACHE: "0" disables the disk cache */
  RT_SET_CACHE_DIR,       /* KJIT_CACHE_DIR: the cache directory */
  RT_SET_CACHE_MAX_BYTES, /* KJIT_CACHE_MAX_BYTES: size cap */
  RT_SET_CACHE_LOCK_WAIT, /* KJIT_CACHE_LOCK_WAIT: seconds to wait for another
                             process's compile of the same entry */
  RT_SET_TEST_CACHE_HOLD, /* KJIT_TEST_CACHE_HOLD_MS: test-only; sleep while
                             holding an entry's compile lock */
  RT_SET_XDG_CACHE_HOME,  /* XDG_CACHE_HOME: parent of the default cache dir */
  RT_SET_HOME,            /* HOME: ~/.cache/kjit when XDG_CACHE_HOME is unset */
  RT_SET_LIBDEVICE,       /* KJIT_LIBDEVICE: libdevice bitcode path */
  RT_SET_CPU_THREADS,     /* KJIT_CPU_THREADS: host executor threads */
  RT_SET_PATH,            /* KJIT_PATH: folders searched for imported modules */
  RT_SET_DEVICE,          /* KJIT_DEVICE: the CUDA device ordinal */
  RT_SET_TARGET,          /* KJIT_TARGET: auto|cpu|cuda for KJIT_TARGET_AUTO contexts */
  RT_SET_NVRTC,           /* KJIT_NVRTC: the NVRTC library to dlopen */
  RT_SET_NVJITLINK,       /* KJIT_NVJITLINK: the nvJitLink library to dlopen */
  RT_SET_CUDA_HOME,       /* CUDA_HOME: the CUDA toolkit (NVRTC, its headers) */
  RT_SET_CUDA_PATH,       /* CUDA_PATH: the same, when CUDA_HOME is unset */
  RT_SET_TRACE,           /* KJIT_TRACE: 1 prints what is loaded (common/trace.c) */
  RT_SET_MAX_SOURCE,      /* KJIT_MAX_SOURCE_BYTES: largest source file read */
  RT_SET_CPU_FIBERS,      /* KJIT_CPU_FIBERS: 1 runs every CPU kernel with
                             barriers on fibers (no barrier split) */
  RT_SET_XDG_CONFIG_HOME, /* XDG_CONFIG_HOME: parent of the cache key's folder */
  RT_SET_CACHE_KEY,       /* KJIT_CACHE_KEY: the cache's integrity key file */
  RT_SET_CACHE_SHARED,    /* KJIT_CACHE_SHARED: 1 = the cache folder is a shared,
                             read-only cache prepared by another user */
  RT_SET__COUNT
} RtSettingId;

typedef struct RtSetting {
  const char *name;       /* short name for listings ("cache_dir") */
  const char *env;        /* environment variable */
  const char *def;        /* default value, or NULL for "unset" */
  bool affects_codegen;   /* part of every cache key */
  const char *doc;        /* one line */
} RtSetting;

/* The table entry (id < RT_SET__COUNT). */
const RtSetting *rt_setting_info(RtSettingId id);
/* The value: the environment variable when set and non-empty, else the
 * default (may be NULL).  Read at each call: nothing is cached. */
const char *rt_setting(RtSettingId id);
/* Appends "env=value\n" for every codegen-affecting setting, in table
 * order ("env=<unset>" when it has no value). */
void rt_settings_append_key(StrBuf *sb);
/* The same lines, fed into a SHA-256 (the CUDA C and link= cache keys). */
void rt_settings_hash(Sha256 *h);
/* `kjit info`: one line per setting, "  KJIT_CACHE=1 (default): doc". */
void rt_settings_describe(StrBuf *sb);

#endif
