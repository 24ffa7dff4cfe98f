/* file_out.c - the rules of every file kjit writes (file.h, "writing").
 *
 * One implementation for kjit_array_save_npy and `kjit run -o`: check the
 * destination, write a temporary beside it, give the temporary the old
 * file's owner and mode, rename it over.  The temporaries of writes in
 * progress are kept in a process-wide table (the one piece of global state
 * here: a signal handler has nothing else to reach them by), emptied with
 * unlink by rt_out_cleanup.  A temporary whose writer was killed (SIGKILL
 * cannot be caught) carries its pid in its name and is removed by a later
 * write to the same target once that pid is gone. */
#include "common/file.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

enum { MAX_LIVE = 256 };
static char *volatile live[MAX_LIVE]; /* temporaries being written; NULL: free */

static int fail(char *err, size_t n, const char *path, const char *fmt, const char *a) {
  char what[300];
  snprintf(what, sizeof what, fmt, a);
  snprintf(err, n, "%s: %s", path, what);
  return -1;
}

static bool is_null_device(const struct stat *st) {
  return S_ISCHR(st->st_mode) && major(st->st_rdev) == 1 && minor(st->st_rdev) == 3;
}

int rt_out_check(const char *path, char **target, char *err, size_t n) {
  struct stat st;
  char *t = NULL;
  if (target)
    *target = NULL;
  if (lstat(path, &st) != 0) {
    if (errno != ENOENT)
      return fail(err, n, path, "cannot write: %s", strerror(errno));
    t = strdup(path); /* a new file */
  } else if (S_ISLNK(st.st_mode)) {
    char buf[PATH_MAX];
    if (!realpath(path, buf))
      return fail(err, n, path, "cannot write: it is a symbolic link to a missing file (%s)", strerror(errno));
    t = strdup(buf);
    if (t && stat(t, &st) != 0) {
      free(t);
      return fail(err, n, path, "cannot write: %s", strerror(errno));
    }
  } else {
    t = strdup(path);
  }
  if (!t)
    return fail(err, n, path, "%s", "out of memory");
  bool exists = access(t, F_OK) == 0;
  if (exists && !S_ISREG(st.st_mode) && !is_null_device(&st)) {
    free(t);
    return fail(err, n, path, "cannot write: it is %s", rt_file_kind(st.st_mode));
  }
  if (exists && S_ISREG(st.st_mode) && geteuid() != 0 && access(t, W_OK) != 0) {
    free(t);
    return fail(err, n, path, "cannot write: it is read-only (%s); kjit does not replace a file you cannot write",
                strerror(errno));
  }
  if (target)
    *target = t;
  else
    free(t);
  return 0;
}

/* Temporaries "<base>.kjit-tmp-<pid>-*" beside target whose pid is gone,
 * owned by this user: left by a writer that was killed. */
static void remove_stale(const char *target) {
  const char *slash = strrchr(target, '/');
  char dir[PATH_MAX], prefix[NAME_MAX + 16];
  snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - target) + (slash == target) : 1, slash ? target : ".");
  int pl = snprintf(prefix, sizeof prefix, "%s.kjit-tmp-", slash ? slash + 1 : target);
  DIR *d = pl > 0 && (size_t)pl < sizeof prefix ? opendir(dir) : NULL;
  if (!d)
    return;
  int dfd = dirfd(d);
  for (struct dirent *de; (de = readdir(d));) {
    if (strncmp(de->d_name, prefix, (size_t)pl) != 0)
      continue;
    char *end;
    long pid = strtol(de->d_name + pl, &end, 10);
    struct stat st;
    if (end == de->d_name + pl || *end != '-' || pid <= 0 || pid == getpid() ||
        !(kill((pid_t)pid, 0) != 0 && errno == ESRCH))
      continue;
    if (fstatat(dfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid())
      unlinkat(dfd, de->d_name, 0);
  }
  closedir(d);
}

