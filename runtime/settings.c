/* settings.c - the registry of environment variables (see settings.h).
 *
 * Invariant: no other file of the library calls getenv for a kjit setting;
 * each one is a row here, and the rows marked affects_codegen are hashed
 * into every disk-cache key.  (codegen/libdevice.c and runtime/host_exec.c
 * still read KJIT_LIBDEVICE / KJIT_CPU_THREADS directly; they are listed so
 * the key covers them, and should move to rt_setting().) */
#include "runtime/settings.h"

#include <stdlib.h>

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
    [RT_SET_XDG_CACHE_HOME] = {"xdg_cache_home", "XDG_CACHE_HOME", NULL, false,
                               "parent of the default cache directory"},
    [RT_SET_HOME] = {"home", "HOME", NULL, false, "~/.cache/kjit without XDG_CACHE_HOME"},
    [RT_SET_LIBDEVICE] = {"libdevice", "KJIT_LIBDEVICE", KJIT_LIBDEVICE_PATH, true,
                          "libdevice.10.bc used for math functions"},
    [RT_SET_CPU_THREADS] = {"cpu_threads", "KJIT_CPU_THREADS", NULL, false,
                            "threads of the host (CPU) executor"},
    [RT_SET_PATH] = {"path", "KJIT_PATH", NULL, false,
                     "colon-separated folders searched for imported Python modules"},
    [RT_SET_MAX_SOURCE] = {"max_source_bytes", "KJIT_MAX_SOURCE_BYTES", "16777216", false,
                           "largest kernel source file (and imported module) read, in bytes"},
};

const RtSetting *rt_setting_info(RtSettingId id) {
  return id < RT_SET__COUNT ? &settings[id] : NULL;
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
