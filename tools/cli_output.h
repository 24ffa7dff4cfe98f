/* cli_output.h - files written by the CLI (tools/kjit_output.c): regular
 * files only, all or nothing, temporary files removed on a signal. */
#ifndef KJIT_TOOLS_CLI_OUTPUT_H
#define KJIT_TOOLS_CLI_OUTPUT_H

#include "kjit.h"

/* 0 if path may be written (absent, or a regular file, through symlinks,
 * or the null device, which is written in place); otherwise prints why
 * ("it is a character device") and returns 1. */
int kjit_cli_out_check(const char *path);
/* Creates and registers a temporary file beside path: its fd, *tmp its
 * name (malloc'd; NULL for the null device, opened itself); -1 with a
 * message on failure. */
int kjit_cli_out_begin(const char *path, char **tmp);
/* Renames tmp over path (checked again) and forgets it; 0 or 1.  Frees tmp. */
int kjit_cli_out_commit(char *tmp, const char *path);
/* Removes tmp and forgets it.  Frees tmp. */
void kjit_cli_out_abort(char *tmp);
/* Unlinks every registered temporary file; async-signal-safe. */
void kjit_cli_out_cleanup(void);
/* SIGINT, SIGTERM, SIGHUP: remove the temporary files, then die of the
 * signal as before (an ignored signal stays ignored).  SIGXFSZ is ignored,
 * so a write past `ulimit -f` fails and is reported like a full disk. */
void kjit_cli_signals_install(void);
/* Writes arrays[i] to paths[i] for every i, or none of them: each to a
 * temporary file first, renamed only when all are complete (before_commit,
 * if not NULL, is called just before the renames: the --timeout watchdog
 * stops there, so a timeout never leaves some renamed and others not).
 * 0 or 1 (the message printed). */
int kjit_cli_save_arrays(kjit_context *ctx, kjit_array *const *arrays, const char *const *paths, int n,
                         void (*before_commit)(void));

/* --timeout (tools/kjit_watchdog.c). */
int kjit_cli_watchdog_start(double seconds, const char *what, const char *target);
/* Names what runs once it is known (the kernel's kind, the target). */
void kjit_cli_watchdog_describe(const char *what, const char *target);
void kjit_cli_watchdog_stop(void);

#endif