int rt_out_begin(const char *path, RtOutFile *o, char *err, size_t n) {
  memset(o, 0, sizeof *o);
  o->fd = -1;
  if (rt_out_check(path, &o->target, err, n) != 0)
    return -1;
  if (stat(o->target, &o->old) == 0) {
    o->existed = true;
    if (is_null_device(&o->old)) { /* thrown away: written in place */
      o->fd = open(o->target, O_WRONLY | O_CLOEXEC);
      if (o->fd < 0)
        return fail(err, n, path, "cannot open: %s", strerror(errno)), rt_out_abort(o), -1;
      return 0;
    }
  }
  remove_stale(o->target);
  size_t len = strlen(o->target) + 48;
  char *t = malloc(len);
  int slot = 0;
  while (slot < MAX_LIVE && live[slot])
    slot++;
  if (!t || slot == MAX_LIVE) {
    free(t);
    rt_out_abort(o);
    return fail(err, n, path, "%s", "cannot write: too many outputs at once");
  }
  snprintf(t, len, "%s.kjit-tmp-%ld-XXXXXX", o->target, (long)getpid());
  sigset_t all, old;
  sigfillset(&all);
  sigprocmask(SIG_BLOCK, &all, &old); /* created and registered at once */
  o->fd = mkstemp(t);
  int e = errno;
  if (o->fd >= 0)
    live[slot] = t;
  sigprocmask(SIG_SETMASK, &old, NULL);
  if (o->fd < 0) {
    free(t);
    rt_out_abort(o);
    return fail(err, n, path, "cannot create: %s", strerror(e));
  }
  o->tmp = t;
  return 0;
}

static void forget(const char *t) {
  for (int i = 0; i < MAX_LIVE; i++)
    if (live[i] == t)
      live[i] = NULL;
}

void rt_out_abort(RtOutFile *o) {
  if (o->fd >= 0)
    close(o->fd);
  if (o->tmp) {
    unlink(o->tmp);
    forget(o->tmp);
  }
  free(o->tmp);
  free(o->target);
  memset(o, 0, sizeof *o);
  o->fd = -1;
}

/* The replaced file's owner, group and mode; a new file's 0666 & ~umask. */
static int set_owner_mode(RtOutFile *o) {
  if (!o->existed) {
    mode_t mask = umask(0);
    umask(mask);
    return fchmod(o->fd, 0666 & ~mask);
  }
  if ((o->old.st_uid != geteuid() || o->old.st_gid != getegid()) &&
      fchown(o->fd, o->old.st_uid, o->old.st_gid) != 0 && geteuid() == 0)
    return -1; /* root must keep another user's file theirs */
  return fchmod(o->fd, o->old.st_mode & 07777);
}

int rt_out_commit(RtOutFile *o, const char *path, char *err, size_t n) {
  int rc = 0;
  char *again = NULL;
  if (!o->tmp) { /* written in place */
    if (o->fd >= 0 && close(o->fd) != 0)
      rc = fail(err, n, path, "cannot write: %s", strerror(errno));
    o->fd = -1;
    rt_out_abort(o);
    return rc;
  }
  if (rt_out_check(path, &again, err, n) != 0) /* it may have changed meanwhile */
    rc = -1;
  else if (strcmp(again, o->target) != 0)
    rc = fail(err, n, path, "%s", "cannot write: it was replaced while kjit wrote it");
  else if (set_owner_mode(o) != 0)
    rc = fail(err, n, path, "cannot keep the file's owner and mode: %s", strerror(errno));
  if (rc == 0) {
    int c = close(o->fd);
    o->fd = -1;
    if (c != 0 || rename(o->tmp, o->target) != 0)
      rc = fail(err, n, path, "cannot write: %s", strerror(errno));
  }
  free(again);
  if (rc == 0) {
    forget(o->tmp);
    free(o->tmp);
    o->tmp = NULL;
  }
  rt_out_abort(o);
  return rc;
}

void rt_out_cleanup(void) {
  for (int i = 0; i < MAX_LIVE; i++) {
    char *p = live[i];
    if (p)
      unlink(p);
  }
}
