#define _GNU_SOURCE
#include <errno.h>
#include <unistd.h>

#include "filesystem.h"

int closet_syncfs(int fd) {
#if defined(__linux__)
    return syncfs(fd);
#else
    (void)fd;
    errno = ENOSYS;
    return -1;
#endif
}
