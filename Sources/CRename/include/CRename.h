// renameat2(2) with RENAME_EXCHANGE, which Swift's Glibc module does not declare.
#ifndef ROOST_RENAME_H
#define ROOST_RENAME_H

/// Atomically exchanges `old_path` (relative to `old_dir`) and `new_path` (relative to
/// `new_dir`): both must exist. 0, or -1 with errno set (EINVAL or ENOSYS where the file
/// system or the system cannot).
int roost_rename_exchange(int old_dir, const char *old_path, int new_dir, const char *new_path);

#endif
