#ifndef CLOSET_CSERVERSUPPORT_H
#define CLOSET_CSERVERSUPPORT_H

#include <stdint.h>

/// Linux's epoll, which Swift's Glibc module leaves out, in plain functions: a connection is
/// named by a 64-bit tag. On other systems every call fails (returns -1), and the server polls.
int closet_epoll_create(void);
/// `op`: 1 add, 2 change, 3 remove; `readable`/`writable`: what to wait for.
int closet_epoll_control(int poller, int op, int fd, int readable, int writable, uint64_t tag);
/// Up to `capacity` ready descriptors' tags and what each is ready for (bit 0 readable, bit 1
/// writable, bit 2 hung up or failed); the count, 0 on time-out, -1 on error.
int closet_epoll_wait(int poller, uint64_t *tags, uint32_t *ready, int capacity, int milliseconds);

/// Lowers the calling thread's scheduling priority by `niceness` (Linux threads each have
/// their own); 0 on success. Elsewhere it does nothing and returns -1.
int closet_lower_thread_priority(int niceness);

#endif
