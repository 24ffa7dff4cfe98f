/* fuzz_npy_write.c - libFuzzer target: the .npy writer's file rules
 * (common/file_out.c through rt_npy_write_all) on arbitrary destinations.
 *
 * The input picks, per output (up to 3), what is at its path in a scratch
 * folder (nothing, a regular file of some mode, a link to one, a dangling
 * link, a FIFO, a folder, a link to a FIFO, a link to a second output's
 * path) and a small array (dtype, shape, strides).  Checked: a FIFO or
 * folder is never replaced, a link is never replaced by a file, a refused
 * write leaves every destination as it was, and no temporary stays. */
#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "data/npy.h"

static char dir[64];

static void clean(void) {
  DIR *d = opendir(dir);
  for (struct dirent *de; d && (de = readdir(d));) {
    if (de->d_name[0] == '.' && (!de->d_name[1] || de->d_name[1] == '.'))
      continue;
    char p[512];
    snprintf(p, sizeof p, "%s/%s", dir, de->d_name);
    if (unlink(p) != 0)
      rmdir(p);
  }
  if (d)
    closedir(d);
}

static int temporaries(void) {
  int n = 0;
  DIR *d = opendir(dir);
  for (struct dirent *de; d && (de = readdir(d));)
    n += strstr(de->d_name, ".kjit-tmp-") != NULL;
  if (d)
    closedir(d);
  return n;
}

/* Makes what kind says at path (nothing when the name is taken). */
static void plant(const char *path, const char *other, uint8_t kind) {
  char target[256];
  snprintf(target, sizeof target, "%s.target", path);
  switch (kind % 8) {
  case 1: {
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NONBLOCK, 0600);
    if (fd >= 0)
      close(fd);
    chmod(path, 0400 | (kind & 0x77));
    return;
  }
  case 2:
    close(open(target, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NONBLOCK, 0644));
    symlink(target, path);
    return;
  case 3:
    symlink("missing/nothing", path);
    return;
  case 4:
    mkfifo(path, 0600);
    return;
  case 5:
    mkdir(path, 0700);
    return;
  case 6:
    mkfifo(target, 0600);
    symlink(target, path);
    return;
  case 7:
    symlink(other, path);
    return;
  default:
    return;
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!dir[0]) {
    snprintf(dir, sizeof dir, "/tmp/kjit-fuzz-npyw-%d", (int)getpid());
    mkdir(dir, 0700);
  }
  if (size < 4)
    return 0;
  int n = 1 + data[0] % 3;
  char names[3][128];
  const char *paths[3];
  mode_t kinds[3];
  for (int i = 0; i < n; i++) {
    snprintf(names[i], sizeof names[i], "%s/o%d.npy", dir, data[1 + i] >> 6);
    paths[i] = names[i];
  }
  for (int i = 0; i < n; i++)
    plant(paths[i], paths[(i + 1) % n], data[1 + i]);
  for (int i = 0; i < n; i++) { /* what is there (two outputs may share a name) */
    struct stat st;
    kinds[i] = lstat(paths[i], &st) == 0 ? (st.st_mode & S_IFMT) : 0;
  }
  float vals[64];
  for (int i = 0; i < 64; i++)
    vals[i] = (float)(i < (int)size ? data[i] : i);
  RtArray a[3];
  const RtArray *as[3];
  for (int i = 0; i < n; i++) {
    memset(&a[i], 0, sizeof a[i]);
    a[i].dtype = RT_F32;
    a[i].ndim = 1 + data[3] % 2;
    a[i].shape[0] = 1 + data[3] % 4;
    a[i].shape[1] = a[i].ndim > 1 ? 1 + (data[3] >> 4) % 4 : 1;
    rt_array_set_c_strides(&a[i]);
    a[i].data = vals;
    as[i] = &a[i];
  }
  char err[512] = "";
  int rc = rt_npy_write_all(paths, as, n, err, sizeof err);
  if (rc != RT_NPY_OK && !err[0])
    abort(); /* every refusal says why */
  for (int i = 0; i < n; i++) {
    struct stat st;
    if (lstat(paths[i], &st) != 0)
      continue;
    if ((kinds[i] == S_IFIFO && !S_ISFIFO(st.st_mode)) || (kinds[i] == S_IFDIR && !S_ISDIR(st.st_mode)) ||
        (kinds[i] == S_IFLNK && !S_ISLNK(st.st_mode)))
      abort(); /* a special file or a link replaced */
  }
  if (temporaries())
    abort(); /* a temporary left behind */
  clean();
  return 0;
}
