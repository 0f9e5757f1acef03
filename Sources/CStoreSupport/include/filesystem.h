#ifndef CLOSET_FILESYSTEM_H
#define CLOSET_FILESYSTEM_H

/// syncfs(2): commits every cached write of the file system holding `fd` (Linux; glibc
/// declares it only under _GNU_SOURCE, which Swift's Glibc module does not set). Returns 0,
/// or -1 with errno set (ENOSYS where there is no such call).
int closet_syncfs(int fd);

#endif
