/* file.h - the one way kjit opens a file it reads (sources, modules, .npy
 * inputs, cache entries, libdevice, NVRTC, link= files).
 *
 * Every open is non-blocking (a FIFO with no writer would otherwise hang in
 * open(2) before anything could refuse it), then fstat decides: only a
 * regular file is handed back, in blocking mode.  RT_OPEN_NOFOLLOW refuses
 * a symbolic link at the last component (the cache opens every path so,
 * relative to a folder descriptor).  Nothing here allocates but rt_read_fd. */
#ifndef KJIT_COMMON_FILE_H
#define KJIT_COMMON_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

enum {
  RT_OPEN_NOFOLLOW = 1, /* a link at the last component is refused */
  RT_OPEN_RDWR = 2,     /* read and write (else read only) */
};

/* Opens path (relative to dirfd; AT_FDCWD for none) if it is a regular
 * file; -1 otherwise, with *why naming what it is ("a FIFO", "a directory",
 * "a symbolic link") or NULL when open failed (errno set).  st (may be
 * NULL) receives the file's status. */
int rt_open_regular_at(int dirfd, const char *path, int how, struct stat *st, const char **why);
/* The same, relative to the working folder, read only, links followed. */
int rt_open_regular(const char *path, const char **why);
/* What a file of this mode is, for messages ("a FIFO"). */
const char *rt_file_kind(mode_t mode);
/* Reads all of fd (a regular file of at most max bytes) into a malloc'd,
 * NUL-terminated buffer; false (errno set, EFBIG when over max) on error. */
bool rt_read_fd(int fd, size_t max, char **buf, size_t *len);
/* Opens and reads a regular file (rt_open_regular, rt_read_fd); false with
 * *why set as rt_open_regular sets it, or errno. */
bool rt_read_regular(const char *path, size_t max, char **buf, size_t *len, const char **why);

/* ---- writing: the rules of every file kjit writes (.npy outputs) ----
 * As shell redirection and np.save behave: a link to a regular file is
 * written through (the file it leads to is replaced, the link kept); the
 * null device is written in place; a FIFO, a device, a folder or a
 * dangling link is refused; a file the user cannot write is refused unless
 * running as root; a replaced file keeps its owner, group and mode; a new
 * one gets 0666 & ~umask.  Bytes go to a temporary beside the target,
 * "<target>.kjit-tmp-<pid>-XXXXXX", renamed over it at commit. */
typedef struct RtOutFile {
  char *target;          /* where the bytes end up (malloc'd) */
  char *tmp;             /* the temporary (malloc'd); NULL: written in place */
  int fd;                /* open for writing; -1 after commit/abort */
  bool existed;          /* target existed: owner and mode kept */
  struct stat old;       /* its status then */
} RtOutFile;

/* Checks path as a destination; 0, or -1 with "PATH: why" in err.
 * *target (may be NULL) receives the resolved destination (malloc'd). */
int rt_out_check(const char *path, char **target, char *err, size_t errlen);
/* Checks, removes this target's stale temporaries (their pid dead, owned by
 * the user), creates the temporary.  0, or -1 with err. */
int rt_out_begin(const char *path, RtOutFile *o, char *err, size_t errlen);
/* Re-checks the target, gives the temporary the target's owner and mode,
 * renames it into place.  0, or -1 with err (the temporary removed). */
int rt_out_commit(RtOutFile *o, const char *path, char *err, size_t errlen);
/* Removes the temporary and frees o. */
void rt_out_abort(RtOutFile *o);
/* Async-signal-safe: unlinks every temporary of this process's writes in
 * progress (for a signal handler, before the process ends). */
void rt_out_cleanup(void);

#endif
