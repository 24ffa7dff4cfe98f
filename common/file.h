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

#endif
