/* settings.c - the registry of environment variables (see settings.h).
 *
 * Invariant: no other file of the library calls getenv (tests/lint_getenv.sh
 * checks it); each variable is a row here, and the rows marked
 * affects_codegen are hashed into every disk-cache key (Python kernels'
 * and CUDA C's).  codegen/ below runtime/ gets its one value, the libdevice
 * path, from the context (cg_session_set_libdevice). */
#include "common/settings.h"
#include "common/trace.h"

#include <stdlib.h>
#include <string.h>

#ifndef KJIT_LIBDEVICE_PATH
#define KJIT_LIBDEVICE_PATH ""
#endif

static const RtSetting settings[RT_SET__COUNT] = {
    [RT_SET_CACHE] = {"cache", "KJIT_CACHE", "1", false,
                      "0 disables the disk cache"},
    [RT_SET_CACHE_DIR] = {"cache_dir", "KJIT_CACHE_DIR", NULL, false,
                          "disk cache directory (default $XDG_CACHE_HOME/kjit)"},
    [RT_SET_CACHE_MAX_BYTES] = {"cache_max_bytes", "KJIT_CACHE_MAX_BYTES", "268435456", false,
                                "disk cache size cap in bytes"},
    [RT_SET_CACHE_LOCK_WAIT] = {"cache_lock_wait", "KJIT_CACHE_LOCK_WAIT", "30", false,
                                "seconds a process waits for another's compile of the same "
                                "cache entry before compiling it itself"},
    [RT_SET_TEST_CACHE_HOLD] = {"test_cache_hold_ms", "KJIT_TEST_CACHE_HOLD_MS", NULL, false,
                                "for tests only: milliseconds to sleep while holding a cache "
                                "entry's compile lock"},
    [RT_SET_XDG_CACHE_HOME] = {"xdg_cache_home", "XDG_CACHE_HOME", NULL, false,
                               "parent of the default cache directory"},
    [RT_SET_HOME] = {"home", "HOME", NULL, false, "~/.cache/kjit without XDG_CACHE_HOME"},
    [RT_SET_LIBDEVICE] = {"libdevice", "KJIT_LIBDEVICE", KJIT_LIBDEVICE_PATH, true,
                          "libdevice.10.bc used for math functions"},
    [RT_SET_CPU_THREADS] = {"cpu_threads", "KJIT_CPU_THREADS", NULL, false,
                            "threads of the host (CPU) executor"},
    [RT_SET_PATH] = {"path", "KJIT_PATH", NULL, false,
                     "colon-separated folders searched for imported Python modules"},
    [RT_SET_DEVICE] = {"device", "KJIT_DEVICE", "0", false, "the CUDA device ordinal"},
    [RT_SET_TARGET] = {"target", "KJIT_TARGET", NULL, false,
                       "auto, cpu or cuda: where contexts created with KJIT_TARGET_AUTO run "
                       "(auto set here: no note when it picks the cpu)"},
    [RT_SET_NVRTC] = {"nvrtc", "KJIT_NVRTC", NULL, false,
                      "the NVRTC library (default libnvrtc.so.13/.12/.so, then the toolkit's)"},
    [RT_SET_NVJITLINK] = {"nvjitlink", "KJIT_NVJITLINK", NULL, false,
                          "the nvJitLink library (default libnvJitLink.so.13/.12/.so)"},
    [RT_SET_CUDA_HOME] = {"cuda_home", "CUDA_HOME", NULL, false,
                          "the CUDA toolkit: NVRTC and the headers CUDA C includes"},
    [RT_SET_CUDA_PATH] = {"cuda_path", "CUDA_PATH", NULL, false,
                          "the CUDA toolkit, when CUDA_HOME is unset"},
    [RT_SET_TRACE] = {"trace", "KJIT_TRACE", NULL, false,
                      "1: print each library loaded, file read, cache hit and compile to stderr"},
    [RT_SET_MAX_SOURCE] = {"max_source_bytes", "KJIT_MAX_SOURCE_BYTES", "16777216", false,
                           "largest kernel source file (and imported module) read, in bytes"},
    [RT_SET_CPU_FIBERS] = {"cpu_fibers", "KJIT_CPU_FIBERS", NULL, true,
                           "1: the cpu target runs kernels with barriers on one fiber per thread "
                           "instead of splitting them at their barriers"},
    [RT_SET_XDG_CONFIG_HOME] = {"xdg_config_home", "XDG_CONFIG_HOME", NULL, false,
                                "parent of kjit's private folder (the cache's integrity key)"},
    [RT_SET_CACHE_KEY] = {"cache_key", "KJIT_CACHE_KEY", NULL, false,
                          "the disk cache's integrity key file (default "
                          "$XDG_CONFIG_HOME/kjit/cache-key, made on first use, mode 0600)"},
    [RT_SET_CACHE_SHARED] = {"cache_shared", "KJIT_CACHE_SHARED", NULL, false,
                             "1: KJIT_CACHE_DIR is a shared read-only cache (another owner, "
                             "verified with KJIT_CACHE_KEY, never written)"},
};

const RtSetting *rt_setting_info(RtSettingId id) {
  return id < RT_SET__COUNT ? &settings[id] : NULL;
}

/* KJIT_TRACE is read once, as the library loads, into common/trace.c, which
 * cannot call rt_setting itself (common/ sits below runtime/). */
__attribute__((constructor)) static void init_trace(void) {
  const char *v = rt_setting(RT_SET_TRACE);
  trace_enable(v && strcmp(v, "1") == 0);
}

const char *rt_setting(RtSettingId id) {
  if (id >= RT_SET__COUNT)
    return NULL;
  const char *v = getenv(settings[id].env);
  return v && *v ? v : settings[id].def;
}

void rt_settings_append_key(StrBuf *sb) {
  for (int i = 0; i < RT_SET__COUNT; i++) {
    if (!settings[i].affects_codegen)
      continue;
    const char *v = rt_setting((RtSettingId)i);
    sb_printf(sb, "%s=%s\n", settings[i].env, v ? v : "<unset>");
  }
}

void rt_settings_hash(Sha256 *h) {
  StrBuf sb;
  sb_init(&sb);
  rt_settings_append_key(&sb);
  if (sb.data)
    sha256_update(h, sb.data, sb.len);
  sb_free(&sb);
}

void rt_settings_describe(StrBuf *sb) {
  sb_puts(sb, "settings (environment):\n");
  for (int i = 0; i < RT_SET__COUNT; i++) {
    const char *env = getenv(settings[i].env);
    bool set = env && *env;
    const char *v = rt_setting((RtSettingId)i);
    sb_printf(sb, "  %s%s%s (%s%s): %s\n", settings[i].env, v ? "=" : " unset", v ? v : "",
              set ? "set" : "default", settings[i].affects_codegen ? ", in cache keys" : "",
              settings[i].doc);
  }
}
