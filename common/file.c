/* file.c - opening a file to read without ever blocking on it (file.h).
 *
 * O_NONBLOCK matters only for the open itself: a FIFO, a tty or a device
 * node is refused by fstat before any read, and a regular file is switched
 * back to blocking mode (reads of regular files never block anyway). */
#include "common/file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

const char *rt_file_kind(mode_t m) {
  return S_ISDIR(m) ? "a directory" : S_ISFIFO(m) ? "a FIFO" : S_ISCHR(m) ? "a character device"
       : S_ISBLK(m) ? "a block device" : S_ISSOCK(m) ? "a socket" : S_ISLNK(m) ? "a symbolic link"
       : S_ISREG(m) ? "a regular file" : "not a regular file";
}

int rt_open_regular_at(int dirfd, const char *path, int how, struct stat *st, const char **why) {
  int flags = O_NONBLOCK | O_CLOEXEC | O_NOCTTY | (how & RT_OPEN_RDWR ? O_RDWR : O_RDONLY);
  if (how & RT_OPEN_NOFOLLOW)
    flags |= O_NOFOLLOW;
  struct stat own;
  st = st ? st : &own;
  *why = NULL;
  int fd = openat(dirfd, path, flags);
  if (fd < 0) {
    int e = errno;
    struct stat l;
    /* ELOOP from O_NOFOLLOW: say it is a link, not "too many levels" */
    if (e == ELOOP && (how & RT_OPEN_NOFOLLOW) && fstatat(dirfd, path, &l, AT_SYMLINK_NOFOLLOW) == 0 &&
        S_ISLNK(l.st_mode))
      *why = "a symbolic link";
    errno = *why ? EINVAL : e;
    return -1;
  }
  if (fstat(fd, st) != 0 || !S_ISREG(st->st_mode)) {
    int e = errno;
    *why = fstat(fd, st) == 0 ? rt_file_kind(st->st_mode) : NULL;
    close(fd);
    errno = *why ? EINVAL : e;
    return -1;
  }
  fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  return fd;
}

int rt_open_regular(const char *path, const char **why) {
  return rt_open_regular_at(AT_FDCWD, path, 0, NULL, why);
}

bool rt_read_fd(int fd, size_t max, char **buf, size_t *len) {
  struct stat st;
  if (fstat(fd, &st) != 0)
    return false;
  if (st.st_size < 0 || (uint64_t)st.st_size > max)
    return errno = EFBIG, false;
  size_t n = (size_t)st.st_size, got = 0;
  char *b = malloc(n + 1);
  if (!b)
    return errno = ENOMEM, false;
  while (got < n) {
    ssize_t r = read(fd, b + got, n - got);
    if (r < 0 && errno == EINTR)
      continue;
    if (r <= 0) {
      int e = r < 0 ? errno : EIO; /* shrank while read: torn */
      free(b);
      return errno = e, false;
    }
    got += (size_t)r;
  }
  b[n] = '\0';
  *buf = b;
  *len = n;
  return true;
}

bool rt_read_regular(const char *path, size_t max, char **buf, size_t *len, const char **why) {
  int fd = rt_open_regular(path, why);
  if (fd < 0)
    return false;
  bool ok = rt_read_fd(fd, max, buf, len);
  int e = errno;
  close(fd);
  errno = e;
  return ok;
}
