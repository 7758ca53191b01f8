#define _GNU_SOURCE
#include "CRename.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>

#if defined(__linux__) && defined(RENAME_EXCHANGE)
int roost_rename_exchange(int old_dir, const char *old_path, int new_dir, const char *new_path) {
  return renameat2(old_dir, old_path, new_dir, new_path, RENAME_EXCHANGE);
}
#else
int roost_rename_exchange(int old_dir, const char *old_path, int new_dir, const char *new_path) {
  (void)old_dir;
  (void)old_path;
  (void)new_dir;
  (void)new_path;
  errno = ENOSYS;
  return -1;
}
#endif
