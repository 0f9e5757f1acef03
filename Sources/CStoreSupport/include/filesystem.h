#ifndef CLOSET_FILESYSTEM_H
#define CLOSET_FILESYSTEM_H

#include <stddef.h>

/// syncfs(2): commits every cached write of the file system holding `fd` (Linux; glibc
/// declares it only under _GNU_SOURCE, which Swift's Glibc module does not set). Returns 0,
/// or -1 with errno set (ENOSYS where there is no such call).
int closet_syncfs(int fd);

/// mallopt(M_MMAP_THRESHOLD, bytes) where the C library is glibc: blocks smaller than `bytes`
/// come from the heap rather than each from a mapping of its own (the Glibc module does not
/// declare mallopt either). Returns 1 when set, 0 otherwise.
int closet_heap_for_blocks_below(size_t bytes);

/// malloc_trim(0) where the C library is glibc: the free pages of every arena go back to the
/// system (another thread's arena keeps what it freed resident otherwise). Returns 1 when
/// memory was released, 0 otherwise.
int closet_release_free_memory(void);

/// A new file with no name in the folder `directory`, open for reading and writing, and gone
/// once closed: O_TMPFILE where the file system has it, else a name made with mkstemp and
/// removed at once. Returns the descriptor, or -1 with errno set.
int closet_open_unnamed(const char *directory);

/// Writes `count` bytes of `fd` from `offset` to the disk and waits for them (sync_file_range on
/// Linux; nothing elsewhere), without the file's metadata: a big file written in the background
/// goes out a megabyte at a time, so another file's fsync never waits behind all of it (ext4's
/// ordered mode ties the two). Returns 0, or -1 with errno set.
int closet_write_behind(int fd, long long offset, long long count);

#endif
