/* cli_output.h - files written by the CLI (tools/kjit_output.c): regular
 * files only, all or nothing, temporary files removed on a signal. */
#ifndef KJIT_TOOLS_CLI_OUTPUT_H
#define KJIT_TOOLS_CLI_OUTPUT_H

#include "kjit.h"

/* 0 if an array may be saved to path (kjit_array_save_check: the rules of
 * kjit_array_save_npy); otherwise prints why and returns 1. */
int kjit_cli_out_check(kjit_context *ctx, const char *path);
/* 0 if text may be written to path (absent, or a regular file, through
 * symlinks, or the null device, which is written in place); otherwise
 * prints why ("it is a character device") and returns 1. */
int kjit_cli_text_check(const char *path);
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
/* SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1/2, SIGALRM, SIGPIPE, SIGVTALRM,
 * SIGPROF: remove the temporary files (the library's too), then die of the
 * signal as before (an ignored signal stays ignored).  SIGXFSZ is ignored,
 * so a write past `ulimit -f` fails and is reported like a full disk. */
void kjit_cli_signals_install(void);
/* Writes arrays[i] to paths[i] for every i, or none of them
 * (kjit_array_save_npy_all); before_commit, if not NULL, is called first:
 * the --timeout watchdog stops there, so a timeout never leaves some
 * renamed and others not.
 * 0 or 1 (the message printed). */
int kjit_cli_save_arrays(kjit_context *ctx, kjit_array *const *arrays, const char *const *paths, int n,
                         void (*before_commit)(void));

/* --timeout (tools/kjit_watchdog.c). */
int kjit_cli_watchdog_start(double seconds, const char *what, const char *target);
/* Names what runs once it is known (the kernel's kind, the target). */
void kjit_cli_watchdog_describe(const char *what, const char *target);
/* From here on the time is the kernel's (compile and launch): the message
 * names that phase and hints at a loop, not at the inputs. */
void kjit_cli_watchdog_launching(void);
void kjit_cli_watchdog_stop(void);

#endif
