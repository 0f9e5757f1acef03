#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

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

int closet_heap_for_blocks_below(size_t bytes) {
#if defined(__GLIBC__)
    return mallopt(M_MMAP_THRESHOLD, (int)bytes);
#else
    (void)bytes;
    return 0;
#endif
}

int closet_release_free_memory(void) {
#if defined(__GLIBC__)
    return malloc_trim(0);
#else
    return 0;
#endif
}

int closet_open_unnamed(const char *directory) {
#if defined(O_TMPFILE)
    int fd = open(directory, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    if (fd >= 0) return fd;
    // EISDIR/EOPNOTSUPP: the kernel or file system has no unnamed files; any other error
    // (no such folder, no permission) is the answer.
    if (errno != EISDIR && errno != EOPNOTSUPP && errno != EINVAL) return -1;
#endif
    const char *suffix = "/.scratch-XXXXXX";
    size_t length = strlen(directory);
    char *path = malloc(length + strlen(suffix) + 1);
    if (path == NULL) return -1;
    memcpy(path, directory, length);
    strcpy(path + length, suffix);
    int made = mkstemp(path);
    if (made >= 0) {
        unlink(path);
        fcntl(made, F_SETFD, FD_CLOEXEC);
    }
    free(path);
    return made;
}

int closet_write_behind(int fd, long long offset, long long count) {
#if defined(__linux__)
    return sync_file_range(fd, (off_t)offset, (off_t)count,
                           SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE | SYNC_FILE_RANGE_WAIT_AFTER);
#else
    (void)fd;
    (void)offset;
    (void)count;
    return 0;
#endif
}
