/* kjit_output.c - the files the CLI writes (`run -o`, `ptx -o`): only
 * regular files, all or nothing, and no temporary file left behind.
 * Arrays (`run -o`, `ufunc -o`) are saved by the library
 * (kjit_array_save_npy_all), the one implementation of the rules it shares
 * with kjit_array_save_npy; text (`ptx -o`) is written here.
 *
 * A destination must be a regular file or not exist: a device node, a FIFO,
 * a directory (or a symlink to one) is refused before anything runs, since
 * renaming over it would replace it.  Every output is first written to a
 * temporary file beside its destination; only when all are complete are
 * they renamed into place.  The temporary names are kept in a table that a
 * signal handler (SIGINT, SIGTERM, SIGHUP) and the --timeout watchdog empty
 * with unlink, which is async-signal-safe, before the process ends.  Uses
 * only libc and the public header, like the rest of the CLI. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "cli_output.h"

enum { MAX_TMP = 256 };

static char *volatile tmp_paths[MAX_TMP];  /* NULL: a free slot */

static const char *kind_of(mode_t m) {
  return S_ISDIR(m) ? "a directory" : S_ISFIFO(m) ? "a FIFO" : S_ISCHR(m) ? "a character device"
       : S_ISBLK(m) ? "a block device" : S_ISSOCK(m) ? "a socket" : "not a regular file";
}

/* The null device (char 1,3 on Linux): writing into it loses nothing, and
 * `-o /dev/null` is how output is thrown away, so it is written in place. */
static int is_null_device(const struct stat *st) {
  return S_ISCHR(st->st_mode) && major(st->st_rdev) == 1 && minor(st->st_rdev) == 3;
}

static int null_target(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && is_null_device(&st);
}

int kjit_cli_text_check(const char *path) {
  struct stat st;
  if (stat(path, &st) != 0 || S_ISREG(st.st_mode) || is_null_device(&st))
    return 0;                  /* new (or a dangling link, replaced), or regular */
  fprintf(stderr, "kjit: error: cannot write '%s': it is %s\n"
                  "  hint: -o writes regular files only (a new file, or one it replaces)\n",
          path, kind_of(st.st_mode));
  return 1;
}

int kjit_cli_out_check(kjit_context *ctx, const char *path) {
  if (kjit_array_save_check(ctx, path) == KJIT_OK)
    return 0;
  fputs(kjit_last_error(ctx), stderr);
  return 1;
}

void kjit_cli_out_cleanup(void) {
  kjit_remove_temporaries();   /* the library's -o temporaries */
  for (int i = 0; i < MAX_TMP; i++) {
    char *p = tmp_paths[i];
    if (p)
      unlink(p);
  }
}

static void on_signal(int sig) {
  kjit_cli_out_cleanup();
  signal(sig, SIG_DFL);
  raise(sig);                  /* the default action: the status says which */
}

void kjit_cli_signals_install(void) {
  static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGPIPE,
                             SIGVTALRM, SIGPROF};
  signal(SIGXFSZ, SIG_IGN);    /* a file size limit: the write fails (EFBIG), reported */
  for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++) {
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
      continue;                /* nohup: stay ignored */
    sigaction(sigs[i], &sa, NULL);
  }
}

static void forget(const char *tmp) {
  for (int i = 0; i < MAX_TMP; i++)
    if (tmp_paths[i] == tmp) {
      tmp_paths[i] = NULL;
      return;
    }
}

int kjit_cli_out_begin(const char *path, char **tmp) {
  *tmp = NULL;
  if (null_target(path)) {
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0)
      fprintf(stderr, "kjit: error: cannot open '%s': %s\n", path, strerror(errno));
    return fd;
  }
  size_t n = strlen(path) + 24;
  char *t = malloc(n);
  int slot = 0;
  while (slot < MAX_TMP && tmp_paths[slot])
    slot++;
  if (!t || slot == MAX_TMP) {
    free(t);
    fprintf(stderr, "kjit: error: cannot write '%s': too many outputs\n", path);
    return -1;
  }
  snprintf(t, n, "%s.kjit-tmp.XXXXXX", path);
  sigset_t all, old;
  sigfillset(&all);
  sigprocmask(SIG_BLOCK, &all, &old);  /* created and registered at once */
  int fd = mkstemp(t);
  int err = errno;
  if (fd >= 0)
    tmp_paths[slot] = t;
  sigprocmask(SIG_SETMASK, &old, NULL);
  if (fd < 0) {
    fprintf(stderr, "kjit: error: cannot create a temporary file beside '%s': %s\n", path,
            strerror(err));
    free(t);
    return -1;
  }
  mode_t mask = umask(0);
  umask(mask);
  fchmod(fd, 0666 & ~mask);
  *tmp = t;
  return fd;
}

void kjit_cli_out_abort(char *tmp) {
  if (!tmp)
    return;
  unlink(tmp);
  forget(tmp);
  free(tmp);
}

int kjit_cli_out_commit(char *tmp, const char *path) {
  if (!tmp)
    return 0;                  /* the null device, written in place */
  int rc = kjit_cli_text_check(path);   /* it may have changed during the run */
  if (rc == 0 && rename(tmp, path) != 0) {
    fprintf(stderr, "kjit: error: cannot write '%s': %s\n", path, strerror(errno));
    rc = 1;
  }
  if (rc)
    unlink(tmp);
  forget(tmp);
  free(tmp);
  return rc;
}

int kjit_cli_save_arrays(kjit_context *ctx, kjit_array *const *arrays, const char *const *paths, int n,
                         void (*before_commit)(void)) {
  if (before_commit)
    before_commit();
  if (kjit_array_save_npy_all(ctx, arrays, paths, n) == KJIT_OK)
    return 0;
  fputs(kjit_last_error(ctx), stderr);
  return 1;
}
